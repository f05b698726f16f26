// shm_recursive_exchange: the shared-memory reduce-scatter of the
// multi-radix paper (allreduce-shared-memory-multiradix: the reduce_scatter
// stage of its recursive exchange, Sections 2.1.1 and 2.4, "applied
// straightforwardly to other collective communications, such as
// reduce_scatter"), with its counter barriers (Section 3.1), copy paths
// (--copy) and both interfaces (--interface, Section 4). Its stages are cut
// at the vector's parts, not at cache lines (shm_parts.hpp), so the last
// one sums each rank's own part straight into its receive buffer: with the
// default single stage of factor -Q (the paper's "radix equal to the number
// of tasks") no temporary buffer at all.
//   copy_in:        (copy-in) my vector into my region of the domain's
//                   segment, but the parts I sum in the first stage
//   reduce_scatter: stage j (factor f_j): sum the parts of my runs over my
//                   group; stage 0 reads the inputs (the regions on
//                   copy-in, the peers' buffers in place when registered or
//                   through process_vm_readv on cma), later stages the
//                   regions. The last stage writes my part into my receive
//                   buffer (in place: my region; several domains: a pack of
//                   my parts in lane order)
//   complete:       (registered, cma) wait until my first-stage group has
//                   read my input
//   inter_node:     (several nodes or regions) the pack reduce-scattered
//                   across the domains on my lane (--inner)
// On one domain in place, the last phase ends copying my part from my
// region to the start of my receive buffer (until then my group read it).
// A vector of no elements is no call at all.
// Per rank, vector of n bytes on Q ranks of one node, default factors -Q:
// copy-in moves 2n(Q-1)/Q copying in and n + n/Q reducing (Q reads of n/Q,
// one write); registered and cma n + n/Q. One flag set per stage; a rank
// waits only on the members of its groups.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "mcb/reduce_scatter.hpp"
#include "shm/engine.hpp"
#include "shm/shm.hpp"
#include "shm/shm_parts.hpp"

namespace mcb::reduce_scatter {

namespace {

namespace ad = allreduce::detail;

const std::vector<std::string>& inner_names() {
  static const std::vector<std::string> names{"system", "ring", "recursive_halving", "pairwise"};
  return names;
}

// What the plan needs beyond the schedule.
struct Setup {
  std::shared_ptr<const ad::PartsSchedule> s;
  CollArgs args;  // the call; comm the layout's
  ad::Domain dom;
  std::string inner;
  bool nodes = false;                // several domains
  std::size_t total = 0;             // the vector's bytes
  std::vector<std::size_t> displs;   // the parts' starts, bytes, P + 1
  std::vector<int> lane_counts;      // my lane's parts, in lane order (elements)
  std::vector<std::size_t> pack_at;  // by part: its place in my pack (bytes; mine only)
  std::size_t pack_bytes = 0;
  std::size_t mine_bytes = 0;  // my part
};

double traffic(const Setup& u, ad::Path path) {
  const auto& s = *u.s;
  double t = 0;
  if (path == ad::Path::copy_in && !s.stages.empty()) {
    double own = 0;
    for (const auto& r : s.stages[0].runs) own += static_cast<double>(r.bytes.size());
    t += 2.0 * (static_cast<double>(u.total) - own);
  }
  for (const auto& st : s.stages)
    for (const auto& r : st.runs) t += static_cast<double>(r.bytes.size()) * static_cast<double>(st.members.size() + 2);
  if (s.stages.empty()) t += 2.0 * static_cast<double>(u.nodes ? u.pack_bytes : u.mine_bytes);
  return t;
}

// One domain in place: my part, summed into my region, to the start of my
// receive buffer, once my group has read my input there.
void deliver_in_place(const ad::ShmSegment& seg, const Setup& u, const ad::Call& c) {
  if (u.nodes || c.send != MPI_IN_PLACE || u.mine_bytes == 0 || u.s->stages.empty() || u.s->mine.empty()) return;
  u.args.memory().copy(c.recv, seg.data(seg.rank()) + u.displs[static_cast<std::size_t>(u.s->mine.front())],
                       u.mine_bytes);
}

// The reduce_scatter stages (see the file comment).
ad::Engine::Phase stages_phase(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> u,
                               std::shared_ptr<std::uint32_t> base, std::shared_ptr<ad::Scratch> w,
                               std::shared_ptr<Buffer> pack, ad::Engine::Enter enter) {
  const bool direct = static_cast<bool>(enter);
  // Whose inputs the first stage sums (me first), listed once, not per call.
  std::vector<int> first{seg->rank()};
  if (!u->s->stages.empty()) first.insert(first.end(), u->s->stages[0].members.begin(), u->s->stages[0].members.end());
  return {"reduce_scatter", [seg, u, base, w, pack, enter, direct, first](const ad::Call& c) {
            const auto& s = *u->s;
            const int me = seg->rank();
            if (direct) ad::first_step(*seg, enter, c, *base);
            char* region = seg->data(me);
            const bool in_place = c.send == MPI_IN_PLACE;
            // Where the last stage puts part p, as a start at the vector's offsets.
            auto last_start = [&](int p) {
              const std::size_t lo = u->displs[static_cast<std::size_t>(p)];
              if (u->nodes)
                return ad::shifted(static_cast<char*>(pack->data()) + u->pack_at[static_cast<std::size_t>(p)], lo);
              return in_place ? region : ad::shifted(static_cast<char*>(c.recv), lo);
            };
            if (s.stages.empty()) {  // one rank per domain: my parts as they are
              for (int p : s.mine) {
                const std::size_t lo = u->displs[static_cast<std::size_t>(p)],
                                  hi = u->displs[static_cast<std::size_t>(p) + 1];
                if (!(in_place && !u->nodes)) u->args.memory().copy(last_start(p) + lo, c.in() + lo, hi - lo);
              }
              return;
            }
            for (std::size_t j = 0; j < s.stages.size(); ++j) {
              const ad::PartsStage& st = s.stages[j];
              const bool last = j + 1 == s.stages.size();
              for (int m : st.members) seg->wait(m, *base + 1 + static_cast<std::uint32_t>(j));
              for (const ad::PartRun& run : st.runs) {
                // The last stage on several domains: part by part into the pack.
                for (int p = run.first; p <= (last && u->nodes ? run.last : run.first); ++p) {
                  const bool whole = !(last && u->nodes);
                  const std::size_t lo = whole ? run.bytes.lo : u->displs[static_cast<std::size_t>(p)];
                  const std::size_t hi = whole ? run.bytes.hi : u->displs[static_cast<std::size_t>(p) + 1];
                  if (hi <= lo) continue;
                  w->dsts.clear();
                  w->dsts.push_back(last ? last_start(p) : region);
                  if (j == 0 && direct) {
                    ad::sum_inputs(c, me, seg->peers().pids, first, lo, hi, *w);
                    continue;
                  }
                  w->srcs[0] = (j == 0 ? c.in() : region) + lo;
                  int k = 1;
                  for (int m : st.members) w->srcs[static_cast<std::size_t>(k++)] = seg->data(m) + lo;
                  ad::sum_to(*w, k, lo, hi - lo);
                }
              }
              seg->set();
            }
            if (!direct) deliver_in_place(*seg, *u, c);
          }};
}

// The engine of one copy path (see the file comment): its phases over the
// segment, the pack and the inner reduce-scatter that the setup made.
std::shared_ptr<ad::Engine> engine_for(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> cu,
                                       std::shared_ptr<Buffer> pack, std::shared_ptr<Buffer> out,
                                       std::shared_ptr<Plan> inner, ad::Path path) {
  const Setup& x = *cu;
  auto base = std::make_shared<std::uint32_t>(0);
  auto engine = std::make_shared<ad::Engine>();
  const bool direct = path != ad::Path::copy_in;
  // The first step: wait until my region's readers are done with my
  // last call; on copy-in, copy in all but what I sum first from my input.
  engine->enter = [seg, cu, direct](const ad::Call& c, std::uint32_t start) {
    const auto& s = *cu->s;
    for (int m : s.readers) seg->wait(m, start);
    if (direct || s.stages.empty()) return;
    char* mine = seg->data(seg->rank());
    std::size_t at = 0;
    for (const auto& r : s.stages[0].runs) {
      cu->args.memory().copy(mine + at, c.in() + at, r.bytes.lo - at);
      at = r.bytes.hi;
    }
    cu->args.memory().copy(mine + at, c.in() + at, cu->total - at);
  };
  if (!direct)
    engine->phases.push_back(
        {"copy_in", [seg, base, enter = engine->enter](const ad::Call& c) { ad::first_step(*seg, enter, c, *base); }});
  auto w = std::make_shared<ad::Scratch>(seg->size(), path == ad::Path::cma, x.args);
  engine->phases.push_back(stages_phase(seg, cu, base, w, pack, direct ? engine->enter : nullptr));
  if (direct && !x.s->stages.empty()) {
    std::vector<int> readers = x.s->stages[0].members;
    engine->phases.push_back({"complete", [seg, cu, base, readers](const ad::Call& c) {
                                for (int m : readers) seg->wait(m, *base + 2);
                                deliver_in_place(*seg, *cu, c);
                              }});
  }
  if (x.nodes) {
    engine->phases.push_back({"inter_node", [cu, pack, out, inner](const ad::Call& c) {
                                const Setup& y = *cu;
                                if (!inner) {
                                  MPI_Reduce_scatter(pack->data(), c.recv, y.lane_counts.data(), y.args.type, y.args.op,
                                                     y.dom.lane);
                                  return;
                                }
                                inner->execute();
                                y.args.memory().copy(c.recv, out->data(), y.mine_bytes);
                              }});
  }
  return engine;
}

}  // namespace

Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_recursive_exchange";
  // Everything checked now: building the engine cannot fail on bad input.
  auto u = std::make_shared<Setup>();
  u->dom = ad::shm_domain(who, args, layout);
  const int q = u->dom.size, me = u->dom.rank, p = args.size();
  const ad::Factors factors = params.has("factors")
                                  ? ad::parse_factors(who, params.get("factors"), q, /*reduce_only=*/true)
                                  : ad::Factors{ad::default_factors(q).reduce_scatter, {}};
  u->inner = params.get("inner", "system");
  if (std::find(inner_names().begin(), inner_names().end(), u->inner) == inner_names().end())
    throw Error(std::string(who) + ": --inner " + u->inner + ": expected system, ring, recursive_halving or pairwise");
  u->nodes = u->dom.count > 1;
  u->args = args;
  const std::size_t elem = args.type_bytes();
  u->displs = ad::part_bytes(args);
  u->total = u->displs.back();
  if (u->total == 0) {  // nothing to reduce or to deliver anywhere
    Plan none;
    none.add(args.v ? "reduce_scatter" : "reduce_scatter_block", [] {});
    return none;
  }
  const ad::Lanes lanes = ad::lanes_of(layout, u->dom);
  u->s = std::make_shared<const ad::PartsSchedule>(
      ad::reduce_scatter_parts(q, me, factors.reduce_scatter, lanes.drank, u->displs));
  u->pack_at.assign(static_cast<std::size_t>(p), 0);
  for (int r : lanes.of[static_cast<std::size_t>(me)]) {
    u->lane_counts.push_back(args.count_of(r));
    u->pack_at[static_cast<std::size_t>(r)] = u->pack_bytes;
    u->pack_bytes += static_cast<std::size_t>(args.count_of(r)) * elem;
  }
  u->mine_bytes = static_cast<std::size_t>(args.count) * elem;
  ad::Resolved resolved{{"factors", ad::to_string(factors)}};
  if (u->nodes) resolved.push_back({"inner", u->inner});
  // The call's vector is what the segment and the descriptors cover.
  CollArgs whole = args;
  whole.count = static_cast<int>(args.displ_of(p));
  ad::EngineOptions options;
  options.shape = ad::counts_key(args);  // the parts, for the blocking cache's key
  options.phase = args.v ? "reduce_scatter" : "reduce_scatter_block";
  options.cma_min = ad::kCmaMinPiece;
  options.cma_piece = u->total / static_cast<std::size_t>(q);
  std::shared_ptr<const Setup> cu = u;

  auto setup = [cu](std::shared_ptr<ad::ShmSegment> seg) {
    const Setup& x = *cu;
    auto pack =
        std::make_shared<Buffer>(x.nodes ? Buffer(host_memory(), std::max<std::size_t>(1, x.pack_bytes)) : Buffer());
    // The inner reduce-scatter of the pack across domains: the MPI's on the
    // call's receive buffer, or mcb's into scratch, then copied there.
    std::shared_ptr<Buffer> out;
    std::shared_ptr<Plan> inner;
    if (x.nodes && x.inner != "system") {
      out = std::make_shared<Buffer>(host_memory(), std::max<std::size_t>(1, x.mine_bytes));
      CollArgs a = x.args.on(x.dom.lane, pack->data(), out->data(), x.args.count);
      a.v = VCounts::packed(x.lane_counts);
      a.mem = nullptr;
      inner = std::make_shared<Plan>(x.inner == "ring"                ? ring(a)
                                     : x.inner == "recursive_halving" ? recursive_halving(a)
                                                                      : pairwise(a));
    }
    auto make = [seg, cu, pack, out, inner](ad::Path path) { return engine_for(seg, cu, pack, out, inner, path); };
    return std::make_shared<ad::Engines>(seg, make);
  };
  return ad::engine_plan(
      who, whole, params, resolved, u->dom.comm, setup, [cu](ad::Path path) { return traffic(*cu, path); },
      q == 1 ? "one rank per " + u->dom.name + ": no peers to reach" : "", 0, options);
}

MCB_DECLARE_ALGORITHM(shm_recursive_exchange) {
  return ad::shared_memory_algorithm(
      {"shm_recursive_exchange",
       "shared-memory reduce_scatter stages of the recursive exchange, flexible factors, each rank's part summed "
       "in place",
       {ad::factors_param("=-f1,-f2,...: reduce_scatter factors (negative), multiplying to the ranks per node (or "
                          "region); alternatives separated by / (default: prime factors merged up to 8)"),
        {"inner",
         "the reduce_scatter across nodes (or regions) on each lane: system, ring, recursive_halving or pairwise",
         "system", inner_names()},
        ad::interface_param(),
        ad::copy_param()},
       shm_recursive_exchange});
}

}  // namespace mcb::reduce_scatter
