// The one benchmark harness: every mcb_<collective> main is a
// CollectiveSpec handed to run_benchmark().
//
// Flow: options -> Layout -> for each algorithm and size: Plan = setup
// (outside the timed loop) -> warm-up -> timed iterations (OSU: barrier,
// time one iteration, untimed barrier; every iteration's time kept on every
// rank, per phase) -> max over ranks per iteration, reduced once after the
// loop -> statistics -> validation against the system MPI -> table and rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/options.hpp"
#include "mcb/collective.hpp"

namespace mcb::bench {

struct CollectiveSpec {
  std::string binary;      // "mcb_alltoall"
  std::string collective;  // "alltoall"
  const std::vector<Algorithm>* algorithms;
  /// Elements in the send / receive buffer for `count` elements per block on `p` ranks.
  std::size_t (*send_elements)(std::size_t count, int p);
  std::size_t (*recv_elements)(std::size_t count, int p);
  /// Validation pattern: value of send element `index` on `rank` of `p`.
  std::uint64_t (*send_value)(int rank, int p, std::size_t count, std::size_t index);
  /// The system MPI's own collective on the same arguments (the reference).
  void (*reference)(const CollArgs& args);
  /// The OSU-style table of every algorithm, or the per-phase breakdown of one.
  Tool tool = Tool::benchmark;
  /// In place (--in-place, MPI_IN_PLACE as the send buffer): the element
  /// offset in a rank's receive buffer where its send data already sits;
  /// nullptr when the benchmark has no in-place mode.
  std::size_t (*in_place_offset)(int rank, int p, std::size_t count) = nullptr;
  /// The reduction of a reducing collective (MPI_SUM for allreduce), else
  /// MPI_OP_NULL. Set at run time (MPI_SUM need not be a constant).
  MPI_Op (*op)() = nullptr;
  /// The element types -T accepts, the default first.
  std::vector<std::string> types{"char", "int", "float", "double"};
  /// Only rank 0's receive buffer is defined (reduce): validation compares
  /// rank 0's alone.
  bool root_result = false;
  /// Offers --gpus-per-node, --procs-per-gpu and --gpu-aware: with more than
  /// one process per GPU, each GPU has one send and one receive buffer that
  /// its processes share (shared_buffer()), filled as the GPU's (validation
  /// pattern of the GPU index over the GPUs), and the reference runs on one
  /// process per GPU.
  bool gpus = false;
  /// The reported times are the plan's times this many times (mcb_pingpong:
  /// 0.5, the one-way time of a round trip).
  double time_factor = 1.0;
  /// The console table shows Bandwidth(MB/s): size / average time.
  bool bandwidth = false;
  /// nccl-tests' bus bandwidth factor on p ranks: busbw = algbw x factor,
  /// algbw = the larger of one rank's send and receive buffers / time
  /// (docs/timing.md, Bandwidth). nullptr: 1 (reduce, bcast, pingpong).
  double (*bus_factor)(int p) = nullptr;
  /// Offers --buffers registered|mixed (the shared-memory allreduce, reduce
  /// and bcast, which read registered buffers in place).
  bool registered_buffers = false;
  /// What -m measures, for the header: "bytes per block", "bytes of the vector".
  std::string size_unit = "bytes per block";
  /// Floating-point results that no exact reference gives (mcb_fft): above
  /// 0, the result passes when max |result - reference| over all ranks is at
  /// most `tolerance` times max |reference| (the norm-wise relative error,
  /// the elements read as doubles); 0: every element equal to the reference.
  double tolerance = 0.0;
};

/// Initializes MPI, runs the benchmark, finalizes MPI. Returns the process
/// exit code: 0 on success, 1 when a validation failed, 2 on bad input.
int run_benchmark(int argc, char** argv, const CollectiveSpec& spec);

}  // namespace mcb::bench
