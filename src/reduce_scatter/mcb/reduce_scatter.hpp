// mcb reduce_scatter: the reduce-scatter algorithms as Plan factories on
// any communicator, and the registries that mcb_reduce_scatter_block and
// mcb_reduce_scatter list.
//
// Semantics are MPI_Reduce_scatter_block's with args.count elements of
// args.type per rank, or with args.v (mcb_reduce_scatter)
// MPI_Reduce_scatter's: rank i receives args.v->counts[i] elements, the
// parts packed in rank order in the vector. Every rank's send buffer holds
// the whole vector, reduced with args.op (commutative: sum, prod, min, max,
// band, bor, bxor); rank i's receive buffer gets part i of the result. In
// place (args.sendbuf MPI_IN_PLACE) the vector is read from the receive
// buffer and part i written at its start. The send buffer is never
// written. mcb reduces with its own kernels (mcb/reduction.hpp).
#pragma once

#include <vector>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "mcb/system.hpp"

namespace mcb::reduce_scatter {

/// The system MPI's own MPI_Reduce_scatter_block / MPI_Reduce_scatter and
/// their persistent forms (algorithms system and system_persistent) are
/// system_mpi::blocking and system_mpi::persistent of
/// Collective::reduce_scatter_block and reduce_scatter.
/// Ring: P-1 steps to the next rank, each passing on a partial sum of one
/// part with my contribution added. Phase: exchange.
Plan ring(const CollArgs& args);
/// Recursive halving: log2 pof2 steps of halving parts of the vector with
/// the partner at distance pof2/2, pof2/4, ...; any P (the ranks beyond the
/// largest power of two fold in first and get their part at the end).
/// Phases: fold, exchange, unfold.
Plan recursive_halving(const CollArgs& args);
/// Pairwise: P-1 steps; in step s rank r sends part r+s of its vector to
/// rank r+s and adds what rank r-s sends of part r. Phase: exchange.
Plan pairwise(const CollArgs& args);

/// The multi-radix paper's shared-memory reduce-scatter: the reduce_scatter
/// stages of its recursive exchange (--factors=-4,-2), cut at the parts, on
/// the node's shared segment, each rank's part summed into its receive
/// buffer; across nodes the parts of a lane reduce-scattered by --inner.
/// Needs the layout's communicator and the same number of ranks on every
/// node. Phases: copy_in, reduce_scatter, complete, inter_node, copy_out
/// (per path; shm_recursive_exchange.cpp).
Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params);

/// Every reduce-scatter algorithm, after the system's entries of
/// MPI_Reduce_scatter_block (mcb_reduce_scatter_block) or of
/// MPI_Reduce_scatter (mcb_reduce_scatter).
const std::vector<Algorithm>& block_algorithms();
const std::vector<Algorithm>& algorithms();

}  // namespace mcb::reduce_scatter
