// shm_cyclic_shift: the shared-memory cyclic shift allreduce
// (allreduce-shared-memory-multiradix, Section 2.2, Figures 4-5), for
// commutative operations, with the counter barriers of Section 3.1, on one
// of three copy paths (copy_path.hpp; --copy). The factor lists may
// multiply to more than the ranks per node (--factors=-2,-2,-2,2,2,2 for 7
// ranks); no rotation of the vector before or after, as in the paper's
// intra-node variant.
//   copy_in:        into my region of the node's shared segment, the parts
//                   of my vector that some rank reads there raw
//                   (raw_reads()): on the copy-in path what the others sum
//                   in the first stage (my own first-stage ranges I sum
//                   from my input: n(1 - 1/f_1) of n is copied); on the
//                   registered and cma paths only what a later stage reads
//                   raw (a window cut short at the end of the node leaves
//                   a piece unsummed in a stage; none with the default
//                   factors)
//   reduce_scatter: stage j (factor f_j, D_j = f_1...f_{j-1}): for the
//                   pieces whose offset from me is a multiple of D_j f_j,
//                   add the partial sums of ranks me - i*D_j (i < f_j, while
//                   the window stays within the node); piece p ends on rank
//                   p. Stage 0 reads the inputs: the regions (copy-in), the
//                   peers' buffers in place (registered) or through
//                   process_vm_readv (cma); later stages read the regions.
//                   On one node the last stage writes my piece to my
//                   receive buffer too
//   inter_node:     (several nodes) my piece allreduced on my lane (--inner)
//   allgather:      stage a (factor g_a): Bruck's allgather, copying from
//                   ranks me + i*D'_a the pieces they hold; the last stage
//                   writes into my receive buffer, with the other pieces I
//                   hold
//   complete:       (registered, cma) wait until the ranks that read my
//                   input in stage 0 are done with it
// Per rank, vector of n bytes on Q ranks: n(1 - 1/f_1) copied in (copy-in), about
// n(1 - 1/Q) of partial sums added over the stages, n(1 - 1/Q) copied in
// the allgather plus the n/Q of my piece written out twice in the last stage
// on one node (traffic() counts each from the schedule; 4n at 2 ranks);
// each stage reads from f-1 ranks at distances D_j, 2D_j, ... (a
// dissemination pattern).
#include <algorithm>
#include <memory>
#include <set>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "small_path.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

namespace {

// The ranges of my region that some rank reads before I wrote them in an
// earlier stage: they must hold my raw input, copied in. A stage-0 read of
// mine comes from my input itself on every path; the others' stage-0 reads
// come from my region on the copy-in path only (`copy_in`), from my input
// where it is on the direct ones. Reads after the reduce_scatter (the
// allgather's, my held pieces, the inter-node allreduce of my `piece`)
// are counted too: a piece no stage wrote, as on one rank, is copied in.
std::vector<detail::Range> raw_reads(const std::vector<detail::CyclicSchedule>& all, int me, bool copy_in, bool nodes) {
  struct Access {
    detail::Range range;
    std::size_t stage;
  };
  const detail::CyclicSchedule& mine = all[static_cast<std::size_t>(me)];
  const std::size_t after = mine.rs.size();  // the stage after every write
  std::vector<Access> writes, reads;
  for (std::size_t j = 0; j < mine.rs.size(); ++j)
    for (const auto& op : mine.rs[j]) {
      writes.push_back({op.range, j});
      if (j > 0) reads.push_back({op.range, j});  // my own partial sum, or my input
    }
  for (std::size_t x = 0; x < all.size(); ++x) {
    if (static_cast<int>(x) == me) continue;
    for (std::size_t j = copy_in ? 0 : 1; j < all[x].rs.size(); ++j)
      for (const auto& op : all[x].rs[j])
        if (std::find(op.from.begin(), op.from.end(), me) != op.from.end()) reads.push_back({op.range, j});
    for (const auto& stage : all[x].ag_copies)
      for (const detail::Copy& c : stage)
        if (c.from == me) reads.push_back({c.range, after});
  }
  for (const detail::Range& r : mine.held_before_last) reads.push_back({r, after});
  if (nodes) reads.push_back({mine.piece, after});
  std::set<std::size_t> cuts;
  for (const auto* list : {&writes, &reads})
    for (const Access& a : *list) cuts.insert({a.range.lo, a.range.hi});
  std::vector<detail::Range> raw;
  for (auto it = cuts.begin(); it != cuts.end() && std::next(it) != cuts.end(); ++it) {
    const detail::Range piece{*it, *std::next(it)};
    auto covers = [&](const Access& a) { return a.range.lo <= piece.lo && piece.hi <= a.range.hi; };
    const bool needed = std::any_of(reads.begin(), reads.end(), [&](const Access& r) {
      return covers(r) && !std::any_of(writes.begin(), writes.end(),
                                       [&](const Access& w) { return covers(w) && w.stage < r.stage; });
    });
    if (!needed) continue;
    if (!raw.empty() && raw.back().hi == piece.lo)
      raw.back().hi = piece.hi;
    else
      raw.push_back(piece);
  }
  return raw;
}

// On one node the last reduce_scatter stage, which sums my piece, writes it
// to my receive buffer too (dual), so that the allgather copies out of my
// region only the other pieces I hold: what it copies of my own region.
std::vector<detail::Range> own_rest(const detail::CyclicSchedule& c, bool dual) {
  std::vector<detail::Range> rest;
  for (const detail::Range& held : c.held_before_last) {
    const detail::Range p = c.piece;
    if (!dual || p.size() == 0 || p.hi <= held.lo || held.hi <= p.lo) {
      rest.push_back(held);
      continue;
    }
    if (held.lo < p.lo) rest.push_back({held.lo, p.lo});
    if (p.hi < held.hi) rest.push_back({p.hi, held.hi});
  }
  return rest;
}

// Whether the copy-in path may spread (shm.hpp's spread_piece): on one
// node, every rank sums exactly its own piece in one stage from every
// other rank and copies every other rank's piece in one allgather stage
// (factors -Q,Q). The same answer on every rank: it looks at them all.
bool spreads(const std::vector<detail::CyclicSchedule>& all, bool nodes) {
  const std::size_t q = all.size();
  if (nodes || q < 2) return false;
  for (const detail::CyclicSchedule& c : all) {
    if (c.rs.size() != 1 || c.rs[0].size() != 1 || c.rs_from[0].size() != q - 1 || c.ag_copies.size() != 1 ||
        c.ag_from[0].size() != q - 1)
      return false;
    const detail::Range r = c.rs[0][0].range;
    if (r.lo != c.piece.lo || r.hi != c.piece.hi) return false;
    for (const detail::Copy& x : c.ag_copies[0]) {
      const detail::Range p = all[static_cast<std::size_t>(x.from)].piece;
      if (x.range.lo < p.lo || p.hi < x.range.hi) return false;
    }
  }
  return true;
}

// Whether an operation of the last stage writes my receive buffer too:
// the ranges of my piece, when dual (or spread).
bool writes_out(const detail::CyclicSchedule& c, bool dual, std::size_t j, const detail::Range& r) {
  return dual && j + 1 == c.rs.size() && c.piece.lo <= r.lo && r.hi <= c.piece.hi;
}

double traffic(const detail::CyclicSchedule& c, const std::vector<detail::Range>& raw,
               const std::vector<detail::Range>& copied, detail::Path path, bool dual, bool spread) {
  const bool spreading = spread && path == detail::Path::copy_in;
  if (spreading) dual = false;
  double t = spreading ? 2.0 * static_cast<double>(c.piece.size()) * static_cast<double>(c.ag_from[0].size()) : 0;
  for (const detail::Range& r : path == detail::Path::copy_in ? copied : raw) t += 2.0 * static_cast<double>(r.size());
  for (std::size_t j = 0; j < c.rs.size(); ++j)
    for (const auto& op : c.rs[j])
      t += static_cast<double>(op.range.size()) *
           static_cast<double>(op.from.size() + 2 + (writes_out(c, dual, j, op.range) ? 1 : 0));
  for (const auto& stage : c.ag_copies)
    for (const detail::Copy& x : stage) t += 2.0 * static_cast<double>(x.range.size());
  for (const detail::Range& r : own_rest(c, dual || spreading)) t += 2.0 * static_cast<double>(r.size());
  return t;
}

// The reduce_scatter stages: per stage, wait for its sources, then each
// operation sums its range (stage 0 from the inputs where they are, on a
// direct path) into my region, or with `spread` into my receive buffer and
// the others' regions.
detail::Engine::Phase reduce_scatter_phase(std::shared_ptr<detail::ShmSegment> seg,
                                           std::shared_ptr<const detail::CyclicSchedule> c,
                                           std::shared_ptr<std::uint32_t> base, std::shared_ptr<detail::Scratch> w,
                                           CollArgs args, bool direct, bool dual, bool spread, int me) {
  // Per first-stage operation, the ranks whose inputs it sums: me, then its sources.
  std::vector<std::vector<int>> first;
  if (!c->rs.empty())
    for (const auto& op : c->rs[0]) {
      first.push_back({me});
      first.back().insert(first.back().end(), op.from.begin(), op.from.end());
    }
  return {"reduce_scatter", [seg, c, base, w, first, args, direct, dual, spread, me](const detail::Call& call) {
            char* mine = seg->data(me);
            for (std::size_t j = 0; j < c->rs.size(); ++j) {
              for (int m : c->rs_from[j]) seg->wait(m, *base + 1 + static_cast<std::uint32_t>(j));
              for (std::size_t i = 0; i < c->rs[j].size(); ++i) {
                const auto& op = c->rs[j][i];
                w->dsts.assign(1, spread ? static_cast<char*>(call.recv) : mine);
                if (!spread && writes_out(*c, dual, j, op.range)) w->dsts.push_back(static_cast<char*>(call.recv));
                if (j == 0 && direct) {
                  detail::sum_inputs(call, me, seg->peers().pids, first[i], op.range.lo, op.range.hi, *w);
                  continue;
                }
                int k = 0;
                w->srcs[static_cast<std::size_t>(k++)] = (j == 0 ? call.in() : mine) + op.range.lo;
                for (int m : op.from) w->srcs[static_cast<std::size_t>(k++)] = seg->data(m) + op.range.lo;
                detail::sum_to(*w, k, op.range.lo, op.range.size());
                if (spread)
                  detail::spread_piece(*seg, static_cast<char*>(call.recv) + op.range.lo, op.range, args.memory());
              }
              seg->set();
            }
          }};
}

}  // namespace

Plan shm_cyclic_shift(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_cyclic_shift";
  // Everything checked now: building the engine cannot fail on bad input.
  const detail::ShmConfig config = detail::shm_config(who, args, layout, params, true);
  const detail::Domain dom = config.dom;
  if (detail::takes_small_path(who, args, dom, params, detail::SmallKind::allreduce))
    return detail::small_plan(detail::SmallKind::allreduce, who, args, params, config.resolved, dom);
  const detail::Factors factors = config.factors;
  const detail::Inner inner = config.inner;
  const int q = dom.size, me = dom.rank;
  const bool nodes = dom.count > 1;
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();

  std::vector<detail::CyclicSchedule> all;
  for (int x = 0; x < q; ++x) all.push_back(detail::cyclic_schedule(q, x, factors, bytes));
  auto c = std::make_shared<const detail::CyclicSchedule>(all[static_cast<std::size_t>(me)]);
  // What the copy-in phase copies: on the direct paths the ranges read raw
  // after the first stage, on the copy-in path the others' first-stage
  // reads too (not my own first-stage ranges: I sum those from my input).
  auto raw = std::make_shared<const std::vector<detail::Range>>(raw_reads(all, me, false, nodes));
  auto copied = std::make_shared<const std::vector<detail::Range>>(raw_reads(all, me, true, nodes));
  const bool dual = !nodes && !c->rs.empty();
  const bool spread = spreads(all, nodes);  // on the copy-in path
  auto rest = std::make_shared<const std::vector<detail::Range>>(own_rest(*c, dual));
  // Who reads my input in stage 0: the ranks whose first-stage sources include me.
  std::vector<int> stage0_readers;
  for (int x = 0; x < q; ++x)
    if (!all[static_cast<std::size_t>(x)].rs_from.empty()) {
      const auto& from = all[static_cast<std::size_t>(x)].rs_from[0];
      if (std::find(from.begin(), from.end(), me) != from.end()) stage0_readers.push_back(x);
    }

  auto setup = [args, dom, inner, c, raw, copied, rest, dual, spread, stage0_readers, q, me, elem,
                nodes](std::shared_ptr<detail::ShmSegment> seg) {
    std::shared_ptr<Plan> lane;
    if (nodes)
      lane = std::make_shared<Plan>(detail::inter_node_plan(inner, args, dom.lane, seg->data(me) + c->piece.lo,
                                                            static_cast<int>(c->piece.size() / elem)));
    const std::uint32_t before = 1 + static_cast<std::uint32_t>(c->rs.size()) + (nodes ? 1 : 0);
    auto make = [args, seg, c, raw, copied, rest, dual, stage0_readers, lane, q, me, before,
                 spread_any = spread](detail::Path path) {
      const bool direct = path != detail::Path::copy_in;  // stage 0 reads the inputs where they are
      const bool spread = spread_any && !direct;
      auto base = std::make_shared<std::uint32_t>(0);  // my counter when the call began
      auto w = std::make_shared<detail::Scratch>(q, path == detail::Path::cma, args);
      auto engine = std::make_shared<detail::Engine>();
      auto ranges = direct ? raw : copied;
      engine->enter = [seg, c, ranges, args](const detail::Call& call, std::uint32_t start) {
        for (int m : c->readers) seg->wait(m, start);  // done reading my last call
        char* mine = seg->data(seg->rank());
        for (const detail::Range& r : *ranges) args.memory().copy(mine + r.lo, call.in() + r.lo, r.size());
      };
      engine->phases.push_back({"copy_in", [seg, base, enter = engine->enter](const detail::Call& call) {
                                  detail::first_step(*seg, enter, call, *base);
                                }});
      engine->phases.push_back(reduce_scatter_phase(seg, c, base, w, args, direct, dual, spread, me));
      if (lane)
        engine->phases.push_back({"inter_node", [seg, lane](const detail::Call&) {
                                    lane->execute();
                                    seg->set();
                                  }});
      engine->phases.push_back({"allgather", [seg, c, rest, base, before, args, spread](const detail::Call& call) {
                                  detail::run_allgather(*seg, c->ag_from, c->ag_copies, *rest, *base + before,
                                                        static_cast<char*>(call.recv), args.memory(), spread);
                                }});
      if (direct)
        engine->phases.push_back({"complete", [seg, base, stage0_readers](const detail::Call&) {
                                    for (int x : stage0_readers) seg->wait(x, *base + 2);
                                  }});
      return engine;
    };
    return std::make_shared<detail::Engines>(seg, make);
  };
  return detail::engine_plan(
      who, args, params, config.resolved, dom.comm, setup,
      [c, raw, copied, dual, spread](detail::Path p) { return traffic(*c, *raw, *copied, p, dual, spread); },
      q == 1 ? "one rank per " + dom.name + ": no peers to reach" : "");
}

MCB_DECLARE_ALGORITHM(shm_cyclic_shift) {
  return detail::shared_memory_algorithm(
      {"shm_cyclic_shift",
       "shared-memory cyclic shift: dissemination reduce_scatter, Bruck allgather, commutative ops",
       {detail::factors_param(
            "=-f1,...,g1,...: reduce_scatter (negative) and allgather (positive) factors, each list multiplying to "
            "at least the ranks per node (-2,-2,-2,2,2,2 for 7); alternatives separated by / (default as "
            "shm_recursive_exchange)"),
        detail::inner_node_param(), detail::node_factors_param(), detail::interface_param(), detail::copy_param(),
        detail::small_param(detail::SmallKind::allreduce)},
       shm_cyclic_shift});
}

}  // namespace mcb::allreduce
