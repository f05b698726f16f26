// shm_tree: the shared-memory tree allreduce, reduce then broadcast
// (allreduce-shared-memory-multiradix, Section 2.3, Figure 6), with the
// counter barriers of Section 3.1 and a copy-in design.
//   copy_in:    my vector, but for the part I sum myself in the first
//               stage, into my region of the node's shared segment
//   reduce:     stage j (fan-in f_j, --factors=-4,-2): the ranks still in
//               the tree form groups of f_j; each member sums its f_j-th of
//               the vector over the group's regions into the root's region
//               (one pass), the root waits for its members; local rank 0
//               ends with the node's sum
//   inter_node: (several nodes) local rank 0 allreduces it in place with
//               the other nodes' local ranks 0 (--inner; one leader per
//               node, or per region with --region: shm.hpp's Domain)
//   bcast:      every rank copies the sum out of local rank 0's region
// Per rank, vector of n bytes on Q ranks: at most n copied in, about n/f
// reduced per stage it takes part in, n copied out: about three memcpys of
// n on the ranks that stay longest. Flags: two per stage, so that a root's
// flag says its whole subtree is summed.
// The same tree is the shared-memory reduce (to rank 0, which must be local
// rank 0 of node 0: leaders MPI_Reduce across nodes, rank 0 copies out;
// phases copy_in, reduce, inter_node, copy_out) and bcast (from rank 0: it
// copies in, leaders MPI_Bcast across nodes, every rank copies out; phases
// copy_in, inter_node, bcast) of mcb_reduce and mcb_bcast.
#include <functional>
#include <memory>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

namespace {

enum class Kind { allreduce, reduce, bcast };

Plan tree(Kind kind, const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = kind == Kind::allreduce ? "shm_tree"
                    : kind == Kind::reduce  ? "shm_tree (reduce)"
                                            : "shm_tree (bcast)";
  const detail::Domain dom = detail::shm_domain(who, args, layout);
  const int q = dom.size, me = dom.rank;
  const bool nodes = dom.count > 1;
  detail::Factors factors;
  if (kind != Kind::bcast)
    factors =
        params.has("factors") ? detail::parse_factors(who, params.get("factors"), q, true) : detail::default_factors(q);
  factors.allgather.clear();
  const detail::Inner inner = detail::parse_inner(who, params, dom);
  detail::Resolved resolved;
  if (kind != Kind::bcast) resolved.emplace_back("factors", detail::to_string(factors));
  if (kind == Kind::allreduce) detail::add_inner(resolved, inner, dom.count);
  if (layout.rank() == 0 && me != 0)
    throw Error(std::string(who) + ": rank 0 must be the first rank of its " + dom.name);
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();

  auto make = [kind, args, dom, factors, inner, q, me, bytes, elem, nodes, root = layout.rank() == 0] {
    auto seg = std::make_shared<detail::ShmSegment>(dom.comm, bytes);
    auto t = std::make_shared<const detail::TreeSchedule>(detail::tree_schedule(q, me, factors, bytes));
    auto base = std::make_shared<std::uint32_t>(0);  // my counter when the call began
    auto srcs = std::make_shared<std::vector<const void*>>(static_cast<std::size_t>(q) + 1);
    const auto stages = static_cast<std::uint32_t>(t->stages.size());
    auto engine = std::make_shared<detail::Engine>();
    // bcast: only the root's vector goes in, to local rank 0's region.
    engine->phases.push_back({"copy_in", [kind, seg, t, base, bytes, args, root](const void* send, void* recv) {
                                *base = seg->counter();
                                for (int m : t->readers) seg->wait(m, *base);  // done with my last call
                                const char* in = static_cast<const char*>(send == MPI_IN_PLACE ? recv : send);
                                char* mine = seg->data(seg->rank());
                                if (kind != Kind::bcast) {
                                  args.memory().copy(mine, in, t->own_first.lo);
                                  args.memory().copy(mine + t->own_first.hi, in + t->own_first.hi,
                                                     bytes - t->own_first.hi);
                                } else if (root) {
                                  args.memory().copy(mine, in, bytes);
                                }
                                seg->set();
                              }});
    if (kind != Kind::bcast)
      engine->phases.push_back({"reduce", [seg, t, base, srcs, args, elem](const void* send, void* recv) {
                                  const int me = seg->rank();
                                  const char* in = static_cast<const char*>(send == MPI_IN_PLACE ? recv : send);
                                  for (std::size_t j = 0; j < t->stages.size(); ++j) {
                                    const detail::TreeStage& st = t->stages[j];
                                    const std::uint32_t ready = *base + 1 + 2 * static_cast<std::uint32_t>(j);
                                    if (st.active) {
                                      for (int m : st.members) seg->wait(m, ready);
                                      // The root's region first: it is the destination.
                                      auto& src = *srcs;
                                      const std::size_t lo = st.part.lo;
                                      int k = 0;
                                      src[static_cast<std::size_t>(k++)] = seg->data(st.root) + lo;
                                      if (me != st.root)
                                        src[static_cast<std::size_t>(k++)] = (j == 0 ? in : seg->data(me)) + lo;
                                      else if (j == 0)
                                        src[0] = in + lo;
                                      for (int m : st.members)
                                        if (m != st.root) src[static_cast<std::size_t>(k++)] = seg->data(m) + lo;
                                      detail::reduce_many(seg->data(st.root) + lo, src.data(), k,
                                                          static_cast<int>(st.part.size() / elem), args.type, args.op);
                                    }
                                    seg->set();  // my part is summed
                                    if (st.active && me == st.root)
                                      for (int m : st.members) seg->wait(m, ready + 1);
                                    seg->set();  // (root) my subtree is summed
                                  }
                                }});
    if (nodes) {
      // One leader per node (or region): its rank 0, on its lane (rank 0's is rank 0).
      std::function<void()> across;
      if (me == 0) {
        const CollArgs lane = args.on(dom.lane, nullptr, seg->data(0), static_cast<int>(bytes / elem));
        if (kind == Kind::allreduce) {
          auto plan = std::make_shared<Plan>(detail::inter_node_plan(inner, args, dom.lane, seg->data(0), lane.count));
          across = [plan] { plan->execute(); };
        } else if (kind == Kind::reduce) {
          across = [lane, root] {
            MPI_Reduce(root ? MPI_IN_PLACE : lane.recvbuf, lane.recvbuf, lane.count, lane.type, lane.op, 0, lane.comm);
          };
        } else {
          across = [lane] { MPI_Bcast(lane.recvbuf, lane.count, lane.type, 0, lane.comm); };
        }
      }
      engine->phases.push_back({"inter_node", [seg, across](const void*, void*) {
                                  if (across) across();
                                  seg->set();
                                }});
    }
    const std::uint32_t summed = 1 + 2 * (kind == Kind::bcast ? 0 : stages) + (nodes ? 1 : 0);
    engine->phases.push_back({kind == Kind::reduce ? "copy_out" : "bcast",
                              [kind, seg, base, summed, bytes, args, root](const void*, void* recv) {
                                if (kind != Kind::reduce || root) {
                                  seg->wait(0, *base + summed);
                                  args.memory().copy(recv, seg->data(0), bytes);
                                }
                                seg->set();
                              }});
    return engine;
  };
  return detail::engine_plan(who, args, params, resolved, make);
}

}  // namespace

Plan shm_tree(const CollArgs& args, const Layout& layout, const Params& params) {
  return tree(Kind::allreduce, args, layout, params);
}
Plan shm_tree_reduce(const CollArgs& args, const Layout& layout, const Params& params) {
  return tree(Kind::reduce, args, layout, params);
}
Plan shm_tree_bcast(const CollArgs& args, const Layout& layout, const Params& params) {
  return tree(Kind::bcast, args, layout, params);
}

}  // namespace mcb::allreduce
