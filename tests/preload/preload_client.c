/* preload_client: an ordinary MPI program for the libmcb_preload.so tests.
 * It calls MPI_Alltoall, MPI_Allgather and MPI_Allreduce as an application
 * would and checks every element it receives against values it computes
 * itself; run with and without the preload it must print the same.
 *
 *   preload_client SCENARIO [--whole-nodes K]
 *
 * Scenarios:
 *   all           every kind of call the algorithms serve: counts 1, 3, 17
 *                 and 1000, MPI_BYTE, MPI_INT, MPI_DOUBLE and a contiguous
 *                 derived type (2 doubles, as hpcc's FFT), allgather and
 *                 allreduce in place, several reduction ops, repeated calls
 *                 (cache hits), a second buffer pair, a communicator freed
 *                 and made again, and sub-communicators: the world reversed,
 *                 even and odd ranks, all but the last rank (odd and prime
 *                 sizes). --whole-nodes K leaves out the sub-communicators
 *                 that cut a virtual node of K world ranks unevenly.
 *   buffers       new buffers on every call on even ranks, the same on odd
 *                 ones (a plan for new buffers is made by one rank alone),
 *                 and many counts (shapes): the cache's bounds.
 *   noncontig     non-contiguous send and receive types (vectors), packed;
 *                 and a type that is contiguous on even ranks and a vector
 *                 on odd ones (the same type signature).
 *   counts N      N allreduces of distinct counts 1..N; rank 0 prints its
 *                 mappings (/proc/self/maps lines) after 10 and after N calls.
 *   churn N [MIB] N rounds of communicators split, duplicated, used by all
 *                 three collectives and freed; what the process holds must
 *                 stay flat (resident memory within MIB, default 16).
 *   firstcall     the time of a shape's first call and of its steady state
 *                 (scripts/preload/preload_first_call.py).
 *   cycle N K     N back-to-back allreduces cycling through counts 1..K: the
 *                 time per call (new shapes when K exceeds the cache).
 *   intercomm, in_place, mismatch, user_op, non_commutative_op, type,
 *   overflow, empty, invalid, subcomm
 *                 calls that go to the MPI's own collective (see
 *                 tests/preload/preload.cmake for what each checks).
 *
 * Rank 0 prints "preload_client: SCENARIO: N checks passed" and, per
 * collective, the number of calls it made ("calls: alltoall=A allgather=B
 * allreduce=C"), which the tests compare with the preload's report. The
 * program's own bookkeeping uses PMPI_* so that it is not counted. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "proc_stats.h"

static int world_size;
static long n_alltoall, n_allgather, n_allreduce, n_bcast, n_bcast_root0;
static int whole_nodes;

/* ---- element values: kinds of element and what each holds ---- */

/* K_DERIVED (checks.h): pair_type, contiguous(2, MPI_DOUBLE) */
static const char* kind_name[] = {"byte", "int", "double", "pair"};
static MPI_Datatype pair_type;

static MPI_Datatype kind_type(enum kind k) {
  switch (k) {
    case K_BYTE:
      return MPI_BYTE;
    case K_INT:
      return MPI_INT;
    case K_DOUBLE:
      return MPI_DOUBLE;
    default:
      return pair_type;
  }
}

static const struct derived_layout pair_layout = {2, 1};
static void put(enum kind k, void* buf, long at, long v) { put_element(k, pair_layout, buf, at, v); }
static int same(enum kind k, const void* buf, long at, long v) { return same_element(k, pair_layout, buf, at, v); }

static void* alloc(size_t bytes) {
  void* p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "rank %d: out of memory (%zu bytes)\n", world_rank, bytes);
    exit(3);
  }
  memset(p, 0xee, bytes);
  return p;
}

/* ---- the three collectives, checked ---- */

static void do_alltoall(MPI_Comm comm, enum kind k, int count, int salt, void* send, void* recv) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  for (int to = 0; to < p; ++to)
    for (int i = 0; i < count; ++i) put(k, send, (long)to * count + i, value(r, to, i, salt));
  memset(recv, 0xee, (size_t)p * count * kind_bytes(k));
  check_rc(MPI_Alltoall(send, count, kind_type(k), recv, count, kind_type(k), comm), "MPI_Alltoall");
  ++n_alltoall;
  for (int from = 0; from < p; ++from)
    for (int i = 0; i < count; ++i) {
      ++checks;
      if (!same(k, recv, (long)from * count + i, value(from, r, i, salt)))
        FAIL("alltoall %s count %d: block %d element %d of %d ranks", kind_name[k], count, from, i, p);
    }
}

static void do_allgather(MPI_Comm comm, enum kind k, int count, int salt, int in_place, void* send, void* recv) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  memset(recv, 0xee, (size_t)p * count * kind_bytes(k));
  for (int i = 0; i < count; ++i)
    put(k, in_place ? recv : send, (in_place ? (long)r * count : 0) + i, value(r, 0, i, salt));
  check_rc(MPI_Allgather(in_place ? MPI_IN_PLACE : send, count, kind_type(k), recv, count, kind_type(k), comm),
           "MPI_Allgather");
  ++n_allgather;
  for (int from = 0; from < p; ++from)
    for (int i = 0; i < count; ++i) {
      ++checks;
      if (!same(k, recv, (long)from * count + i, value(from, 0, i, salt)))
        FAIL("allgather %s count %d%s: block %d element %d of %d ranks", kind_name[k], count,
             in_place ? " in place" : "", from, i, p);
    }
}

/* Bcast of `count` elements of kind k from `root`; every rank checks. */
static void do_bcast(MPI_Comm comm, enum kind k, int count, int root, int salt, void* buf) {
  int r;
  MPI_Comm_rank(comm, &r);
  if (r == root)
    for (int i = 0; i < count; ++i) put(k, buf, i, value(root, 0, i, salt));
  else
    memset(buf, 0xee, (size_t)count * kind_bytes(k));
  check_rc(MPI_Bcast(buf, count, kind_type(k), root, comm), "MPI_Bcast");
  ++n_bcast;
  n_bcast_root0 += root == 0;
  for (int i = 0; i < count; ++i) {
    ++checks;
    if (!same(k, buf, i, value(root, 0, i, salt)))
      FAIL("bcast %s count %d from %d: element %d (rank %d)", kind_name[k], count, root, i, r);
  }
}

/* Allreduce of int or double (sum, max, min, prod) or MPI_2INT (maxloc). */
static void do_allreduce(MPI_Comm comm, MPI_Datatype type, MPI_Op op, int count, int salt, int in_place, void* send,
                         void* recv) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  const int is_int = type == MPI_INT, is_pair = type == MPI_2INT;
  for (int i = 0; i < count; ++i) {
    long v = (op == MPI_PROD) ? 1 + (r + i + salt) % 3 : value(r, 1, i, salt) - 50000;
    void* b = in_place ? recv : send;
    if (is_pair) {
      ((int*)b)[2 * i] = (int)((r * 7 + i) % p);
      ((int*)b)[2 * i + 1] = r;
    } else if (is_int) {
      ((int*)b)[i] = (int)v;
    } else {
      ((double*)b)[i] = (double)v;
    }
  }
  check_rc(MPI_Allreduce(in_place ? MPI_IN_PLACE : send, recv, count, type, op, comm), "MPI_Allreduce");
  ++n_allreduce;
  for (int i = 0; i < count; ++i) {
    long want = op == MPI_SUM ? 0 : op == MPI_PROD ? 1 : op == MPI_MAX ? -1000000 : 1000000;
    int best = -1, best_rank = 0;
    for (int q = 0; q < p; ++q) {
      long v = (op == MPI_PROD) ? 1 + (q + i + salt) % 3 : value(q, 1, i, salt) - 50000;
      if (op == MPI_SUM) want += v;
      if (op == MPI_PROD) want *= v;
      if (op == MPI_MAX && v > want) want = v;
      if (op == MPI_MIN && v < want) want = v;
      const int pv = (q * 7 + i) % p;
      if (pv > best) best = pv, best_rank = q; /* maxloc: the lowest rank of the maximum */
    }
    ++checks;
    int ok;
    if (is_pair)
      ok = ((int*)recv)[2 * i] == best && ((int*)recv)[2 * i + 1] == best_rank;
    else if (is_int)
      ok = ((int*)recv)[i] == (int)want;
    else
      ok = ((double*)recv)[i] == (double)want;
    if (!ok) FAIL("allreduce count %d%s: element %d of %d ranks", count, in_place ? " in place" : "", i, p);
  }
}

/* Everything the algorithms serve, on one communicator. */
static void exercise(MPI_Comm comm, int salt) {
  static const int counts[] = {1, 3, 17, 1000};
  int p;
  MPI_Comm_size(comm, &p);
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < NKINDS; ++k) {
      const int n = counts[c];
      const size_t bytes = (size_t)p * n * kind_bytes((enum kind)k);
      void *s1 = alloc(bytes), *r1 = alloc(bytes), *s2 = alloc(bytes), *r2 = alloc(bytes);
      for (int rep = 0; rep < 3; ++rep) { /* the same buffers: cache hits */
        do_alltoall(comm, (enum kind)k, n, salt + rep, s1, r1);
        do_allgather(comm, (enum kind)k, n, salt + rep, 0, s1, r1);
      }
      do_alltoall(comm, (enum kind)k, n, salt + 7, s2, r2); /* other buffers */
      do_allgather(comm, (enum kind)k, n, salt + 7, 0, s2, r2);
      do_allgather(comm, (enum kind)k, n, salt + 8, 1, NULL, r2);
      free(s1), free(r1), free(s2), free(r2);
    }
  for (int c = 0; c < 4; ++c) {
    const int n = counts[c];
    void *s = alloc((size_t)n * 8), *r = alloc((size_t)n * 8);
    for (int rep = 0; rep < 2; ++rep) {
      do_allreduce(comm, MPI_DOUBLE, MPI_SUM, n, salt + rep, 0, s, r);
      do_allreduce(comm, MPI_INT, MPI_SUM, n, salt + rep, 0, s, r);
    }
    do_allreduce(comm, MPI_DOUBLE, MPI_SUM, n, salt + 2, 1, s, r);
    do_allreduce(comm, MPI_INT, MPI_MAX, n, salt + 3, 0, s, r);
    do_allreduce(comm, MPI_DOUBLE, MPI_MIN, n, salt + 4, 1, s, r);
    do_allreduce(comm, MPI_INT, MPI_PROD, n, salt + 5, 0, s, r);
    do_allreduce(comm, MPI_2INT, MPI_MAXLOC, n, salt + 6, 0, s, r);
    free(s), free(r);
  }
}

/* Whether `comm` holds the same number of ranks of every virtual node of
 * K consecutive world ranks that it touches. */
static int even_nodes(MPI_Comm comm, int k) {
  if (k <= 0) return 1;
  int p;
  MPI_Comm_size(comm, &p);
  int* worlds = alloc(sizeof(int) * (size_t)p);
  PMPI_Allgather(&world_rank, 1, MPI_INT, worlds, 1, MPI_INT, comm);
  int* per = calloc((size_t)world_size / k + 1, sizeof(int));
  for (int i = 0; i < p; ++i) per[worlds[i] / k]++;
  int want = 0, ok = 1;
  for (int n = 0; n <= world_size / k; ++n)
    if (per[n]) {
      if (!want) want = per[n];
      if (per[n] != want) ok = 0;
    }
  free(worlds);
  free(per);
  return ok;
}

static void scenario_all(void) {
  exercise(MPI_COMM_WORLD, 0);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* freed and made again: a new cache */
  exercise(dup, 11);
  MPI_Comm_free(&dup);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  exercise(dup, 12);
  MPI_Comm_free(&dup);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &sub); /* reversed */
  exercise(sub, 21);
  MPI_Comm_free(&sub);
  if (world_size > 1) {
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &sub); /* even and odd ranks */
    if (even_nodes(sub, whole_nodes)) exercise(sub, 22);
    MPI_Comm_free(&sub);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < world_size - 1 ? 0 : MPI_UNDEFINED, world_rank, &sub);
    if (sub != MPI_COMM_NULL) { /* all but the last rank */
      if (even_nodes(sub, whole_nodes)) exercise(sub, 23);
      MPI_Comm_free(&sub);
    }
  }
  exercise(MPI_COMM_SELF, 24); /* one rank: copies, no layout */
}

/* MPI_Bcast on one communicator: every kind at small to pipelined sizes
 * (70,000 pairs: 1.1 MB, pieces of 256 KiB), twice on the same buffer, once
 * from the last rank (a rotated copy of the communicator), and
 * a non-contiguous vector type (ScaLAPACK's kind: every second double):
 * the gaps stay as they were on every rank. */
static void bcast_on(MPI_Comm comm, int salt) {
  static const int counts[] = {1, 3, 17, 1000, 70000};
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  for (int c = 0; c < 5; ++c)
    for (int k = 0; k < NKINDS; ++k) {
      const int n = counts[c];
      void* buf = alloc((size_t)n * kind_bytes((enum kind)k));
      do_bcast(comm, (enum kind)k, n, 0, salt + c, buf);
      do_bcast(comm, (enum kind)k, n, 0, salt + c + 1, buf);
      if (p > 1 && c < 3) do_bcast(comm, (enum kind)k, n, p - 1, salt + c + 2, buf);
      free(buf);
    }
  enum { N = 17 };
  MPI_Datatype every2;
  MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &every2);
  MPI_Type_commit(&every2);
  double v[2 * N];
  for (int i = 0; i < 2 * N; ++i) v[i] = r != 0 ? -7.0 : i % 2 ? -1.0 - i : (double)value(0, 0, i / 2, salt);
  check_rc(MPI_Bcast(v, 1, every2, 0, comm), "MPI_Bcast");
  ++n_bcast;
  ++n_bcast_root0;
  for (int i = 0; i < 2 * N; ++i) {
    ++checks;
    const double want = i % 2 == 0 ? (double)value(0, 0, i / 2, salt) : r == 0 ? -1.0 - i : -7.0;
    if (v[i] != want) FAIL("bcast of a vector type: element %d is %g, expected %g (rank %d)", i, v[i], want, r);
  }
  MPI_Type_free(&every2);
}

static void scenario_bcast(void) {
  bcast_on(MPI_COMM_WORLD, 0);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  bcast_on(dup, 31);
  MPI_Comm_free(&dup);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &sub); /* reversed: world's last rank is the root */
  bcast_on(sub, 41);
  MPI_Comm_free(&sub);
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &sub);
  if (even_nodes(sub, whole_nodes)) bcast_on(sub, 51);
  MPI_Comm_free(&sub);
  bcast_on(MPI_COMM_SELF, 61); /* one rank: nothing to move */
}

/* Buffers that change on some ranks only: even ranks bring new buffers to
 * every call, odd ranks always the same pair; so a rank meets new buffers
 * while another one has them cached (a plan for new buffers is made by one
 * rank alone). And many counts (shapes): the cache's bounds. */
static void scenario_buffers(void) {
  const size_t most = (size_t)world_size * 9 * sizeof(double);
  void *fixed_s = alloc(most), *fixed_r = alloc(most);
  for (int it = 0; it < 24; ++it) {
    const int n = it < 12 ? 1 + it % 3 : 1 + it % 9; /* 3 shapes per collective, then 9 */
    const int fresh = world_rank % 2 == 0;
    void* s = fresh ? alloc(most) : fixed_s;
    void* r = fresh ? alloc(most) : fixed_r;
    do_alltoall(MPI_COMM_WORLD, K_DOUBLE, n, it, s, r);
    do_allgather(MPI_COMM_WORLD, K_INT, n, it, it % 2, s, r);
    do_allreduce(MPI_COMM_WORLD, MPI_DOUBLE, MPI_SUM, n, it, it % 3 == 0, s, r);
    if (fresh) free(s), free(r);
  }
  free(fixed_s), free(fixed_r);
}

/* The preload's last-call memo (serve.cpp): one call shape on two buffer
   pairs, called in turn (nothing between them), one with a predefined type (kept in the memo) and
   one with a derived type of the same bytes (never kept): the second moves
   its plan to the front of the shape's list between the first's calls, so a
   memo that outlived the move would run the first call on the second's
   plan (the other buffers). */
static void scenario_memo(void) {
  const int p = world_size;
  const size_t bytes = (size_t)p * 2 * sizeof(double);
  void *s1 = alloc(bytes), *r1 = alloc(bytes), *s2 = alloc(bytes), *r2 = alloc(bytes);
  for (int it = 0; it < 40; ++it) {
    do_alltoall(MPI_COMM_WORLD, K_DOUBLE, 2, it, s1, r1);
    do_alltoall(MPI_COMM_WORLD, K_DERIVED, 1, 1000 + it, s2, r2);
  }
  for (int it = 0; it < 40; ++it) {
    do_allgather(MPI_COMM_WORLD, K_DOUBLE, 2, it, 0, s1, r1);
    do_allgather(MPI_COMM_WORLD, K_DERIVED, 1, 1000 + it, 0, s2, r2);
  }
  free(s1), free(r1), free(s2), free(r2);
}

/* Non-contiguous types: every second element of a buffer twice as long. */
static void scenario_noncontig(void) {
  const int p = world_size;
  for (int n = 1; n <= 5; n += 2) {
    MPI_Datatype vec, cont;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec); /* n ints, stride 2 */
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(n, MPI_INT, &cont);
    MPI_Type_commit(&cont);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(vec, &lb, &extent);
    MPI_Datatype vec_r; /* blocks of the vector one after the other: extent 2n ints */
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * n * sizeof(int)), &vec_r);
    MPI_Type_commit(&vec_r);
    int* s = alloc(sizeof(int) * 2 * n * p);
    int* r = alloc(sizeof(int) * 2 * n * p);
    for (int mixed = 0; mixed < 3; ++mixed) {
      /* mixed 0: vectors on every rank; 1: vectors on odd ranks, contiguous on
       * even ones; 2: allgather in place into a vector receive type */
      const int use_vec = mixed == 0 || world_rank % 2 == 1 || mixed == 2;
      MPI_Datatype t = use_vec ? vec_r : cont;
      const int stride = use_vec ? 2 : 1;
      for (int to = 0; to < p; ++to)
        for (int i = 0; i < n; ++i) s[to * n * stride + i * stride] = (int)value(world_rank, to, i, n + mixed);
      memset(r, 0xee, sizeof(int) * 2 * n * p);
      check_rc(MPI_Alltoall(s, 1, t, r, 1, t, MPI_COMM_WORLD), "MPI_Alltoall");
      ++n_alltoall;
      for (int from = 0; from < p; ++from)
        for (int i = 0; i < n; ++i) {
          ++checks;
          if (r[from * n * stride + i * stride] != (int)value(from, world_rank, i, n + mixed))
            FAIL("noncontig alltoall n %d mixed %d: block %d element %d", n, mixed, from, i);
        }
      memset(r, 0xee, sizeof(int) * 2 * n * p);
      if (mixed == 2) { /* in place: my block is already in the receive buffer */
        for (int i = 0; i < n; ++i) r[world_rank * n * 2 + i * 2] = (int)value(world_rank, 0, i, n + 9);
        check_rc(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, 1, vec_r, MPI_COMM_WORLD), "MPI_Allgather");
      } else {
        for (int i = 0; i < n; ++i) s[i * stride] = (int)value(world_rank, 0, i, n + 9);
        check_rc(MPI_Allgather(s, 1, t, r, 1, t, MPI_COMM_WORLD), "MPI_Allgather");
      }
      ++n_allgather;
      for (int from = 0; from < p; ++from)
        for (int i = 0; i < n; ++i) {
          ++checks;
          if (r[from * n * stride + i * stride] != (int)value(from, 0, i, n + 9))
            FAIL("noncontig allgather n %d mixed %d: block %d element %d", n, mixed, from, i);
        }
    }
    free(s), free(r);
    MPI_Type_free(&vec);
    MPI_Type_free(&vec_r);
    MPI_Type_free(&cont);
  }
}

/* ---- calls the MPI's own collective must serve ---- */

static void first_wins(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] = ((int*)in)[i]; /* a op b = a: associative, not commutative */
}
static void my_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}

static void scenario_intercomm(void) {
  MPI_Comm local, inter;
  const int color = world_rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 99, &inter);
  int remote = 0, r = 0;
  MPI_Comm_remote_size(inter, &remote);
  MPI_Comm_rank(inter, &r);
  int* s = alloc(sizeof(int) * (size_t)remote * 2);
  int* g = alloc(sizeof(int) * (size_t)remote * 2);
  for (int i = 0; i < remote; ++i) s[i] = (int)value(world_rank, i, 0, 5);
  check_rc(MPI_Alltoall(s, 1, MPI_INT, g, 1, MPI_INT, inter), "MPI_Alltoall");
  ++n_alltoall;
  for (int i = 0; i < remote; ++i) { /* remote rank i is world rank 2i + (1 - color) */
    ++checks;
    if (g[i] != (int)value(2 * i + 1 - color, r, 0, 5)) FAIL("intercomm alltoall from remote %d", i);
  }
  int mine = world_rank;
  check_rc(MPI_Allgather(&mine, 1, MPI_INT, g, 1, MPI_INT, inter), "MPI_Allgather");
  ++n_allgather;
  for (int i = 0; i < remote; ++i) {
    ++checks;
    if (g[i] != 2 * i + 1 - color) FAIL("intercomm allgather from remote %d", i);
  }
  int sum = 0;
  check_rc(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter), "MPI_Allreduce"); /* the remote group's sum */
  ++n_allreduce;
  int want = 0;
  for (int i = 0; i < remote; ++i) want += 2 * i + 1 - color;
  ++checks;
  if (sum != want) FAIL("intercomm allreduce: %d, expected %d", sum, want);
  free(s), free(g);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

static void scenario_in_place(void) {
  const int p = world_size;
  for (int n = 1; n <= 4; n *= 2) {
    int* b = alloc(sizeof(int) * (size_t)p * n);
    for (int to = 0; to < p; ++to)
      for (int i = 0; i < n; ++i) b[to * n + i] = (int)value(world_rank, to, i, n);
    check_rc(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, n, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
    ++n_alltoall;
    for (int from = 0; from < p; ++from)
      for (int i = 0; i < n; ++i) {
        ++checks;
        if (b[from * n + i] != (int)value(from, world_rank, i, n)) FAIL("in-place alltoall block %d", from);
      }
    free(b);
  }
}

/* Send 3 ints per block, receive blocks of 2: an erroneous program (the
 * amounts differ), which the preload must leave to the MPI's own collective
 * (fallback reason type_mismatch, checked in the report) rather than move
 * bytes that do not fit: the call through the preload fails on exactly as
 * many ranks as the MPI's own call (PMPI) does. The MPIs differ here: under
 * MPI_ERRORS_RETURN Open MPI and MPICH 4.0 return MPI_ERR_TRUNCATE from
 * both collectives, MPICH 4.2.1's allgather returns success
 * (tests/mpi_versions/allgather_mismatch.c shows it without mcb). */
static void scenario_mismatch(void) {
  const int p = world_size;
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  int* s = alloc(sizeof(int) * (size_t)p * 3);
  int* r = alloc(sizeof(int) * (size_t)p * 3);
  int failed[4] = {MPI_Alltoall(s, 3, MPI_INT, r, 2, MPI_INT, c) != MPI_SUCCESS,
                   MPI_Allgather(s, 3, MPI_INT, r, 2, MPI_INT, c) != MPI_SUCCESS,
                   PMPI_Alltoall(s, 3, MPI_INT, r, 2, MPI_INT, c) != MPI_SUCCESS,
                   PMPI_Allgather(s, 3, MPI_INT, r, 2, MPI_INT, c) != MPI_SUCCESS};
  ++n_alltoall, ++n_allgather;
  PMPI_Allreduce(MPI_IN_PLACE, failed, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  checks += 2;
  if (failed[0] != failed[2])
    FAIL("the mismatched alltoall failed on %d ranks, on %d through the MPI alone", failed[0], failed[2]);
  if (failed[1] != failed[3])
    FAIL("the mismatched allgather failed on %d ranks, on %d through the MPI alone", failed[1], failed[3]);
  free(s), free(r);
  MPI_Comm_free(&c);
}

static void scenario_ops(int commutative) {
  MPI_Op op;
  MPI_Op_create(commutative ? my_sum : first_wins, commutative, &op);
  for (int n = 1; n <= 64; n *= 8) {
    int* s = alloc(sizeof(int) * (size_t)n);
    int* r = alloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) s[i] = world_rank * 10 + i;
    check_rc(MPI_Allreduce(s, r, n, MPI_INT, op, MPI_COMM_WORLD), "MPI_Allreduce");
    ++n_allreduce;
    for (int i = 0; i < n; ++i) {
      const int want = commutative ? world_size * (world_size - 1) * 5 + world_size * i : i; /* first wins: rank 0 */
      ++checks;
      if (r[i] != want) FAIL("user op allreduce element %d: %d, expected %d", i, r[i], want);
    }
    free(s), free(r);
  }
  MPI_Op_free(&op);
}

/* Pair types with holes (double + int, short + int: padded, not
 * contiguous) with MPI_MAXLOC and MPI_MINLOC. */
static void scenario_type(void) {
  struct {
    double v;
    int rank;
  } in[4], out[4];
  for (int i = 0; i < 4; ++i) in[i].v = (world_rank * 3 + i) % world_size, in[i].rank = world_rank;
  check_rc(MPI_Allreduce(in, out, 4, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD), "MPI_Allreduce");
  ++n_allreduce;
  for (int i = 0; i < 4; ++i) {
    double best = -1;
    int who = 0;
    for (int q = 0; q < world_size; ++q)
      if ((q * 3 + i) % world_size > best) best = (q * 3 + i) % world_size, who = q;
    ++checks;
    if (out[i].v != best || out[i].rank != who) FAIL("double_int maxloc element %d", i);
  }
  struct {
    short v;
    int rank;
  } sin[3], sout[3];
  for (int i = 0; i < 3; ++i) sin[i].v = (short)((world_rank * 5 + i) % world_size), sin[i].rank = world_rank;
  check_rc(MPI_Allreduce(sin, sout, 3, MPI_SHORT_INT, MPI_MINLOC, MPI_COMM_WORLD), "MPI_Allreduce");
  ++n_allreduce;
  for (int i = 0; i < 3; ++i) {
    int best = 1 << 20, who = 0;
    for (int q = 0; q < world_size; ++q)
      if ((q * 5 + i) % world_size < best) best = (q * 5 + i) % world_size, who = q;
    ++checks;
    if (sout[i].v != best || sout[i].rank != who) FAIL("short_int minloc element %d", i);
  }
}

/* Blocks whose bytes x ranks pass INT_MAX: 1.1 GB per rank (contiguous type
 * of 1 MiB). The send buffer is left untouched but for marks (its pages stay
 * unallocated); the receive buffer is written by the MPI. */
static void scenario_overflow(void) {
  const int mib = 1100;
  MPI_Datatype mb;
  MPI_Type_contiguous(1 << 20, MPI_BYTE, &mb);
  MPI_Type_commit(&mb);
  const size_t block = (size_t)mib << 20;
  unsigned char* s = malloc(block);
  unsigned char* r = malloc(block * (size_t)world_size);
  if (!s || !r) {
    fprintf(stderr, "rank %d: cannot allocate the overflow buffers\n", world_rank);
    exit(3);
  }
  for (size_t at = 0; at < block; at += block / 8) s[at] = (unsigned char)(world_rank * 16 + at / (block / 8));
  check_rc(MPI_Allgather(s, mib, mb, r, mib, mb, MPI_COMM_WORLD), "MPI_Allgather");
  ++n_allgather;
  for (int from = 0; from < world_size; ++from)
    for (size_t at = 0; at < block; at += block / 8) {
      ++checks;
      if (r[(size_t)from * block + at] != (unsigned char)(from * 16 + at / (block / 8)))
        FAIL("overflow allgather block %d offset %zu", from, at);
    }
  free(s), free(r);
  MPI_Type_free(&mb);
}

static void scenario_empty(void) {
  int s[1] = {1}, r[1] = {2};
  check_rc(MPI_Alltoall(s, 0, MPI_INT, r, 0, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
  check_rc(MPI_Allgather(s, 0, MPI_INT, r, 0, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  check_rc(MPI_Allreduce(s, r, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  ++n_alltoall, ++n_allgather, ++n_allreduce;
  ++checks;
  if (r[0] != 2) FAIL("count 0 wrote the receive buffer");
}

/* Erroneous calls with MPI_ERRORS_RETURN: the MPI's own reports them. */
static void scenario_invalid(void) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  int s[8] = {0}, r[8] = {0};
  ++checks;
  if (MPI_Alltoall(s, -1, MPI_INT, r, -1, MPI_INT, c) == MPI_SUCCESS) FAIL("alltoall of count -1 succeeded");
  ++checks;
  if (MPI_Allreduce(s, r, -1, MPI_INT, MPI_SUM, c) == MPI_SUCCESS) FAIL("allreduce of count -1 succeeded");
  ++n_alltoall, ++n_allreduce;
  MPI_Comm_free(&c);
}

/* The world, then all but the last rank (an algorithm parameter may not fit
 * the smaller communicator). */
static void scenario_subcomm(void) {
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank < world_size - 1 ? 0 : MPI_UNDEFINED, world_rank, &sub);
  const size_t bytes = (size_t)world_size * 8 * sizeof(double);
  void *s = alloc(bytes), *r = alloc(bytes);
  for (int rep = 0; rep < 2; ++rep) {
    do_alltoall(MPI_COMM_WORLD, K_DOUBLE, 8, rep, s, r);
    do_allgather(MPI_COMM_WORLD, K_DOUBLE, 8, rep, 0, s, r);
    do_allreduce(MPI_COMM_WORLD, MPI_DOUBLE, MPI_SUM, 8, rep, 0, s, r);
  }
  long before[3] = {n_alltoall, n_allgather, n_allreduce};
  if (sub != MPI_COMM_NULL) {
    for (int rep = 0; rep < 2; ++rep) {
      do_alltoall(sub, K_DOUBLE, 8, rep, s, r);
      do_allgather(sub, K_DOUBLE, 8, rep, 0, s, r);
      do_allreduce(sub, MPI_DOUBLE, MPI_SUM, 8, rep, 0, s, r);
    }
    MPI_Comm_free(&sub);
  }
  if (world_rank == 0)
    printf("preload_client: subcomm calls: alltoall=%ld allgather=%ld allreduce=%ld\n", n_alltoall - before[0],
           n_allgather - before[1], n_allreduce - before[2]);
  free(s), free(r);
}

/* The element after `i` that scenario_counts checks in a vector of `c`: all
 * of the first 1024 and the last 64, every 257th between. */
static int next_checked(int i, int c) { return i < 1024 || i >= c - 64 ? i + 1 : i + 257; }

/* `n` allreduces of distinct counts 1 .. n (MPI_INT, MPI_SUM), as a solver
 * or an AMR code makes them. The send vector is filled once and the sums
 * computed once; each call's checked elements (next_checked: the whole
 * vector up to 1088 elements, then a sample, so that 100,000 counts are not
 * 5e9 checks) are poisoned before it and compared after. Rank 0 prints its mappings after 10 calls and at the
 * end; every rank fails if its mappings grew by more than 64: the cached
 * state of new shapes must not grow without limit. */
static void scenario_counts(int n) {
  int* s = alloc((size_t)n * sizeof(int));
  int* r = alloc((size_t)n * sizeof(int));
  int* want = alloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    s[i] = (int)value(world_rank, 1, i, 0) - 50000;
    long sum = 0;
    for (int q = 0; q < world_size; ++q) sum += value(q, 1, i, 0) - 50000;
    want[i] = (int)sum;
  }
  struct proc_stats early = proc_stats_now();
  for (int c = 1; c <= n; ++c) {
    for (int i = 0; i < c; i = next_checked(i, c)) r[i] = -1;
    check_rc(MPI_Allreduce(s, r, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    ++n_allreduce;
    for (int i = 0; i < c; i = next_checked(i, c)) {
      ++checks;
      if (r[i] != want[i]) FAIL("counts: count %d: element %d is %d, expected %d", c, i, r[i], want[i]);
    }
    if (c == 10) early = proc_stats_now();
  }
  const struct proc_stats late = proc_stats_now();
  if (world_rank == 0)
    printf("preload_client: counts: mappings after 10 calls %ld, after %d calls %ld\n", early.mappings, n,
           late.mappings);
  ++checks;
  if (n > 10 && late.mappings - early.mappings > 64)
    FAIL("counts: %ld mappings after %d calls, %ld after 10", late.mappings, n, early.mappings);
  free(s), free(r), free(want);
}

/* `n` rounds of communicator churn, as a program that makes its
 * communicators in a loop: each round splits MPI_COMM_WORLD (in even rounds
 * by rank parity, in odd ones whole and reversed), duplicates the split,
 * calls allreduce, alltoall and allgather on both (under the preload: new
 * layouts, shapes and shared segments) and frees both. Rank 0 prints what
 * it holds after 10 rounds and at the end; every rank fails if its
 * mappings, file descriptors or /dev/shm entries grew by more than 32, or
 * its resident memory by more than `rss_mib`: whatever a communicator's
 * collectives set up must go with it. */
static void scenario_churn(int n, long rss_mib) {
  const size_t bytes = (size_t)world_size * 16 * sizeof(double);
  void *s = alloc(bytes), *r = alloc(bytes);
  struct proc_stats early = proc_stats_now();
  for (int i = 0; i < n; ++i) {
    MPI_Comm split, dup;
    const int by_parity = i % 2 == 0;
    MPI_Comm_split(MPI_COMM_WORLD, by_parity ? world_rank % 2 : 0, by_parity ? world_rank : -world_rank, &split);
    MPI_Comm_dup(split, &dup);
    const int count = 1 + i % 16;
    do_allreduce(split, MPI_DOUBLE, MPI_SUM, count, i, 0, s, r);
    do_allreduce(dup, MPI_INT, MPI_SUM, 17 - count, i, 1, s, r);
    do_alltoall(dup, K_DOUBLE, count, i, s, r);
    do_allgather(split, K_INT, count, i, 0, s, r);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    if (i + 1 == 10) early = proc_stats_now();
  }
  const struct proc_stats late = proc_stats_now();
  if (world_rank == 0)
    printf(
        "preload_client: churn: after 10 rounds mappings %ld fds %ld shm %ld rss %ld KiB; after %d rounds "
        "mappings %ld fds %ld shm %ld rss %ld KiB\n",
        early.mappings, early.fds, early.shm, early.rss_kib, n, late.mappings, late.fds, late.shm, late.rss_kib);
  ++checks;
  if (n > 10 && (late.mappings - early.mappings > 32 || late.fds - early.fds > 32 || late.shm - early.shm > 32 ||
                 late.rss_kib - early.rss_kib > rss_mib * 1024))
    FAIL("churn: after %d rounds mappings %ld fds %ld shm %ld rss %ld KiB; after 10: %ld %ld %ld %ld KiB", n,
         late.mappings, late.fds, late.shm, late.rss_kib, early.mappings, early.fds, early.shm, early.rss_kib);
  free(s), free(r);
}

/* `n` back-to-back allreduces cycling through the counts 1 .. k (MPI_INT,
 * MPI_SUM): with k above the preload's cache of shapes (MCB_PRELOAD_CACHE),
 * every call is a new shape; with k within it, every call is a cache hit.
 * Rank 0 prints the mean time per call ("cycle: ... us per call"); every
 * result's last element is checked. */
static void scenario_cycle(int n, int k) {
  int *s = alloc((size_t)k * sizeof(int)), *r = alloc((size_t)k * sizeof(int));
  for (int i = 0; i < k; ++i) s[i] = world_rank + i;
  PMPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) {
    const int c = 1 + i % k;
    check_rc(MPI_Allreduce(s, r, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    ++checks;
    if (r[c - 1] != world_size * (world_size - 1) / 2 + world_size * (c - 1))
      FAIL("cycle: count %d: last element %d", c, r[c - 1]);
  }
  const double t = MPI_Wtime() - t0;
  n_allreduce += n;
  if (world_rank == 0) printf("preload_client: cycle: %d calls over %d counts: %.3f us per call\n", n, k, t / n * 1e6);
  free(s), free(r);
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* The median over `n` samples of the slowest rank's time. */
static double median_of_max(double* t, int n) {
  PMPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  qsort(t, (size_t)n, sizeof(double), by_value);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* What a new communicator costs (CP2K makes and frees them as it goes):
 * `n` rounds of MPI_Comm_split of the world, k in-place 8-byte sums on it
 * (CP2K's mp_sum_l) and MPI_Comm_free, for k = 1, 2, 4, 16, 64; the median
 * over rounds of the slowest rank's time per round, and per call. */
static void scenario_newcomm(int n) {
  static const int ks[] = {1, 2, 4, 16, 64};
  double* t = alloc(sizeof(double) * (size_t)n);
  for (size_t z = 0; z < sizeof ks / sizeof *ks; ++z) {
    for (int i = 0; i < n; ++i) {
      PMPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Comm c;
      MPI_Comm_split(MPI_COMM_WORLD, 0, world_rank, &c);
      for (int j = 0; j < ks[z]; ++j) {
        long long v = world_rank + j;
        check_rc(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG_LONG, MPI_SUM, c), "MPI_Allreduce");
        ++checks;
        if (v != (long long)world_size * (world_size - 1) / 2 + (long long)world_size * j)
          FAIL("newcomm: round %d call %d: %lld", i, j, v);
      }
      MPI_Comm_free(&c);
      t[i] = MPI_Wtime() - t0;
    }
    n_allreduce += (long)n * ks[z];
    const double m = median_of_max(t, n);
    if (world_rank == 0)
      printf("preload_client: newcomm: calls %d per_communicator_us %.2f per_call_us %.2f\n", ks[z], m * 1e6,
             m * 1e6 / ks[z]);
  }
  free(t);
}

/* What a call shape's first call costs against the same call once set up
 * (for scripts/preload/preload_first_call.py): per size (1, 100, 1000, 10^4, 10^5
 * ints), 16 first calls of the distinct counts size .. size + 15, then 64
 * calls of the last one, each after a barrier; rank 0 prints the medians of
 * the slowest rank's times as "firstcall: count C first_us F steady_us S".
 * A call of another count comes first (the communicator's own setup). The
 * first and last elements of every result are checked. */
static void scenario_firstcall(void) {
  enum { kFirst = 16, kSteady = 64 };
  static const int sizes[] = {1, 100, 1000, 10000, 100000};
  const int most = 100000 + kFirst;
  int *s = alloc((size_t)most * sizeof(int)), *r = alloc((size_t)most * sizeof(int));
  for (int i = 0; i < most; ++i) s[i] = world_rank + i % 7;
  const int base = world_size * (world_size - 1) / 2;
  MPI_Allreduce(s, r, 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ++n_allreduce;
  double first[kFirst], steady[kSteady];
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z) {
    for (int k = 0; k < kFirst + kSteady; ++k) {
      const int c = sizes[z] + (k < kFirst ? k : kFirst - 1);
      PMPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      check_rc(MPI_Allreduce(s, r, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
      const double t = MPI_Wtime() - t0;
      ++n_allreduce;
      if (k < kFirst)
        first[k] = t;
      else
        steady[k - kFirst] = t;
      checks += 2;
      if (r[0] != base || r[c - 1] != base + world_size * ((c - 1) % 7))
        FAIL("firstcall: count %d: elements 0 and %d are %d and %d", c, c - 1, r[0], r[c - 1]);
    }
    const double f = median_of_max(first, kFirst), st = median_of_max(steady, kSteady);
    if (world_rank == 0)
      printf("preload_client: firstcall: count %d first_us %.2f steady_us %.2f\n", sizes[z], f * 1e6, st * 1e6);
  }
  free(s), free(r);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair_type);
  MPI_Type_commit(&pair_type);
  const char* scenario = argc > 1 ? argv[1] : "all";
  for (int i = 2; i < argc; ++i)
    if (!strcmp(argv[i], "--whole-nodes") && i + 1 < argc) whole_nodes = atoi(argv[++i]);

  if (!strcmp(scenario, "all"))
    scenario_all();
  else if (!strcmp(scenario, "bcast"))
    scenario_bcast();
  else if (!strcmp(scenario, "buffers"))
    scenario_buffers();
  else if (!strcmp(scenario, "memo"))
    scenario_memo();
  else if (!strcmp(scenario, "noncontig"))
    scenario_noncontig();
  else if (!strcmp(scenario, "intercomm"))
    scenario_intercomm();
  else if (!strcmp(scenario, "in_place"))
    scenario_in_place();
  else if (!strcmp(scenario, "mismatch"))
    scenario_mismatch();
  else if (!strcmp(scenario, "user_op"))
    scenario_ops(1);
  else if (!strcmp(scenario, "non_commutative_op"))
    scenario_ops(0);
  else if (!strcmp(scenario, "type"))
    scenario_type();
  else if (!strcmp(scenario, "overflow"))
    scenario_overflow();
  else if (!strcmp(scenario, "empty"))
    scenario_empty();
  else if (!strcmp(scenario, "invalid"))
    scenario_invalid();
  else if (!strcmp(scenario, "subcomm"))
    scenario_subcomm();
  else if (!strcmp(scenario, "counts"))
    scenario_counts(argc > 2 ? atoi(argv[2]) : 1000);
  else if (!strcmp(scenario, "churn"))
    scenario_churn(argc > 2 ? atoi(argv[2]) : 1000, argc > 3 ? atol(argv[3]) : 16);
  else if (!strcmp(scenario, "firstcall"))
    scenario_firstcall();
  else if (!strcmp(scenario, "newcomm"))
    scenario_newcomm(argc > 2 ? atoi(argv[2]) : 200);
  else if (!strcmp(scenario, "cycle"))
    scenario_cycle(argc > 2 ? atoi(argv[2]) : 200000, argc > 3 ? atoi(argv[3]) : 64);
  else {
    if (world_rank == 0) fprintf(stderr, "preload_client: unknown scenario '%s'\n", scenario);
    MPI_Finalize();
    return 2;
  }

  long totals[2] = {checks, errors};
  PMPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) {
    if (totals[1] == 0)
      printf("preload_client: %s: %ld checks passed\n", scenario, totals[0]);
    else
      printf("preload_client: %s: %ld of %ld checks failed\n", scenario, totals[1], totals[0]);
    printf("preload_client: calls: alltoall=%ld allgather=%ld allreduce=%ld\n", n_alltoall, n_allgather, n_allreduce);
    printf("preload_client: bcast: calls=%ld from_root0=%ld\n", n_bcast, n_bcast_root0);
    fflush(stdout);
  }
  MPI_Type_free(&pair_type);
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
