// The pieces of the tunable-radix alltoall that tra, tra2, bruck and the
// inner exchanges of the node-aware family share: the schedule of a round
// as runs of blocks, the radix parameters, and the exchange rounds among
// any list of ranks of a communicator (a whole communicator, the ranks of
// one node, or the same-position ranks of every node).
#pragma once

#include <string>
#include <vector>

#include "mcb/alltoall.hpp"
#include "mcb/collective.hpp"
#include "mcb/plan.hpp"

namespace mcb::alltoall::detail {

/// One round of TRA among n members: send to member me + distance the
/// rotated blocks i whose digit x (base r) is z, receive from me - distance
/// into the same places. Enumerated from the digits of every i (not from
/// the model's formulas, which the tests compare with it).
struct TraStep {
  int distance = 0;
  int blocks = 0;
  std::vector<std::pair<int, int>> runs;  // (first block, length), ascending
};
std::vector<TraStep> tra_schedule(int n, int radix);

/// The value of radix parameter `name` for an exchange among n members
/// (`what` names them: "ranks", "nodes", ...), or `fallback` when it is not
/// given. Throws Error "<who>: --<name> R is outside [2, n] (<what>: n)" for
/// values out of range (one member accepts 2, where no round runs).
int resolve_radix(const std::string& who, const Params& params, const std::string& name, int n, const std::string& what,
                  long fallback);

/// The exchange rounds of TRA among `members` (ranks of args.comm; I am
/// members[me]) on a buffer of n = members.size() units of `unit` elements
/// of args.type, already rotated (unit i is for member me + i). Afterwards
/// unit i holds the unit that member me - i had for me. Packs each round
/// into scratch buffers that the returned step owns.
Plan::Step tra_exchange(const CollArgs& args, std::vector<int> members, int me, int radix, int unit, void* x, int tag);

/// TRA on all of args.comm: rotate, exchange, rotate_back.
Plan tra_plan(const CollArgs& args, int radix);

/// TRA2 on nodes given as rank_at[node][local] (ranks of args.comm, every
/// node the same size); I am rank_at[node][local]. Phases: rotate,
/// intra_node, rotate, inter_node, rotate_back.
Plan tra2_plan(const CollArgs& args, const std::vector<std::vector<int>>& rank_at, int node, int local, int r1, int r2);

/// The inner exchanges "tra" (radix --radix, default ceil(sqrt(n))) and
/// "tra2" (the site's nodes; --radix-intra and --radix-inter, defaults
/// ceil(sqrt(ranks per node)) and the node count) of the node-aware family.
Plan inner_tra(const CollArgs& args, const InnerSite& site);
Plan inner_tra2(const CollArgs& args, const InnerSite& site);

}  // namespace mcb::alltoall::detail
