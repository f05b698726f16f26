// The schedules of the allreduce-shared-memory-multiradix algorithms:
// the shared-memory recursive exchange (Sections 2.1 and 2.1.1), tree and
// cyclic shift, and the recursive exchange between nodes (2.1.2); computed
// once per plan and free of MPI so that they are unit-tested on their own.
//
// Q ranks of a node, each with a region holding the whole vector of `bytes`,
// cut into cache lines. Factors: the reduce_scatter stages f1, f2, ... (given
// negative, -4,-2) and the allgather stages g1, g2, ... (positive, 2,4), each
// list multiplying to Q. Reduce_scatter stage j groups the ranks that differ
// only in mixed-radix digit j (digit 1 the fastest: consecutive ranks); each
// member reduces its f_j-th of the range it kept from stage j-1 over the
// group's regions. A rank ends with one piece of the vector, summed over the
// node. Allgather stage a groups the ranks that differ in the digit of
// stride Q / (g1...ga) (the reverse order, so -4,-2,2,4 mirrors); each
// member copies the pieces the others hold. No range is cut below a cache
// line: on short vectors some ranks get empty pieces.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mcb::allreduce::detail {

struct Factors {
  std::vector<int> reduce_scatter, allgather;
};

/// "-4,-2,2,4": negative reduce_scatter factors, positive allgather factors,
/// in order. Throws Error (naming `who`) unless each list multiplies to `q`,
/// with the divisors of q in the message. `reduce_only`: the tree's reduce
/// factors, negative only (no allgather list).
/// `at_least`: the cyclic shift's lists may multiply to more than q.
Factors parse_factors(const std::string& who, const std::string& text, int q, bool reduce_only = false,
                      bool at_least = false);
/// Default: the prime factors of q, largest first, merged while the product
/// stays <= 8 (8 -> -8,8; 12 -> -6,-2,2,6; 7 -> -7,7; 1 -> none).
Factors default_factors(int q);
/// "-6,-2,2,6" ("none" for q = 1).
std::string to_string(const Factors& f);

struct Range {
  std::size_t lo = 0, hi = 0;  // bytes
  std::size_t size() const { return hi - lo; }
};
/// A copy from local rank `from`'s region, same offsets in the destination.
struct Copy {
  int from = 0;
  Range range;
};

/// What local rank `rank` of `q` does.
struct ShmSchedule {
  std::vector<std::vector<int>> rs_members;  // per reduce_scatter stage, the others of my group
  std::vector<Range> rs_range;               // per reduce_scatter stage, the range I reduce
  Range piece;                               // mine after reduce_scatter (the same on every node)
  std::vector<std::vector<int>> ag_members;  // per allgather stage, the others of my group
  std::vector<std::vector<Copy>> ag_copies;  // per allgather stage, what I copy from them
  std::vector<Range> held_before_last;       // what my region holds before the last allgather stage
  std::vector<int> readers;                  // every local rank that reads my region
};

ShmSchedule shm_schedule(int q, int rank, const Factors& factors, std::size_t bytes);

/// The shared-memory tree (Section 2.3): reduce stages of fan-in f_j (the
/// reduce_scatter factors), grouping by digit j as above; the ranks whose
/// digits 1..j-1 are zero take part in stage j, and the member with digit j
/// zero is the group's root. Each member sums its f_j-th of the whole
/// vector over the group's regions into the root's region, so local rank 0
/// ends with the node's sum; then every rank copies it out.
struct TreeStage {
  bool active = false;       // I take part in this stage
  int root = 0;              // my group's root (local rank)
  std::vector<int> members;  // the others of my group
  Range part;                // the part I sum into the root's region
};
struct TreeSchedule {
  std::vector<TreeStage> stages;
  Range own_first;           // my part in the first stage (read from my send buffer)
  std::vector<int> readers;  // who reads or writes my region
};
TreeSchedule tree_schedule(int q, int rank, const Factors& factors, std::size_t bytes);

/// The shared-memory cyclic shift (Section 2.2, Figures 4-5), for
/// commutative operations; each factor list multiplies to at least q. The
/// vector is cut into q pieces, piece p ending on rank p. With D_j the
/// product of the factors before stage j, after reduce_scatter stage j a
/// rank r holds, for every piece p whose offset o = p - r (mod q) is a
/// multiple of D_{j+1}, the sum of the ranks r, r-1, ..., r-w+1 with
/// w = min(D_{j+1}, q - o): stage j adds to it the partial sums of ranks
/// r - i*D_j (i = 1 .. f_j-1, while i*D_j < w). The allgather is Bruck's:
/// stage a copies from rank r + i*D'_a the pieces r + i*D'_a + t, t < D'_a,
/// while the offset stays below q.
struct CyclicReduce {
  Range range;            // pieces with the same sources, coalesced
  std::vector<int> from;  // the ranks whose partial sums I add
};
struct CyclicSchedule {
  std::vector<std::vector<CyclicReduce>> rs;  // per reduce_scatter stage
  std::vector<std::vector<int>> rs_from;      // per stage, every rank I read from
  Range piece;                                // mine at the end of the reduce_scatter
  std::vector<std::vector<Copy>> ag_copies;   // per allgather stage
  std::vector<std::vector<int>> ag_from;      // per stage, every rank I read from
  std::vector<Range> held_before_last;
  std::vector<int> readers;
};
CyclicSchedule cyclic_schedule(int q, int rank, const Factors& factors, std::size_t bytes);

/// The message-passing recursive exchange between nodes (Section 2.1.2,
/// Figure 3): reduce_scatter stages of factors f1, f2, ... (product R, a
/// divisor of the p ranks, grouped by mixed-radix digit as above), then, if
/// R < p, the p/R ranks that hold the same piece complete it with a nested
/// allreduce (each sends its piece to the others and sums them all, in rank
/// order: the paper's latency-optimal "allgather with a reduction
/// following"), then the allgather stages mirroring the reduce_scatter
/// ones. Parts are cut in elements, so no message is padded.
/// "--node-factors" text: "-4,-2,2,4" (allgather the reverse of the
/// reduce_scatter), "-2,2" on 8 nodes (then a nested allreduce of 4), or
/// "none" (the nested allreduce alone). Throws Error naming `who`.
Factors parse_exchange_factors(const std::string& who, const std::string& text, int p,
                               const std::string& what = "nodes");

/// One stage of the exchange: I hold part `mine` of the range; the member
/// with digit v is peers[v] and handles parts[v] (elements).
struct ExchangeStage {
  std::vector<int> peers;
  std::vector<Range> parts;
  int mine = 0;
};
struct ExchangeSchedule {
  std::vector<ExchangeStage> reduce_scatter;  // in order
  Range piece;                                // mine after the reduce_scatter (elements)
  std::vector<int> nested;                    // the ranks holding my piece, in rank order, me included
  std::vector<ExchangeStage> allgather;       // in order of execution
};
ExchangeSchedule exchange_schedule(int p, int rank, const Factors& factors, std::size_t count);

}  // namespace mcb::allreduce::detail
