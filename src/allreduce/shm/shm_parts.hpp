// The schedules of the multi-radix paper's stages as collectives of their
// own (allreduce-shared-memory-multiradix, Section 2.4: "the shared memory
// allreduce algorithms can be applied straightforwardly to other collective
// communications, such as reduce_scatter and allgatherv (the different
// phases of the allreduce algorithm)"): the reduce_scatter stages and the
// allgather stages of the recursive exchange, cut at the vector's parts
// instead of cache lines, so that a reduce-scatter ends with each rank
// holding exactly its own part and an allgather starts from each rank's own
// block. Computed once per plan and free of MPI (unit-tested).
//
// Q ranks of a domain (a node, or a region of one); the vector's P parts,
// part p owned by domain rank owner[p] (on one domain: rank p; on several,
// every part of the ranks with that domain rank, exchanged across domains
// on the lane). Digits as the allreduce's (shm_schedule.hpp): reduce_scatter
// stage j groups the ranks that differ only in mixed-radix digit j (digit 1
// the fastest); allgather stage a the ranks that differ in the digit of
// stride Q / (g1...ga) (the reverse order, so -4,-2 and 2,4 mirror).
#pragma once

#include <cstddef>
#include <vector>

#include "shm_schedule.hpp"

namespace mcb::allreduce::detail {

/// A run of whole parts [first, last] as bytes of the vector.
struct PartRun {
  int first = 0, last = 0;
  Range bytes;
};

struct PartsStage {
  std::vector<int> members;   // the others of my group
  std::vector<PartRun> runs;  // what I sum, adjacent parts merged, empty ones left out
};

/// The reduce_scatter stages: after stage j a rank holds, summed over the
/// ranks of its groups so far, the parts whose owner shares its digits
/// 1..j; after the last, its own parts summed over the domain.
struct PartsSchedule {
  std::vector<PartsStage> stages;
  std::vector<int> mine;     // the parts I own, ascending
  std::vector<int> readers;  // every domain rank that reads my region or my input
};

/// `factors`: the reduce_scatter factors (multiplying to q); `owner[p]`:
/// the domain rank that owns part p; `displs`: the parts' starts in bytes,
/// P + 1 of them (the last the vector's end).
PartsSchedule reduce_scatter_parts(int q, int rank, const std::vector<int>& factors, const std::vector<int>& owner,
                                   const std::vector<std::size_t>& displs);

/// A copy of parts [first, last] from domain rank `from` (its region, or
/// in the first stage of a direct path its input).
struct PartCopy {
  int from = 0;
  PartRun run;
};
struct GatherStage {
  std::vector<int> members;      // the others of my group
  std::vector<PartCopy> copies;  // what I copy from them, same offsets
};
/// The allgather stages: before stage a a rank holds the parts of the
/// ranks that share its digits but those of the stages before; after the
/// last, every part.
struct GatherSchedule {
  std::vector<GatherStage> stages;
  std::vector<int> mine;             // the parts I own, ascending
  std::vector<PartRun> held_before;  // what my region holds before the last stage, mine included
  std::vector<int> readers;          // every domain rank that reads my region or my input
};
/// `factors`: the allgather factors (multiplying to q); the rest as above.
GatherSchedule allgather_parts(int q, int rank, const std::vector<int>& factors, const std::vector<int>& owner,
                               const std::vector<std::size_t>& displs);

}  // namespace mcb::allreduce::detail
