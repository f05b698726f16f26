/* peer_bench.h: what the SimGrid peer drivers of scripts/peers/ share (the
 * drivers are built by locality_aware.sh and rbruck.sh against a checkout of
 * the reference, never by mcb's build).
 *
 * - the sizes, iterations and warm-up from the command line;
 * - mcb's timing loop (src/harness/measure.cpp): a barrier, then per
 *   iteration only the operation timed, then an untimed barrier; OSU's
 *   average (each rank's mean over the iterations, then the mean over the
 *   ranks: mcb's "Avg Latency", CSV osu_avg_us) and the slowest rank's
 *   (per iteration the maximum over the ranks, then the mean: CSV avg_us);
 * - element-by-element validation: byte k of the block from rank i to rank j
 *   is a hash of (i, j, k); after the timed loop the receive buffer is
 *   poisoned (twice, with two values) and the operation runs once more.
 *
 * Header-only C, for C and C++ drivers. */
#ifndef MCB_PEER_BENCH_H
#define MCB_PEER_BENCH_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PEER_MAX_SIZES 64

typedef struct {
  int iterations, warmup;
  long sizes[PEER_MAX_SIZES];
  int nsizes;
  const char* csv;
  const char* only;   /* comma-separated names to run, or NULL for all */
  const char* commit; /* the reference's commit, as the script found it */
  int rank, ranks, nodes, ppn;
  FILE* out; /* rank 0's CSV, else NULL */
} peer_run;

/* One alltoall of s bytes per block on the context's buffers. */
typedef void (*peer_op)(void* ctx, long s);
/* Before each run: the send buffer refilled where the reference overwrites
 * it, the receive buffer set to `poison`. */
typedef void (*peer_prep)(void* ctx, long s, unsigned char poison);

static unsigned char peer_byte(int from, int to, long k) {
  uint64_t x = (uint64_t)from * 0x9E3779B97F4A7C15ull ^ (uint64_t)to * 0xC2B2AE3D27D4EB4Full ^ (uint64_t)k;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return (unsigned char)(x & 0xff);
}

static void peer_fill(unsigned char* send, int rank, int ranks, long s) {
  for (int j = 0; j < ranks; ++j)
    for (long k = 0; k < s; ++k) send[(long)j * s + k] = peer_byte(rank, j, k);
}

/* Block j of my receive buffer must be block `rank` of rank j's send buffer. */
static long peer_errors(const unsigned char* recv, int rank, int ranks, long s) {
  long bad = 0;
  for (int j = 0; j < ranks; ++j)
    for (long k = 0; k < s; ++k) bad += recv[(long)j * s + k] != peer_byte(j, rank, k);
  return bad;
}

static void* peer_alloc(size_t bytes) {
  void* p = NULL;
  if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
    fprintf(stderr, "peer driver: out of memory (%zu bytes)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

static void peer_usage(const char* prog, const char* extra) {
  fprintf(stderr,
          "usage: %s -m SIZE,... [-i ITERATIONS] [-x WARMUP] [--csv FILE] [--only NAME,...] [--commit C]%s\n"
          "  sizes in bytes per block; rank 0 writes one CSV row per algorithm and size\n",
          prog, extra ? extra : "");
}

/* Parses the options the drivers share; returns the index of the first one
 * it does not know (the driver's own), or -1 on an error. */
static int peer_parse(peer_run* r, int argc, char** argv, int* unknown, int max_unknown) {
  int n = 0;
  r->iterations = 2;
  r->warmup = 1;
  r->nsizes = 0;
  r->csv = NULL;
  r->only = NULL;
  r->commit = "unknown";
  for (int a = 1; a < argc; ++a) {
    const char* o = argv[a];
    if ((!strcmp(o, "-m") || !strcmp(o, "-i") || !strcmp(o, "-x") || !strcmp(o, "--csv") || !strcmp(o, "--only") ||
         !strcmp(o, "--commit")) &&
        a + 1 < argc) {
      const char* v = argv[++a];
      if (!strcmp(o, "-m")) {
        char* copy = strdup(v);
        for (char* t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
          long s = strtol(t, NULL, 10);
          if (s < 1 || r->nsizes == PEER_MAX_SIZES) {
            free(copy);
            return -1;
          }
          r->sizes[r->nsizes++] = s;
        }
        free(copy);
      } else if (!strcmp(o, "-i")) {
        r->iterations = atoi(v);
      } else if (!strcmp(o, "-x")) {
        r->warmup = atoi(v);
      } else if (!strcmp(o, "--csv")) {
        r->csv = v;
      } else if (!strcmp(o, "--only")) {
        r->only = v;
      } else {
        r->commit = v;
      }
    } else if (n < max_unknown) {
      unknown[n++] = a;
    } else {
      return -1;
    }
  }
  if (r->nsizes == 0 || r->iterations < 1 || r->warmup < 0) return -1;
  return n;
}

/* Whether `name` is selected by --only (a comma-separated list). */
static int peer_selected(const peer_run* r, const char* name) {
  if (!r->only) return 1;
  size_t len = strlen(name);
  for (const char* p = r->only; p && *p;) {
    const char* end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && !strncmp(p, name, n)) return 1;
    p = end ? end + 1 : NULL;
  }
  return 0;
}

/* Ranks, nodes (MPI_COMM_TYPE_SHARED: SMPI groups the ranks of a host) and
 * the CSV; 0 on success. */
static int peer_start(peer_run* r, const char* reference) {
  MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r->ranks);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r->rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &r->ppn);
  int lo = r->ppn, hi = r->ppn, leader = 0, me = 0;
  MPI_Comm_rank(node, &me);
  leader = me == 0;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  r->nodes = leader;
  if (lo != hi) {
    if (r->rank == 0)
      fprintf(stderr, "peer driver: nodes of %d to %d ranks; the references need equal nodes\n", lo, hi);
    return 1;
  }
  r->out = NULL;
  if (r->rank == 0) {
    r->out = r->csv ? fopen(r->csv, "w") : stdout;
    if (!r->out) {
      fprintf(stderr, "peer driver: cannot write %s\n", r->csv);
      return 1;
    }
    fprintf(r->out,
            "reference,commit,algorithm,mcb_algorithm,params,ranks,nodes,ranks_per_node,size_bytes,iterations,warmup,"
            "osu_avg_us,avg_us,validation\n");
    fflush(r->out);
    printf("# %s (commit %s) through mcb's peer driver: %d ranks, %d nodes x %d\n", reference, r->commit, r->ranks,
           r->nodes, r->ppn);
  }
  return 0;
}

/* Times `op` on size s (mcb's loop) and validates it; rank 0 writes the row. */
static void peer_measure(peer_run* r, const char* reference, const char* name, const char* mcb, const char* params,
                         peer_op op, peer_prep prep, void* ctx, const unsigned char* recv, long s) {
  double* t = (double*)malloc(sizeof(double) * (size_t)r->iterations);
  prep(ctx, s, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = -r->warmup; it < r->iterations; ++it) {
    const double t0 = MPI_Wtime();
    op(ctx, s);
    const double dt = MPI_Wtime() - t0;
    if (it >= 0) t[it] = dt;
    prep(ctx, s, 0); /* outside the timed region, as mcb's untimed barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double mine = 0;
  for (int it = 0; it < r->iterations; ++it) mine += t[it];
  mine /= r->iterations;
  double sum = 0;
  MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double* slowest = (double*)malloc(sizeof(double) * (size_t)r->iterations);
  MPI_Reduce(t, slowest, r->iterations, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  long bad = 0;
  const unsigned char poisons[2] = {0x00, 0xa5};
  for (int p = 0; p < 2; ++p) {
    prep(ctx, s, poisons[p]);
    MPI_Barrier(MPI_COMM_WORLD);
    op(ctx, s);
    bad += peer_errors(recv, r->rank, r->ranks, s);
  }
  long total_bad = 0;
  MPI_Reduce(&bad, &total_bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (r->rank == 0) {
    double slow = 0;
    for (int it = 0; it < r->iterations; ++it) slow += slowest[it];
    slow /= r->iterations;
    const double osu = sum / r->ranks;
    char valid[32];
    if (total_bad)
      snprintf(valid, sizeof valid, "fail(%ld)", total_bad);
    else
      snprintf(valid, sizeof valid, "pass");
    fprintf(r->out, "%s,%s,%s,%s,%s,%d,%d,%d,%ld,%d,%d,%.3f,%.3f,%s\n", reference, r->commit, name, mcb, params,
            r->ranks, r->nodes, r->ppn, s, r->iterations, r->warmup, osu * 1e6, slow * 1e6, valid);
    fflush(r->out);
    printf("%-34s %-40s %6ld B %12.3f us  %s\n", name, params, s, osu * 1e6, valid);
    fflush(stdout);
  }
  free(t);
  free(slowest);
}

#endif
