// The one benchmark harness: every mcb_<collective> main is a
// CollectiveSpec handed to run_benchmark().
//
// Flow: options -> Layout -> for each algorithm and size: Plan = setup
// (outside the timed loop) -> warm-up -> timed iterations (OSU: barrier,
// time one iteration, untimed barrier; every iteration's time kept on every
// rank, per phase) -> max over ranks per iteration, reduced once after the
// loop -> statistics -> validation against the results mcb computes from the
// fill pattern (harness/validation.hpp) -> table and rows.
#pragma once

#include "harness/spec.hpp"

namespace mcb::bench {

/// Initializes MPI, runs the benchmark, finalizes MPI. Returns the process
/// exit code: 0 on success, 1 when a validation failed, 2 on bad input; a
/// step over --timeout ends every rank with 3 instead (harness/watchdog.hpp).
int run_benchmark(int argc, char** argv, const CollectiveSpec& spec);

}  // namespace mcb::bench
