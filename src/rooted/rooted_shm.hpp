// What the shared-memory gather and scatter (shm_linear) share: the
// domains of the shared-memory engine (nodes, or regions with --region:
// allreduce/shm/shm.hpp's Domain) as packs of their ranks' blocks, each
// domain's ranks in domain-rank order, the domains in the order of their
// leaders' lane (Domain::lane of domain rank 0: nodes by node, regions by
// rank), computed from the layout alone (no communication). Between domains
// the leaders gather or scatter these packs at rank 0 with MPI_Gatherv or
// MPI_Scatterv; where the packs in lane order are the blocks in rank order
// (block order on nodes) rank 0's buffers take them as they are, else
// (cyclic order) through a buffer of packs that rank 0 unpacks or packs.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "mcb/collective.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "shm/engine.hpp"
#include "shm/shm.hpp"

namespace mcb::rooted {

struct ShmPacks {
  int domains = 1;
  int domain = 0;                           // mine (its leader's lane rank)
  int root_domain = 0;                      // rank 0's
  std::vector<std::vector<int>> members;    // by domain: its ranks in domain-rank order
  std::vector<std::size_t> at;              // by rank: its block's start in its domain's pack (bytes)
  std::vector<int> pack_count;              // by domain: its pack (elements)
  std::vector<int> pack_displ;              // by domain: its pack's start among the packs (elements)
  std::size_t max_block = 0, max_pack = 0;  // bytes
  bool rank_order = true;  // domain k holds ranks kQ .. kQ+Q-1: the packs in lane order are the blocks in rank order
  /// Where domain k's pack starts in rank 0's receive (gather) or send
  /// (scatter) buffer when rank_order, else in the buffer of packs (elements).
  int pack_at(const CollArgs& args, int k) const {
    return rank_order ? static_cast<int>(args.displ_of(members[static_cast<std::size_t>(k)][0]))
                      : pack_displ[static_cast<std::size_t>(k)];
  }
};

/// The packs of `dom` for args' blocks; throws Error naming `who` unless rank
/// 0 is the first rank (domain rank 0) of its domain.
inline ShmPacks shm_packs(const char* who, const CollArgs& args, const Layout& layout,
                          const allreduce::detail::Domain& dom) {
  namespace ad = allreduce::detail;
  const int p = args.size();
  const std::size_t elem = args.type_bytes();
  const ad::Lanes lanes = ad::lanes_of(layout, dom);
  const bool by_region = dom.name == "region";
  auto key = [&](int r) {
    const int node = layout.node_of()[static_cast<std::size_t>(r)];
    const int local = layout.local_rank_of()[static_cast<std::size_t>(r)];
    return by_region ? std::make_pair(node, layout.local_regions()[static_cast<std::size_t>(local)])
                     : std::make_pair(node, 0);
  };
  // The leaders in lane order: by node, or (regions) by rank.
  std::vector<int> leaders;
  for (int r = 0; r < p; ++r)
    if (lanes.drank[static_cast<std::size_t>(r)] == 0) leaders.push_back(r);
  if (!by_region)
    std::stable_sort(leaders.begin(), leaders.end(), [&](int a, int b) {
      return layout.node_of()[static_cast<std::size_t>(a)] < layout.node_of()[static_cast<std::size_t>(b)];
    });
  std::map<std::pair<int, int>, int> index;
  for (std::size_t k = 0; k < leaders.size(); ++k) index[key(leaders[k])] = static_cast<int>(k);
  ShmPacks s;
  s.domains = static_cast<int>(leaders.size());
  s.members.assign(leaders.size(), std::vector<int>(static_cast<std::size_t>(dom.size), -1));
  std::vector<int> domain_of(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    const int k = index.at(key(r));
    domain_of[static_cast<std::size_t>(r)] = k;
    s.members[static_cast<std::size_t>(k)][static_cast<std::size_t>(lanes.drank[static_cast<std::size_t>(r)])] = r;
  }
  if (lanes.drank[0] != 0) throw Error(std::string(who) + ": rank 0 must be the first rank of its " + dom.name);
  s.domain = domain_of[static_cast<std::size_t>(args.rank())];
  s.root_domain = domain_of[0];
  s.at.assign(static_cast<std::size_t>(p), 0);
  int displ = 0;
  for (int k = 0; k < s.domains; ++k) {
    std::size_t at = 0;
    int j = 0;
    for (int r : s.members[static_cast<std::size_t>(k)]) {
      s.at[static_cast<std::size_t>(r)] = at;
      at += static_cast<std::size_t>(args.count_of(r)) * elem;
      s.max_block = std::max(s.max_block, static_cast<std::size_t>(args.count_of(r)) * elem);
      s.rank_order = s.rank_order && r == k * dom.size + j++;
    }
    s.pack_count.push_back(static_cast<int>(at / elem));
    s.pack_displ.push_back(displ);
    displ += s.pack_count.back();
    s.max_pack = std::max(s.max_pack, at);
  }
  return s;
}

/// The engine options the gather and the scatter share (their buffers'
/// bytes, send_bytes and recv_bytes, are each one's own): cma replaces the
/// copy in and the copy out with one read, which pays up to P/(P-1) times a
/// memcpy; on one node copy-in touches the inputs, the regions and the
/// receive buffers. At 2 ranks auto takes cma (from kCmaMinPiece) wherever
/// it works: the copy-in there is two copies one after the other, the
/// second from the other core's cache, which the probe's local memcpy does
/// not price (paired on 2 bound ranks, Open MPI 4.1.4's default in the
/// same launch, 32 KiB-16 MiB blocks, two machine states: cma 0.69-1.04
/// of it, copy-in 0.61-3.08; issue 71). But a gather (`root_reads`: rank 0
/// reads what its peer just copied in) whose block fills half the private
/// cache (the peer's copy-in reads and writes 2b bytes; private_cache_bytes) reads the region
/// from the shared cache at a memcpy's speed: there the probe decides
/// again, also out of the last-level cache (gather blocks of 0.5-4 MiB:
/// copy-in 0.61-0.88 of the default, cma 0.82-1.10, 16 paired launches; 8
/// MiB 0.85-0.90 against 0.97-1.08; 256 KiB copy-in 1.20-1.34). From 3 ranks
/// the others copy in side by side while the root reads every block: the
/// probe decides.
inline allreduce::detail::EngineOptions shm_options(const CollArgs& args, const std::string& phase, std::size_t total,
                                                    const ShmPacks& packs, bool nodes, int q, bool root_reads) {
  namespace ad = allreduce::detail;
  const int p = args.size();
  ad::EngineOptions options;
  options.shape = ad::counts_key(args);
  options.phase = phase;
  options.cma_min = ad::kCmaMinPiece;
  options.cma_piece = total / static_cast<std::size_t>(p);
  const std::size_t l2 = ad::private_cache_bytes();
  const bool past_private_cache = root_reads && l2 > 0 && 2 * packs.max_block >= l2;
  options.cma_ratio =
      p > 2 || past_private_cache ? static_cast<double>(p) / (p - 1) : std::numeric_limits<double>::infinity();
  options.blocking_copy_in_below = 2048;  // a blocking scatter's root returns without waiting (EngineOptions)
  if (!nodes && !past_private_cache)
    options.copy_in_footprint = 2 * total + static_cast<std::size_t>(q) * packs.max_block;
  return options;
}

}  // namespace mcb::rooted
