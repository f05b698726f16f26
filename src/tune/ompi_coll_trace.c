/* libmcb_ompi_coll_trace.so: which of Open MPI's own collective algorithms
 * ran, observed rather than inferred (scripts/tuning/tune.py, docs/tune.md).
 *
 * Open MPI's coll/tuned component (mca_coll_tuned.so, a plugin) calls the
 * algorithms of coll/base (libmpi.so) through its PLT, whether it chose them
 * from its fixed decision table, a forced MCA value or a dynamic rules file.
 * Preloaded, this library interposes those functions for alltoall, allgather
 * and allreduce (and, for mpi_shm.py's forced peers of issue 71,
 * reduce_scatter_block, reduce_scatter and allgatherv, which tune.py tunes
 * too, as it does gather and scatter), counts the calls per (function, bytes) and forwards each to the
 * real one; bytes = count x the datatype's size (PMPI_Type_size), as mcb's -m
 * size: the block of alltoall, allgather and allgatherv (the send count:
 * mcb's --counts equal), of gather and scatter (one rank's block: the
 * counts significant at that rank, the receive side at gather's root and the
 * send side at scatter's), the vector of allreduce, reduce_scatter_block
 * (the part x the communicator's size) and reduce_scatter (the sum of the
 * parts). coll/tuned has no gatherv or scatterv (coll/basic runs them):
 * nothing of theirs is traced.
 * At exit every process appends one line per pair to the file named by
 * MCB_COLL_TRACE:
 *     rank=R function=ompi_coll_base_alltoall_intra_pairwise bytes=B calls=N
 * (R from OMPI_COMM_WORLD_RANK, else PMIX_RANK). coll/base's own fallbacks
 * (a ring that hands a vector shorter than P to recursive doubling) go
 * through libmpi's PLT too, so both functions appear with the same calls.
 *
 * Open MPI 5.0 builds coll/tuned into libmpi.so itself (no plugin), but the
 * coll/base functions keep default visibility there, so its calls to them
 * still go through libmpi's PLT and a preloaded definition wins (verified
 * with 5.0.7: docs/tune.md). 5.0 adds the Sparbit allgather
 * (coll_tuned_allgather_algorithm 7); a function the running Open MPI lacks
 * (Sparbit under 4.1) is never called, so it is never looked up.
 *
 * The peers of scripts/peers/mpi_shm.py too (issue 48): the entry points
 * of coll/sm's allreduce, reduce and bcast, HAN's own algorithms for them
 * and coll/tuned's decision functions (what runs when neither module takes
 * the call). Open MPI 5 builds those components into libmpi.so with default
 * visibility and a module stores their addresses through libmpi's GOT
 * (R_X86_64_GLOB_DAT), so the preloaded definitions are what a communicator
 * calls; under 4.1 (plugins) they are not interposed and never recorded.
 *
 * Signatures: coll_base_functions.h and coll.h of Open MPI 4.1 and 5.0, the
 * same (int counts; opaque pointers here). Not for a timed run's result:
 * every call pays a lookup in a small table. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kMaxEntries = 1024 };

struct entry {
  const char *function;
  long bytes;
  long calls;
};

static struct entry table[kMaxEntries];
static int used;
static long dropped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static long type_size(void *datatype) {
  typedef int (*fn)(void *, int *);
  static fn size_of;
  if (!size_of) size_of = (fn)dlsym(RTLD_DEFAULT, "PMPI_Type_size");
  int size = -1;
  if (!size_of || size_of(datatype, &size) != 0) return -1;
  return size;
}

static void record(const char *function, long count, void *datatype) {
  long size = type_size(datatype);
  long bytes = size < 0 ? -1 : count * size;
  pthread_mutex_lock(&lock);
  int i = 0;
  while (i < used && !(table[i].function == function && table[i].bytes == bytes)) ++i;
  if (i == used) {
    if (used == kMaxEntries) {
      ++dropped;
      pthread_mutex_unlock(&lock);
      return;
    }
    table[used++] = (struct entry){function, bytes, 0};
  }
  ++table[i].calls;
  pthread_mutex_unlock(&lock);
}

static void *next(const char *function) {
  void *f = dlsym(RTLD_NEXT, function);
  if (!f) {
    fprintf(stderr, "mcb_ompi_coll_trace: %s not found in Open MPI (not Open MPI 4.1 or 5.0?)\n", function);
    abort();
  }
  return f;
}

/* The whole table in one write(2) on an O_APPEND descriptor: the ranks of
 * a launch append to one file at exit, and stdio would split a table of
 * more than its buffer into several writes whose lines could interleave
 * with another rank's. */
__attribute__((destructor)) static void write_trace(void) {
  const char *path = getenv("MCB_COLL_TRACE");
  if (!path || !*path) return;
  const char *rank = getenv("OMPI_COMM_WORLD_RANK");
  if (!rank) rank = getenv("PMIX_RANK");
  if (!rank) rank = "?";
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  if (!out) return;
  for (int i = 0; i < used; ++i)
    fprintf(out, "rank=%s function=%s bytes=%ld calls=%ld\n", rank, table[i].function, table[i].bytes, table[i].calls);
  if (dropped) fprintf(out, "rank=%s function=(table-full) bytes=0 calls=%ld\n", rank, dropped);
  fclose(out);
  const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd >= 0) {
    for (size_t done = 0; done < length;) {
      const ssize_t n = write(fd, text + done, length - done);
      if (n <= 0) break;
      done += (size_t)n;
    }
    close(fd);
  }
  free(text);
}

/* alltoall and allgather: (sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module) */
#define TRACE_BLOCKS(name)                                                                               \
  int name(const void *sbuf, int scount, void *sdtype, void *rbuf, int rcount, void *rdtype, void *comm, \
           void *module) {                                                                               \
    typedef int (*fn)(const void *, int, void *, void *, int, void *, void *, void *);                   \
    static fn real;                                                                                      \
    if (!real) real = (fn)next(#name);                                                                   \
    record(#name, scount, sdtype);                                                                       \
    return real(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);                               \
  }

/* allreduce: (sbuf, rbuf, count, dtype, op, comm, module) */
#define TRACE_ALLREDUCE(name)                                                                          \
  int name(const void *sbuf, void *rbuf, int count, void *dtype, void *op, void *comm, void *module) { \
    typedef int (*fn)(const void *, void *, int, void *, void *, void *, void *);                      \
    static fn real;                                                                                    \
    if (!real) real = (fn)next(#name);                                                                 \
    record(#name, count, dtype);                                                                       \
    return real(sbuf, rbuf, count, dtype, op, comm, module);                                           \
  }

/* reduce: (sbuf, rbuf, count, dtype, op, root, comm, module) */
#define TRACE_REDUCE(name)                                                                                       \
  int name(const void *sbuf, void *rbuf, int count, void *dtype, void *op, int root, void *comm, void *module) { \
    typedef int (*fn)(const void *, void *, int, void *, void *, int, void *, void *);                           \
    static fn real;                                                                                              \
    if (!real) real = (fn)next(#name);                                                                           \
    record(#name, count, dtype);                                                                                 \
    return real(sbuf, rbuf, count, dtype, op, root, comm, module);                                               \
  }

/* bcast: (buf, count, dtype, root, comm, module) */
#define TRACE_BCAST(name)                                                           \
  int name(void *buf, int count, void *dtype, int root, void *comm, void *module) { \
    typedef int (*fn)(void *, int, void *, int, void *, void *);                    \
    static fn real;                                                                 \
    if (!real) real = (fn)next(#name);                                              \
    record(#name, count, dtype);                                                    \
    return real(buf, count, dtype, root, comm, module);                             \
  }

TRACE_BLOCKS(ompi_coll_base_alltoall_intra_basic_linear)
TRACE_BLOCKS(ompi_coll_base_alltoall_intra_pairwise)
TRACE_BLOCKS(ompi_coll_base_alltoall_intra_bruck)
TRACE_BLOCKS(ompi_coll_base_alltoall_intra_two_procs)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_basic_linear)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_bruck)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_recursivedoubling)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_ring)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_neighborexchange)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_two_procs)
TRACE_BLOCKS(ompi_coll_base_allgather_intra_sparbit) /* Open MPI 5.0 */
TRACE_ALLREDUCE(ompi_coll_base_allreduce_intra_basic_linear)
TRACE_ALLREDUCE(ompi_coll_base_allreduce_intra_nonoverlapping)
TRACE_ALLREDUCE(ompi_coll_base_allreduce_intra_recursivedoubling)
TRACE_ALLREDUCE(ompi_coll_base_allreduce_intra_ring)
TRACE_ALLREDUCE(ompi_coll_base_allreduce_intra_redscat_allgather)
/* mpi_shm.py's peers (Open MPI 5): coll/sm, HAN, coll/tuned's decisions. */
TRACE_ALLREDUCE(mca_coll_sm_allreduce_intra)
TRACE_REDUCE(mca_coll_sm_reduce_intra)
TRACE_BCAST(mca_coll_sm_bcast_intra)
TRACE_ALLREDUCE(mca_coll_han_allreduce_intra)
TRACE_ALLREDUCE(mca_coll_han_allreduce_intra_simple)
TRACE_ALLREDUCE(mca_coll_han_allreduce_reproducible)
TRACE_REDUCE(mca_coll_han_reduce_intra)
TRACE_REDUCE(mca_coll_han_reduce_intra_simple)
TRACE_REDUCE(mca_coll_han_reduce_reproducible)
TRACE_BCAST(mca_coll_han_bcast_intra)
TRACE_BCAST(mca_coll_han_bcast_intra_simple)
TRACE_ALLREDUCE(ompi_coll_tuned_allreduce_intra_dec_fixed)
TRACE_ALLREDUCE(ompi_coll_tuned_allreduce_intra_dec_dynamic)
TRACE_REDUCE(ompi_coll_tuned_reduce_intra_dec_fixed)
TRACE_REDUCE(ompi_coll_tuned_reduce_intra_dec_dynamic)
TRACE_BCAST(ompi_coll_tuned_bcast_intra_dec_fixed)
TRACE_BCAST(ompi_coll_tuned_bcast_intra_dec_dynamic)

/* reduce_scatter_block: (sbuf, rbuf, rcount, dtype, op, comm, module); the
 * vector is rcount x the communicator's size. */
static long comm_size(void *comm) {
  typedef int (*fn)(void *, int *);
  static fn size_of;
  if (!size_of) size_of = (fn)dlsym(RTLD_DEFAULT, "PMPI_Comm_size");
  int size = 0;
  return size_of && size_of(comm, &size) == 0 ? size : 0;
}
#define TRACE_RSB(name)                                                                                 \
  int name(const void *sbuf, void *rbuf, int rcount, void *dtype, void *op, void *comm, void *module) { \
    typedef int (*fn)(const void *, void *, int, void *, void *, void *, void *);                       \
    static fn real;                                                                                     \
    if (!real) real = (fn)next(#name);                                                                  \
    record(#name, (long)rcount *comm_size(comm), dtype);                                                \
    return real(sbuf, rbuf, rcount, dtype, op, comm, module);                                           \
  }

/* reduce_scatter: (sbuf, rbuf, rcounts, dtype, op, comm, module); the vector
 * is the sum of rcounts. */
#define TRACE_RS(name)                                                                                          \
  int name(const void *sbuf, void *rbuf, const int *rcounts, void *dtype, void *op, void *comm, void *module) { \
    typedef int (*fn)(const void *, void *, const int *, void *, void *, void *, void *);                       \
    static fn real;                                                                                             \
    if (!real) real = (fn)next(#name);                                                                          \
    long total = 0;                                                                                             \
    for (long i = 0, n = comm_size(comm); i < n; ++i) total += rcounts[i];                                      \
    record(#name, total, dtype);                                                                                \
    return real(sbuf, rbuf, rcounts, dtype, op, comm, module);                                                  \
  }

/* allgatherv: (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, comm, module) */
#define TRACE_ALLGATHERV(name)                                                                              \
  int name(const void *sbuf, int scount, void *sdtype, void *rbuf, const int *rcounts, const int *displs,   \
           void *rdtype, void *comm, void *module) {                                                        \
    typedef int (*fn)(const void *, int, void *, void *, const int *, const int *, void *, void *, void *); \
    static fn real;                                                                                         \
    if (!real) real = (fn)next(#name);                                                                      \
    record(#name, scount, sdtype);                                                                          \
    return real(sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, comm, module);                         \
  }

TRACE_RSB(ompi_coll_base_reduce_scatter_block_basic_linear)
TRACE_RSB(ompi_coll_base_reduce_scatter_block_intra_recursivedoubling)
TRACE_RSB(ompi_coll_base_reduce_scatter_block_intra_recursivehalving)
TRACE_RSB(ompi_coll_base_reduce_scatter_block_intra_butterfly)
TRACE_RS(ompi_coll_base_reduce_scatter_intra_nonoverlapping)
TRACE_RS(ompi_coll_base_reduce_scatter_intra_basic_recursivehalving)
TRACE_RS(ompi_coll_base_reduce_scatter_intra_ring)
TRACE_RS(ompi_coll_base_reduce_scatter_intra_butterfly)
TRACE_ALLGATHERV(ompi_coll_base_allgatherv_intra_basic_default)
TRACE_ALLGATHERV(ompi_coll_base_allgatherv_intra_bruck)
TRACE_ALLGATHERV(ompi_coll_base_allgatherv_intra_ring)
TRACE_ALLGATHERV(ompi_coll_base_allgatherv_intra_neighborexchange)
TRACE_ALLGATHERV(ompi_coll_base_allgatherv_intra_two_procs)
TRACE_ALLGATHERV(ompi_coll_base_allgatherv_intra_sparbit) /* Open MPI 5.0 */

/* gather and scatter: (sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm,
 * module[, one more int]); the block from the side significant at this rank:
 * the receive side at gather's root (its send side may be MPI_IN_PLACE) and
 * at scatter's non-roots, else the send side. RECV_AT_ROOT: 1 for gather, 0
 * for scatter. */
static int comm_rank(void *comm) {
  typedef int (*fn)(void *, int *);
  static fn rank_of;
  if (!rank_of) rank_of = (fn)dlsym(RTLD_DEFAULT, "PMPI_Comm_rank");
  int rank = -1;
  return rank_of && rank_of(comm, &rank) == 0 ? rank : -1;
}
#define ROOTED_RECORD(name, recv_at_root)          \
  if ((comm_rank(comm) == root) == (recv_at_root)) \
    record(#name, rcount, rdtype);                 \
  else                                             \
    record(#name, scount, sdtype)
#define TRACE_ROOTED(name, recv_at_root)                                                                           \
  int name(const void *sbuf, int scount, void *sdtype, void *rbuf, int rcount, void *rdtype, int root, void *comm, \
           void *module) {                                                                                         \
    typedef int (*fn)(const void *, int, void *, void *, int, void *, int, void *, void *);                        \
    static fn real;                                                                                                \
    if (!real) real = (fn)next(#name);                                                                             \
    ROOTED_RECORD(name, recv_at_root);                                                                             \
    return real(sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm, module);                                   \
  }
/* gather's linear_sync (first segment size) and scatter's linear_nb (max requests). */
#define TRACE_ROOTED_INT(name, recv_at_root)                                                                       \
  int name(const void *sbuf, int scount, void *sdtype, void *rbuf, int rcount, void *rdtype, int root, void *comm, \
           void *module, int extra) {                                                                              \
    typedef int (*fn)(const void *, int, void *, void *, int, void *, int, void *, void *, int);                   \
    static fn real;                                                                                                \
    if (!real) real = (fn)next(#name);                                                                             \
    ROOTED_RECORD(name, recv_at_root);                                                                             \
    return real(sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm, module, extra);                            \
  }

TRACE_ROOTED(ompi_coll_base_gather_intra_basic_linear, 1)
TRACE_ROOTED(ompi_coll_base_gather_intra_binomial, 1)
TRACE_ROOTED_INT(ompi_coll_base_gather_intra_linear_sync, 1)
TRACE_ROOTED(ompi_coll_base_scatter_intra_basic_linear, 0)
TRACE_ROOTED(ompi_coll_base_scatter_intra_binomial, 0)
TRACE_ROOTED_INT(ompi_coll_base_scatter_intra_linear_nb, 0)

/* The two with one more argument. */
int ompi_coll_base_alltoall_intra_linear_sync(const void *sbuf, int scount, void *sdtype, void *rbuf, int rcount,
                                              void *rdtype, void *comm, void *module, int max_requests) {
  typedef int (*fn)(const void *, int, void *, void *, int, void *, void *, void *, int);
  static fn real;
  if (!real) real = (fn)next("ompi_coll_base_alltoall_intra_linear_sync");
  record("ompi_coll_base_alltoall_intra_linear_sync", scount, sdtype);
  return real(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module, max_requests);
}

int ompi_coll_base_allreduce_intra_ring_segmented(const void *sbuf, void *rbuf, int count, void *dtype, void *op,
                                                  void *comm, void *module, uint32_t segsize) {
  typedef int (*fn)(const void *, void *, int, void *, void *, void *, void *, uint32_t);
  static fn real;
  if (!real) real = (fn)next("ompi_coll_base_allreduce_intra_ring_segmented");
  record("ompi_coll_base_allreduce_intra_ring_segmented", count, dtype);
  return real(sbuf, rbuf, count, dtype, op, comm, module, segsize);
}
