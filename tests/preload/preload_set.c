/* preload_set: an ordinary MPI program for the preload's reduce,
 * reduce-scatter, allgatherv, gather(v) and scatter(v) (issue 71). It calls
 * them as an application would and checks every element it receives, and
 * that no send buffer changed, against values it computes itself; run with
 * and without the preload it must print the same.
 *
 *   preload_set SCENARIO
 *
 * Scenarios:
 *   all     every collective on the world, the world reversed, even and odd
 *           ranks and MPI_COMM_SELF; roots 0, the middle and the last rank;
 *           in place and not; data movers on MPI_BYTE, MPI_INT, MPI_DOUBLE
 *           and a vector with a hole (packed); reductions on MPI_INT and
 *           MPI_DOUBLE with MPI_SUM and MPI_MAX; counts 1, 3 and 1000, the
 *           v-forms' uneven with zeros and with one heavy rank; every call
 *           twice (cache hits). The
 *           non-roots pass a null receive (gather, reduce) or send
 *           (scatter) buffer: those are not theirs.
 *   displs  the v-forms with displacements that leave gaps (the preload
 *           hands them to the MPI: reason displacements).
 *
 * Rank 0 prints "preload_set: SCENARIO: N checks passed" and the calls it
 * made per collective ("calls: reduce=A reduce_scatter_block=B ..."), which
 * the tests compare with the preload's report. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"

static int world_size;
static long n_reduce, n_rsb, n_rs, n_agv, n_gather, n_gatherv, n_scatter, n_scatterv;
static MPI_Datatype hole_type; /* K_DERIVED: two doubles, a hole between them */
static const struct derived_layout hole_layout = {3, 2};

static MPI_Datatype kind_type(enum kind k) {
  return k == K_BYTE ? MPI_BYTE : k == K_INT ? MPI_INT : k == K_DOUBLE ? MPI_DOUBLE : hole_type;
}
static const char* kind_name_of(enum kind k) {
  static const char* names[] = {"byte", "int", "double", "hole"};
  return names[k];
}
static size_t extent_of(enum kind k) { return k == K_DERIVED ? 3 * sizeof(double) : kind_bytes(k); }
static void put(enum kind k, void* buf, long at, long v) { put_element(k, hole_layout, buf, at, v); }
static int same(enum kind k, const void* buf, long at, long v) { return same_element(k, hole_layout, buf, at, v); }

static void* alloc(size_t bytes) {
  void* p = calloc(bytes ? bytes : 1, 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* The send buffer unchanged after the call. */
static void* snapshot(const void* buf, size_t bytes) {
  void* c = alloc(bytes);
  if (buf) memcpy(c, buf, bytes);
  return c;
}
static void same_bytes(const void* buf, const void* copy, size_t bytes, const char* what) {
  ++checks;
  if (buf && memcmp(buf, copy, bytes) != 0) FAIL("%s: the send buffer changed", what);
}

/* Uneven counts with zeros: rank r's block (never all zero); a negative
 * base: one heavy rank (rank 0 holds 4 x -base, every other one 1). */
static int vcount(int r, int base) {
  if (base < 0) return r == 0 ? -4 * base : 1;
  return r % 3 == 1 ? 0 : base + r % 4;
}

static void fill_counts(int p, int base, int* counts, int* displs, int gap) {
  int at = 0;
  for (int r = 0; r < p; ++r) {
    counts[r] = vcount(r, base);
    displs[r] = at;
    at += counts[r] + gap;
  }
}

/* The rooted forms' blocks: uneven (v) with `gap` elements between them,
 * else `base` a rank. */
static void block_counts(int p, int v, int base, int gap, int* counts, int* displs) {
  if (v)
    fill_counts(p, base, counts, displs, gap);
  else
    for (int r = 0; r < p; ++r) counts[r] = base, displs[r] = r * base;
}

/* ---- reductions: element i of rank r is value(r, 0, i, salt) ---- */

static double reduced(MPI_Op op, int p, long i, int salt) {
  double acc = op == MPI_MAX ? -1e300 : 0;
  for (int r = 0; r < p; ++r) {
    const double x = (double)value(r, 0, i, salt);
    acc = op == MPI_MAX ? (x > acc ? x : acc) : acc + x;
  }
  return acc;
}
static void put_num(MPI_Datatype t, void* buf, long at, long v) {
  if (t == MPI_INT)
    ((int*)buf)[at] = (int)v;
  else
    ((double*)buf)[at] = (double)v;
}
static double get_num(MPI_Datatype t, const void* buf, long at) {
  return t == MPI_INT ? (double)((const int*)buf)[at] : ((const double*)buf)[at];
}
static size_t num_bytes(MPI_Datatype t) { return t == MPI_INT ? sizeof(int) : sizeof(double); }

static void do_reduce(MPI_Comm comm, MPI_Datatype t, MPI_Op op, int count, int root, int in_place, int salt) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  const size_t bytes = (size_t)count * num_bytes(t);
  void* send = alloc(bytes);
  void* recv = me == root ? alloc(bytes) : NULL;
  void* in = in_place && me == root ? recv : send;
  for (long i = 0; i < count; ++i) put_num(t, in, i, value(me, 0, i, salt));
  void* copy = snapshot(send, bytes);
  check_rc(MPI_Reduce(in_place && me == root ? MPI_IN_PLACE : send, recv, count, t, op, root, comm), "MPI_Reduce");
  ++n_reduce;
  same_bytes(in_place && me == root ? NULL : send, copy, bytes, "MPI_Reduce");
  if (me == root)
    for (long i = 0; i < count; ++i) {
      ++checks;
      if (get_num(t, recv, i) != reduced(op, p, i, salt))
        FAIL("MPI_Reduce count %d root %d in_place %d: element %ld is %g, expected %g", count, root, in_place, i,
             get_num(t, recv, i), reduced(op, p, i, salt));
    }
  free(send);
  free(recv);
  free(copy);
}

/* block: MPI_Reduce_scatter_block of `count` a rank; else MPI_Reduce_scatter
 * with uneven counts from `count`. */
static void do_reduce_scatter(MPI_Comm comm, int block, MPI_Datatype t, MPI_Op op, int count, int in_place, int salt) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int* counts = alloc(sizeof(int) * p);
  int* displs = alloc(sizeof(int) * p);
  if (block)
    for (int r = 0; r < p; ++r) counts[r] = count, displs[r] = r * count;
  else
    fill_counts(p, count, counts, displs, 0);
  const long total = displs[p - 1] + counts[p - 1];
  const size_t bytes = (size_t)total * num_bytes(t);
  void* send = alloc(bytes);
  void* recv = alloc(in_place ? bytes : (size_t)counts[me] * num_bytes(t));
  void* in = in_place ? recv : send;
  for (long i = 0; i < total; ++i) put_num(t, in, i, value(me, 0, i, salt));
  void* copy = snapshot(send, bytes);
  const void* s = in_place ? MPI_IN_PLACE : send;
  if (block) {
    check_rc(MPI_Reduce_scatter_block(s, recv, count, t, op, comm), "MPI_Reduce_scatter_block");
    ++n_rsb;
  } else {
    check_rc(MPI_Reduce_scatter(s, recv, counts, t, op, comm), "MPI_Reduce_scatter");
    ++n_rs;
  }
  const char* name = block ? "MPI_Reduce_scatter_block" : "MPI_Reduce_scatter";
  same_bytes(in_place ? NULL : send, copy, bytes, name);
  for (long i = 0; i < counts[me]; ++i) {
    ++checks;
    const double want = reduced(op, p, displs[me] + i, salt);
    if (get_num(t, recv, i) != want)
      FAIL("%s count %d in_place %d: element %ld is %g, expected %g", name, count, in_place, i, get_num(t, recv, i),
           want);
  }
  free(send);
  free(recv);
  free(copy);
  free(counts);
  free(displs);
}

/* ---- data movers: rank r's block holds value(r, 0, i, salt) ---- */

/* MPI_Allgatherv with uneven counts (gap: elements left between blocks). */
static void do_allgatherv(MPI_Comm comm, enum kind k, int base, int in_place, int gap, int salt) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int* counts = alloc(sizeof(int) * p);
  int* displs = alloc(sizeof(int) * p);
  fill_counts(p, base, counts, displs, gap);
  const long span = displs[p - 1] + counts[p - 1];
  const size_t ext = extent_of(k);
  char* send = alloc(ext * counts[me]);
  char* recv = alloc(ext * span);
  char* mine = in_place ? recv + ext * displs[me] : send;
  for (long i = 0; i < counts[me]; ++i) put(k, mine, i, value(me, 0, i, salt));
  void* copy = snapshot(send, ext * counts[me]);
  check_rc(MPI_Allgatherv(in_place ? MPI_IN_PLACE : send, counts[me], kind_type(k), recv, counts, displs, kind_type(k),
                          comm),
           "MPI_Allgatherv");
  ++n_agv;
  same_bytes(send, copy, ext * counts[me], "MPI_Allgatherv");
  for (int r = 0; r < p; ++r)
    for (long i = 0; i < counts[r]; ++i) {
      ++checks;
      if (!same(k, recv + ext * displs[r], i, value(r, 0, i, salt)))
        FAIL("MPI_Allgatherv %s base %d in_place %d gap %d: block %d element %ld wrong", kind_name_of(k), base,
             in_place, gap, r, i);
    }
  free(send);
  free(recv);
  free(copy);
  free(counts);
  free(displs);
}

/* MPI_Gather(v) to `root`: v uneven counts (gap between blocks), else
 * `base` a rank. */
static void do_gather(MPI_Comm comm, int v, enum kind k, int base, int root, int in_place, int gap, int salt) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int* counts = alloc(sizeof(int) * p);
  int* displs = alloc(sizeof(int) * p);
  block_counts(p, v, base, gap, counts, displs);
  const long span = displs[p - 1] + counts[p - 1];
  const size_t ext = extent_of(k);
  const int at_root = me == root, ip = in_place && at_root;
  char* send = alloc(ext * counts[me]);
  char* recv = at_root ? alloc(ext * span) : NULL;
  char* mine = ip ? recv + ext * displs[me] : send;
  for (long i = 0; i < counts[me]; ++i) put(k, mine, i, value(me, 0, i, salt));
  void* copy = snapshot(send, ext * counts[me]);
  const MPI_Datatype t = kind_type(k);
  if (v) {
    check_rc(MPI_Gatherv(ip ? MPI_IN_PLACE : send, counts[me], t, recv, at_root ? counts : NULL,
                         at_root ? displs : NULL, t, root, comm),
             "MPI_Gatherv");
    ++n_gatherv;
  } else {
    check_rc(MPI_Gather(ip ? MPI_IN_PLACE : send, base, t, recv, at_root ? base : 0, t, root, comm), "MPI_Gather");
    ++n_gather;
  }
  same_bytes(send, copy, ext * counts[me], v ? "MPI_Gatherv" : "MPI_Gather");
  if (at_root)
    for (int r = 0; r < p; ++r)
      for (long i = 0; i < counts[r]; ++i) {
        ++checks;
        if (!same(k, recv + ext * displs[r], i, value(r, 0, i, salt)))
          FAIL("MPI_Gather%s %s base %d root %d in_place %d: block %d element %ld wrong", v ? "v" : "", kind_name_of(k),
               base, root, in_place, r, i);
      }
  free(send);
  free(recv);
  free(copy);
  free(counts);
  free(displs);
}

/* MPI_Scatter(v) from `root`; block r of the root's buffer holds
 * value(r, 0, i, salt). */
static void do_scatter(MPI_Comm comm, int v, enum kind k, int base, int root, int in_place, int gap, int salt) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int* counts = alloc(sizeof(int) * p);
  int* displs = alloc(sizeof(int) * p);
  block_counts(p, v, base, gap, counts, displs);
  const long span = displs[p - 1] + counts[p - 1];
  const size_t ext = extent_of(k);
  const int at_root = me == root, ip = in_place && at_root;
  char* send = at_root ? alloc(ext * span) : NULL;
  char* recv = alloc(ext * counts[me]);
  if (at_root)
    for (int r = 0; r < p; ++r)
      for (long i = 0; i < counts[r]; ++i) put(k, send + ext * displs[r], i, value(r, 0, i, salt));
  void* copy = snapshot(send, at_root ? ext * span : 0);
  const MPI_Datatype t = kind_type(k);
  if (v) {
    check_rc(MPI_Scatterv(send, at_root ? counts : NULL, at_root ? displs : NULL, t, ip ? MPI_IN_PLACE : recv,
                          counts[me], t, root, comm),
             "MPI_Scatterv");
    ++n_scatterv;
  } else {
    check_rc(MPI_Scatter(send, at_root ? base : 0, t, ip ? MPI_IN_PLACE : recv, base, t, root, comm), "MPI_Scatter");
    ++n_scatter;
  }
  if (at_root) same_bytes(send, copy, ext * span, v ? "MPI_Scatterv" : "MPI_Scatter");
  const char* got = ip ? send + ext * displs[me] : recv;
  for (long i = 0; i < counts[me]; ++i) {
    ++checks;
    if (!same(k, got, i, value(me, 0, i, salt)))
      FAIL("MPI_Scatter%s %s base %d root %d in_place %d: element %ld wrong", v ? "v" : "", kind_name_of(k), base, root,
           in_place, i);
  }
  free(send);
  free(recv);
  free(copy);
  free(counts);
  free(displs);
}

/* Every collective on `comm`, twice per call (the second from the cache). */
static void exercise(MPI_Comm comm, int salt) {
  int p;
  MPI_Comm_size(comm, &p);
  const int counts[] = {1, 3, 1000};
  const int roots[] = {0, p / 2, p - 1};
  const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
  const MPI_Op ops[] = {MPI_SUM, MPI_MAX};
  for (int rep = 0; rep < 2; ++rep)
    for (int c = 0; c < 3; ++c)
      for (int ip = 0; ip < 2; ++ip) {
        const int n = counts[c];
        for (int ti = 0; ti < 2; ++ti)
          for (int oi = 0; oi < 2; ++oi) {
            do_reduce(comm, types[ti], ops[oi], n, roots[(c + ti + oi) % 3], ip, salt + c);
            do_reduce_scatter(comm, 1, types[ti], ops[oi], n, ip, salt + c);
            do_reduce_scatter(comm, 0, types[ti], ops[oi], n, ip, salt + c);
          }
        if (n == 1000) { /* the v-forms with one heavy rank */
          do_reduce_scatter(comm, 0, MPI_DOUBLE, MPI_SUM, -n, ip, salt);
          do_allgatherv(comm, K_INT, -n, ip, 0, salt);
          do_gather(comm, 1, K_DOUBLE, -n, roots[1], ip, 0, salt);
          do_scatter(comm, 1, K_DERIVED, -n, roots[2], ip, 0, salt);
        }
        for (int k = 0; k < NKINDS; ++k) {
          do_allgatherv(comm, (enum kind)k, n, ip, 0, salt + k);
          for (int ri = 0; ri < 3; ++ri) {
            do_gather(comm, 0, (enum kind)k, n, roots[ri], ip, 0, salt + ri);
            do_gather(comm, 1, (enum kind)k, n, roots[ri], ip, 0, salt + ri);
            do_scatter(comm, 0, (enum kind)k, n, roots[ri], ip, 0, salt + ri);
            do_scatter(comm, 1, (enum kind)k, n, roots[ri], ip, 0, salt + ri);
          }
        }
      }
}

static void scenario_all(void) {
  MPI_Comm reversed, halves;
  exercise(MPI_COMM_WORLD, 1);
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &reversed);
  exercise(reversed, 2);
  MPI_Comm_free(&reversed);
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &halves);
  exercise(halves, 3);
  MPI_Comm_free(&halves);
  exercise(MPI_COMM_SELF, 4);
}

/* The v-forms with a gap of 2 elements between blocks: to the MPI's own. */
static void scenario_displs(void) {
  for (int ip = 0; ip < 2; ++ip) {
    do_allgatherv(MPI_COMM_WORLD, K_INT, 3, ip, 2, 5);
    do_gather(MPI_COMM_WORLD, 1, K_INT, 3, world_size - 1, ip, 2, 6);
    do_scatter(MPI_COMM_WORLD, 1, K_INT, 3, 0, ip, 2, 7);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &hole_type);
  MPI_Type_commit(&hole_type);
  const char* scenario = argc > 1 ? argv[1] : "all";
  if (strcmp(scenario, "all") == 0) {
    scenario_all();
  } else if (strcmp(scenario, "displs") == 0) {
    scenario_displs();
  } else {
    if (world_rank == 0) fprintf(stderr, "preload_set: unknown scenario '%s' (all, displs)\n", scenario);
    MPI_Finalize();
    return 2;
  }
  long all[2] = {checks, errors};
  PMPI_Allreduce(MPI_IN_PLACE, all, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) {
    if (all[1] == 0)
      printf("preload_set: %s: %ld checks passed\n", scenario, all[0]);
    else
      printf("preload_set: %s: %ld of %ld checks FAILED\n", scenario, all[1], all[0]);
    printf(
        "calls: reduce=%ld reduce_scatter_block=%ld reduce_scatter=%ld allgatherv=%ld gather=%ld gatherv=%ld "
        "scatter=%ld scatterv=%ld\n",
        n_reduce, n_rsb, n_rs, n_agv, n_gather, n_gatherv, n_scatter, n_scatterv);
    fflush(stdout);
  }
  MPI_Type_free(&hole_type);
  MPI_Finalize();
  return all[1] == 0 ? 0 : 1;
}
