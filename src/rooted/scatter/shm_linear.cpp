// shm_linear: the shared-memory scatter (and scatterv) from rank 0, on the
// node segment, counter barriers and copy paths of the shared-memory
// allreduces (allreduce-shared-memory-multiradix: Section 2.4's scatter,
// which takes the place of the reduce_scatter stage, with Section 3.1's
// counters and Section 4's persistent and blocking interfaces; --copy,
// --interface). Rank 0 must be the first rank of its node (or region:
// --region).
// One node (or region), per copy path:
//   copy_in:    (copy-in) rank 0 copies block r of its input into rank r's
//               region of the node's segment, each once r is done with its
//               last call's
//   scatter:    every rank copies its block into its receive buffer, once
//               rank 0 marked the blocks: out of its own region (copy-in),
//               from rank 0's input in place (registered) or through
//               process_vm_readv (cma: one kernel copy); rank 0 its own
//               from its input (out of place)
//   complete:   (registered, cma) rank 0 waits until every rank has read
//               its block
// Several nodes (or regions), copy-in only:
//   copy_in:    (cyclic order) rank 0 packs its blocks by node (each node's
//               ranks in local rank order) into a buffer of packs
//   inter_node: rank 0 sends each leader (local rank 0) its node's pack
//               (MPI_Scatterv on the leaders' lane; in block order straight
//               from its input), which lands in the leader's region
//   scatter:    every rank copies its block out of its leader's region
// Per rank, blocks of b bytes on P ranks of one node: rank 0 moves
// 2b(P-1) bytes copying in (copy-in; none on registered and cma) and 2b
// for its own out of place; the others 2b (their block out, or read on
// registered and cma). Messages: none on one node; several nodes, one per
// leader from rank 0 (its node's Qb bytes). Flags: two set per call.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "mcb/scatter.hpp"
#include "rooted_shm.hpp"
#include "shm/engine.hpp"
#include "shm/shm.hpp"

namespace mcb::scatter {

namespace {

namespace ad = allreduce::detail;

struct Setup {
  CollArgs args;
  ad::Domain dom;
  rooted::ShmPacks packs;
  std::vector<std::size_t> displs;  // the blocks' starts in rank 0's input, bytes, P + 1
  std::vector<int> sv_displs;       // rank 0's MPI_Scatterv displacements, by domain (elements)
  int me = 0;                       // my rank in the layout's communicator
  bool nodes = false, root = false, in_place = false;

  std::size_t block(int r) const {
    return displs[static_cast<std::size_t>(r) + 1] - displs[static_cast<std::size_t>(r)];
  }
  std::size_t total() const { return displs.back(); }
  // Rank 0 out of place: its own block from its send buffer to its receive
  // buffer (in place it is there).
  void own(const ad::Call& c) const {
    if (root && c.send != MPI_IN_PLACE) args.memory().copy(c.recv, c.in(), block(0));
  }
};

double traffic(const Setup& u, ad::Path path) {
  const double own = static_cast<double>(u.block(u.me)), total = static_cast<double>(u.total());
  if (!u.root) return 2 * own;
  const double mine = u.in_place ? 0.0 : 2 * own;
  if (u.nodes) return mine + (u.packs.rank_order ? 0.0 : 2 * total);
  return mine + (path == ad::Path::copy_in ? 2 * (total - own) : 0.0);
}

// One node: the engine of `path` (see the file comment).
std::shared_ptr<ad::Engine> one_node(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> cu,
                                     ad::Path path) {
  auto base = std::make_shared<std::uint32_t>(0);
  auto engine = std::make_shared<ad::Engine>();
  const bool direct = path != ad::Path::copy_in;
  // The first step (rank 0, copy-in): block r into rank r's region once r
  // has copied out its last call's. (On registered and cma, rank 0 waited
  // in its last call's complete.)
  engine->enter = [seg, cu, direct](const ad::Call& c, std::uint32_t start) {
    const Setup& y = *cu;
    if (!y.root || direct) return;
    for (int r = 1; r < y.args.size(); ++r) {
      seg->wait(r, start);
      y.args.memory().copy(seg->data(r), c.in() + y.displs[static_cast<std::size_t>(r)], y.block(r));
    }
  };
  if (!direct)
    engine->phases.push_back(
        {"copy_in", [seg, base, enter = engine->enter](const ad::Call& c) { ad::first_step(*seg, enter, c, *base); }});
  engine->phases.push_back({"scatter", [seg, cu, base, path, enter = engine->enter](const ad::Call& c) {
                              const Setup& y = *cu;
                              if (path != ad::Path::copy_in) ad::first_step(*seg, enter, c, *base);
                              if (!y.root) {
                                const std::size_t n = y.block(y.me), at = y.displs[static_cast<std::size_t>(y.me)];
                                seg->wait(0, *base + 1);
                                if (n > 0 && path == ad::Path::copy_in)
                                  y.args.memory().copy(c.recv, seg->data(seg->rank()), n);
                                else if (n > 0 && path == ad::Path::registered)
                                  y.args.memory().copy(c.recv, c.reach->in[0] + at, n);
                                else if (n > 0)
                                  ad::cma_read_or_abort(seg->peers().pids[0], c.recv, c.reach->remote_in[0] + at, n);
                              }
                              y.own(c);
                              seg->set();  // my block is out
                            }});
  if (direct)
    engine->phases.push_back({"complete", [seg, cu, base](const ad::Call&) {
                                if (cu->root)  // every rank has read its block from my input
                                  for (int r = 1; r < seg->size(); ++r) seg->wait(r, *base + 2);
                              }});
  return engine;
}

// Several nodes (copy-in): rank 0's blocks by node (packed in cyclic
// order), each node's pack to its leader's region, every block out of it.
std::shared_ptr<ad::Engine> across(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> cu,
                                   std::shared_ptr<Buffer> packed) {
  auto base = std::make_shared<std::uint32_t>(0);
  auto engine = std::make_shared<ad::Engine>();  // no Engine::enter: the copy-in path only
  if (!cu->packs.rank_order)
    engine->phases.push_back(
        {"copy_in", [cu, packed](const ad::Call& c) {
           const Setup& y = *cu;
           if (!y.root) return;
           const auto& s = y.packs;
           const std::size_t elem = y.args.type_bytes();
           char* into = static_cast<char*>(packed->data());
           for (int k = 0; k < s.domains; ++k)
             for (int r : s.members[static_cast<std::size_t>(k)])
               y.args.memory().copy(into + static_cast<std::size_t>(s.pack_displ[static_cast<std::size_t>(k)]) * elem +
                                        s.at[static_cast<std::size_t>(r)],
                                    c.in() + y.displs[static_cast<std::size_t>(r)], y.block(r));
         }});
  engine->phases.push_back({"inter_node", [seg, cu, base, packed](const ad::Call& c) {
                              const Setup& y = *cu;
                              *base = seg->counter();
                              if (seg->rank() == 0) {
                                // My ranks are done with my region's last pack.
                                for (int m = 1; m < seg->size(); ++m) seg->wait(m, *base);
                                const auto& s = y.packs;
                                const void* from = !y.root ? nullptr : s.rank_order ? c.in() : packed->data();
                                MPI_Scatterv(from, s.pack_count.data(), y.sv_displs.data(), y.args.type, seg->data(0),
                                             s.pack_count[static_cast<std::size_t>(s.domain)], y.args.type,
                                             s.root_domain, y.dom.lane);
                              }
                              seg->set();  // (leaders) my node's pack is in my region
                            }});
  engine->phases.push_back({"scatter", [seg, cu, base](const ad::Call& c) {
                              const Setup& y = *cu;
                              seg->wait(0, *base + 1);
                              if (y.root)
                                y.own(c);
                              else
                                y.args.memory().copy(c.recv, seg->data(0) + y.packs.at[static_cast<std::size_t>(y.me)],
                                                     y.block(y.me));
                              seg->set();  // my block is out
                            }});
  return engine;
}

}  // namespace

Plan shm_linear(const CollArgs& args, const Layout& layout, const Params& params) {
  const std::string phase = args.v ? "scatterv" : "scatter";
  const std::string who = "shm_linear (" + phase + ")";
  auto u = std::make_shared<Setup>();
  u->dom = ad::shm_domain(who.c_str(), args, layout);
  u->packs = rooted::shm_packs(who.c_str(), args, layout, u->dom);
  u->args = args;
  u->me = args.rank();
  u->root = u->me == 0;
  u->in_place = args.sendbuf == MPI_IN_PLACE;
  u->nodes = u->dom.count > 1;
  u->displs = ad::part_bytes(args);
  for (int k = 0; k < u->packs.domains; ++k) u->sv_displs.push_back(u->packs.pack_at(args, k));
  const int q = u->dom.size;
  const std::size_t elem = args.type_bytes(), total = u->total();
  if (total == 0) {  // no block anywhere: nothing to move
    Plan none;
    none.add(phase, [] {});
    return none;
  }
  // The segment's regions hold a block (one node) or a node's pack, on
  // every rank alike (the blocking interface's arena grows by it).
  CollArgs region = args;
  region.count = static_cast<int>((u->nodes ? u->packs.max_pack : u->packs.max_block) / elem);
  ad::EngineOptions options = rooted::shm_options(args, phase, total, u->packs, u->nodes, q, /*root_reads=*/false);
  // Rank 0 sends the P blocks, the others nothing (the benchmark's buffer
  // of one element); each receives its block, rank 0 in place all of them.
  options.send_bytes = u->root ? total : elem;
  options.recv_bytes = u->root ? total : std::max(elem, u->block(u->me));
  std::shared_ptr<const Setup> cu = u;
  auto setup = [cu](std::shared_ptr<ad::ShmSegment> seg) {
    auto packed = std::make_shared<Buffer>(
        cu->root && cu->nodes && !cu->packs.rank_order ? Buffer(host_memory(), cu->total()) : Buffer());
    auto make = [seg, cu, packed](ad::Path path) {
      return cu->nodes ? across(seg, cu, packed) : one_node(seg, cu, path);
    };
    return std::make_shared<ad::Engines>(seg, make);
  };
  const std::string copy_in_only = q == 1     ? "one rank per " + u->dom.name + ": no peers to reach"
                                   : u->nodes ? "several " + u->dom.name + "s: the leaders receive their packs"
                                              : "";
  return ad::engine_plan(
      who, region, params, {}, u->dom.comm, setup, [cu](ad::Path path) { return traffic(*cu, path); }, copy_in_only, 0,
      options);
}

MCB_DECLARE_ALGORITHM(shm_linear) {
  return allreduce::detail::shared_memory_algorithm(
      {"shm_linear",
       "shared-memory scatter: every rank copies its block from rank 0's (through the segment, in place or by "
       "cma); MPI_Scatterv to the leaders across nodes",
       {allreduce::detail::interface_param(), allreduce::detail::copy_param()},
       shm_linear});
}

}  // namespace mcb::scatter
