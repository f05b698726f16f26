// hierarchical: Algorithm 3 of the many-core alltoall paper
// (alltoall-manycore-locality, Section 3.1), one leader per node.
//   gather      each rank's P blocks to its leader (MPI_Gather on the leader group)
//   repack      into [dest leader][member][dest within that leader's group]
//   inter_node  inner alltoall among the leaders, ppl*ppl blocks per peer
//   repack      into [member][source rank]
//   scatter     P blocks back to each member (MPI_Scatter)
// With ppl processes per leader and N*L leaders: per leader (N*L - 1)
// messages of ppl*ppl*s bytes (pairwise or nonblocking inner), so
// L*L*(N-1) inter-node messages per node; the gather and scatter move
// (ppl-1)*P*s bytes per leader on the node. Hierarchical is ppl = ppn
// (L = 1: N-1 inter-node messages per node, each ppn*ppn*s bytes); the
// multileader file resolves L and calls leader_alltoall() below.
#include <mpi.h>

#include <memory>

#include "hierarchy.hpp"

namespace mcb::alltoall {

namespace detail {

Plan leader_alltoall(const std::string& algo, const CollArgs& args, const Layout& layout, const Params& params,
                     int ppl) {
  const int p = args.size(), ppn = layout.ranks_per_node(), leaders_per_node = ppn / ppl;
  const int node = layout.node(), l = layout.local_rank(), k = l / ppl, member = l % ppl;
  const bool leader = member == 0;
  const std::size_t block = args.block_bytes(), blocks = static_cast<std::size_t>(p) * ppl;
  const Memory* mem = &args.memory();
  const std::string inner = inner_name(params);
  const std::string tag = "/ppl=" + std::to_string(ppl);
  MPI_Comm local = layout.derived("leader_group" + tag, node * leaders_per_node + k, l);
  MPI_Comm leaders = layout.derived("leaders" + tag, leader ? 0 : MPI_UNDEFINED, node * leaders_per_node + k);

  Plan plan;
  plan.set_param("inner", inner);
  if (algo != "hierarchical") {
    plan.set_param("leaders-per-node", std::to_string(leaders_per_node));
    plan.set_param("procs-per-leader", std::to_string(ppl));
  }
  auto st = std::make_shared<detail::Scratch>();
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  const int whole = p * args.count;  // elements a rank sends or receives in all

  if (!leader) {
    plan.add("gather", [=, a = args] { MPI_Gather(send, whole, a.type, nullptr, whole, a.type, 0, local); });
    plan.add("repack", [] {});
    plan.add("inter_node", [] {});
    plan.add("repack", [] {});
    plan.add("scatter", [=, a = args] { MPI_Scatter(nullptr, whole, a.type, recv, whole, a.type, 0, local); });
    return plan;
  }

  const auto at = ranks_by_node(layout);
  const auto& node_of = layout.node_of();
  const auto& local_of = layout.local_rank_of();
  st->x = Buffer(*mem, blocks * block);
  st->y = Buffer(*mem, blocks * block);
  // Gathered: [member][dest rank]. Packed: [dest leader j][member][t], dest = at[j/L][(j%L)*ppl + t].
  std::vector<std::size_t> src_of(blocks);
  for (std::size_t j = 0, b = 0; j < static_cast<std::size_t>(p / ppl); ++j)
    for (int m = 0; m < ppl; ++m)
      for (int t = 0; t < ppl; ++t, ++b)
        src_of[b] = static_cast<std::size_t>(m) * p +
                    at[j / leaders_per_node][(j % leaders_per_node) * static_cast<std::size_t>(ppl) + t];
  st->pack = Repack(src_of);
  // Exchanged: [source leader i][member m][t]. Unpacked: [t][source rank].
  for (int t = 0, b = 0; t < ppl; ++t)
    for (int src = 0; src < p; ++src, ++b) {
      const std::size_t i = static_cast<std::size_t>(node_of[src]) * leaders_per_node + local_of[src] / ppl;
      src_of[b] = (i * ppl + local_of[src] % ppl) * ppl + t;
    }
  st->unpack = Repack(src_of);

  const char* gathered = ppl > 1 ? static_cast<const char*>(st->x.data()) : send;
  const bool pack_in_place = ppl == 1 && st->pack.identity();  // x is the exchange's output
  const void* packed = pack_in_place ? static_cast<const void*>(gathered) : st->y.data();
  char* unpacked = ppl > 1 ? static_cast<char*>(st->y.data()) : recv;

  Plan exchange = make_inner(inner, args.on(leaders, packed, st->x.data(), ppl * ppl * args.count),
                             inner_site(algo, "inter_node", params, 1));

  plan.add("gather", [=, a = args] {
    if (ppl > 1) MPI_Gather(send, whole, a.type, st->x.data(), whole, a.type, 0, local);
  });
  plan.add("repack", [=] {
    if (!pack_in_place) st->pack.run(*mem, st->y.data(), gathered, block);
  });
  plan.append(exchange, "inter_node");
  plan.add("repack", [=] { st->unpack.run(*mem, unpacked, st->x.data(), block); });
  plan.add("scatter", [=, a = args] {
    if (ppl > 1) MPI_Scatter(unpacked, whole, a.type, recv, whole, a.type, 0, local);
  });
  return plan;
}

}  // namespace detail

Plan hierarchical(const CollArgs& args, const Layout& layout, const Params& params) {
  const int ppn = detail::require_uniform("hierarchical", args, layout);
  return detail::leader_alltoall("hierarchical", args, layout, params, ppn);
}

MCB_DECLARE_ALGORITHM(hierarchical) {
  return detail::family("hierarchical", "gather to one leader per node, alltoall among leaders, scatter (Algorithm 3)",
                        {}, hierarchical);
}

}  // namespace mcb::alltoall
