/* locality_aware_driver.c: times mpi-advance's locality_aware alltoalls the
 * way mcb times its own (peer_bench.h), for scripts/peers/locality_aware.sh,
 * which builds it with smpicc against the user's checkout and runs it under
 * SimGrid (scripts/sim/simulate.py --launch). No code of the reference is
 * here: it calls the library's public MPIL_Alltoall with each algorithm of
 * its AlltoallMethod, and reads the sizes of the communicators the library
 * built (its MPIL_Comm struct) to name the leaders and groups it used.
 *
 *   driver -m 4,64 -i 2 -x 1 --csv out.csv [--only NAME,...] [--commit C]
 *
 * Every row's params are mcb's spelling of the reference's choice (mcb's
 * --inner, --leaders-per-node, --groups-per-node), so that the table can
 * pair it with mcb's row. */
#include <locality_aware.h>

#include "communicator/MPIL_Comm.h"
#include "peer_bench.h"

typedef struct {
  MPIL_Comm* comm;
  unsigned char *send, *recv;
  int rank, ranks;
} la_ctx;

static void la_op(void* c, long s) {
  la_ctx* x = (la_ctx*)c;
  MPIL_Alltoall(x->send, (int)s, MPI_CHAR, x->recv, (int)s, MPI_CHAR, x->comm);
}

static void la_prep(void* c, long s, unsigned char poison) {
  la_ctx* x = (la_ctx*)c;
  memset(x->recv, poison, (size_t)(s * x->ranks));
}

/* The reference's algorithms and the mcb algorithm each one is. `split`:
 * 'L' reads leaders per node from the leader communicator, 'G' groups per
 * node, 0 neither. */
typedef struct {
  const char* name;
  enum AlltoallMethod method;
  const char* mcb;
  const char* inner;
  char split;
} la_algorithm;

static const la_algorithm algorithms[] = {
    {"pairwise", ALLTOALL_PAIRWISE, "pairwise", NULL, 0},
    {"nonblocking", ALLTOALL_NONBLOCKING, "nonblocking", NULL, 0},
    {"hierarchical_pairwise", ALLTOALL_HIERARCHICAL_PAIRWISE, "hierarchical", "pairwise", 0},
    {"hierarchical_nonblocking", ALLTOALL_HIERARCHICAL_NONBLOCKING, "hierarchical", "nonblocking", 0},
    {"multileader_pairwise", ALLTOALL_MULTILEADER_PAIRWISE, "multileader", "pairwise", 'L'},
    {"multileader_nonblocking", ALLTOALL_MULTILEADER_NONBLOCKING, "multileader", "nonblocking", 'L'},
    {"node_aware_pairwise", ALLTOALL_NODE_AWARE_PAIRWISE, "node_aware", "pairwise", 0},
    {"node_aware_nonblocking", ALLTOALL_NODE_AWARE_NONBLOCKING, "node_aware", "nonblocking", 0},
    {"locality_aware_pairwise", ALLTOALL_LOCALITY_AWARE_PAIRWISE, "locality_aware", "pairwise", 'G'},
    {"locality_aware_nonblocking", ALLTOALL_LOCALITY_AWARE_NONBLOCKING, "locality_aware", "nonblocking", 'G'},
    {"multileader_locality_pairwise", ALLTOALL_MULTILEADER_LOCALITY_PAIRWISE, "multileader_node_aware", "pairwise",
     'L'},
    {"multileader_locality_nonblocking", ALLTOALL_MULTILEADER_LOCALITY_NONBLOCKING, "multileader_node_aware",
     "nonblocking", 'L'},
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  peer_run run;
  int unknown[4];
  if (peer_parse(&run, argc, argv, unknown, 4) != 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) peer_usage(argv[0], NULL);
    MPI_Finalize();
    return 2;
  }
  if (peer_start(&run, "locality_aware") != 0) {
    MPI_Finalize();
    return 1;
  }
  long largest = 0;
  for (int i = 0; i < run.nsizes; ++i)
    if (run.sizes[i] > largest) largest = run.sizes[i];
  la_ctx ctx;
  ctx.rank = run.rank;
  ctx.ranks = run.ranks;
  ctx.send = (unsigned char*)peer_alloc((size_t)(largest * run.ranks));
  ctx.recv = (unsigned char*)peer_alloc((size_t)(largest * run.ranks));
  for (size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; ++a) {
    const la_algorithm* alg = &algorithms[a];
    if (!peer_selected(&run, alg->name)) continue;
    /* The selection is a global of the library: every rank has finished
     * the algorithm before (the barrier) when one sets the next. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPIL_Set_alltoall_algorithm(alg->method);
    MPIL_Comm_init(&ctx.comm, MPI_COMM_WORLD);
    /* One untimed call builds the library's communicators (it builds them
     * on first use), so that their sizes name the split it used. */
    peer_fill(ctx.send, run.rank, run.ranks, run.sizes[0]);
    la_prep(&ctx, run.sizes[0], 0);
    la_op(&ctx, run.sizes[0]);
    char params[96];
    int n = 0;
    if (alg->inner) n = snprintf(params, sizeof params, "inner=%s", alg->inner);
    if (alg->split) {
      int per = 0;
      MPI_Comm_size(ctx.comm->leader_comm, &per);
      n += snprintf(params + n, sizeof params - (size_t)n, ";%s=%d",
                    alg->split == 'L' ? "leaders-per-node" : "groups-per-node", run.ppn / per);
    }
    if (n == 0) snprintf(params, sizeof params, "none");
    for (int i = 0; i < run.nsizes; ++i) {
      peer_fill(ctx.send, run.rank, run.ranks, run.sizes[i]);
      peer_measure(&run, "locality_aware", alg->name, alg->mcb, params, la_op, la_prep, &ctx, ctx.recv, run.sizes[i]);
    }
    MPIL_Comm_free(&ctx.comm);
  }
  free(ctx.send);
  free(ctx.recv);
  if (run.out && run.out != stdout) fclose(run.out);
  MPI_Finalize();
  return 0;
}
