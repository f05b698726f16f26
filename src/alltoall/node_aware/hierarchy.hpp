// Shared pieces of the node-aware alltoall family (hierarchical, multileader,
// node_aware, locality_aware, multileader_node_aware): who sits where,
// how a node is cut into leader groups or locality groups, parameter
// resolution with errors that name the values that fit, and block repacking.
//
// Every buffer here is a sequence of blocks of args.block_bytes() bytes; a
// repack is a precomputed list of contiguous runs, so executing it is only
// memory copies.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mcb/alltoall.hpp"
#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/memory.hpp"

namespace mcb::alltoall::detail {

/// A node cut into `count` groups of `size` local ranks each.
struct NodeGroups {
  int count = 1, size = 1;
  std::vector<int> group_of, index_of;    // per local rank
  std::vector<std::vector<int>> members;  // [group][index] -> local rank
  std::string key;                        // names the cut in derived communicator names

  /// Groups of `size` consecutive local ranks (size divides ppn).
  static NodeGroups consecutive(int ppn, int size);
  /// Groups from a region per local rank (Layout::local_regions()); throws
  /// Error naming `algo` when the regions differ in size.
  static NodeGroups from_regions(const std::string& algo, const std::vector<int>& regions, const std::string& what);
};

/// Checks that the layout describes args.comm and that every node has the
/// same number of ranks; returns ranks per node. Throws Error naming `algo`.
int require_uniform(const std::string& algo, const CollArgs& args, const Layout& layout);

/// rank_at[node][local rank] -> rank of layout.comm().
std::vector<std::vector<int>> ranks_by_node(const Layout& layout);

/// Processes per leader for multileader and multileader_node_aware, from
/// --leaders-per-node or --procs-per-leader, default the largest divisor of
/// ppn that is at most 4 (the paper's 4 processes per leader).
int procs_per_leader(const std::string& algo, int ppn, const Params& params);

/// Locality groups for locality_aware, from --groups-per-node,
/// --procs-per-group or the layout's --region, default as procs_per_leader.
NodeGroups locality_groups(const std::string& algo, int ppn, const Layout& layout, const Params& params);

/// The largest divisor of n that is at most cap.
int largest_divisor_up_to(int n, int cap);

/// The --inner parameter, shared by every algorithm of the family.
ParamSpec inner_param();
/// --radix (for --inner tra) and --radix-intra, --radix-inter (for --inner
/// tra2), each used only by the configurations with that inner.
std::vector<ParamSpec> inner_radix_params();
/// Where an inner exchange of `algo` runs: phase "inter_node" or
/// "intra_node", on nodes of ranks_per_node consecutive ranks (0: one node).
InnerSite inner_site(const std::string& algo, const std::string& phase, const Params& params, int ranks_per_node);
/// --leaders-per-node and --procs-per-leader.
std::vector<ParamSpec> leader_params();
/// The inner exchange named by --inner (default pairwise).
std::string inner_name(const Params& params);

/// "needs the same number of ranks on every node" unless the layout has them.
std::string needs_uniform(const Layout& layout);
/// The registry entry of an algorithm of the node-aware family: --inner,
/// `extra` parameters, the inner exchanges' radices; needs uniform nodes;
/// checks the leaders or groups per node.
Algorithm family(std::string name, std::string summary, std::vector<ParamSpec> extra, PlanFactory make);

/// Algorithm 3 with `ppl` processes per leader (hierarchical: ppl = ppn).
Plan leader_alltoall(const std::string& algo, const CollArgs& args, const Layout& layout, const Params& params,
                     int ppl);
/// Algorithm 4 with the node cut into `groups` (node_aware: one group).
Plan group_alltoall(const std::string& algo, const CollArgs& args, const Layout& layout, const Params& params,
                    const NodeGroups& groups);

/// dst block b <- src block src_of[b]; executed as the fewest memory copies.
class Repack {
 public:
  Repack() = default;
  explicit Repack(const std::vector<std::size_t>& src_of);
  /// True when every block stays where it is (the copy can be skipped).
  bool identity() const;
  void run(const Memory& mem, void* dst, const void* src, std::size_t block) const;

 private:
  struct Run {
    std::size_t src, dst, len;  // in blocks
  };
  std::vector<Run> runs_;
};

/// Scratch buffers and repacks that a plan's steps share.
struct Scratch {
  Buffer x, y;
  Repack pack, middle, unpack;
};

}  // namespace mcb::alltoall::detail
