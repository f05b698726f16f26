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
//               the other nodes' local ranks 0 (--inner; one leader per node)
//   bcast:      every rank copies the sum out of local rank 0's region
// Per rank, vector of n bytes on Q ranks: at most n copied in, about n/f
// reduced per stage it takes part in, n copied out: about three memcpys of
// n on the ranks that stay longest. Flags: two per stage, so that a root's
// flag says its whole subtree is summed.
#include <memory>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

Plan shm_tree(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_tree";
  const int q = detail::shm_ranks_per_node(who, args, layout);
  detail::Factors factors =
      params.has("factors") ? detail::parse_factors(who, params.get("factors"), q, true) : detail::default_factors(q);
  factors.allgather.clear();
  const std::string inner = params.get("inner", "system");
  detail::check_inner(inner);
  detail::Resolved resolved{{"factors", detail::to_string(factors)}};
  const bool nodes = layout.num_nodes() > 1;
  if (nodes) resolved.emplace_back("inner", inner);
  const int me = layout.local_rank();
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();

  auto make = [args, &layout, factors, inner, q, me, bytes, elem, nodes] {
    auto seg = std::make_shared<detail::ShmSegment>(layout.node_comm(), bytes);
    auto t = std::make_shared<const detail::TreeSchedule>(detail::tree_schedule(q, me, factors, bytes));
    auto base = std::make_shared<std::uint32_t>(0);  // my counter when the call began
    auto srcs = std::make_shared<std::vector<const void*>>(static_cast<std::size_t>(q) + 1);
    const auto stages = static_cast<std::uint32_t>(t->stages.size());
    auto engine = std::make_shared<detail::Engine>();
    engine->phases.push_back({"copy_in", [seg, t, base, bytes, args](const void* send, void* recv) {
                                *base = seg->counter();
                                for (int m : t->readers) seg->wait(m, *base);  // done with my last call
                                const char* in = static_cast<const char*>(send == MPI_IN_PLACE ? recv : send);
                                char* mine = seg->data(seg->rank());
                                args.memory().copy(mine, in, t->own_first.lo);
                                args.memory().copy(mine + t->own_first.hi, in + t->own_first.hi,
                                                   bytes - t->own_first.hi);
                                seg->set();
                              }});
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
      std::shared_ptr<Plan> lane;
      if (me == 0)
        lane = std::make_shared<Plan>(
            detail::inter_node_plan(inner, args, layout, seg->data(0), static_cast<int>(bytes / elem)));
      engine->phases.push_back({"inter_node", [seg, lane](const void*, void*) {
                                  if (lane) lane->execute();
                                  seg->set();
                                }});
    }
    const std::uint32_t summed = 1 + 2 * stages + (nodes ? 1 : 0);
    engine->phases.push_back({"bcast", [seg, base, summed, bytes, args](const void*, void* recv) {
                                seg->wait(0, *base + summed);
                                args.memory().copy(recv, seg->data(0), bytes);
                                seg->set();
                              }});
    return engine;
  };
  return detail::engine_plan(args, params, resolved, make);
}

}  // namespace mcb::allreduce
