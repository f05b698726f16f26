// Validation (-c): every rank's send buffer filled with a pattern, and after
// the timed runs one more run compared element by element with what a
// correct collective leaves, computed by mcb from the pattern alone. No MPI
// collective is asked for the expected values, so the system MPI's own
// collective (algorithm system) is judged like every other algorithm.
//
// The patterns (docs/timing.md, Validation): data movement moves 64-bit
// hashes of (source rank, destination, index) truncated to the type, so a
// block in the wrong place or a stale element shows; reductions use small
// integers chosen per operation so that the result is exact in every type
// whatever order the ranks' values are combined in (no overflow, no
// rounding: tolerance 0 for floating point too).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/options.hpp"
#include "harness/spec.hpp"
#include "mcb/layout.hpp"
#include "mcb/memory.hpp"
#include "mcb/plan.hpp"

namespace mcb::bench {

/// One configuration's buffers: what the algorithms see, and host copies.
struct Buffers {
  Buffer send, recv;
  Buffer host_send, host_recv;  // --gpu-aware no: what MPI sees instead
  std::vector<unsigned char> send_host, pristine, recv_host, expected;
};

/// Whose data a rank holds: its own, or, where processes share a GPU's
/// buffers, the GPU's (the GPU's first process writes and checks them).
struct Owner {
  const Layout* layout = nullptr;
  bool groups = false;  // processes share a GPU's buffers
  bool writer = true;   // the first process of its GPU, or every rank
  int rank() const { return groups ? layout->gpu_id() : layout->rank(); }
  int size() const { return groups ? layout->num_gpus() : layout->size(); }
  /// After the first process of each GPU wrote its shared buffers.
  void sync() const {
    if (groups) MPI_Barrier(layout->gpu_comm());
  }
};

/// The value a reducing collective's rank `rank` of `p` sends as element
/// `index` under `op`: a small integer on a window of ranks, the
/// operation's neutral value elsewhere (types with `unsigned_type` get no
/// negative values).
std::int64_t reduction_value(ReduceOp op, bool unsigned_type, int rank, int p, std::size_t index);

/// Rank `rank`'s send buffer for `shape`.
void fill_pattern(const CollectiveSpec& spec, const Options& opt, int rank, const Shape& shape,
                  std::vector<unsigned char>& out);
/// What a correct collective leaves in rank `rank`'s receive buffer (its
/// first result_elements), from the patterns alone (reductions combined in
/// rank order).
void expected_result(const CollectiveSpec& spec, const Options& opt, int rank, const Shape& shape,
                     std::vector<unsigned char>& out);

class Validator {
 public:
  Validator(const CollectiveSpec& spec, const Options& opt, const Memory& mem) : spec_(spec), opt_(opt), mem_(mem) {}

  /// Before a size of `elements` (-m over the type's size): the send
  /// buffers (and, in place, the receive buffers) hold the pattern.
  void fill(Buffers& b, std::size_t elements, const Owner& owner) const;
  /// After the timed runs: one more run into a poisoned receive buffer,
  /// compared with expected_result(), and the send buffer compared with the
  /// pattern. One line on stderr per failing rank naming the algorithm,
  /// size, rank and first wrong element. True on every rank when all passed.
  bool check(const std::string& algorithm, const Plan& plan, Buffers& b, std::size_t elements, std::size_t size,
             const Owner& owner) const;

 private:
  Shape shape(std::size_t elements, const Owner& owner) const { return shape_of(spec_, opt_, elements, owner.size()); }
  void place_in(void* recv, const std::vector<unsigned char>& data, const Shape& shape, const Owner& owner) const;

  const CollectiveSpec& spec_;
  const Options& opt_;
  const Memory& mem_;
};

}  // namespace mcb::bench
