// Local work in simulated time (the simulation build, -DMCB_SIMULATE=ON).
// Under SimGrid SMPI, mcb runs with smpi/simulate-computation:no, so what a
// rank does between two MPI calls takes no simulated time. In the
// simulation build every copy and fill of the memory backends and every
// reduction of mcb's reduce functions (and MPI_Reduce_local) adds its cost
// to the rank's pending charge:
//   copy or fill of n bytes:               call + n / copy_bw
//   reduction reading n bytes of operands: call + n / reduce_bw
// with the per-core rates and per-call overhead of the platform (host
// properties mcb/copy-bw, mcb/reduce-bw, mcb/call-overhead, written by
// scripts/sim/platforms/make_platforms.py). The pending charge is spent as one
// computation of the rank's core (smpi_execute_benched: exact and
// deterministic) right before the rank's next MPI call, so that a batch of
// copies delays the message that follows it, and MPI_Wtime sees it.
// Copies skipped inside shared buffers (--sim-shared-malloc) are charged
// all the same. In every other build these are empty inline functions.
#pragma once

#include <cstddef>
#include <string>

namespace mcb::local_work {

#ifdef MCB_SIMULATE
/// A copy or fill of `bytes`.
void copy(std::size_t bytes);
/// A reduction that reads `bytes` of operands (k inputs of n bytes: k * n).
void reduce(std::size_t bytes);
/// Spends the pending charge now (the MPI wrappers call it).
void charge();
/// --sim-local-work on|off (default on).
void enable(bool on);
/// What the header says: the rates charged, or why nothing is.
std::string describe();
/// Whether local work costs simulated time: on, and the platform has rates.
bool charged();
#else
inline void copy(std::size_t) {}
inline void reduce(std::size_t) {}
inline void charge() {}
inline bool charged() { return false; }
#endif

}  // namespace mcb::local_work
