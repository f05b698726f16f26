/* What both preload clients (tests/preload/preload_client.c,
 * preload_soak.c) share: the count of checks and failures (at most 20
 * failures printed), and the elements they check alltoall and allgather
 * with. A (from, to, index) triple stands for a small integer, stored as a
 * byte (wrapping), an int, a double (+ 0.5) or a derived type of two doubles
 * (v, -v - 0.25), the client's own: preload_client's contiguous pair
 * (stride 2, the second double at 1), preload_soak's vector with a hole
 * (stride 3, at 2). */
#ifndef MCB_TESTS_CHECKS_H
#define MCB_TESTS_CHECKS_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

static int world_rank;
static long checks, errors;

#define FAIL(...)                                       \
  do {                                                  \
    if (errors++ < 20) {                                \
      fprintf(stderr, "rank %d: FAILED: ", world_rank); \
      fprintf(stderr, __VA_ARGS__);                     \
      fprintf(stderr, "\n");                            \
    }                                                   \
  } while (0)

static void check_rc(int rc, const char* what) {
  ++checks;
  if (rc != MPI_SUCCESS) FAIL("%s returned %d", what, rc);
}

enum kind { K_BYTE, K_INT, K_DOUBLE, K_DERIVED, NKINDS };

struct derived_layout {
  int stride; /* doubles from one element to the next */
  int second; /* where the second double is, from the first */
};

/* The bytes of data in one element (a derived type's two doubles). */
static size_t kind_bytes(enum kind k) {
  return k == K_BYTE ? 1 : k == K_INT ? sizeof(int) : k == K_DOUBLE ? sizeof(double) : 2 * sizeof(double);
}

static long value(int from, int to, long i, long salt) { return (from * 131 + to * 17 + i * 7 + salt * 3) % 100000; }

static void put_element(enum kind k, struct derived_layout d, void* buf, long at, long v) {
  switch (k) {
    case K_BYTE:
      ((unsigned char*)buf)[at] = (unsigned char)(v & 0xff);
      break;
    case K_INT:
      ((int*)buf)[at] = (int)v;
      break;
    case K_DOUBLE:
      ((double*)buf)[at] = (double)v + 0.5;
      break;
    default:
      ((double*)buf)[d.stride * at] = (double)v;
      ((double*)buf)[d.stride * at + d.second] = -(double)v - 0.25;
  }
}

static int same_element(enum kind k, struct derived_layout d, const void* buf, long at, long v) {
  const double* x = (const double*)buf;
  switch (k) {
    case K_BYTE:
      return ((const unsigned char*)buf)[at] == (unsigned char)(v & 0xff);
    case K_INT:
      return ((const int*)buf)[at] == (int)v;
    case K_DOUBLE:
      return x[at] == (double)v + 0.5;
    default:
      return x[d.stride * at] == (double)v && x[d.stride * at + d.second] == -(double)v - 0.25;
  }
}

#endif
