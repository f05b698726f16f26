// ext_mpi_driver: the collectives of a library that provides MPI-4's
// persistent collectives (MPI_<Coll>_init) on top of MPI (written for
// eth-cscs/ext_mpi_collectives, linked in by scripts/peers/ext_mpi.sh;
// nothing of that library is in this file), timed as OSU's osu_<coll> times
// MPI_<Coll> and as mcb's harness times its plans: float elements (MPI_SUM for
// the reductions), page-aligned buffers, a barrier before the loop, warm-up
// then timed iterations each followed by a barrier, and OSU's
// "Avg Latency(us)": each rank's mean over the timed iterations, then the mean
// over ranks (also the min and max over ranks).
//
// Collectives (-c, comma-separated, default allreduce), sizes (-m) as mcb's
// -m: allreduce and reduce_scatter_block the whole vector (reduce_scatter_block:
// each rank's part 1/P of it, rounded down, as OSU's; a size that leaves no
// element per rank is skipped with a '#' line), allgather, allgatherv, gatherv
// and scatterv a rank's block. The v-forms take equal counts and displacements
// i * count (OSU's); gatherv and scatterv have root 0.
//
// Interfaces: persistent (default): MPI_<Coll>_init once per size, then
// MPI_Start + MPI_Wait per iteration; blocking (-b): MPI_<Coll> per
// iteration (the library's own only where it intercepts MPI_<Coll>, e.g.
// ext_mpi's allreduce with EXT_MPI_BLOCKING and its parameter file; else the
// MPI's).
// -a ALGO (repeatable): allreduce runs each size once per ALGO, handed to
// MPI_Allreduce_init as the MPI_Info key "ext_mpi_copyin" (ext_mpi's
// algorithm and factors, e.g. "9;1 -2 2"; the environment's EXT_MPI_COPYIN,
// if set, overrides it); without -a, MPI_INFO_NULL. -r ALGO (repeatable): the
// same for MPI_Reduce_scatter_block_init (default: the -a list). The other
// collectives take no such key (ext_mpi has no copy-in method for them):
// MPI_INFO_NULL, algorithm "default".
//
// If MCB_PEER_PID_DIR is set, each rank first (before MPI_Init) creates an
// empty file named after its process id there, so that the calling script
// can find the System V segments its ranks created (ipcs -m -p: cpid) and
// remove them even after a crash or a kill.
//
// Validation, after the timed loop, of every collective and size: two more
// calls (ext_mpi alternates between two plans and segments from call to call,
// so both are checked), each on fresh inputs: element i of rank r's
// contribution is a hash of (call, r, i) in 1..4096 (scatterv: root's block
// for rank r), so a missing, doubled, misplaced or stale contribution changes
// the result; sums stay exact in float up to 4096 ranks. The receive buffer is
// poisoned (-1) before each call and compared element by element with the
// result computed locally (gatherv: on the root, the only rank whose receive
// buffer is significant); every rank's send buffer is checked unmodified.
//
// Output: one line per collective, algorithm and size on rank 0,
// whitespace-separated, after '#' headers:
//   collective interface algorithm bytes avg_us min_us max_us iterations warmup validation
// (algorithm: the -a/-r string with '_' for spaces, or "default").
// Exit status: 0 all passed, 1 a validation or a set-up failed, 2 bad usage.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if MPI_VERSION < 4
// MPI-4's persistent collectives (the standard's prototypes); an MPI-3
// library's mpi.h lacks them, and the library under test provides them.
int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request);
int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request);
int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request);
int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request);
#endif

#define MAX_SIZES 64
#define MAX_ALGOS 16
#define ROOT 0

enum coll { ALLREDUCE, REDUCE_SCATTER_BLOCK, ALLGATHER, ALLGATHERV, GATHERV, SCATTERV, NCOLLS };
static const char *const coll_names[NCOLLS] = {
    "allreduce", "reduce_scatter_block", "allgather", "allgatherv", "gatherv", "scatterv"};

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [-c COLL[,COLL...]] [-m BYTES[,BYTES...]] [-i ITERATIONS] [-x WARMUP] [-b] [-a ALGO]... "
          "[-r ALGO]...\n"
          "  -c  collectives: allreduce (default), reduce_scatter_block, allgather, allgatherv, gatherv, scatterv\n"
          "  -m  sizes in bytes, multiples of 4 (default 1024,4096,16384,65536): the vector for allreduce and\n"
          "      reduce_scatter_block, a rank's block for the others\n"
          "  -i  timed iterations (default OSU's: 1000, 100 above 8 KiB)\n"
          "  -x  warm-up iterations (default OSU's: 100, 10 above 8 KiB)\n"
          "  -b  blocking MPI_<Coll> instead of MPI_<Coll>_init + MPI_Start/MPI_Wait\n"
          "  -a  MPI_Info \"ext_mpi_copyin\" for MPI_Allreduce_init, e.g. '9;1 -2 2' (repeatable)\n"
          "  -r  the same for MPI_Reduce_scatter_block_init (repeatable; default: the -a list)\n",
          argv0);
}

// Element i of rank r's contribution to call `call`: 1..4096, exact in float sums.
static float input_value(uint32_t call, uint32_t rank, uint32_t i) {
  uint32_t h = i * 2654435761u ^ (rank + 1u) * 2246822519u ^ (call + 1u) * 3266489917u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (float)((h >> 20) + 1u);
}

// One collective at one size on this rank: counts in elements, the buffers
// and, for the v-forms, equal counts and displacements.
struct op {
  enum coll coll;
  int rank, size, blocking;
  int count;            // allreduce: the vector; reduce_scatter_block: a rank's part; else a rank's block
  size_t nsend, nrecv;  // elements of the send and receive buffers
  float *send, *recv;
  int *counts, *displs;
  MPI_Request req;
};

// The value send[i] must hold in call `call`.
static float send_value(const struct op *o, uint32_t call, size_t i) {
  if (o->coll == SCATTERV) {  // the block for rank i / count (every rank fills it; only the root's is read)
    return input_value(call, (uint32_t)(i / (size_t)o->count), (uint32_t)(i % (size_t)o->count));
  }
  return input_value(call, (uint32_t)o->rank, (uint32_t)i);
}

// The value recv[i] must hold after call `call`.
static float expected_value(const struct op *o, uint32_t call, size_t i) {
  float sum = 0.0f;
  switch (o->coll) {
    case ALLREDUCE:
      for (int r = 0; r < o->size; r++) sum += input_value(call, (uint32_t)r, (uint32_t)i);
      return sum;
    case REDUCE_SCATTER_BLOCK:
      for (int r = 0; r < o->size; r++)
        sum += input_value(call, (uint32_t)r, (uint32_t)((size_t)o->rank * (size_t)o->count + i));
      return sum;
    case ALLGATHER:
    case ALLGATHERV:
    case GATHERV:
      return input_value(call, (uint32_t)(i / (size_t)o->count), (uint32_t)(i % (size_t)o->count));
    case SCATTERV:
    default:
      return input_value(call, (uint32_t)o->rank, (uint32_t)i);
  }
}

static void fill_send(struct op *o, uint32_t call) {
  for (size_t i = 0; i < o->nsend; i++) o->send[i] = send_value(o, call, i);
}

// Checks one call's result and that the send buffer is intact; returns the
// number of wrong elements and reports the first of each kind.
static long check_call(const struct op *o, uint32_t call, long bytes) {
  long bad = 0, changed = 0;
  const char *name = coll_names[o->coll];
  if (o->coll != GATHERV || o->rank == ROOT) {
    for (size_t i = 0; i < o->nrecv; i++) {
      float expected = expected_value(o, call, i);
      if (o->recv[i] != expected) {
        if (bad == 0)
          fprintf(stderr, "rank %d: %s %ld B, call %u: element %zu is %.1f, expected %.1f\n", o->rank, name, bytes,
                  call, i, (double)o->recv[i], (double)expected);
        bad++;
      }
    }
  }
  for (size_t i = 0; i < o->nsend; i++) {
    if (o->send[i] != send_value(o, call, i)) {
      if (changed == 0)
        fprintf(stderr, "rank %d: %s %ld B, call %u: send buffer element %zu was modified\n", o->rank, name, bytes,
                call, i);
      changed++;
    }
  }
  return bad + changed;
}

static int parse_sizes(char *arg, long *sizes) {
  int n = 0;
  for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
    char *end = NULL;
    long v = strtol(tok, &end, 10);
    if (!end || *end || v <= 0 || v % 4 || v / 4 > 0x7fffffffL || n == MAX_SIZES) return -1;
    sizes[n++] = v;
  }
  return n;
}

// Sets the bit of each named collective in *mask; -1 on an unknown name.
static int parse_colls(char *arg, unsigned *mask) {
  *mask = 0;
  for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
    int c = 0;
    while (c < NCOLLS && strcmp(tok, coll_names[c])) c++;
    if (c == NCOLLS) {
      fprintf(stderr, "unknown collective '%s'\n", tok);
      return -1;
    }
    *mask |= 1u << c;
  }
  return *mask ? 0 : -1;
}

// MPI_<Coll>_init for the persistent interface; returns its error code.
static int init_op(struct op *o, MPI_Info info) {
  MPI_Comm w = MPI_COMM_WORLD;
  switch (o->coll) {
    case ALLREDUCE:
      return MPI_Allreduce_init(o->send, o->recv, o->count, MPI_FLOAT, MPI_SUM, w, info, &o->req);
    case REDUCE_SCATTER_BLOCK:
      return MPI_Reduce_scatter_block_init(o->send, o->recv, o->count, MPI_FLOAT, MPI_SUM, w, info, &o->req);
    case ALLGATHER:
      return MPI_Allgather_init(o->send, o->count, MPI_FLOAT, o->recv, o->count, MPI_FLOAT, w, info, &o->req);
    case ALLGATHERV:
      return MPI_Allgatherv_init(o->send, o->count, MPI_FLOAT, o->recv, o->counts, o->displs, MPI_FLOAT, w, info,
                                 &o->req);
    case GATHERV:
      return MPI_Gatherv_init(o->send, o->count, MPI_FLOAT, o->recv, o->counts, o->displs, MPI_FLOAT, ROOT, w, info,
                              &o->req);
    case SCATTERV:
    default:
      return MPI_Scatterv_init(o->send, o->counts, o->displs, MPI_FLOAT, o->recv, o->count, MPI_FLOAT, ROOT, w, info,
                               &o->req);
  }
}

// One call of the operation under test.
static void run_once(struct op *o) {
  MPI_Comm w = MPI_COMM_WORLD;
  if (!o->blocking) {
    MPI_Start(&o->req);
    MPI_Wait(&o->req, MPI_STATUS_IGNORE);
    return;
  }
  switch (o->coll) {
    case ALLREDUCE:
      MPI_Allreduce(o->send, o->recv, o->count, MPI_FLOAT, MPI_SUM, w);
      break;
    case REDUCE_SCATTER_BLOCK:
      MPI_Reduce_scatter_block(o->send, o->recv, o->count, MPI_FLOAT, MPI_SUM, w);
      break;
    case ALLGATHER:
      MPI_Allgather(o->send, o->count, MPI_FLOAT, o->recv, o->count, MPI_FLOAT, w);
      break;
    case ALLGATHERV:
      MPI_Allgatherv(o->send, o->count, MPI_FLOAT, o->recv, o->counts, o->displs, MPI_FLOAT, w);
      break;
    case GATHERV:
      MPI_Gatherv(o->send, o->count, MPI_FLOAT, o->recv, o->counts, o->displs, MPI_FLOAT, ROOT, w);
      break;
    case SCATTERV:
    default:
      MPI_Scatterv(o->send, o->counts, o->displs, MPI_FLOAT, o->recv, o->count, MPI_FLOAT, ROOT, w);
      break;
  }
}

static void *alloc_or_abort(size_t bytes, int rank) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, bytes ? bytes : 4)) {
    fprintf(stderr, "rank %d: cannot allocate %zu B\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

// Times and validates one collective at one size; returns 0 on pass (or a
// skipped size), 1 on a failure anywhere.
static int run_size(enum coll coll, long bytes, int iterations, int warmup, int blocking, const char *algo, int rank,
                    int size) {
  struct op o;
  memset(&o, 0, sizeof o);
  o.coll = coll;
  o.rank = rank;
  o.size = size;
  o.blocking = blocking;
  o.req = MPI_REQUEST_NULL;
  const size_t n = (size_t)bytes / sizeof(float), p = (size_t)size;
  switch (coll) {
    case ALLREDUCE:
      o.count = (int)n;
      o.nsend = o.nrecv = n;
      break;
    case REDUCE_SCATTER_BLOCK:
      if (n / p == 0 || n / p > 0x7fffffffu) {
        if (rank == 0)
          printf("# %s %ld B: %zu element(s) per rank at %d ranks, skipped\n", coll_names[coll], bytes, n / p, size);
        fflush(stdout);
        return 0;
      }
      o.count = (int)(n / p);
      o.nsend = (size_t)o.count * p;
      o.nrecv = (size_t)o.count;
      break;
    case SCATTERV:
      o.count = (int)n;
      o.nsend = n * p;
      o.nrecv = n;
      break;
    default:  // allgather, allgatherv, gatherv
      o.count = (int)n;
      o.nsend = n;
      o.nrecv = n * p;
      break;
  }
  if ((size_t)o.count * p > 0x7fffffffu && coll != ALLREDUCE) {
    if (rank == 0)
      printf("# %s %ld B: over INT_MAX elements in all at %d ranks, skipped\n", coll_names[coll], bytes, size);
    fflush(stdout);
    return 0;
  }
  o.send = (float *)alloc_or_abort(o.nsend * sizeof(float), rank);
  o.recv = (float *)alloc_or_abort(o.nrecv * sizeof(float), rank);
  o.counts = (int *)alloc_or_abort(p * sizeof(int), rank);
  o.displs = (int *)alloc_or_abort(p * sizeof(int), rank);
  for (int r = 0; r < size; r++) {
    o.counts[r] = o.count;
    o.displs[r] = r * o.count;
  }
  fill_send(&o, 0);
  memset(o.recv, 0, o.nrecv * sizeof(float));
  if (!blocking) {
    MPI_Info info = MPI_INFO_NULL;
    if (algo) {
      MPI_Info_create(&info);
      MPI_Info_set(info, "ext_mpi_copyin", algo);
    }
    int rc = init_op(&o, info);
    if (algo) MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
      fprintf(stderr, "rank %d: MPI_%s_init failed (%d) at %ld B\n", rank, coll_names[coll], rc, bytes);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }

  double total = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = -warmup; it < iterations; it++) {
    double t0 = MPI_Wtime();
    run_once(&o);
    double dt = MPI_Wtime() - t0;
    if (it >= 0) total += dt;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double mine = total * 1e6 / iterations, sum = 0.0, lo = 0.0, hi = 0.0;
  MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  long bad = 0;
  for (uint32_t call = 1; call <= 2; call++) {
    fill_send(&o, call);
    for (size_t i = 0; i < o.nrecv; i++) o.recv[i] = -1.0f;
    MPI_Barrier(MPI_COMM_WORLD);
    run_once(&o);
    bad += check_call(&o, call, bytes);
  }
  // MPI_Reduce, not MPI_Allreduce: a library may intercept the latter.
  long bad_all = 0;
  MPI_Reduce(&bad, &bad_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int failed = bad_all != 0;
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    char name[256] = "default";
    if (algo) {
      snprintf(name, sizeof name, "%s", algo);
      for (char *c = name; *c; c++)
        if (*c == ' ') *c = '_';
    }
    printf("%-20s %-10s %-16s %10ld %12.2f %12.2f %12.2f %10d %7d %s\n", coll_names[coll],
           blocking ? "blocking" : "persistent", name, bytes, sum / size, lo, hi, iterations, warmup,
           failed ? "FAIL" : "pass");
  }
  fflush(stdout);
  if (!blocking) MPI_Request_free(&o.req);
  free(o.send);
  free(o.recv);
  free(o.counts);
  free(o.displs);
  return failed;
}

int main(int argc, char **argv) {
  long sizes[MAX_SIZES] = {1024, 4096, 16384, 65536};
  const char *algos[MAX_ALGOS] = {NULL}, *rsb_algos[MAX_ALGOS] = {NULL};
  unsigned colls = 1u << ALLREDUCE;
  int nsizes = 4, nalgos = 0, nrsb = 0, iterations = -1, warmup = -1, blocking = 0, bad_usage = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "-m") && a + 1 < argc) {
      nsizes = parse_sizes(argv[++a], sizes);
      if (nsizes <= 0) bad_usage = 1;
    } else if (!strcmp(argv[a], "-c") && a + 1 < argc) {
      if (parse_colls(argv[++a], &colls)) bad_usage = 1;
    } else if (!strcmp(argv[a], "-i") && a + 1 < argc) {
      iterations = atoi(argv[++a]);
      if (iterations < 1) bad_usage = 1;
    } else if (!strcmp(argv[a], "-x") && a + 1 < argc) {
      warmup = atoi(argv[++a]);
      if (warmup < 0) bad_usage = 1;
    } else if (!strcmp(argv[a], "-b")) {
      blocking = 1;
    } else if (!strcmp(argv[a], "-a") && a + 1 < argc && nalgos < MAX_ALGOS) {
      algos[nalgos++] = argv[++a];
    } else if (!strcmp(argv[a], "-r") && a + 1 < argc && nrsb < MAX_ALGOS) {
      rsb_algos[nrsb++] = argv[++a];
    } else {
      bad_usage = 1;
    }
  }
  const char *pid_dir = getenv("MCB_PEER_PID_DIR");
  if (pid_dir) {  // before MPI_Init: the library may create its segments there
    char path[4096];
    snprintf(path, sizeof path, "%s/%ld", pid_dir, (long)getpid());
    FILE *f = fopen(path, "w");
    if (f) fclose(f);
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (bad_usage) {
    if (rank == 0) usage(argv[0]);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) {
    printf(
        "# ext_mpi_driver: float elements (MPI_SUM for the reductions), %d ranks, %s; OSU's average (each rank's "
        "mean, mean over ranks)\n",
        size, blocking ? "MPI_<Coll>" : "MPI_<Coll>_init + MPI_Start/MPI_Wait");
    printf(
        "# collective         interface  algorithm             bytes       avg_us       min_us       max_us "
        "iterations  warmup validation\n");
    fflush(stdout);
  }
  if (nrsb == 0) {  // reduce_scatter_block takes the allreduce's list
    nrsb = nalgos;
    for (int g = 0; g < nalgos; g++) rsb_algos[g] = algos[g];
  }
  int failures = 0;
  for (int c = 0; c < NCOLLS; c++) {
    if (!(colls & (1u << c))) continue;
    const char **list = c == ALLREDUCE ? algos : rsb_algos;
    int nlist = c == ALLREDUCE ? nalgos : c == REDUCE_SCATTER_BLOCK ? nrsb : 0;
    if (nlist == 0 || blocking) nlist = 1;  // MPI_INFO_NULL (blocking calls take no info; nor do the gathers)
    for (int g = 0; g < nlist; g++) {
      const char *algo = (blocking || c > REDUCE_SCATTER_BLOCK) ? NULL : list[g];
      for (int s = 0; s < nsizes; s++) {
        int it = iterations > 0 ? iterations : (sizes[s] > 8192 ? 100 : 1000);
        int wu = warmup >= 0 ? warmup : (sizes[s] > 8192 ? 10 : 100);
        failures += run_size((enum coll)c, sizes[s], it, wu, blocking, algo, rank, size);
      }
    }
  }
  MPI_Finalize();
  return failures ? 1 : 0;
}
