// multileader: Algorithm 3 of the many-core alltoall paper
// (alltoall-manycore-locality, Section 3.1, Figure 3) with L leaders per
// node, each serving ppl = ppn/L consecutive ranks of its node. Phases and
// the exchange are hierarchical's (see hierarchical.cpp): gather to the
// leader, repack, inner alltoall among all N*L leaders with ppl*ppl*s bytes
// per peer, repack, scatter. Per node: L*L*(N-1) inter-node messages
// (pairwise or nonblocking inner), ppn*ppn*(N-1)*s bytes in all.
// L = 1 is hierarchical.
#include "hierarchy.hpp"

namespace mcb::alltoall {

Plan multileader(const CollArgs& args, const Layout& layout, const Params& params) {
  const int ppn = detail::require_uniform("multileader", args, layout);
  const int ppl = detail::procs_per_leader("multileader", ppn, params);
  return detail::leader_alltoall("multileader", args, layout, params, ppl);
}

MCB_DECLARE_ALGORITHM(multileader) {
  return detail::family("multileader", "hierarchical with L leaders per node (Algorithm 3, Figure 3)",
                        detail::leader_params(), multileader);
}

}  // namespace mcb::alltoall
