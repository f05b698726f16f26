// node_aware: Algorithm 4 of the many-core alltoall paper
// (alltoall-manycore-locality, Section 3.2, Figure 4), after Träff (2019).
//   repack      my blocks into [dest group][member of that group]
//   inter_node  inner alltoall among the ranks with my index in every group
//               of every node (the lane when there is one group per node),
//               ppg blocks per peer: all I hold for that group
//   repack      into [member of my group][source group]
//   intra_node  inner alltoall inside my group, N*G blocks per peer
//   repack      into [source rank]
// With G groups of ppg ranks per node, per rank: N*G - 1 messages of ppg*s
// bytes then ppg - 1 of N*G*s bytes (pairwise or nonblocking inner); per
// node ppn*G*(N-1) inter-node messages and ppn*ppn*(N-1)*s bytes. Node-aware
// is G = 1 (ppn*(N-1) messages per node); locality_aware.cpp picks G.
#include <mpi.h>

#include <memory>

#include "hierarchy.hpp"

namespace mcb::alltoall {

namespace detail {

Plan group_alltoall(const std::string& algo, const CollArgs& args, const Layout& layout, const Params& params,
                    const NodeGroups& groups) {
  const int p = args.size(), nodes = layout.num_nodes(), g_count = groups.count, ppg = groups.size;
  const int regions = nodes * g_count;  // groups over all nodes
  const int l = layout.local_rank(), node = layout.node();
  const int my_group = node * g_count + groups.group_of[l], my_index = groups.index_of[l];
  const std::size_t block = args.block_bytes(), blocks = static_cast<std::size_t>(p);
  const Memory* mem = &args.memory();
  const std::string inner = inner_name(params);
  MPI_Comm lane = layout.derived("group_lane/" + groups.key, my_index, my_group);
  MPI_Comm group = layout.derived("group/" + groups.key, my_group, my_index);

  const auto at = ranks_by_node(layout);
  const auto& node_of = layout.node_of();
  const auto& local_of = layout.local_rank_of();
  auto rank_in = [&](int region, int index) { return at[region / g_count][groups.members[region % g_count][index]]; };
  auto st = std::make_shared<Scratch>();
  st->x = Buffer(*mem, blocks * block);
  st->y = Buffer(*mem, blocks * block);
  std::vector<std::size_t> src_of(blocks);
  // Packed: [dest group j][member t] <- send[rank_in(j, t)].
  for (int j = 0, b = 0; j < regions; ++j)
    for (int t = 0; t < ppg; ++t, ++b) src_of[b] = static_cast<std::size_t>(rank_in(j, t));
  st->pack = Repack(src_of);
  // Exchanged: [source group i][member t]. Regrouped: [member t][source group i].
  for (int t = 0, b = 0; t < ppg; ++t)
    for (int i = 0; i < regions; ++i, ++b) src_of[b] = static_cast<std::size_t>(i) * ppg + t;
  st->middle = Repack(src_of);
  // Redistributed: [member u][source group i], from rank_in(i, u). Unpacked: [source rank].
  for (int src = 0; src < p; ++src) {
    const int i = node_of[src] * g_count + groups.group_of[local_of[src]];
    src_of[src] = static_cast<std::size_t>(groups.index_of[local_of[src]]) * regions + i;
  }
  st->unpack = Repack(src_of);

  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  const bool pack_in_place = st->pack.identity();
  const void* packed = pack_in_place ? static_cast<const void*>(send) : st->y.data();
  const CollArgs across = args.on(lane, packed, st->x.data(), ppg * args.count);
  const CollArgs within = args.on(group, st->y.data(), st->x.data(), regions * args.count);

  Plan plan;
  plan.set_param("inner", inner);
  if (algo != "node_aware") {
    if (layout.options().region.kind != RegionSpec::Kind::none) plan.set_param("region", layout.options().region.str());
    plan.set_param("groups-per-node", std::to_string(g_count));
    plan.set_param("procs-per-group", std::to_string(ppg));
  }
  plan.add("repack", [=] {
    if (!pack_in_place) st->pack.run(*mem, st->y.data(), send, block);
  });
  plan.append(make_inner(inner, across, inner_site(algo, "inter_node", params, g_count)), "inter_node");
  plan.add("repack", [=] { st->middle.run(*mem, st->y.data(), st->x.data(), block); });
  plan.append(make_inner(inner, within, inner_site(algo, "intra_node", params, 0)), "intra_node");
  plan.add("repack", [=] { st->unpack.run(*mem, recv, st->x.data(), block); });
  return plan;
}

}  // namespace detail

Plan node_aware(const CollArgs& args, const Layout& layout, const Params& params) {
  const int ppn = detail::require_uniform("node_aware", args, layout);
  return detail::group_alltoall("node_aware", args, layout, params, detail::NodeGroups::consecutive(ppn, ppn));
}

MCB_DECLARE_ALGORITHM(node_aware) {
  return detail::family("node_aware", "alltoall across nodes on the lanes, then inside each node (Algorithm 4)", {},
                        node_aware);
}

}  // namespace mcb::alltoall
