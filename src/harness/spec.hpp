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
/// rank `rank`'s send buffer (a reducing collective: element `index` of
/// every rank's, `rank` unused).
struct Source {
  int rank;
  std::size_t index;
};

/// `total` elements over `p` ranks as `kind` spreads them.
std::vector<std::size_t> spread_counts(std::size_t total, int p, CountsKind kind);

/// What one size (-m) means on `p` ranks: `count` elements per block
/// (CollectiveSpec::size_unit says of what), and every rank's own block,
/// packed in rank order: equal blocks of `count`, or in the v-forms as
/// --counts spreads them (`total` elements in all).
struct Shape {
  std::size_t count = 0;
  int p = 1;
  std::vector<std::size_t> counts, displs;
  std::size_t total = 0;
  std::size_t of(int r) const { return counts[static_cast<std::size_t>(r)]; }
  std::size_t at(int r) const { return displs[static_cast<std::size_t>(r)]; }
  /// Blocks of `count` on every one of `p` ranks.
  static Shape equal(std::size_t count, int p);
  /// `counts` packed in rank order; `count` as given.
  static Shape packed(std::size_t count, std::vector<std::size_t> counts);
  /// `total` = `count` x p elements spread over the ranks as --counts says
  /// (allgatherv, gatherv, scatterv: -m is the bytes of a rank's block as
  /// in OSU's, whose counts are equal).
  static Shape spread(std::size_t count, int p, CountsKind kind);
  /// The block that element j (of all the blocks, packed) falls in; the
  /// last non-empty one at or before it.
  int block_of(std::size_t j) const;
};

struct CollectiveSpec {
  std::string binary;      // "mcb_alltoall"
  std::string collective;  // "alltoall"
  const std::vector<Algorithm>* algorithms;
  /// Elements in rank `rank`'s send / receive buffer for `shape`.
  std::size_t (*send_elements)(const Shape& shape, int rank);
  std::size_t (*recv_elements)(const Shape& shape, int rank);
  /// Validation pattern of the collectives that move data: value of send
  /// element `index` on `rank` (truncated to the type).
  std::uint64_t (*send_value)(int rank, const Shape& shape, std::size_t index);
  /// What a correct collective leaves in element `j` of `rank`'s receive
  /// buffer: which send element of which rank (a reducing collective:
  /// which element of every rank's, nullptr: element j). The expected
  /// values come from send_value() or the reduction pattern, never from
  /// the MPI.
  Source (*source)(int rank, const Shape& shape, std::size_t j) = nullptr;
  /// The OSU-style table of every algorithm, or the per-phase breakdown of one.
  Tool tool = Tool::benchmark;
  /// In place (--in-place, MPI_IN_PLACE as the send buffer): the element
  /// offset in a rank's receive buffer where its send data already sits;
  /// nullptr when the benchmark has no in-place mode.
  std::size_t (*in_place_offset)(int rank, const Shape& shape) = nullptr;
  /// The elements of `rank`'s receive buffer that a correct collective
  /// defines, from its start (a reduce-scatter in place: its part, not the
  /// vector it read); nullptr: all recv_elements.
  std::size_t (*result_elements)(const Shape& shape, int rank) = nullptr;
  /// The shape of `elements` (-m over the type's size) on `p` ranks under
  /// --counts; nullptr: equal blocks of `elements`.
  Shape (*shape)(std::size_t elements, int p, CountsKind counts) = nullptr;
  /// Offers --counts (the v-forms: allgatherv, gatherv, scatterv, reduce_scatter).
  bool vcounts = false;
  /// A reducing collective (allreduce, reduce): element j of the result is
  /// the reduction over the ranks of their send element j, under --op (one
  /// of `ops`, the default first), from the reduction pattern
  /// (harness/validation.hpp) instead of send_value().
  bool reduces = false;
  std::vector<std::string> ops;
  /// Neither (mcb_fft): writes what `rank` of `p` must hold (host bytes,
  /// recv_elements(count, p) elements), computed without MPI.
  void (*expected)(int rank, const Shape& shape, std::vector<unsigned char>& out) = nullptr;
  /// The element types -T accepts, the default first.
  std::vector<std::string> types{"char", "int", "float", "double"};
  /// Only rank 0's receive buffer is defined (reduce, gather): validation
  /// compares rank 0's alone.
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
  /// algbw = the larger of rank 0's send and receive buffers / time
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

/// The shape of `elements` (-m over the type's size) on `p` ranks for
/// `spec` under opt's --counts.
Shape shape_of(const CollectiveSpec& spec, const Options& opt, std::size_t elements, int p);

}  // namespace mcb::bench
