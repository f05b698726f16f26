// What a binary tells the harness about its collective: the CollectiveSpec
// (buffer sizes, the validation pattern and the expected results, the table
// it prints). Every mcb_<collective> main fills one and hands it to
// run_benchmark() (harness/benchmark.hpp); the harness's parts (validation,
// reporter, session) read it from here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/options.hpp"
#include "mcb/collective.hpp"

namespace mcb::bench {

/// Where an element of a receive buffer comes from: element `index` of
/// rank `rank`'s send buffer.
struct Source {
  int rank;
  std::size_t index;
};

struct CollectiveSpec {
  std::string binary;      // "mcb_alltoall"
  std::string collective;  // "alltoall"
  const std::vector<Algorithm>* algorithms;
  /// Elements in the send / receive buffer for `count` elements per block on `p` ranks.
  std::size_t (*send_elements)(std::size_t count, int p);
  std::size_t (*recv_elements)(std::size_t count, int p);
  /// Validation pattern of the collectives that move data: value of send
  /// element `index` on `rank` of `p` (truncated to the type).
  std::uint64_t (*send_value)(int rank, int p, std::size_t count, std::size_t index);
  /// What a correct collective leaves in element `j` of `rank`'s receive
  /// buffer (the collectives that move data): which send element of which
  /// rank. The expected values come from send_value() of the source, never
  /// from the MPI.
  Source (*source)(int rank, int p, std::size_t count, std::size_t j) = nullptr;
  /// The OSU-style table of every algorithm, or the per-phase breakdown of one.
  Tool tool = Tool::benchmark;
  /// In place (--in-place, MPI_IN_PLACE as the send buffer): the element
  /// offset in a rank's receive buffer where its send data already sits;
  /// nullptr when the benchmark has no in-place mode.
  std::size_t (*in_place_offset)(int rank, int p, std::size_t count) = nullptr;
  /// A reducing collective (allreduce, reduce): element j of the result is
  /// the reduction over the ranks of their send element j, under --op (one
  /// of `ops`, the default first), from the reduction pattern
  /// (harness/validation.hpp) instead of send_value().
  bool reduces = false;
  std::vector<std::string> ops;
  /// Neither (mcb_fft): writes what `rank` of `p` must hold (host bytes,
  /// recv_elements(count, p) elements), computed without MPI.
  void (*expected)(int rank, int p, std::size_t count, std::vector<unsigned char>& out) = nullptr;
  /// The element types -T accepts, the default first.
  std::vector<std::string> types{"char", "int", "float", "double"};
  /// Only rank 0's receive buffer is defined (reduce): validation compares
  /// rank 0's alone.
  bool root_result = false;
  /// Offers --gpus-per-node, --procs-per-gpu and --gpu-aware: with more than
  /// one process per GPU, each GPU has one send and one receive buffer that
  /// its processes share (shared_buffer()), filled and checked as the GPU's
  /// (validation pattern of the GPU index over the GPUs).
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
  /// Floating-point results that are not exact (mcb_fft): above 0, the
  /// result passes when max |result - expected| over all ranks is at most
  /// `tolerance` times max |expected| (the norm-wise relative error, the
  /// elements read as doubles); 0: every element equal to the expected one.
  double tolerance = 0.0;
};

}  // namespace mcb::bench
