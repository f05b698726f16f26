// ext_mpi_driver: the allreduce of a library that provides MPI_Allreduce_init
// on top of MPI (written for eth-cscs/ext_mpi_collectives, linked in by
// scripts/peers/ext_mpi.sh; nothing of that library is in this file), timed
// as OSU's osu_allreduce times MPI_Allreduce and as mcb's harness times its
// plans: float MPI_SUM, page-aligned buffers, a barrier before the loop,
// warm-up then timed iterations each followed by a barrier, and OSU's
// "Avg Latency(us)": each rank's mean over the timed iterations, then the mean
// over ranks (also the min and max over ranks).
//
// Interfaces: persistent (default): MPI_Allreduce_init once per size, then
// MPI_Start + MPI_Wait per iteration; blocking (-b): MPI_Allreduce per
// iteration (the library's own only where it intercepts MPI_Allreduce, e.g.
// ext_mpi with EXT_MPI_BLOCKING and its parameter file; else the MPI's).
// -a ALGO (repeatable): each size runs once per ALGO, handed to
// MPI_Allreduce_init as the MPI_Info key "ext_mpi_copyin" (ext_mpi's
// algorithm and factors, e.g. "9;1 -2 2"; the environment's EXT_MPI_COPYIN,
// if set, overrides it); without -a, MPI_INFO_NULL.
//
// If MCB_PEER_PID_DIR is set, each rank first (before MPI_Init) creates an
// empty file named after its process id there, so that the calling script
// can find the System V segments its ranks created (ipcs -m -p: cpid) and
// remove them even after a crash or a kill.
//
// Validation, after the timed loop, of every size: two more calls (ext_mpi
// alternates between two plans and segments from call to call, so both are
// checked), each on fresh inputs: rank r's element i is a hash of (call, r, i)
// in 1..4096, so a missing, doubled, misplaced or stale contribution changes
// the sum; sums stay exact in float up to 4096 ranks. The receive buffer is
// poisoned before each call and compared element by element with the sum
// computed locally; the send buffer is checked unmodified.
//
// Output: one line per algorithm and size on rank 0, whitespace-separated,
// after '#' headers:
//   interface algorithm bytes avg_us min_us max_us iterations warmup validation
// (algorithm: the -a string with '_' for spaces, or "default").
// Exit status: 0 all passed, 1 a validation failed, 2 bad usage.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if MPI_VERSION < 4
// MPI-4's persistent collective; an MPI-3 library's mpi.h lacks it, and the
// library under test provides it.
int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request);
#endif

#define MAX_SIZES 64
#define MAX_ALGOS 16

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [-m BYTES[,BYTES...]] [-i ITERATIONS] [-x WARMUP] [-b] [-a ALGO]...\n"
          "  -m  vector sizes in bytes, multiples of 4 (default 1024,4096,16384,65536)\n"
          "  -i  timed iterations (default OSU's: 1000, 100 above 8 KiB)\n"
          "  -x  warm-up iterations (default OSU's: 100, 10 above 8 KiB)\n"
          "  -b  blocking MPI_Allreduce instead of MPI_Allreduce_init + MPI_Start/MPI_Wait\n"
          "  -a  MPI_Info \"ext_mpi_copyin\" for MPI_Allreduce_init, e.g. '9;1 -2 2' (repeatable)\n",
          argv0);
}

// Rank r's input element i of call `call`: 1..4096, exact in float sums.
static float input_value(uint32_t call, uint32_t rank, uint32_t i) {
  uint32_t h = i * 2654435761u ^ (rank + 1u) * 2246822519u ^ (call + 1u) * 3266489917u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (float)((h >> 20) + 1u);
}

static void fill_input(float *buf, size_t n, uint32_t call, uint32_t rank) {
  for (size_t i = 0; i < n; i++) buf[i] = input_value(call, rank, (uint32_t)i);
}

// Checks one call's result and that the send buffer is intact; returns the
// number of wrong elements and reports the first of each kind.
static long check_call(const float *send, const float *recv, size_t n, uint32_t call, int rank, int size,
                       size_t bytes) {
  long bad = 0;
  for (size_t i = 0; i < n; i++) {
    float expected = 0.0f;
    for (int r = 0; r < size; r++) expected += input_value(call, (uint32_t)r, (uint32_t)i);
    if (recv[i] != expected) {
      if (bad == 0)
        fprintf(stderr, "rank %d: %zu B, call %u: element %zu is %.1f, expected %.1f\n", rank, bytes, call, i,
                (double)recv[i], (double)expected);
      bad++;
    }
  }
  long changed = 0;
  for (size_t i = 0; i < n; i++) {
    if (send[i] != input_value(call, (uint32_t)rank, (uint32_t)i)) {
      if (changed == 0)
        fprintf(stderr, "rank %d: %zu B, call %u: send buffer element %zu was modified\n", rank, bytes, call, i);
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

// One call of the operation under test.
static void run_once(int blocking, MPI_Request *req, const float *send, float *recv, int count) {
  if (blocking) {
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Start(req);
    MPI_Wait(req, MPI_STATUS_IGNORE);
  }
}

// Times and validates one size; returns 0 on pass, 1 on a failure anywhere.
static int run_size(long bytes, int iterations, int warmup, int blocking, const char *algo, int rank, int size) {
  const size_t n = (size_t)bytes / sizeof(float);
  float *send = NULL, *recv = NULL;
  if (posix_memalign((void **)&send, 4096, (size_t)bytes) || posix_memalign((void **)&recv, 4096, (size_t)bytes)) {
    fprintf(stderr, "rank %d: cannot allocate 2 x %ld B\n", rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  fill_input(send, n, 0, (uint32_t)rank);
  memset(recv, 0, (size_t)bytes);
  MPI_Request req = MPI_REQUEST_NULL;
  if (!blocking) {
    MPI_Info info = MPI_INFO_NULL;
    if (algo) {
      MPI_Info_create(&info);
      MPI_Info_set(info, "ext_mpi_copyin", algo);
    }
    MPI_Allreduce_init(send, recv, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, info, &req);
    if (algo) MPI_Info_free(&info);
  }

  double total = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = -warmup; it < iterations; it++) {
    double t0 = MPI_Wtime();
    run_once(blocking, &req, send, recv, (int)n);
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
    fill_input(send, n, call, (uint32_t)rank);
    for (size_t i = 0; i < n; i++) recv[i] = -1.0f;
    MPI_Barrier(MPI_COMM_WORLD);
    run_once(blocking, &req, send, recv, (int)n);
    bad += check_call(send, recv, n, call, rank, size, (size_t)bytes);
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
    printf("%-10s %-16s %10ld %12.2f %12.2f %12.2f %10d %7d %s\n", blocking ? "blocking" : "persistent", name, bytes,
           sum / size, lo, hi, iterations, warmup, failed ? "FAIL" : "pass");
  }
  fflush(stdout);
  if (!blocking) MPI_Request_free(&req);
  free(send);
  free(recv);
  return failed;
}

int main(int argc, char **argv) {
  long sizes[MAX_SIZES] = {1024, 4096, 16384, 65536};
  const char *algos[MAX_ALGOS] = {NULL};
  int nsizes = 4, nalgos = 0, iterations = -1, warmup = -1, blocking = 0, bad_usage = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "-m") && a + 1 < argc) {
      nsizes = parse_sizes(argv[++a], sizes);
      if (nsizes <= 0) bad_usage = 1;
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
        "# ext_mpi_driver: float MPI_SUM allreduce, %d ranks, %s; OSU's average (each rank's mean, mean over ranks)\n",
        size, blocking ? "MPI_Allreduce" : "MPI_Allreduce_init + MPI_Start/MPI_Wait");
    printf(
        "# interface algorithm             bytes       avg_us       min_us       max_us iterations  warmup "
        "validation\n");
    fflush(stdout);
  }
  if (nalgos == 0 || blocking) nalgos = 1;  // MPI_INFO_NULL (blocking calls take no info)
  int failures = 0;
  for (int g = 0; g < nalgos; g++) {
    for (int s = 0; s < nsizes; s++) {
      int it = iterations > 0 ? iterations : (sizes[s] > 8192 ? 100 : 1000);
      int wu = warmup >= 0 ? warmup : (sizes[s] > 8192 ? 10 : 100);
      failures += run_size(sizes[s], it, wu, blocking, blocking ? NULL : algos[g], rank, size);
    }
  }
  MPI_Finalize();
  return failures ? 1 : 0;
}
