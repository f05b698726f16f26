// mcb alltoall: every algorithm as a Plan factory, callable on any
// communicator (the inner exchanges of the node-aware algorithms), and the
// registry that the mcb_alltoall benchmark lists.
//
// Semantics are MPI_Alltoall's with sendcount == recvcount == args.count
// elements of args.type per peer; the send buffer is never written.
#pragma once

#include <string>
#include <vector>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "mcb/system.hpp"

namespace mcb::alltoall {

/// The system MPI's own MPI_Alltoall and its persistent variant (algorithms
/// system and system_persistent) are system_mpi::blocking and
/// system_mpi::persistent of Collective::alltoall (mcb/system.hpp).
/// Pairwise exchange (Algorithm 1): P-1 MPI_Sendrecv steps. Phase: exchange.
Plan pairwise(const CollArgs& args);
/// Non-blocking exchange (Algorithm 2): all Irecv/Isend, one Waitall.
/// Phase: exchange.
Plan nonblocking(const CollArgs& args);
/// MPICH's medium-message exchange (MVAPICH2's scatter_dest, as SMPI runs
/// it): Irecv/Isend in windows of 4 partners, a Waitall each. Phase: exchange.
Plan scatter_dest(const CollArgs& args);
/// What SimGrid 3.32's MPICH selector runs for MPI_Alltoall with blocks of
/// `block_bytes` on `p` ranks: "bruck", "scatter_dest" or "pairwise".
std::string mpich_choice(std::size_t block_bytes, int p);
/// That algorithm by mcb's implementation, in one phase "alltoall": the
/// simulation build's `system` where local work is charged (mcb/system.hpp).
Plan mpich_system(const CollArgs& args, const Layout& layout, const Params& params);
/// Bruck: ceil(log2 P) rounds, any P (TRA with radix 2). Phases: rotate,
/// exchange, rotate_back.
Plan bruck(const CollArgs& args);
/// Tunable-radix alltoall (TRA) with --radix r in [2, P], default
/// ceil(sqrt(P)). Phases: rotate, exchange, rotate_back.
Plan tra(const CollArgs& args, const Params& params);
/// Two-layer TRA: intra-node rounds of radix --radix-intra (default
/// ceil(sqrt(ranks per node))), then inter-node rounds of radix
/// --radix-inter (default the node count) among same-position ranks. Needs
/// the same number of ranks on every node. Phases: rotate, intra_node,
/// rotate, inter_node, rotate_back.
Plan tra2(const CollArgs& args, const Layout& layout, const Params& params);

// The node-aware family of the many-core alltoall paper. Each runs on the
// layout's communicator (args.comm must be layout.comm() or congruent),
// needs the same number of ranks on every node, and takes --inner (default
// pairwise) for every exchange it makes on a sub-communicator.

/// Algorithm 3, one leader per node. Phases: gather, repack, inter_node,
/// repack, scatter.
Plan hierarchical(const CollArgs& args, const Layout& layout, const Params& params);
/// Algorithm 3 with --leaders-per-node L or --procs-per-leader N (default
/// 4, clipped to a divisor of ranks per node). Phases as hierarchical.
Plan multileader(const CollArgs& args, const Layout& layout, const Params& params);
/// Algorithm 4: lane alltoall across nodes, then alltoall inside the node.
/// Phases: repack, inter_node, repack, intra_node, repack.
Plan node_aware(const CollArgs& args, const Layout& layout, const Params& params);
/// Algorithm 4 with groups inside the node: --groups-per-node G,
/// --procs-per-group N or the layout's --region. Phases as node_aware.
Plan locality_aware(const CollArgs& args, const Layout& layout, const Params& params);
/// Algorithm 5: gather to L leaders, alltoall among same-index leaders
/// across nodes, alltoall among the leaders of a node, scatter. Phases:
/// gather, repack, inter_node, repack, intra_node, repack, scatter.
Plan multileader_node_aware(const CollArgs& args, const Layout& layout, const Params& params);

/// Every alltoall algorithm that mcb_alltoall offers.
const std::vector<Algorithm>& algorithms();
/// Looks up an algorithm by name; throws Error listing the known ones.
const Algorithm& find(const std::string& name);

/// Where an inner exchange runs, for the inners that care (tra, tra2): `who`
/// names it in errors ("node_aware inter_node"), `params` holds the radices
/// (--radix for tra, --radix-intra and --radix-inter for tra2), and the
/// communicator's ranks sit on nodes of `ranks_per_node` consecutive ranks
/// (0: all on one node; 1: each on a node of its own).
struct InnerSite {
  std::string who = "inner exchange";
  Params params;
  int ranks_per_node = 0;
};

/// The names usable as an inner exchange on a sub-communicator.
std::vector<std::string> inner_names();
/// An inner exchange by name (pairwise, nonblocking, bruck, system, tra,
/// tra2); tra and tra2 default to their paper's radices for the size and
/// nodes of args.comm.
Plan make_inner(const std::string& name, const CollArgs& args, const InnerSite& site = {});

}  // namespace mcb::alltoall
