// Progress of a long sweep on rank 0's stderr (--progress SECONDS), so that
// a batch job of many sizes and algorithms is not a black box:
//
//   mcb_alltoall: progress 12/96 (12%): node_aware inner=pairwise, 4096 B, 2 nodes; elapsed 1m02s, ETA 7m35s
//   mcb_alltoall: done 96/96 steps in 9m40s
//
// A step is one measurement: one size of one configuration in one phase
// mode on one node count. Only the process constructed with `enabled` (world
// rank 0) keeps time and prints; the others do nothing. Time is MPI_Wtime
// on that process alone: no communication, and the check runs between
// sizes, outside the timed loop.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace mcb::bench {

/// "45s", "1m02s", "1h03m": seconds rounded to whole seconds (minutes above an hour).
std::string format_duration(double seconds);

class Progress {
 public:
  /// `total` steps; a line at most every `interval` seconds (0: after every
  /// step). Starts the clock.
  Progress(std::string binary, long total, double interval, bool enabled, std::FILE* out = stderr);

  /// One step done: `config` ("node_aware inner=pairwise"), `bytes`, on
  /// `nodes` nodes. Prints a line when `interval` has passed since the last.
  void step(const std::string& config, std::size_t bytes, int nodes);

  /// `steps` that will not run (a configuration skipped as not applicable)
  /// count as done, so that the ETA covers only what is left.
  void skip(long steps);

  /// The closing "done" line, when the run took longer than `interval`.
  void finish();

 private:
  std::string binary_;
  long total_ = 0, done_ = 0;
  double interval_ = 0, start_ = 0, last_ = 0;
  bool enabled_ = false;
  std::FILE* out_ = nullptr;
};

}  // namespace mcb::bench
