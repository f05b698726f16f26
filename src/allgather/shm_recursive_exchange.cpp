// shm_recursive_exchange: the shared-memory allgather (and allgatherv) of
// the multi-radix paper (allreduce-shared-memory-multiradix: the allgather
// stage of its recursive exchange, Sections 2.1.1 and 2.4, "applied
// straightforwardly to other collective communications, such as ...
// allgatherv"), with its counter barriers (Section 3.1), copy paths
// (--copy) and both interfaces (--interface, Section 4). Its stages are cut
// at the blocks, not at cache lines (shm_parts.hpp): with the default single
// stage of factor Q each rank copies every other rank's block straight
// into its receive buffer.
//   copy_in:    (copy-in, or several domains) my block into my region of
//               the domain's segment, at its place in the vector
//   inter_node: (several nodes or regions) the blocks of my lane gathered
//               into my region at their places (MPI_Allgatherv on the lane)
//   allgather:  stage a (factor g_a): copy from my group the blocks they
//               hold (stage 1 on a direct path from their inputs: in place
//               when registered, through process_vm_readv on cma; else from
//               their regions) into my region, or at the last stage into my
//               receive buffer, with what my region holds
//   complete:   (registered, cma) wait until my first-stage group has read
//               my block
// Per rank, blocks of b bytes on Q ranks of one node, default factor Q:
// copy-in moves 2b copying in and 2b(Q-1) copying out, registered and cma
// 2b(Q-1) (a kernel copy each on cma) and 2b for my own block out of place.
// --copy auto takes cma where copy-in would touch the last-level cache
// (Qb(Q+2) bytes on the node: send, receive, regions).
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "mcb/allgather.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "shm/engine.hpp"
#include "shm/shm.hpp"
#include "shm/shm_parts.hpp"

namespace mcb::allgather {

namespace {

namespace ad = allreduce::detail;

struct Setup {
  std::shared_ptr<const ad::GatherSchedule> s;
  CollArgs args;
  ad::Domain dom;
  bool nodes = false;
  int me_rank = 0;                            // mine in the layout's communicator
  std::vector<std::size_t> displs;            // the blocks' starts, bytes, P + 1
  std::vector<int> lane_counts, lane_displs;  // my lane's blocks in lane order (elements, into the vector)
};

// The input block of rank x of the layout's communicator as the call
// reaches it: its send buffer (out of place) or its place in its receive
// buffer (in place); `base` is that rank's input as Call::in() gives it.
const char* block_in(const Setup& u, const ad::Call& c, const char* base, int x) {
  return c.send == MPI_IN_PLACE ? base + u.displs[static_cast<std::size_t>(x)] : base;
}

double traffic(const Setup& u, ad::Path path) {
  const auto& s = *u.s;
  const double mine = static_cast<double>(u.displs[static_cast<std::size_t>(u.me_rank) + 1] -
                                          u.displs[static_cast<std::size_t>(u.me_rank)]);
  double t = path == ad::Path::copy_in || u.nodes ? 2.0 * mine : 0.0;
  for (const auto& st : s.stages)
    for (const auto& c : st.copies) t += 2.0 * static_cast<double>(c.run.bytes.size());
  for (const auto& r : s.held_before) t += 2.0 * static_cast<double>(r.bytes.size());
  return t;
}

// The allgather stages (see the file comment).
ad::Engine::Phase stages_phase(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> u,
                               std::shared_ptr<std::uint32_t> base, ad::Engine::Enter enter, ad::Path path,
                               std::uint32_t before) {
  const bool direct = static_cast<bool>(enter);
  return {"allgather", [seg, u, base, enter, direct, path, before](const ad::Call& c) {
            const auto& s = *u->s;
            const Memory& mem = u->args.memory();
            const int me = seg->rank();
            if (direct) ad::first_step(*seg, enter, c, *base);
            char* region = seg->data(me);
            char* recv = static_cast<char*>(c.recv);
            const bool in_place = c.send == MPI_IN_PLACE;
            // What my region holds goes to my receive buffer at the last
            // stage; my own block from my input (in place it is there).
            auto deliver_held = [&] {
              for (const ad::PartRun& r : s.held_before)
                for (int p = r.first; p <= r.last; ++p) {
                  const std::size_t lo = u->displs[static_cast<std::size_t>(p)],
                                    hi = u->displs[static_cast<std::size_t>(p) + 1];
                  if (p != u->me_rank)
                    mem.copy(recv + lo, region + lo, hi - lo);
                  else if (!in_place)
                    mem.copy(recv + lo, block_in(*u, c, c.in(), p), hi - lo);
                }
            };
            if (s.stages.empty()) deliver_held();
            for (std::size_t a = 0; a < s.stages.size(); ++a) {
              const ad::GatherStage& st = s.stages[a];
              const bool last = a + 1 == s.stages.size();
              for (int m : st.members) seg->wait(m, *base + before + static_cast<std::uint32_t>(a));
              char* into = last ? recv : region;
              if (a == 0 && direct && !last) {  // my own block into my region for the next stages
                const std::size_t lo = u->displs[static_cast<std::size_t>(u->me_rank)];
                mem.copy(region + lo, block_in(*u, c, c.in(), u->me_rank),
                         u->displs[static_cast<std::size_t>(u->me_rank) + 1] - lo);
              }
              if (last) deliver_held();
              for (const ad::PartCopy& cp : st.copies) {
                const std::size_t lo = cp.run.bytes.lo, n = cp.run.bytes.size();
                if (a > 0 || !direct) {
                  mem.copy(into + lo, seg->data(cp.from) + lo, n);
                  continue;
                }
                // A direct first stage: the member's block from its input
                // (one domain: a copy is one block, its owner's).
                const int x = cp.run.first;
                if (path == ad::Path::registered) {
                  mem.copy(into + lo, block_in(*u, c, c.reach->in[static_cast<std::size_t>(cp.from)], x), n);
                } else {
                  const std::uintptr_t remote = c.reach->remote_in[static_cast<std::size_t>(cp.from)] +
                                                (in_place ? u->displs[static_cast<std::size_t>(x)] : 0);
                  ad::cma_read_or_abort(seg->peers().pids[static_cast<std::size_t>(cp.from)], into + lo, remote, n);
                }
              }
              seg->set();
            }
          }};
}

// The engine's options: the buffers, and when --copy auto takes cma.
ad::EngineOptions engine_options(const CollArgs& args, const Setup& u, int q) {
  const std::size_t elem = args.type_bytes();
  const int p = args.size();
  ad::EngineOptions options;
  options.shape = ad::counts_key(args);
  options.phase = args.v ? "allgatherv" : "allgather";
  options.send_bytes = std::max<std::size_t>(1, static_cast<std::size_t>(args.count) * elem);
  options.cma_min = ad::kCmaMinPiece;
  options.cma_piece = u.displs.back() / static_cast<std::size_t>(p);
  options.cma_ratio = q > 1 ? static_cast<double>(q) / (q - 1) : 1.0;
  // Two ranks on one node: cma wherever it works (from cma_min) while a
  // block's copy-in (2b bytes) fits the private cache, as shm_linear's
  // gather (rooted_shm.hpp): the copy-in's second move reads the peer's
  // cache there, which the probe does not price (issue 71, Open MPI 5.0.7's
  // default in the same launch, 3 launches: 32-256 KiB blocks copy-in
  // 0.99-1.53, cma 0.75-0.98; 512 KiB copy-in 0.90-1.08, cma 0.84-0.96; 1
  // MiB copy-in 0.55-0.67, cma 0.84-1.00).
  const std::size_t l2 = ad::private_cache_bytes();
  if (q == 2 && !u.nodes && l2 > 0 && 2 * options.cma_piece <= l2)
    options.cma_ratio = std::numeric_limits<double>::infinity();
  // One node: copy-in touches every rank's send block, receive vector and
  // its block in its region (EngineOptions::copy_in_footprint).
  if (!u.nodes)
    options.copy_in_footprint =
        static_cast<std::size_t>(q) * (u.displs.back() + 2 * u.displs.back() / static_cast<std::size_t>(p));
  return options;
}

}  // namespace

Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "shm_recursive_exchange";
  auto u = std::make_shared<Setup>();
  u->dom = ad::shm_domain(who, args, layout);
  const int q = u->dom.size, me = u->dom.rank, p = args.size();
  ad::Factors factors = ad::default_factors(q);
  if (params.has("factors")) {
    const std::string text = params.get("factors");
    if (text.find('-') != std::string::npos)
      throw Error(std::string(who) + ": --factors " + text +
                  ": the allgather takes allgather factors only (positive, e.g. 2,4)");
    factors = ad::parse_factors(who, "-" + std::to_string(q) + "," + text, q);
  }
  u->nodes = u->dom.count > 1;
  u->args = args;
  u->me_rank = args.rank();
  u->displs = ad::part_bytes(args);
  const ad::Lanes lanes = ad::lanes_of(layout, u->dom);
  u->s =
      std::make_shared<const ad::GatherSchedule>(ad::allgather_parts(q, me, factors.allgather, lanes.drank, u->displs));
  for (int r : lanes.of[static_cast<std::size_t>(me)]) {
    u->lane_counts.push_back(args.count_of(r));
    u->lane_displs.push_back(static_cast<int>(args.displ_of(r)));
  }
  ad::Factors shown{{}, factors.allgather};
  ad::Resolved resolved{{"factors", ad::to_string(shown)}};
  // The segment and the descriptors cover the vector of every block; out
  // of place the send buffer is my block.
  CollArgs whole = args;
  whole.count = static_cast<int>(args.displ_of(p));
  const ad::EngineOptions options = engine_options(args, *u, q);
  std::shared_ptr<const Setup> cu = u;

  auto setup = [cu](std::shared_ptr<ad::ShmSegment> seg) {
    auto make = [seg, cu](ad::Path path) {
      const Setup& x = *cu;
      auto base = std::make_shared<std::uint32_t>(0);
      auto engine = std::make_shared<ad::Engine>();
      const bool direct = path != ad::Path::copy_in && !x.nodes;
      // The first step: wait until my region's readers are done with my
      // last call; on copy-in, my block into my region.
      engine->enter = [seg, cu, direct](const ad::Call& c, std::uint32_t start) {
        const Setup& y = *cu;
        for (int m : y.s->readers) seg->wait(m, start);
        if (direct || y.nodes) return;
        const std::size_t lo = y.displs[static_cast<std::size_t>(y.me_rank)];
        y.args.memory().copy(seg->data(seg->rank()) + lo, block_in(y, c, c.in(), y.me_rank),
                             y.displs[static_cast<std::size_t>(y.me_rank) + 1] - lo);
      };
      if (!direct)
        engine->phases.push_back({"copy_in", [seg, base, enter = engine->enter](const ad::Call& c) {
                                    ad::first_step(*seg, enter, c, *base);
                                  }});
      std::uint32_t before = 1;  // steps before the first stage: the entering one
      if (x.nodes) {
        ++before;
        engine->phases.push_back({"inter_node", [seg, cu](const ad::Call& c) {
                                    const Setup& y = *cu;
                                    MPI_Allgatherv(block_in(y, c, c.in(), y.me_rank), y.args.count, y.args.type,
                                                   seg->data(seg->rank()), y.lane_counts.data(), y.lane_displs.data(),
                                                   y.args.type, y.dom.lane);
                                    seg->set();  // my lane's blocks are in my region
                                  }});
      }
      engine->phases.push_back(stages_phase(seg, cu, base, direct ? engine->enter : nullptr, path, before));
      if (direct && !x.s->stages.empty()) {
        std::vector<int> readers = x.s->stages[0].members;
        engine->phases.push_back({"complete", [seg, base, readers](const ad::Call&) {
                                    for (int m : readers) seg->wait(m, *base + 2);
                                  }});
      }
      return engine;
    };
    return std::make_shared<ad::Engines>(seg, make);
  };
  const std::string copy_in_only = q == 1     ? "one rank per " + u->dom.name + ": no peers to reach"
                                   : u->nodes ? "several " + u->dom.name + "s: the lane's blocks gather in the region"
                                              : "";
  return ad::engine_plan(
      who, whole, params, resolved, u->dom.comm, setup, [cu](ad::Path path) { return traffic(*cu, path); },
      copy_in_only, 0, options);
}

MCB_DECLARE_ALGORITHM(shm_recursive_exchange) {
  return ad::shared_memory_algorithm(
      {"shm_recursive_exchange",
       "shared-memory allgather stages of the recursive exchange, flexible factors, each block copied into place",
       {ad::factors_param("=g1,g2,...: allgather factors (positive), multiplying to the ranks per node (or region); "
                          "alternatives separated by / (default: prime factors merged up to 8)"),
        ad::interface_param(), ad::copy_param()},
       shm_recursive_exchange});
}

}  // namespace mcb::allgather
