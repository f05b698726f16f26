// The measurement loop of every benchmark (OSU's), per phase and in total,
// and its statistics over iterations and ranks.
#pragma once

#include <mpi.h>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "harness/options.hpp"
#include "harness/stats.hpp"
#include "mcb/plan.hpp"

namespace mcb::bench {

struct Measurement {
  std::vector<std::string> phases;  // unique names, in order of first appearance
  std::vector<Stats> phase_stats;   // rank 0 only
  Stats total;                      // rank 0 only
  /// With keep_ranks: every rank's total time per iteration, rank-major
  /// (rank r's iteration i at r * iterations + i), seconds; rank 0 only.
  std::vector<double> per_rank;
};

/// OSU's loop: barrier once, then per iteration time the operation and
/// barrier untimed. Every iteration's per-phase times stay on every rank;
/// after the loop, one reduction takes the max over ranks per iteration
/// (mcb's slowest-rank series) and three take OSU's statistics: the mean,
/// minimum and maximum over ranks of each rank's mean over iterations.
/// `at` is told where the loop is (the watchdog of --timeout reads it from
/// another thread; one relaxed store per iteration): -warmup - 1 before the
/// first barrier, each iteration as it begins (-warmup .. iterations - 1),
/// `iterations` once the loop is done. `before`, when given, runs before
/// each iteration (warm-up too), untimed, before the barrier that precedes
/// it: the loop keeps one barrier per iteration (--fresh-send).
Measurement measure(const Plan& plan, MPI_Comm comm, int iterations, int warmup, PhaseMode mode, double factor,
                    bool keep_ranks, std::atomic<int>& at, const std::function<void()>& before = {});

}  // namespace mcb::bench
