// What the preload counts (calls served by the mcb algorithm, calls sent to
// the MPI's own collective and why, time spent, plans made) and the report
// that MCB_PRELOAD_REPORT prints at MPI_Finalize from rank 0 of
// MPI_COMM_WORLD: this process's own calls and times, one line per
// collective and one per fallback reason, in a fixed key=value format that
// tests and scripts parse (docs/preload.md).
#pragma once

#include <mutex>
#include <string>

#include "config.hpp"

namespace mcb::preload {

/// Why a call went to the MPI's own collective.
enum class Reason {
  intercomm,           // an intercommunicator
  in_place,            // MPI_IN_PLACE where the algorithm has no in-place form (alltoall)
  type_mismatch,       // send count x size differs from receive count x size
  type,                // allreduce on a type the algorithms do not reduce (derived, pair, or not for this op)
  user_op,             // a user-defined (commutative) reduction operation
  non_commutative_op,  // a non-commutative reduction operation
  overflow,            // the bytes of a call do not fit in an int
  empty,               // nothing to move (count 0)
  layout,              // Algorithm::unsupported on this communicator's layout (uneven nodes, ...)
  setup_error,         // the algorithm refused this call when making its plan (a radix above P, ...)
  invalid,             // a null communicator or type, a negative count, a root out of range: the MPI reports it
  deferred,            // before the communicator's set-up (MCB_PRELOAD_SETUP=N: its first N-1 servable calls)
  displacements,       // a v-form's displacements other than its blocks packed in rank order
};
constexpr int kReasons = 13;
const char* reason_name(Reason r);

struct CollStats {
  long calls = 0, served = 0, fallback = 0;
  long fortran = 0;  // of the calls, those made through a Fortran entry point of the preload
  long single = 0;   // served calls on a communicator of one rank: a copy (or nothing), no setup
  long packed = 0;   // served calls that packed a non-contiguous type through a staging buffer
  long reasons[kReasons] = {};
  std::string first_why[kReasons];            // the first message, for layout and setup_error
  double time_served = 0, time_fallback = 0;  // seconds inside the intercepted calls
  double time_setup = 0;                      // of which layouts and plans (in served and fallback calls)
  long layouts = 0;                           // communicator layouts made (first call on a communicator)
  long shapes = 0, shapes_evicted = 0;        // call shapes (count, type, op) set up, and dropped
  long plans = 0, plans_evicted = 0;          // plans made (per buffer pair), and dropped
  long agreements = 0;                        // calls that agreed on a rebuild (Choice::agreed)
};

class Stats {
 public:
  /// Adds under the lock.
  template <class F>
  void update(Coll c, F&& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    f(coll_[index(c)]);
  }
  CollStats get(Coll c) {
    std::lock_guard<std::mutex> lock(mutex_);
    return coll_[index(c)];
  }

 private:
  std::mutex mutex_;
  CollStats coll_[kColls];
};

Stats& stats();

/// The report block, every line ending in '\n'.
std::string format_report(const Config& cfg, int world_size);

/// Writes the report where cfg.report says (rank 0 of MPI_COMM_WORLD only).
void write_report(const Config& cfg, int world_size);

}  // namespace mcb::preload
