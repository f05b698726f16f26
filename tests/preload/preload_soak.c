/* preload_soak: a long run of random MPI_Alltoall, MPI_Allgather and
 * MPI_Allreduce calls for the libmcb_preload.so tests, every element of
 * every result checked against values the program computes itself, while
 * communicators are made and freed; it prints what the process holds as it
 * goes, so that a leak or a wrong result after thousands of calls shows.
 *
 *   preload_soak [--calls N] [--seconds S] [--seed X] [--every SEC]
 *                [--max-bytes B]
 *
 *   --calls N      stop after N calls (default 2000; 0: no limit, which
 *                  needs --seconds)
 *   --seconds S    stop after S seconds (default 0: no limit); the first of
 *                  the two limits stops the run
 *   --seed X       the random choices' seed (default 1)
 *   --every SEC    a progress line every SEC seconds (default 0: none)
 *   --max-bytes B  the largest block (alltoall, allgather) or vector
 *                  (allreduce) in bytes (default 1048576)
 *
 * Every step a random generator, seeded alike on every rank, decides the
 * same on every rank: now and then a pool action (a communicator of up to 3
 * parts split from MPI_COMM_WORLD, in world or reversed order, or a
 * duplicate of the world or of a pool member, made; or a pool member freed;
 * at most 4 live), then the communicator of the call (the world or a pool
 * member), the collective (allreduce 3 in 5, alltoall and allgather 1 in 5
 * each) and its shape: a size drawn log-uniformly; for allreduce one of 12
 * types (integers of every width, float, double, MPI_2INT) and an op for it,
 * in place or not, and in 1 of 20 a user-defined op that the preload passes
 * to the MPI; for alltoall and allgather MPI_BYTE, MPI_INT, MPI_DOUBLE or a
 * non-contiguous vector of 2 doubles, allgather in place or not. Element
 * values depend on the rank and the step and make every result exact.
 *
 * Lines, from rank 0 ("end" is printed always; the maxima are over ranks;
 * checks are all ranks'; served and fallback are rank 0's preload counters
 * from mcb_preload_counts, -1 without the preload):
 *   preload_soak: [end] t=T calls=N checks=C rss_kib=R mappings=M fds=F
 *                 shm=S served=V fallback=B comms=L
 *   preload_soak: N checks passed      (or: E of N checks failed)
 *   preload_soak: calls: alltoall=A allgather=B allreduce=C
 * Exit status 0, 1 on failed checks, 2 on bad arguments. The program's own
 * bookkeeping uses PMPI_* so that the preload does not count it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "proc_stats.h"

static long n_alltoall, n_allgather, n_allreduce;
static long opt_calls = 2000, opt_max_bytes = 1048576;
static double opt_seconds, opt_every;
static unsigned long long opt_seed = 1;

/* ---- the random choices: the same sequence on every rank ---- */

static uint64_t rng_state;

static uint64_t mix(uint64_t x) { /* splitmix64's finalizer */
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
static uint64_t rnd64(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}
static long rnd(long n) { return (long)(rnd64() % (uint64_t)n); }

/* Bytes in [1, most], log-uniform: an octave [2^e, 2^(e+1)) drawn uniformly,
 * then a size in it. Always two draws, whatever `most` is. */
static long draw_bytes(long most) {
  int bits = 0;
  while ((2L << bits) <= most) ++bits;
  const long low = 1L << rnd(bits + 1);
  const long width = low < most - low + 1 ? low : most - low + 1;
  return low + rnd(width);
}

static void* grow(void** buf, size_t* cap, size_t bytes) {
  if (bytes > *cap) {
    free(*buf);
    *buf = malloc(bytes);
    if (!*buf) {
      fprintf(stderr, "rank %d: out of memory (%zu bytes)\n", world_rank, bytes);
      exit(3);
    }
    *cap = bytes;
  }
  return *buf;
}
static void *send_buf, *recv_buf;
static size_t send_cap, recv_cap;

/* ---- allreduce: types, ops and values that make every result exact ---- */

enum tkind { T_SIGNED, T_UNSIGNED, T_FLOAT, T_PAIR };
struct rtype {
  const char* name;
  enum tkind kind;
  int size;
  MPI_Datatype type;
};
enum { NRTYPES = 12, RT_INT = 8 };
static struct rtype rtypes[NRTYPES];

static void init_rtypes(void) {
  const struct rtype t[NRTYPES] = {
      {"int8", T_SIGNED, 1, MPI_INT8_T},       {"uint8", T_UNSIGNED, 1, MPI_UINT8_T},
      {"int16", T_SIGNED, 2, MPI_INT16_T},     {"uint16", T_UNSIGNED, 2, MPI_UINT16_T},
      {"int32", T_SIGNED, 4, MPI_INT32_T},     {"uint32", T_UNSIGNED, 4, MPI_UINT32_T},
      {"int64", T_SIGNED, 8, MPI_INT64_T},     {"uint64", T_UNSIGNED, 8, MPI_UINT64_T},
      {"int", T_SIGNED, sizeof(int), MPI_INT}, {"float", T_FLOAT, 4, MPI_FLOAT},
      {"double", T_FLOAT, 8, MPI_DOUBLE},      {"2int", T_PAIR, 2 * sizeof(int), MPI_2INT}};
  memcpy(rtypes, t, sizeof t);
}

enum op { O_SUM, O_PROD, O_MIN, O_MAX, O_BAND, O_BOR, O_BXOR, O_MAXLOC, O_MINLOC, O_USER };
static const char* op_name[] = {"sum", "prod", "min", "max", "band", "bor", "bxor", "maxloc", "minloc", "user_sum"};
static MPI_Op user_op; /* a commutative int sum: the preload passes it to the MPI */

static MPI_Op mpi_op(enum op o) {
  const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
  return o == O_USER ? user_op : ops[o];
}
static int bitwise(enum op o) { return o == O_BAND || o == O_BOR || o == O_BXOR; }

static void int_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}

/* An integer's low `size` bytes (modular: the type's own arithmetic;
 * little-endian, as every machine mcb runs on, here and in the loads). */
static void store_bits(void* p, int size, uint64_t u) { memcpy(p, &u, (size_t)size); }
static void store_num(const struct rtype* rt, void* p, int64_t v) {
  const float f = (float)v;
  const double d = (double)v;
  if (rt->kind != T_FLOAT)
    store_bits(p, rt->size, (uint64_t)v);
  else if (rt->size == 4)
    memcpy(p, &f, 4);
  else
    memcpy(p, &d, 8);
}
/* An integer of `size` bytes, zero- or sign-extended. */
static uint64_t load_unsigned(const void* p, int size) {
  uint64_t v = 0;
  memcpy(&v, p, (size_t)size);
  return v;
}
static int64_t load_signed(const void* p, int size) {
  const int unused = 64 - 8 * size;
  return (int64_t)(load_unsigned(p, size) << unused) >> unused;
}
static double load_float(const struct rtype* rt, const void* p) {
  float f;
  double d;
  return rt->size == 4 ? (memcpy(&f, p, 4), f) : (memcpy(&d, p, 8), d);
}
static int cmp_elem(const struct rtype* rt, const void* a, const void* b) { /* in the type */
  if (rt->kind == T_FLOAT) {
    const double x = load_float(rt, a), y = load_float(rt, b);
    return (x > y) - (x < y);
  }
  if (rt->kind == T_UNSIGNED) {
    const uint64_t x = load_unsigned(a, rt->size), y = load_unsigned(b, rt->size);
    return (x > y) - (x < y);
  }
  const int64_t x = load_signed(a, rt->size), y = load_signed(b, rt->size);
  return (x > y) - (x < y);
}
static void show(const struct rtype* rt, const void* p, char* out, size_t n) {
  if (rt->kind == T_PAIR) {
    int pair[2];
    memcpy(pair, p, sizeof pair);
    snprintf(out, n, "(%d, %d)", pair[0], pair[1]);
  } else if (rt->kind == T_FLOAT) {
    snprintf(out, n, "%g", load_float(rt, p));
  } else if (rt->kind == T_UNSIGNED) {
    snprintf(out, n, "%llu", (unsigned long long)load_unsigned(p, rt->size));
  } else {
    snprintf(out, n, "%lld", (long long)load_signed(p, rt->size));
  }
}

/* Element k of rank i of p ranks: sums stay within [-3p, 3p] ([0, 6p] in
 * unsigned types), products within [-8, 8] ([1, 27] in unsigned types; at
 * most 3 ranks hold a value other than 1), so that no sum or product
 * overflows its type for up to 42 ranks (Open MPI 4.1's op/avx saturates
 * 8- and 16-bit sums, open-mpi/ompi#8045); min and max values within
 * [-100, 100], wrapped in unsigned types (a signed compare there shows). */
static int64_t arith_value(const struct rtype* rt, enum op o, long i, long k, long salt, int p) {
  static const int64_t prod[2][3] = {{-1, 2, 1}, {3, 2, 1}};
  const int u = rt->kind == T_UNSIGNED;
  if (o == O_PROD) return (i + k) % p < 3 ? prod[u][(i + k + salt) % 3] : 1;
  if (o == O_MIN || o == O_MAX) return (i * 13 + k * 5 + salt) % 201 - 100;
  return (i * 7 + k * 3 + salt) % 7 - (u ? 0 : 3); /* sum, user sum */
}
static uint64_t bits_value(long i, long k, long salt) {
  const uint64_t b = (uint64_t)((i * 37 + k * 11 + salt * 5) & 0xff);
  return (b * 0x0101010101010101ull) ^ ((uint64_t)(i + 1) << (k % 8 * 8));
}
static void put_elem(const struct rtype* rt, enum op o, void* at, long k, int i, int p, long salt) {
  if (rt->kind == T_PAIR) {
    const int pair[2] = {(int)((i * 7 + k + salt) % p), i};
    memcpy(at, pair, sizeof pair);
  } else if (bitwise(o)) {
    store_bits(at, rt->size, bits_value(i, k, salt));
  } else {
    store_num(rt, at, arith_value(rt, o, i, k, salt, p));
  }
}
/* The result's element k, computed here: sums and products in int64 and
 * then converted, min and max compared in the type, bits in uint64. */
static void want_elem(const struct rtype* rt, enum op o, void* out, long k, int p, long salt) {
  if (rt->kind == T_PAIR) {
    int best[2] = {0, 0};
    for (int q = 0; q < p; ++q) { /* ties: the lowest index, the first met */
      const int v = (int)((q * 7 + k + salt) % p);
      if (q == 0 || (o == O_MAXLOC ? v > best[0] : v < best[0])) best[0] = v, best[1] = q;
    }
    memcpy(out, best, sizeof best);
  } else if (bitwise(o)) {
    uint64_t acc = bits_value(0, k, salt);
    for (int q = 1; q < p; ++q) {
      const uint64_t v = bits_value(q, k, salt);
      acc = o == O_BAND ? acc & v : o == O_BOR ? acc | v : acc ^ v;
    }
    store_bits(out, rt->size, acc);
  } else if (o == O_MIN || o == O_MAX) {
    char cand[8];
    for (int q = 0; q < p; ++q) {
      put_elem(rt, o, cand, k, q, p, salt);
      const int c = q == 0 ? 0 : cmp_elem(rt, cand, out);
      if (q == 0 || (o == O_MIN ? c < 0 : c > 0)) memcpy(out, cand, rt->size);
    }
  } else {
    int64_t acc = o == O_PROD ? 1 : 0;
    for (int q = 0; q < p; ++q) {
      const int64_t v = arith_value(rt, o, q, k, salt, p);
      acc = o == O_PROD ? acc * v : acc + v;
    }
    store_num(rt, out, acc);
  }
}

static void do_allreduce(MPI_Comm comm, long step) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  const int user = rnd(20) == 0;
  const struct rtype* rt = &rtypes[user ? RT_INT : rnd(NRTYPES)];
  const enum op o = user                  ? O_USER
                    : rt->kind == T_PAIR  ? (enum op)(O_MAXLOC + rnd(2))
                    : rt->kind == T_FLOAT ? (enum op)rnd(4)
                                          : (enum op)rnd(7);
  const int in_place = (int)rnd(2);
  long count = draw_bytes(opt_max_bytes) / rt->size;
  if (count < 1) count = 1;
  const size_t bytes = (size_t)count * rt->size;
  char* send = grow(&send_buf, &send_cap, bytes);
  char* recv = grow(&recv_buf, &recv_cap, bytes);
  char* mine = in_place ? recv : send;
  if (!in_place) memset(recv, 0xee, bytes);
  for (long k = 0; k < count; ++k) put_elem(rt, o, mine + k * rt->size, k, r, p, step);
  check_rc(MPI_Allreduce(in_place ? MPI_IN_PLACE : send, recv, (int)count, rt->type, mpi_op(o), comm), "MPI_Allreduce");
  ++n_allreduce;
  for (long k = 0; k < count; ++k) {
    char want[8], got_s[48], want_s[48];
    want_elem(rt, o, want, k, p, step);
    ++checks;
    if (memcmp(recv + k * rt->size, want, rt->size)) {
      show(rt, recv + k * rt->size, got_s, sizeof got_s);
      show(rt, want, want_s, sizeof want_s);
      FAIL("step %ld: allreduce %s %s count %ld%s on %d ranks: element %ld is %s, expected %s", step, rt->name,
           op_name[o], count, in_place ? " in place" : "", p, k, got_s, want_s);
    }
  }
}

/* ---- alltoall and allgather: element kinds ---- */

/* K_DERIVED (checks.h): vec_type */
static const char* kind_name[] = {"byte", "int", "double", "vector"};
static MPI_Datatype vec_type; /* vector(2, 1, 2) of doubles: doubles 0 and 2 of its 3, a hole between */

static MPI_Datatype kind_type(enum kind k) {
  return k == K_BYTE ? MPI_BYTE : k == K_INT ? MPI_INT : k == K_DOUBLE ? MPI_DOUBLE : vec_type;
}
static size_t kind_extent(enum kind k) { return k == K_DERIVED ? 3 * sizeof(double) : kind_bytes(k); }

static const struct derived_layout vec_layout = {3, 2};
static void put(enum kind k, void* buf, long at, long v) { put_element(k, vec_layout, buf, at, v); }
/* Whether element `at` holds v; of a vector, also that its hole is still
 * the poison (0xee) the receive buffer was filled with. */
static int same(enum kind k, const void* buf, long at, long v) {
  static const unsigned char poison[8] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
  return same_element(k, vec_layout, buf, at, v) &&
         (k != K_DERIVED || !memcmp((const double*)buf + vec_layout.stride * at + 1, poison, 8));
}

static void do_alltoall(MPI_Comm comm, long step) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  const enum kind k = (enum kind)rnd(NKINDS);
  long most = 4 * opt_max_bytes / p; /* p blocks within 4 x max-bytes */
  if (most > opt_max_bytes) most = opt_max_bytes;
  if (most < 1) most = 1;
  long count = draw_bytes(most) / (long)kind_bytes(k);
  if (count < 1) count = 1;
  const size_t bytes = (size_t)p * count * kind_extent(k);
  void* send = grow(&send_buf, &send_cap, bytes);
  void* recv = grow(&recv_buf, &recv_cap, bytes);
  for (int to = 0; to < p; ++to)
    for (long i = 0; i < count; ++i) put(k, send, to * count + i, value(r, to, i, step));
  memset(recv, 0xee, bytes);
  check_rc(MPI_Alltoall(send, (int)count, kind_type(k), recv, (int)count, kind_type(k), comm), "MPI_Alltoall");
  ++n_alltoall;
  for (int from = 0; from < p; ++from)
    for (long i = 0; i < count; ++i) {
      ++checks;
      if (!same(k, recv, from * count + i, value(from, r, i, step)))
        FAIL("step %ld: alltoall %s count %ld on %d ranks: block %d element %ld", step, kind_name[k], count, p, from,
             i);
    }
}

static void do_allgather(MPI_Comm comm, long step) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  const enum kind k = (enum kind)rnd(NKINDS);
  const int in_place = (int)rnd(2);
  long count = draw_bytes(opt_max_bytes) / (long)kind_bytes(k);
  if (count < 1) count = 1;
  void* send = grow(&send_buf, &send_cap, (size_t)count * kind_extent(k));
  void* recv = grow(&recv_buf, &recv_cap, (size_t)p * count * kind_extent(k));
  memset(recv, 0xee, (size_t)p * count * kind_extent(k));
  for (long i = 0; i < count; ++i) put(k, in_place ? recv : send, (in_place ? r * count : 0) + i, value(r, 0, i, step));
  check_rc(
      MPI_Allgather(in_place ? MPI_IN_PLACE : send, (int)count, kind_type(k), recv, (int)count, kind_type(k), comm),
      "MPI_Allgather");
  ++n_allgather;
  for (int from = 0; from < p; ++from)
    for (long i = 0; i < count; ++i) {
      ++checks;
      if (!same(k, recv, from * count + i, value(from, 0, i, step)))
        FAIL("step %ld: allgather %s count %ld%s on %d ranks: block %d element %ld", step, kind_name[k], count,
             in_place ? " in place" : "", p, from, i);
    }
}

/* ---- the communicator pool ---- */

enum { POOL = 4 };
static MPI_Comm pool[POOL];
static int npool;

/* In 1 step of 8: make a communicator (a split of the world into 1 to 3
 * parts, cyclic or hashed, in world or reversed order; or a duplicate of
 * the world or of a pool member) or free a pool member. */
static void pool_action(void) {
  if (rnd(8) != 0) return;
  const int make = npool == 0 || (npool < POOL && rnd(2));
  if (!make) {
    const long j = rnd(npool);
    MPI_Comm_free(&pool[j]);
    pool[j] = pool[--npool];
    return;
  }
  MPI_Comm c;
  if (rnd(2)) {
    const long colors = 1 + rnd(3);
    const uint64_t v = rnd64();
    const int hashed = (int)rnd(2), reversed = (int)rnd(2);
    const uint64_t h = hashed ? mix(v + (uint64_t)world_rank) : v + (uint64_t)world_rank;
    MPI_Comm_split(MPI_COMM_WORLD, (int)(h % (uint64_t)colors), reversed ? -world_rank : world_rank, &c);
  } else {
    const long j = rnd(npool + 1);
    MPI_Comm_dup(j == 0 ? MPI_COMM_WORLD : pool[j - 1], &c);
  }
  pool[npool++] = c;
}

/* ---- progress ---- */

static void (*preload_counts)(long*, long*, long*);

/* One line from rank 0 (collective over the world): the maxima over ranks
 * of what each holds, all ranks' checks, rank 0's preload counters. */
static void report(const char* tag, double t, long calls) {
  const struct proc_stats s = proc_stats_now();
  long mine[3] = {s.rss_kib, s.mappings, s.fds}, top[3], all_checks = 0;
  PMPI_Reduce(mine, top, 3, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&checks, &all_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world_rank != 0) return;
  long total = -1, served = -1, fallback = -1;
  if (preload_counts) preload_counts(&total, &served, &fallback);
  printf(
      "preload_soak:%s t=%.1f calls=%ld checks=%ld rss_kib=%ld mappings=%ld fds=%ld shm=%ld served=%ld fallback=%ld "
      "comms=%d\n",
      tag, t, calls, all_checks, top[0], top[1], top[2], s.shm, served, fallback, npool);
  fflush(stdout);
}

/* NULL, or the argument that is wrong. */
static const char* parse(int argc, char** argv) {
  for (int a = 1; a < argc; a += 2) {
    const char *name = argv[a], *v = a + 1 < argc ? argv[a + 1] : "";
    char* end = NULL;
    int ok = 1;
    errno = 0;
    if (!strcmp(name, "--calls")) {
      opt_calls = strtol(v, &end, 10), ok = opt_calls >= 0;
    } else if (!strcmp(name, "--seconds")) {
      opt_seconds = strtod(v, &end), ok = opt_seconds >= 0;
    } else if (!strcmp(name, "--seed")) {
      opt_seed = strtoull(v, &end, 0);
    } else if (!strcmp(name, "--every")) {
      opt_every = strtod(v, &end), ok = opt_every >= 0;
    } else if (!strcmp(name, "--max-bytes")) {
      opt_max_bytes = strtol(v, &end, 10), ok = opt_max_bytes >= 1 && opt_max_bytes <= (1L << 30);
    } else {
      return name;
    }
    if (!ok || errno || end == v || *end) {
      static char bad[160];
      snprintf(bad, sizeof bad, "%s%s%s", name, *v ? " " : "", v);
      return bad;
    }
  }
  if (opt_calls == 0 && !(opt_seconds > 0)) return "--calls 0 (no limit at all without --seconds)";
  return NULL;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const char* bad = parse(argc, argv);
  if (bad) {
    if (world_rank == 0)
      fprintf(stderr,
              "preload_soak: bad argument '%s'; usage: preload_soak [--calls N] [--seconds S] [--seed X] "
              "[--every SEC] [--max-bytes B]\n",
              bad);
    MPI_Finalize();
    return 2;
  }
  rng_state = mix(opt_seed + 0x9e3779b97f4a7c15ull);
  if (!rng_state) rng_state = 1;
  init_rtypes();
  MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vec_type);
  MPI_Type_commit(&vec_type);
  MPI_Op_create(int_sum, 1, &user_op);
  preload_counts = (void (*)(long*, long*, long*))dlsym(RTLD_DEFAULT, "mcb_preload_counts");

  PMPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  double last = start;
  long step = 0;
  for (;; ++step) {
    int flags = 0; /* 1: stop; 2: a progress line */
    if (world_rank == 0) {
      const double now = MPI_Wtime();
      if ((opt_calls > 0 && step >= opt_calls) || (opt_seconds > 0 && now - start >= opt_seconds))
        flags |= 1;
      else if (opt_every > 0 && now - last >= opt_every)
        flags |= 2, last = now;
    }
    PMPI_Bcast(&flags, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (flags & 1) break;
    if (flags & 2) report("", MPI_Wtime() - start, step);
    pool_action();
    const long j = rnd(npool + 1);
    const MPI_Comm comm = j == 0 ? MPI_COMM_WORLD : pool[j - 1];
    const long which = rnd(5);
    if (which < 3)
      do_allreduce(comm, step);
    else if (which == 3)
      do_alltoall(comm, step);
    else
      do_allgather(comm, step);
  }

  while (npool > 0) MPI_Comm_free(&pool[--npool]);
  MPI_Type_free(&vec_type);
  MPI_Op_free(&user_op);
  free(send_buf), free(recv_buf);
  report(" end", MPI_Wtime() - start, step);
  long totals[2] = {checks, errors};
  PMPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) {
    if (totals[1] == 0)
      printf("preload_soak: %ld checks passed\n", totals[0]);
    else
      printf("preload_soak: %ld of %ld checks failed\n", totals[1], totals[0]);
    printf("preload_soak: calls: alltoall=%ld allgather=%ld allreduce=%ld\n", n_alltoall, n_allgather, n_allreduce);
    fflush(stdout);
  }
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
