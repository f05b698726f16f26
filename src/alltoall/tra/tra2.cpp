// tra2: the two-layer tunable-radix alltoall (alltoall-tunable-radix-tra,
// Section IV, Figures 5-7). With N nodes of Q ranks, I am local rank g of
// node n:
//   rotate      x[j][i] = send[rank (i, (g + j) % Q)]: the N blocks for
//               local rank g + j of every node form one unit
//   intra_node  TRA of radix r1 among the Q ranks of my node on units of
//               N blocks: unit j arrives from local rank g - j
//   rotate      y[k][s] = the block from (n, s) for node n + k: the Q blocks
//               for one node form one super-block
//   inter_node  TRA of radix r2 among the same-position ranks of the N
//               nodes (each node a super-process, each rank one of its Q
//               ports) on units of Q blocks: unit k arrives from node n - k
//   rotate_back recv[rank (m, s)] = y[n - m][s]
// Per rank: K1 + K2 messages, K1 = K(Q, r1) inside the node and K2 = K(N, r2)
// across nodes, and N*D(Q, r1) + Q*D(N, r2) blocks of s bytes
// (mcb/tra_model.hpp). Defaults: r1 = ceil(sqrt(Q)), r2 = N (the paper's
// choice). Needs every node full: P a multiple of Q. Scratch: 2P blocks
// plus the largest round of each layer; the send buffer is only read.
#include <mpi.h>

#include <memory>
#include <utility>

#include "mcb/error.hpp"
#include "mcb/tra_model.hpp"
#include "node_aware/hierarchy.hpp"
#include "tra.hpp"

namespace mcb::alltoall {

namespace detail {

Plan tra2_plan(const CollArgs& args, const std::vector<std::vector<int>>& rank_at, int node, int local, int r1,
               int r2) {
  const int nodes = static_cast<int>(rank_at.size()), q = static_cast<int>(rank_at[0].size()), p = nodes * q;
  const std::size_t block = args.block_bytes();
  auto st = std::make_shared<Scratch>();
  st->x = Buffer(args.memory(), block * p);
  st->y = Buffer(args.memory(), block * p);
  std::vector<std::size_t> src_of(static_cast<std::size_t>(p));
  for (int j = 0, b = 0; j < q; ++j)
    for (int i = 0; i < nodes; ++i, ++b) src_of[b] = static_cast<std::size_t>(rank_at[i][(local + j) % q]);
  st->pack = Repack(src_of);
  for (int k = 0, b = 0; k < nodes; ++k)
    for (int s = 0; s < q; ++s, ++b)
      src_of[b] = static_cast<std::size_t>((local - s + q) % q) * nodes + static_cast<std::size_t>((node + k) % nodes);
  st->middle = Repack(src_of);
  for (int m = 0; m < nodes; ++m)
    for (int s = 0; s < q; ++s)
      src_of[rank_at[m][s]] = static_cast<std::size_t>((node - m + nodes) % nodes) * q + static_cast<std::size_t>(s);
  st->unpack = Repack(src_of);

  std::vector<int> lane(static_cast<std::size_t>(nodes));
  for (int i = 0; i < nodes; ++i) lane[i] = rank_at[i][local];
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  const Memory* mem = &args.memory();

  Plan plan;
  plan.add("rotate", [=] { st->pack.run(*mem, st->x.data(), send, block); });
  plan.add("intra_node", tra_exchange(args, rank_at[node], local, r1, nodes * args.count, st->x.data(), 1));
  plan.add("rotate", [=] { st->middle.run(*mem, st->y.data(), st->x.data(), block); });
  plan.add("inter_node", tra_exchange(args, std::move(lane), node, r2, q * args.count, st->y.data(), 2));
  plan.add("rotate_back", [=] { st->unpack.run(*mem, recv, st->y.data(), block); });
  return plan;
}

Plan inner_tra2(const CollArgs& args, const InnerSite& site) {
  const int n = args.size(), me = args.rank(), q = site.ranks_per_node > 0 ? site.ranks_per_node : n;
  if (n % q != 0) throw Error(site.who + ": " + std::to_string(n) + " ranks do not make nodes of " + std::to_string(q));
  // A layer with a single member has no rounds: its radix is not asked for.
  const int nodes = n / q;
  const int r1 = q == 1 ? 2
                        : resolve_radix(site.who, site.params, "radix-intra", q, "ranks per node in the exchange",
                                        tra_default_radix(q));
  const int r2 =
      nodes == 1 ? 2 : resolve_radix(site.who, site.params, "radix-inter", nodes, "nodes in the exchange", nodes);
  std::vector<std::vector<int>> rank_at(static_cast<std::size_t>(nodes), std::vector<int>(static_cast<std::size_t>(q)));
  for (int i = 0; i < nodes; ++i)
    for (int j = 0; j < q; ++j) rank_at[i][j] = i * q + j;
  Plan plan = tra2_plan(args, rank_at, me / q, me % q, r1, r2);
  if (q > 1) plan.set_param("radix-intra", std::to_string(r1));
  if (nodes > 1) plan.set_param("radix-inter", std::to_string(r2));
  return plan;
}

}  // namespace detail

namespace {

// --radix-intra and --radix-inter on a uniform layout: the check before the
// first measurement and the factory resolve them here, with the same messages.
std::pair<int, int> radices_of(const Params& params, int q, int nodes) {
  return {detail::resolve_radix("tra2", params, "radix-intra", q, "ranks per node", tra_default_radix(q)),
          detail::resolve_radix("tra2", params, "radix-inter", nodes, "nodes", nodes)};
}

}  // namespace

Plan tra2(const CollArgs& args, const Layout& layout, const Params& params) {
  // --ranks-per-node that does not divide P is refused by the layout; real
  // nodes of different sizes are refused here.
  const int q = detail::require_uniform("tra2", args, layout);
  const auto [r1, r2] = radices_of(params, q, layout.num_nodes());
  Plan plan = detail::tra2_plan(args, detail::ranks_by_node(layout), layout.node(), layout.local_rank(), r1, r2);
  plan.set_param("radix-intra", std::to_string(r1));
  plan.set_param("radix-inter", std::to_string(r2));
  return plan;
}

MCB_DECLARE_ALGORITHM(tra2) {
  Algorithm a{"tra2",
              "two-layer TRA: intra-node rounds of radix r1, then inter-node rounds of radix r2",
              {{"radix-intra", "r1 in [2, ranks per node] (default ceil(sqrt(ranks per node)))", "", {}},
               {"radix-inter", "r2 in [2, nodes] (default the node count)", "", {}}},
              tra2};
  a.unsupported = detail::needs_uniform;
  a.check = [](const Layout& layout, const Params& p) {
    if (layout.uniform()) radices_of(p, layout.ranks_per_node(), layout.num_nodes());
  };
  return a;
}

}  // namespace mcb::alltoall
