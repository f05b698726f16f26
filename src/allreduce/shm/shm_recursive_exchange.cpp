// shm_recursive_exchange: the shared-memory recursive exchange allreduce
// (allreduce-shared-memory-multiradix, Sections 2.1.1-2.1.4, Figures 1-3),
// with the counter barriers of Section 3.1, on one of three copy paths
// (copy_path.hpp; --copy).
//   copy_in:        (copy-in) my vector into my region of the node's
//                   shared segment, but for the range I reduce first
//   reduce_scatter: stage j (factor f_j): reduce my f_j-th of the range kept
//                   so far over my group (cache-line pieces). Stage 0 reads
//                   the inputs: the regions (copy-in), the peers' buffers in
//                   place (registered) or through process_vm_readv (cma);
//                   later stages read the regions. The result goes to my
//                   region; on one node, the last stage also writes my
//                   receive buffer, and with registered buffers and one
//                   allgather stage over the node it writes every rank's
//                   receive buffer instead (push: no allgather)
//   inter_node:     (several nodes) my piece, now summed over the node,
//                   allreduced in place with the same piece of the other
//                   nodes on my lane (--inner: system, recursive_doubling,
//                   rabenseifner, ring or recursive_exchange); with
//                   --region, per region (shm.hpp's Domain)
//   allgather:      stage a (factor g_a): copy from my group's regions the
//                   pieces they hold; the last stage writes into my receive
//                   buffer, with my own pieces
//   complete:       (registered, cma) wait until the ranks that read my
//                   input or wrote my receive buffer are done with them
// Per rank, vector of n bytes on Q ranks per node, default factors -Q,Q
// on one node (traffic(): every stage counted from the schedule): copy-in
// moves about 2n(1 - 1/Q) copying in, n + 2n/Q reducing, 2n(1 - 1/Q) in
// the allgather; registered moves n + n reading and writing (push); cma
// n + 2n/Q and the allgather. One flag set per stage; a rank waits only on
// the members of its groups (push: on every rank before it writes theirs).
#include <memory>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "small_path.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

namespace {

// What one call moves on `path` for schedule s (see the file comment).
struct Shape {
  bool push = false;                // registered: the last stage writes every receive buffer
  bool spread = false;              // copy-in, -Q,Q: my receive buffer, then the others' regions (shm.hpp)
  bool dual = false;                // the last stage writes my region and my receive buffer
  std::vector<detail::Range> rest;  // what the allgather copies of my own region at the end
};

Shape shape(const detail::ShmSchedule& s, detail::Path path, int q, bool nodes) {
  Shape h;
  h.push = path == detail::Path::registered && !nodes && s.ag_copies.size() == 1 &&
           static_cast<int>(s.ag_members[0].size()) == q - 1 && !s.rs_range.empty();
  h.spread = path == detail::Path::copy_in && !nodes && s.rs_range.size() == 1 && s.ag_copies.size() == 1 &&
             static_cast<int>(s.rs_members[0].size()) == q - 1 && static_cast<int>(s.ag_members[0].size()) == q - 1;
  h.dual = !h.push && !h.spread && !nodes && !s.rs_range.empty() && !s.ag_copies.empty();
  for (const detail::Range& held : s.held_before_last) {
    const detail::Range p = s.piece;
    if (!(h.dual || h.spread) || p.size() == 0 || p.hi <= held.lo || held.hi <= p.lo) {
      h.rest.push_back(held);
      continue;
    }
    if (held.lo < p.lo) h.rest.push_back({held.lo, p.lo});
    if (p.hi < held.hi) h.rest.push_back({p.hi, held.hi});
  }
  return h;
}

double traffic(const detail::ShmSchedule& s, detail::Path path, int q, bool nodes, std::size_t bytes) {
  const Shape h = shape(s, path, q, nodes);
  const bool copy_in = path == detail::Path::copy_in || s.rs_range.empty();
  double t = 0;
  if (copy_in) t += 2.0 * static_cast<double>(bytes - (s.rs_range.empty() ? 0 : s.rs_range[0].size()));
  for (std::size_t j = 0; j < s.rs_range.size(); ++j) {
    const bool last = j + 1 == s.rs_range.size();
    const double writes = last && h.push ? q : last && h.dual ? 2 : 1;
    t += static_cast<double>(s.rs_range[j].size()) * (static_cast<double>(s.rs_members[j].size() + 1) + writes);
    if (last && h.spread) t += 2.0 * static_cast<double>(s.rs_range[j].size()) * (q - 1);
  }
  if (h.push) return t;
  for (const auto& stage : s.ag_copies)
    for (const detail::Copy& c : stage) t += 2.0 * static_cast<double>(c.range.size());
  for (const detail::Range& r : h.rest) t += 2.0 * static_cast<double>(r.size());
  return t;
}

// The reduce_scatter stages: stage j sums my range of it from my group's
// regions (stage 0 from the inputs where they are on a direct path); the
// last stage writes my region, or with push every receive buffer.
detail::Engine::Phase reduce_scatter_phase(std::shared_ptr<detail::ShmSegment> seg,
                                           std::shared_ptr<const detail::ShmSchedule> s,
                                           std::shared_ptr<std::uint32_t> base, std::shared_ptr<detail::Scratch> w,
                                           std::vector<int> first, CollArgs args, Shape h, detail::Engine::Enter enter,
                                           int q, int me) {
  const bool direct = static_cast<bool>(enter);
  return {"reduce_scatter", [seg, s, base, w, first, args, h, enter, direct, q, me](const detail::Call& c) {
            char* mine = seg->data(me);
            if (direct) detail::first_step(*seg, enter, c, *base);  // entered: my input and receive buffer are ready
            for (std::size_t j = 0; j < s->rs_range.size(); ++j) {
              const detail::Range r = s->rs_range[j];
              const bool last = j + 1 == s->rs_range.size();
              for (int m : s->rs_members[j]) seg->wait(m, *base + 1 + static_cast<std::uint32_t>(j));
              w->dsts.clear();
              if (last && h.push) {  // I write everyone's receive buffer: they must have entered
                for (int x = 0; x < q; ++x) {
                  seg->wait(x, *base + 1);
                  w->dsts.push_back(x == me ? static_cast<char*>(c.recv) : c.reach->out[static_cast<std::size_t>(x)]);
                }
              } else {
                if (!(last && h.spread)) w->dsts.push_back(mine);
                if (last && (h.dual || h.spread)) w->dsts.push_back(static_cast<char*>(c.recv));
              }
              if (j == 0 && direct) {
                detail::sum_inputs(c, me, seg->peers().pids, first, r.lo, r.hi, *w);
              } else {
                w->srcs[0] = (j == 0 ? c.in() : mine) + r.lo;
                int k = 1;
                for (int m : s->rs_members[j]) w->srcs[static_cast<std::size_t>(k++)] = seg->data(m) + r.lo;
                detail::sum_to(*w, k, r.lo, r.size());
              }
              if (last && h.spread) detail::spread_piece(*seg, static_cast<char*>(c.recv) + r.lo, r, args.memory());
              seg->set();
            }
          }};
}

}  // namespace

Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_recursive_exchange";
  // Everything checked now: building the engine cannot fail on bad input.
  const detail::ShmConfig config = detail::shm_config(who, args, layout, params, false);
  const detail::Domain dom = config.dom;
  if (detail::takes_small_path(who, args, dom, params, detail::SmallKind::allreduce))
    return detail::small_plan(detail::SmallKind::allreduce, who, args, params, config.resolved, dom);
  const detail::Inner inner = config.inner;
  const int q = dom.size, me = dom.rank;
  const bool nodes = dom.count > 1;
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();
  auto s = std::make_shared<const detail::ShmSchedule>(detail::shm_schedule(q, me, config.factors, bytes));

  auto setup = [args, dom, inner, s, q, me, bytes, elem, nodes](std::shared_ptr<detail::ShmSegment> seg) {
    std::shared_ptr<Plan> lane;  // the inter-node allreduce of my piece, in my region (every path)
    if (nodes)
      lane = std::make_shared<Plan>(detail::inter_node_plan(inner, args, dom.lane, seg->data(me) + s->piece.lo,
                                                            static_cast<int>(s->piece.size() / elem)));
    // Steps before the allgather: copy-in (or entering), the reduce_scatter
    // stages and, on several nodes, the inter-node allreduce of my piece.
    const std::uint32_t before = 1 + static_cast<std::uint32_t>(s->rs_range.size()) + (nodes ? 1 : 0);
    auto make = [args, seg, s, lane, q, me, bytes, nodes, before](detail::Path path) {
      const Shape h = shape(*s, path, q, nodes);
      auto base = std::make_shared<std::uint32_t>(0);  // my counter when the call began
      auto engine = std::make_shared<detail::Engine>();
      const bool direct = path != detail::Path::copy_in;  // stage 0 reads the inputs where they are
      // The first step: wait until my region's readers are done with my last
      // call; on the copy-in path copy in only what the others read in the
      // first reduce_scatter stage (my own range of it is summed straight
      // from my input).
      engine->enter = [seg, s, bytes, args, direct](const detail::Call& c, std::uint32_t start) {
        for (int m : s->readers) seg->wait(m, start);
        if (direct) return;
        char* mine = seg->data(seg->rank());
        const detail::Range own = s->rs_range.empty() ? detail::Range{bytes, bytes} : s->rs_range[0];
        args.memory().copy(mine, c.in(), own.lo);
        args.memory().copy(mine + own.hi, c.in() + own.hi, bytes - own.hi);
      };
      if (!direct)
        engine->phases.push_back({"copy_in", [seg, base, enter = engine->enter](const detail::Call& c) {
                                    detail::first_step(*seg, enter, c, *base);
                                  }});
      auto w = std::make_shared<detail::Scratch>(q, path == detail::Path::cma, args);
      std::vector<int> first{me};  // whose inputs the first stage sums
      if (!s->rs_members.empty()) first.insert(first.end(), s->rs_members[0].begin(), s->rs_members[0].end());
      engine->phases.push_back(
          reduce_scatter_phase(seg, s, base, w, first, args, h, direct ? engine->enter : nullptr, q, me));
      if (lane)
        engine->phases.push_back({"inter_node", [seg, lane](const detail::Call&) {
                                    lane->execute();
                                    seg->set();  // my piece is final: the allgather may read it
                                  }});
      if (!h.push)
        engine->phases.push_back({"allgather", [seg, s, base, before, args, h](const detail::Call& c) {
                                    detail::run_allgather(*seg, s->ag_members, s->ag_copies, h.rest, *base + before,
                                                          static_cast<char*>(c.recv), args.memory(), h.spread);
                                  }});
      if (direct) {
        // push: every rank wrote my receive buffer in its last stage; else
        // my first-stage group read my input in its first stage.
        const std::uint32_t done = h.push ? static_cast<std::uint32_t>(s->rs_range.size()) + 1 : 2;
        std::vector<int> wait_for = s->rs_members[0];
        if (h.push) {
          wait_for.clear();
          for (int x = 0; x < q; ++x)
            if (x != me) wait_for.push_back(x);
        }
        engine->phases.push_back({"complete", [seg, base, done, wait_for](const detail::Call&) {
                                    for (int x : wait_for) seg->wait(x, *base + done);
                                  }});
      }
      return engine;
    };
    return std::make_shared<detail::Engines>(seg, make);
  };
  return detail::engine_plan(
      who, args, params, config.resolved, dom.comm, setup,
      [s, q, nodes, bytes](detail::Path p) { return traffic(*s, p, q, nodes, bytes); },
      q == 1 ? "one rank per " + dom.name + ": no peers to reach" : "");
}

MCB_DECLARE_ALGORITHM(shm_recursive_exchange) {
  return detail::shared_memory_algorithm(
      {"shm_recursive_exchange",
       "shared-memory recursive exchange: reduce_scatter and allgather stages of flexible factors",
       {detail::factors_param(
            "=-f1,-f2,...,g1,g2,...: reduce_scatter (negative) and allgather (positive) factors, each multiplying to "
            "the ranks per node; alternatives separated by / (default: prime factors merged up to 8, mirrored)"),
        detail::inner_node_param(), detail::node_factors_param(), detail::interface_param(), detail::copy_param(),
        detail::small_param(detail::SmallKind::allreduce)},
       shm_recursive_exchange});
}

}  // namespace mcb::allreduce
