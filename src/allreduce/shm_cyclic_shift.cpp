// shm_cyclic_shift: the shared-memory cyclic shift allreduce
// (allreduce-shared-memory-multiradix, Section 2.2, Figures 4-5), for
// commutative operations, with the counter barriers of Section 3.1 and a
// copy-in design only (copy=copy-in: a stage may read a rank's raw input
// from its region after the first stage, so reading inputs in place would
// need the schedule to say where each piece lives; not done). The factor lists may multiply to more than the ranks per
// node (--factors=-2,-2,-2,2,2,2 for 7 ranks); no rotation of the vector
// before or after, as in the paper's intra-node variant.
//   copy_in:        my vector into my region of the node's shared segment
//   reduce_scatter: stage j (factor f_j, D_j = f_1...f_{j-1}): for the
//                   pieces whose offset from me is a multiple of D_j f_j,
//                   add the partial sums of ranks me - i*D_j (i < f_j, while
//                   the window stays within the node); piece p ends on rank p
//   inter_node:     (several nodes) my piece allreduced on my lane (--inner)
//   allgather:      stage a (factor g_a): Bruck's allgather, copying from
//                   ranks me + i*D'_a the pieces they hold; the last stage
//                   writes into my receive buffer
// Per rank, vector of n bytes on Q ranks: n copied in, about n(1 - 1/Q)
// of partial sums added over the stages, n(1 - 1/Q) copied in the
// allgather plus n/Q out; each stage reads from f-1 ranks at distances
// D_j, 2D_j, ... (a dissemination pattern).
#include <memory>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

Plan shm_cyclic_shift(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_cyclic_shift";
  // Everything checked now: building the engine cannot fail on bad input.
  const detail::ShmConfig config = detail::shm_config(who, args, layout, params, true);
  const detail::Domain dom = config.dom;
  const detail::Factors factors = config.factors;
  const detail::Inner inner = config.inner;
  const int q = dom.size, me = dom.rank;
  const bool nodes = dom.count > 1;
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();

  auto c = std::make_shared<const detail::CyclicSchedule>(detail::cyclic_schedule(q, me, factors, bytes));
  auto setup = [args, dom, inner, c, q, me, bytes, elem, nodes](const detail::Peers& peers) {
    auto seg = std::make_shared<detail::ShmSegment>(dom.comm, bytes, peers);
    auto base = std::make_shared<std::uint32_t>(0);  // my counter when the call began
    auto srcs = std::make_shared<std::vector<const void*>>(static_cast<std::size_t>(q) + 1);
    const std::uint32_t before = 1 + static_cast<std::uint32_t>(c->rs.size()) + (nodes ? 1 : 0);
    auto engine = std::make_shared<detail::Engine>();
    engine->phases.push_back({"copy_in", [seg, c, base, bytes, args](const detail::Call& call) {
                                *base = seg->counter();
                                for (int m : c->readers) seg->wait(m, *base);  // done reading my last call
                                args.memory().copy(seg->data(seg->rank()), call.in(), bytes);
                                seg->set();
                              }});
    engine->phases.push_back({"reduce_scatter", [seg, c, base, srcs, args, elem](const detail::Call&) {
                                char* mine = seg->data(seg->rank());
                                for (std::size_t j = 0; j < c->rs.size(); ++j) {
                                  for (int m : c->rs_from[j]) seg->wait(m, *base + 1 + static_cast<std::uint32_t>(j));
                                  for (const auto& op : c->rs[j]) {
                                    auto& src = *srcs;
                                    int k = 0;
                                    src[static_cast<std::size_t>(k++)] = mine + op.range.lo;
                                    for (int m : op.from)
                                      src[static_cast<std::size_t>(k++)] = seg->data(m) + op.range.lo;
                                    detail::reduce_many(mine + op.range.lo, src.data(), k,
                                                        static_cast<int>(op.range.size() / elem), args.type, args.op);
                                  }
                                  seg->set();
                                }
                              }});
    if (nodes) {
      auto lane = std::make_shared<Plan>(detail::inter_node_plan(inner, args, dom.lane, seg->data(me) + c->piece.lo,
                                                                 static_cast<int>(c->piece.size() / elem)));
      engine->phases.push_back({"inter_node", [seg, lane](const detail::Call&) {
                                  lane->execute();
                                  seg->set();
                                }});
    }
    engine->phases.push_back({"allgather", [seg, c, base, before, args](const detail::Call& call) {
                                detail::run_allgather(*seg, c->ag_from, c->ag_copies, c->held_before_last,
                                                      *base + before, static_cast<char*>(call.recv), args.memory());
                              }});
    return std::make_shared<detail::Engines>(seg, [engine](detail::Path) { return engine; });
  };
  auto traffic = [c, bytes](detail::Path) {
    double t = 2.0 * static_cast<double>(bytes);  // copy-in
    for (const auto& stage : c->rs)
      for (const auto& op : stage) t += static_cast<double>(op.range.size()) * static_cast<double>(op.from.size() + 2);
    for (const auto& stage : c->ag_copies)
      for (const detail::Copy& x : stage) t += 2.0 * static_cast<double>(x.range.size());
    for (const detail::Range& r : c->held_before_last) t += 2.0 * static_cast<double>(r.size());
    return t;
  };
  return detail::engine_plan(who, args, params, config.resolved, dom.comm, setup, traffic,
                             "its registered and cma paths are not implemented");
}

}  // namespace mcb::allreduce
