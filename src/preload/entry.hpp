// What the preload's C entry points (preload.cpp) and its Fortran ones
// (fortran.cpp) share: starting after the MPI's own init, whether a
// collective is intercepted now, and finishing before the MPI's own
// finalize. A language's entry point only converts its arguments and calls
// these and serve() (serve.hpp).
#pragma once

#include <mpi.h>

#include <atomic>

#include "config.hpp"
#include "guard.hpp"

namespace mcb::preload {

extern std::atomic<const Config*> g_config;

/// After the MPI's init (or on the first intercepted call of a program that
/// initialized MPI past the preload): reads the environment, refuses a bad
/// value (one line from rank 0, exit status 2 on every rank), makes the
/// keyvals. Runs once.
void start();

/// Rank in MPI_COMM_WORLD (for virtual nodes and the report).
int world_rank();

/// Before the MPI's finalize: the report, then the caches freed (their
/// communicators, windows and shared segments). Once; later calls do nothing.
void finish();

/// The configuration if `c` is to be served now (set, not inside the
/// preload's own calls, MPI initialized and not finalized), else nullptr.
const Config* active_slow(Coll c);
inline const Config* active(Coll c) {
  if (busy()) return nullptr;
  const Config* cfg = g_config.load(std::memory_order_acquire);
  if (!cfg) return active_slow(c);
  return (*cfg)[c].enabled ? cfg : nullptr;
}

}  // namespace mcb::preload
