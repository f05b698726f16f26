// The schedule of the shared-memory reduce-scatter (shm_recursive_exchange
// of mcb_reduce_scatter(_block)): the reduce_scatter stages of the
// multi-radix paper's recursive exchange (allreduce-shared-memory-multiradix,
// Sections 2.1.1 and 2.4), cut at the vector's parts instead of cache
// lines, so that the last stage leaves each rank exactly the parts it must
// deliver. Computed once per plan and free of MPI (unit-tested).
//
// Q ranks of a domain (a node, or a region of one); the vector's P parts,
// part p owned by domain rank owner[p] (on one node: rank p; on several,
// every part of the ranks with that domain rank, delivered across domains
// afterwards). Stage j (factor f_j) groups the ranks that differ only in
// mixed-radix digit j (digit 1 the fastest, as the allreduce's); after it a
// rank holds, summed over the ranks of its groups so far, the parts whose
// owner shares its digits 1..j. So after the last stage it holds its own
// parts summed over the domain.
#pragma once

#include <cstddef>
#include <vector>

#include "shm/shm_schedule.hpp"

namespace mcb::reduce_scatter::detail {

using allreduce::detail::Range;

/// A run of whole parts [first, last] that one stage sums, as bytes of the
/// vector.
struct PartRun {
  int first = 0, last = 0;
  Range bytes;
};

struct PartsStage {
  std::vector<int> members;   // the others of my group
  std::vector<PartRun> runs;  // what I sum, adjacent parts merged, empty ones left out
};

struct PartsSchedule {
  std::vector<PartsStage> stages;
  std::vector<int> mine;     // the parts I own, ascending
  std::vector<int> readers;  // every domain rank that reads my region or my input
};

/// `factors`: the reduce_scatter factors (multiplying to q); `owner[p]`:
/// the domain rank that owns part p; `displs`: the parts' starts in bytes,
/// P + 1 of them (the last the vector's end).
PartsSchedule parts_schedule(int q, int rank, const std::vector<int>& factors, const std::vector<int>& owner,
                             const std::vector<std::size_t>& displs);

}  // namespace mcb::reduce_scatter::detail
