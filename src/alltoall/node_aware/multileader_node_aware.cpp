// multileader_node_aware: Algorithm 5 of the many-core alltoall paper
// (alltoall-manycore-locality, Section 3.3, Figure 6). L leaders per node,
// each serving ppl = ppn/L consecutive ranks of its node.
//   gather      each rank's P blocks to its leader (MPI_Gather)
//   repack      into [dest node][member][dest local rank]
//   inter_node  inner alltoall among the leaders with my leader index on
//               every node (N ranks), ppl*ppn blocks per peer
//   repack      into [dest leader of my node][source node][member][t]
//   intra_node  inner alltoall among the L leaders of my node, N*ppl*ppl
//               blocks per peer
//   repack      into [member][source rank]
//   scatter     P blocks back to each member (MPI_Scatter)
// Per node: L*(N-1) inter-node messages of ppl*ppn*s bytes (pairwise or
// nonblocking inner), ppn*ppn*(N-1)*s bytes in all. L = 1 is hierarchical;
// L = ppn (every rank a leader) is node_aware.
#include <mpi.h>

#include <memory>

#include "hierarchy.hpp"

namespace mcb::alltoall {

Plan multileader_node_aware(const CollArgs& args, const Layout& layout, const Params& params) {
  const std::string algo = "multileader_node_aware";
  const int ppn = detail::require_uniform(algo, args, layout);
  const int ppl = detail::procs_per_leader(algo, ppn, params);
  const int p = args.size(), nodes = layout.num_nodes(), leaders_per_node = ppn / ppl;
  const int node = layout.node(), l = layout.local_rank(), k = l / ppl;
  const bool leader = l % ppl == 0;
  const std::size_t block = args.block_bytes(), blocks = static_cast<std::size_t>(p) * ppl;
  const Memory* mem = &args.memory();
  const std::string inner = detail::inner_name(params);
  const std::string tag = "/ppl=" + std::to_string(ppl);
  MPI_Comm local = layout.derived("leader_group" + tag, node * leaders_per_node + k, l);
  MPI_Comm lane = layout.derived("leader_lane" + tag, leader ? k : MPI_UNDEFINED, node);
  MPI_Comm node_leaders = layout.derived("node_leaders" + tag, leader ? node : MPI_UNDEFINED, k);

  Plan plan;
  plan.set_param("inner", inner);
  plan.set_param("leaders-per-node", std::to_string(leaders_per_node));
  plan.set_param("procs-per-leader", std::to_string(ppl));
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  const int whole = p * args.count;

  if (!leader) {
    plan.add("gather", [=, a = args] { MPI_Gather(send, whole, a.type, nullptr, whole, a.type, 0, local); });
    for (const char* phase : {"repack", "inter_node", "repack", "intra_node", "repack"}) plan.add(phase, [] {});
    plan.add("scatter", [=, a = args] { MPI_Scatter(nullptr, whole, a.type, recv, whole, a.type, 0, local); });
    return plan;
  }

  const auto at = detail::ranks_by_node(layout);
  const auto& node_of = layout.node_of();
  const auto& local_of = layout.local_rank_of();
  auto st = std::make_shared<detail::Scratch>();
  st->x = Buffer(*mem, blocks * block);
  st->y = Buffer(*mem, blocks * block);
  std::vector<std::size_t> src_of(blocks);
  // Gathered: [member m][dest rank]. Packed: [dest node n][m][dest local rank dl].
  for (int n = 0, b = 0; n < nodes; ++n)
    for (int m = 0; m < ppl; ++m)
      for (int dl = 0; dl < ppn; ++dl, ++b) src_of[b] = static_cast<std::size_t>(m) * p + at[n][dl];
  st->pack = detail::Repack(src_of);
  // Exchanged: [source node n][m][dl]. Regrouped: [leader k2][n][m][t], dl = k2*ppl + t.
  for (int k2 = 0, b = 0; k2 < leaders_per_node; ++k2)
    for (int n = 0; n < nodes; ++n)
      for (int m = 0; m < ppl; ++m)
        for (int t = 0; t < ppl; ++t, ++b)
          src_of[b] = (static_cast<std::size_t>(n) * ppl + m) * ppn + static_cast<std::size_t>(k2) * ppl + t;
  st->middle = detail::Repack(src_of);
  // Redistributed: [source leader k2][n][m][t], from at[n][k2*ppl + m]. Unpacked: [t][source rank].
  for (int t = 0, b = 0; t < ppl; ++t)
    for (int src = 0; src < p; ++src, ++b) {
      const std::size_t k2 = static_cast<std::size_t>(local_of[src] / ppl), m = local_of[src] % ppl;
      src_of[b] = ((k2 * nodes + node_of[src]) * ppl + m) * ppl + t;
    }
  st->unpack = detail::Repack(src_of);

  const char* gathered = ppl > 1 ? static_cast<const char*>(st->x.data()) : send;
  const bool pack_in_place = ppl == 1 && st->pack.identity();  // x is the exchange's output
  char* unpacked = ppl > 1 ? static_cast<char*>(st->y.data()) : recv;
  const void* packed = pack_in_place ? static_cast<const void*>(gathered) : st->y.data();
  const CollArgs across = args.on(lane, packed, st->x.data(), ppl * ppn * args.count);
  const CollArgs within = args.on(node_leaders, st->y.data(), st->x.data(), nodes * ppl * ppl * args.count);

  plan.add("gather", [=, a = args] {
    if (ppl > 1) MPI_Gather(send, whole, a.type, st->x.data(), whole, a.type, 0, local);
  });
  plan.add("repack", [=] {
    if (!pack_in_place) st->pack.run(*mem, st->y.data(), gathered, block);
  });
  plan.append(make_inner(inner, across, detail::inner_site(algo, "inter_node", params, 1)), "inter_node");
  plan.add("repack", [=] { st->middle.run(*mem, st->y.data(), st->x.data(), block); });
  plan.append(make_inner(inner, within, detail::inner_site(algo, "intra_node", params, 0)), "intra_node");
  plan.add("repack", [=] { st->unpack.run(*mem, unpacked, st->x.data(), block); });
  plan.add("scatter", [=, a = args] {
    if (ppl > 1) MPI_Scatter(unpacked, whole, a.type, recv, whole, a.type, 0, local);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(multileader_node_aware) {
  return detail::family("multileader_node_aware",
                        "gather to L leaders, node-aware alltoall among the leaders, scatter (Algorithm 5)",
                        detail::leader_params(), multileader_node_aware);
}

}  // namespace mcb::alltoall
