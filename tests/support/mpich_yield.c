/* LD_PRELOAD shim for oversubscribed MPICH (ch4:ucx) test runs: MPICH 4.0
 * polls ucp_worker_progress without ever yielding the CPU, so with more ranks
 * than cores a collective takes ~100x longer. When a progress call found
 * nothing to do, sleep for a microsecond. Used by the test driver only when
 * ranks > cores; never part of a measurement. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

typedef unsigned (*progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker) {
  static progress_fn real;
  if (!real) real = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
  unsigned n = real(worker);
  if (n == 0) {
    struct timespec ts = {0, 1000};
    nanosleep(&ts, 0);
  }
  return n;
}
