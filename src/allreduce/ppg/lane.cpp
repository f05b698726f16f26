// lane: the multi-lane allreduce (Traff and Hunold 2020; Algorithm 2 of
// allreduce-multi-process-per-gpu, Section II), on Q ranks per node, N nodes.
//   reduce_scatter: MPI_Reduce_scatter on the node: local rank r gets the
//                   node's sum of chunk r (the vector cut into Q chunks)
//   inter_node:     chunk r allreduced in place on my lane (the ranks with
//                   local rank r, one per node) by --inner
//   allgather:      MPI_Allgatherv of the Q chunks on the node, in place
// Per rank, vector of n bytes: the node's reduce_scatter and allgatherv of
// n/Q per rank, and one allreduce of n/Q over N ranks across nodes: every
// rank of a node sends a Q-th of the inter-node data, in parallel.
// In place, MPI_Reduce_scatter leaves my chunk at the start of the receive
// buffer; it is moved to its place (n/Q bytes).
#include <memory>
#include <vector>

#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "ppg.hpp"
#include "shm/shm.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

namespace detail {

Plan lane_steps(const CollArgs& args, MPI_Comm group, MPI_Comm lane, int lanes, const Inner& inner) {
  int q = 0, me = 0;
  MPI_Comm_size(group, &q);
  MPI_Comm_rank(group, &me);
  const Vector v(args, q);
  auto counts = std::make_shared<std::vector<int>>(), displs = std::make_shared<std::vector<int>>();
  for (int c = 0; c < q; ++c) {
    counts->push_back(v.count(c, c + 1));
    displs->push_back(static_cast<int>(v.first(c)));
  }
  char* const mine = v.at(me);
  const int n = (*counts)[static_cast<std::size_t>(me)];
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  const std::size_t chunk_bytes = static_cast<std::size_t>(n) * v.elem;
  Plan plan;
  plan.add("reduce_scatter", [args, group, counts, mine, in_place, chunk_bytes] {
    if (in_place) {
      MPI_Reduce_scatter(MPI_IN_PLACE, args.recvbuf, counts->data(), args.type, args.op, group);
      if (mine != args.recvbuf) args.memory().copy(mine, args.recvbuf, chunk_bytes);  // disjoint: mine >= n
    } else {
      MPI_Reduce_scatter(args.sendbuf, mine, counts->data(), args.type, args.op, group);
    }
  });
  if (lanes > 1) plan.append(inter_node_plan(inner, args, lane, mine, n), "inter_node");
  plan.add("allgather", [args, group, counts, displs] {
    MPI_Allgatherv(MPI_IN_PLACE, 0, args.type, args.recvbuf, counts->data(), displs->data(), args.type, group);
  });
  if (lanes > 1) {
    plan.set_param("inner", inner.name);
    if (inner.name == "recursive_exchange") plan.set_param("node-factors", to_string(inner.factors));
  }
  return plan;
}

}  // namespace detail

Plan lane(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "lane";
  detail::require_layout(who, args, layout);
  const detail::Domain dom{layout.node_comm(),  layout.lane_comm(), layout.ranks_per_node(),
                           layout.local_rank(), layout.num_nodes(), "node"};
  return detail::lane_steps(args, dom.comm, dom.lane, dom.count, detail::parse_inner(who, params, dom));
}

MCB_DECLARE_ALGORITHM(lane) {
  Algorithm a{"lane",
              "multi-lane: reduce_scatter on the node, the chunk allreduced across nodes on the lane by --inner, "
              "allgatherv on the node",
              {detail::inner_node_param(), detail::node_factors_param()},
              lane};
  a.unsupported = detail::needs_uniform;
  return a;
}

}  // namespace mcb::allreduce
