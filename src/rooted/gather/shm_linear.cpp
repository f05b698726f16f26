// shm_linear: the shared-memory gather (and gatherv) to rank 0, on the node
// segment, counter barriers and copy paths of the shared-memory allreduces
// (allreduce-shared-memory-multiradix: Section 2.4's gather, which takes
// the place of the allgather stage, with Section 3.1's counters and Section
// 4's persistent and blocking interfaces; --copy, --interface). Rank 0 must
// be the first rank of its node (or region: --region).
// One node (or region), per copy path:
//   copy_in:    (copy-in) my block into my region of the node's segment
//   gather:     rank 0 copies each rank's block, as soon as it is marked,
//               to its place in its receive buffer: out of the regions
//               (copy-in), from the peers' inputs in place (registered) or
//               through process_vm_readv (cma: one kernel copy); its own
//               from its input (out of place)
//   complete:   (registered, cma) wait until rank 0 has read my block
// Several nodes (or regions), copy-in only:
//   copy_in:    my block into my leader's (local rank 0's) region at its
//               place in the node's pack (its ranks in local rank order)
//   inter_node: each leader, once its ranks are marked, sends the pack to
//               rank 0 (MPI_Gatherv on the leaders' lane): into rank 0's
//               receive buffer where the packs are the blocks in rank order
//               (block order), else into a buffer of packs
//   copy_out:   (cyclic order) rank 0 unpacks every block to its place
// Per rank, blocks of b bytes on P ranks of one node: rank 0 moves
// 2b(P-1) bytes (P-1 copies out, or reads on registered and cma) and 2b
// for its own out of place; the others 2b copying in (copy-in) or nothing
// (registered, cma). Messages: none on one node; several nodes, one per
// leader to rank 0 (its node's Qb bytes). Flags: two set per call.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/gather.hpp"
#include "mcb/layout.hpp"
#include "rooted_shm.hpp"
#include "shm/engine.hpp"
#include "shm/shm.hpp"

namespace mcb::gather {

namespace {

namespace ad = allreduce::detail;

struct Setup {
  CollArgs args;
  ad::Domain dom;
  rooted::ShmPacks packs;
  std::vector<std::size_t> displs;  // the blocks' starts in the receive buffer, bytes, P + 1
  std::vector<int> gv_displs;       // rank 0's MPI_Gatherv displacements, by domain (elements)
  int me = 0;                       // my rank in the layout's communicator
  bool nodes = false, root = false, in_place = false;

  std::size_t block(int r) const {
    return displs[static_cast<std::size_t>(r) + 1] - displs[static_cast<std::size_t>(r)];
  }
  std::size_t total() const { return displs.back(); }
  // My block as the call reaches it: my send buffer, or in place its place
  // in my receive buffer.
  const char* mine(const ad::Call& c) const {
    return c.send == MPI_IN_PLACE ? c.in() + displs[static_cast<std::size_t>(me)] : c.in();
  }
};

double traffic(const Setup& u, ad::Path path) {
  const double own = static_cast<double>(u.block(u.me)), total = static_cast<double>(u.total());
  if (u.nodes) return 2 * own + (u.root && !u.packs.rank_order ? 2 * total : 0.0);
  if (!u.root) return path == ad::Path::copy_in ? 2 * own : 0.0;
  return 2 * (total - own) + (u.in_place ? 0.0 : 2 * own);
}

// One node: the engine of `path` (see the file comment).
std::shared_ptr<ad::Engine> one_node(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> cu,
                                     ad::Path path) {
  auto base = std::make_shared<std::uint32_t>(0);
  auto engine = std::make_shared<ad::Engine>();
  const bool direct = path != ad::Path::copy_in;
  // The first step: wait until rank 0 is done with my last call (my region
  // or my input), then on copy-in my block into my region.
  engine->enter = [seg, cu, direct](const ad::Call& c, std::uint32_t start) {
    const Setup& y = *cu;
    if (y.root) return;
    seg->wait(0, start);
    if (!direct) y.args.memory().copy(seg->data(seg->rank()), y.mine(c), y.block(y.me));
  };
  if (!direct)
    engine->phases.push_back(
        {"copy_in", [seg, base, enter = engine->enter](const ad::Call& c) { ad::first_step(*seg, enter, c, *base); }});
  engine->phases.push_back({"gather", [seg, cu, base, path, enter = engine->enter](const ad::Call& c) {
                              const Setup& y = *cu;
                              if (path != ad::Path::copy_in) ad::first_step(*seg, enter, c, *base);
                              if (y.root) {
                                char* recv = static_cast<char*>(c.recv);
                                const bool in_place = c.send == MPI_IN_PLACE;
                                for (int r = 1; r < y.args.size(); ++r) {
                                  const std::size_t at = y.displs[static_cast<std::size_t>(r)], n = y.block(r);
                                  const std::size_t from = in_place ? at : 0;  // in r's input
                                  seg->wait(r, *base + 1);
                                  if (n == 0) continue;
                                  if (path == ad::Path::copy_in)
                                    y.args.memory().copy(recv + at, seg->data(r), n);
                                  else if (path == ad::Path::registered)
                                    y.args.memory().copy(recv + at, c.reach->in[static_cast<std::size_t>(r)] + from, n);
                                  else
                                    ad::cma_read_or_abort(seg->peers().pids[static_cast<std::size_t>(r)], recv + at,
                                                          c.reach->remote_in[static_cast<std::size_t>(r)] + from, n);
                                }
                                if (!in_place) y.args.memory().copy(recv, c.in(), y.block(0));
                              }
                              seg->set();  // (rank 0) every block read
                            }});
  if (direct)
    engine->phases.push_back({"complete", [seg, cu, base](const ad::Call&) {
                                if (!cu->root) seg->wait(0, *base + 2);
                              }});
  return engine;
}

// Several nodes (copy-in): my block into my leader's pack, the leaders'
// packs to rank 0, and there (cyclic order) unpacked.
std::shared_ptr<ad::Engine> across(std::shared_ptr<ad::ShmSegment> seg, std::shared_ptr<const Setup> cu,
                                   std::shared_ptr<Buffer> packed) {
  auto base = std::make_shared<std::uint32_t>(0);
  auto engine = std::make_shared<ad::Engine>();
  // The first step: wait until my leader has sent my last call's pack, then
  // my block into it.
  engine->enter = [seg, cu](const ad::Call& c, std::uint32_t start) {
    const Setup& y = *cu;
    if (seg->rank() != 0) seg->wait(0, start);
    y.args.memory().copy(seg->data(0) + y.packs.at[static_cast<std::size_t>(y.me)], y.mine(c), y.block(y.me));
  };
  engine->phases.push_back(
      {"copy_in", [seg, base, enter = engine->enter](const ad::Call& c) { ad::first_step(*seg, enter, c, *base); }});
  engine->phases.push_back({"inter_node", [seg, cu, base, packed](const ad::Call& c) {
                              const Setup& y = *cu;
                              if (seg->rank() == 0) {
                                for (int m = 1; m < seg->size(); ++m) seg->wait(m, *base + 1);
                                const auto& s = y.packs;
                                void* into = !y.root ? nullptr : s.rank_order ? c.recv : packed->data();
                                MPI_Gatherv(seg->data(0), s.pack_count[static_cast<std::size_t>(s.domain)], y.args.type,
                                            into, s.pack_count.data(), y.gv_displs.data(), y.args.type, s.root_domain,
                                            y.dom.lane);
                              }
                              seg->set();  // (leaders) my pack is sent
                            }});
  if (!cu->packs.rank_order)
    engine->phases.push_back(
        {"copy_out", [cu, packed](const ad::Call& c) {
           const Setup& y = *cu;
           if (!y.root) return;
           const auto& s = y.packs;
           const std::size_t elem = y.args.type_bytes();
           const char* from = static_cast<const char*>(packed->data());
           for (int k = 0; k < s.domains; ++k)
             for (int r : s.members[static_cast<std::size_t>(k)])
               y.args.memory().copy(static_cast<char*>(c.recv) + y.displs[static_cast<std::size_t>(r)],
                                    from + static_cast<std::size_t>(s.pack_displ[static_cast<std::size_t>(k)]) * elem +
                                        s.at[static_cast<std::size_t>(r)],
                                    y.block(r));
         }});
  return engine;
}

}  // namespace

Plan shm_linear(const CollArgs& args, const Layout& layout, const Params& params) {
  const std::string phase = args.v ? "gatherv" : "gather";
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
  for (int k = 0; k < u->packs.domains; ++k) u->gv_displs.push_back(u->packs.pack_at(args, k));
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
  ad::EngineOptions options = rooted::shm_options(args, phase, total, u->packs, u->nodes, q, /*root_reads=*/true);
  options.send_bytes = std::max(elem, u->block(u->me));
  options.recv_bytes = total;  // every receive buffer holds the P blocks (in place: my input)
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
                                   : u->nodes ? "several " + u->dom.name + "s: the leaders gather their packs"
                                              : "";
  return ad::engine_plan(
      who, region, params, {}, u->dom.comm, setup, [cu](ad::Path path) { return traffic(*cu, path); }, copy_in_only, 0,
      options);
}

MCB_DECLARE_ALGORITHM(shm_linear) {
  return allreduce::detail::shared_memory_algorithm(
      {"shm_linear",
       "shared-memory gather: rank 0 copies every block to its place (from the segment, in place or by cma); "
       "leaders' MPI_Gatherv across nodes",
       {allreduce::detail::interface_param(), allreduce::detail::copy_param()},
       shm_linear});
}

}  // namespace mcb::gather
