// mcb allgather: every algorithm as a Plan factory on any communicator, and
// the registry that the mcb_allgather benchmark lists.
//
// Semantics are MPI_Allgather's with sendcount == recvcount == args.count
// elements of args.type per rank: block i of the receive buffer is rank i's
// send buffer. args.sendbuf may be MPI_IN_PLACE: a rank's block is then
// already at its place in the receive buffer, and only args.count (the
// receive count) is used. The send buffer is never written. With args.v
// (mcb_allgatherv) the same algorithms are MPI_Allgatherv's: rank i's block
// has args.v->counts[i] elements, the blocks packed in rank order
// (displacements the sums of the counts before).
#pragma once

#include <vector>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "mcb/system.hpp"

namespace mcb::allgather {

/// The system MPI's own MPI_Allgather and its persistent variant (algorithms
/// system and system_persistent) are system_mpi::blocking and
/// system_mpi::persistent of Collective::allgather (mcb/system.hpp).
/// Ring: P-1 MPI_Sendrecv steps to rank+1, forwarding the block received
/// in the step before. Phase: exchange.
Plan ring(const CollArgs& args);
/// Neighbor exchange: P/2 steps with alternating neighbours, two blocks per
/// step after the first. Even P only (throws Error otherwise). Phase:
/// exchange.
Plan neighbor_exchange(const CollArgs& args);
/// Recursive doubling: log2 P pairwise exchanges of doubling size.
/// Power-of-two P only (throws Error otherwise). Phase: exchange.
Plan recursive_doubling(const CollArgs& args);
/// Bruck: ceil(log2 P) steps to rank-2^k, any P, in a scratch buffer that
/// is rotated into place at the end. Phases: exchange, rotate.
Plan bruck(const CollArgs& args);
/// Sparbit (stripe parallel binomial trees, Algorithm 1): ceil(log2 P)
/// steps of halving distance, one message per block. Any P. Phase: exchange.
Plan sparbit(const CollArgs& args);
/// The multi-radix paper's shared-memory allgather: the allgather stages of
/// its recursive exchange (--factors=2,4), cut at the blocks, on the node's
/// shared segment, each block copied into place; across nodes the blocks of
/// a lane gathered first (MPI_Allgatherv). Needs the layout's communicator
/// and the same number of ranks on every node. Phases: copy_in, inter_node,
/// allgather, complete (per path; shm_recursive_exchange.cpp).
Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params);
/// What SimGrid 3.32's MPICH selector runs for MPI_Allgather with blocks of
/// `block_bytes` on `p` ranks: "recursive_doubling", "bruck" or "ring".
std::string mpich_choice(std::size_t block_bytes, int p);
/// That algorithm by mcb's implementation, in one phase "allgather": the
/// simulation build's `system` where local work is charged (mcb/system.hpp).
Plan mpich_system(const CollArgs& args, const Layout& layout, const Params& params);

/// One Sparbit step: every rank sends `blocks` blocks to rank + distance
/// and receives as many from rank - distance.
struct SparbitStep {
  int distance = 0;
  int blocks = 0;
};
/// Sparbit's steps for `p` ranks, computed (not run): p = 6 gives blocks
/// 1, 1, 3 at distances 4, 2, 1.
std::vector<SparbitStep> sparbit_schedule(int p);

/// Why an algorithm cannot run on `p` ranks ("" when it can).
std::string neighbor_exchange_unsupported(int p);
std::string recursive_doubling_unsupported(int p);

/// Every allgather algorithm that mcb_allgather offers.
const std::vector<Algorithm>& algorithms();
/// The same algorithms after MPI_Allgatherv's system entries (mcb_allgatherv).
const std::vector<Algorithm>& v_algorithms();

}  // namespace mcb::allgather
