// locality_aware: the locality-aware aggregation of the many-core alltoall
// paper (alltoall-manycore-locality, Section 3.2, Figure 5): Algorithm 4
// with each node cut into G groups of ppg ranks (consecutive local ranks
// from --groups-per-node or --procs-per-group, or the NUMA domains,
// packages or L3 caches of --region). Phases and the exchange are
// node_aware's (see node_aware.cpp): the inter-node alltoall runs among the
// ranks with my index in every group of every node (N*G ranks, ppg*s bytes
// per peer), the intra-node alltoall inside my group (ppg ranks, N*G*s bytes
// per peer). Per node: ppn*G*(N-1) inter-node messages (pairwise or
// nonblocking inner), ppn*ppn*(N-1)*s bytes. G = 1 is node_aware.
#include "hierarchy.hpp"

namespace mcb::alltoall {

Plan locality_aware(const CollArgs& args, const Layout& layout, const Params& params) {
  const int ppn = detail::require_uniform("locality_aware", args, layout);
  const detail::NodeGroups groups = detail::locality_groups("locality_aware", ppn, layout, params);
  return detail::group_alltoall("locality_aware", args, layout, params, groups);
}

MCB_DECLARE_ALGORITHM(locality_aware) {
  return detail::family(
      "locality_aware", "node_aware with G groups per node or hwloc regions (Figure 5)",
      {{"groups-per-node", "G groups of consecutive ranks per node", "", {}},
       {"procs-per-group", "N ranks per group (default 4, clipped to a divisor of ranks per node)", "", {}}},
      locality_aware);
}

}  // namespace mcb::alltoall
