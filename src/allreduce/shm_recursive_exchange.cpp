// shm_recursive_exchange: the shared-memory recursive exchange allreduce
// (allreduce-shared-memory-multiradix, Sections 2.1.1-2.1.4, Figures 1-3),
// with the counter barriers of Section 3.1 and a copy-in design.
//   copy_in:        my vector into my region of the node's shared segment
//   reduce_scatter: stage j (factor f_j): reduce my f_j-th of the range kept
//                   so far over the regions of my group (cache-line pieces)
//   inter_node:     (several nodes) my piece, now summed over the node,
//                   allreduced in place with the same piece of the other
//                   nodes on my lane (--inner: system, recursive_doubling,
//                   rabenseifner, ring or recursive_exchange); with
//                   --region, per region (shm.hpp's Domain)
//   allgather:      stage a (factor g_a): copy from my group's regions the
//                   pieces they hold; the last stage writes into my receive
//                   buffer, with my own pieces
// Per rank, vector of n bytes on Q ranks per node: n copied in, about
// n(1 - 1/Q) reduced over all stages (each stage reads f-1 foreign pieces
// of the range), n(1 - 1/Q) copied in the allgather plus its own n/Q out:
// about three memcpys of n. One flag set per stage; a rank waits only on
// the members of its groups. Factors: --factors=-4,-2,2,4 (shm_schedule.hpp).
#include <memory>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_recursive_exchange";
  // Everything checked now: building the engine cannot fail on bad input.
  const detail::ShmConfig config = detail::shm_config(who, args, layout, params, false);
  const detail::Domain dom = config.dom;
  const detail::Factors factors = config.factors;
  const detail::Inner inner = config.inner;
  const int q = dom.size, me = dom.rank;
  const bool nodes = dom.count > 1;
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();

  auto make = [args, dom, factors, inner, q, me, bytes, elem, nodes] {
    auto seg = std::make_shared<detail::ShmSegment>(dom.comm, bytes);
    auto s = std::make_shared<const detail::ShmSchedule>(detail::shm_schedule(q, me, factors, bytes));
    auto base = std::make_shared<std::uint32_t>(0);  // my counter when the call began
    // Steps before the allgather: copy-in, the reduce_scatter stages and, on
    // several nodes, the inter-node allreduce of my piece.
    const std::uint32_t before = 1 + static_cast<std::uint32_t>(s->rs_range.size()) + (nodes ? 1 : 0);
    auto engine = std::make_shared<detail::Engine>();
    // Only what the others read in the first reduce_scatter stage is copied
    // in; my own range of it is summed straight from my send buffer.
    engine->phases.push_back(
        {"copy_in", [seg, s, base, bytes, args](const void* send, void* recv) {
           *base = seg->counter();
           for (int m : s->readers) seg->wait(m, *base);  // done reading my last call
           const char* in = static_cast<const char*>(send == MPI_IN_PLACE ? recv : send);
           char* mine = seg->data(seg->rank());
           const detail::Range own = s->rs_range.empty() ? detail::Range{bytes, bytes} : s->rs_range[0];
           args.memory().copy(mine, in, own.lo);
           args.memory().copy(mine + own.hi, in + own.hi, bytes - own.hi);
           seg->set();
         }});
    // On one node my piece is final after the last reduce_scatter stage: that
    // stage writes it to my receive buffer too, and the allgather copies
    // only the rest of what I hold.
    const bool dual = !nodes && !s->rs_range.empty() && !s->ag_copies.empty();
    auto rest = std::make_shared<std::vector<detail::Range>>();
    for (const detail::Range& h : s->held_before_last) {
      const detail::Range p = s->piece;
      if (!dual || p.size() == 0 || p.hi <= h.lo || h.hi <= p.lo) {
        rest->push_back(h);
        continue;
      }
      if (h.lo < p.lo) rest->push_back({h.lo, p.lo});
      if (p.hi < h.hi) rest->push_back({p.hi, h.hi});
    }
    auto srcs = std::make_shared<std::vector<const void*>>(static_cast<std::size_t>(q));
    engine->phases.push_back({"reduce_scatter", [seg, s, base, srcs, args, elem, dual](const void* send, void* recv) {
                                char* mine = seg->data(seg->rank());
                                const char* in = static_cast<const char*>(send == MPI_IN_PLACE ? recv : send);
                                for (std::size_t j = 0; j < s->rs_range.size(); ++j) {
                                  const detail::Range r = s->rs_range[j];
                                  auto& src = *srcs;
                                  src[0] = (j == 0 ? in : mine) + r.lo;
                                  int k = 1;
                                  for (int m : s->rs_members[j]) {
                                    seg->wait(m, *base + 1 + static_cast<std::uint32_t>(j));
                                    src[static_cast<std::size_t>(k++)] = seg->data(m) + r.lo;
                                  }
                                  const bool final = dual && j + 1 == s->rs_range.size();
                                  detail::reduce_many(mine + r.lo, src.data(), k, static_cast<int>(r.size() / elem),
                                                      args.type, args.op,
                                                      final ? static_cast<char*>(recv) + r.lo : nullptr);
                                  seg->set();
                                }
                              }});
    if (nodes) {
      auto lane = std::make_shared<Plan>(detail::inter_node_plan(inner, args, dom.lane, seg->data(me) + s->piece.lo,
                                                                 static_cast<int>(s->piece.size() / elem)));
      engine->phases.push_back({"inter_node", [seg, lane](const void*, void*) {
                                  lane->execute();
                                  seg->set();  // my piece is final: the allgather may read it
                                }});
    }
    engine->phases.push_back({"allgather", [seg, s, base, before, args, rest](const void*, void* recv) {
                                detail::run_allgather(*seg, s->ag_members, s->ag_copies, *rest, *base + before,
                                                      static_cast<char*>(recv), args.memory());
                              }});
    return engine;
  };
  return detail::engine_plan(who, args, params, config.resolved, make);
}

}  // namespace mcb::allreduce
