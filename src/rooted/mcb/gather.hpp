// mcb gather: the gather algorithms as Plan factories on any communicator,
// and the registries that mcb_gather and mcb_gatherv list.
//
// Semantics are MPI_Gather's to rank 0 with args.count elements of
// args.type per rank, or with args.v (mcb_gatherv) MPI_Gatherv's: rank i's
// block has args.v->counts[i] elements, packed in rank order in rank 0's
// receive buffer. In place (args.sendbuf MPI_IN_PLACE), as mcb's benchmarks
// place the data: every rank's block is already at its place in its own
// receive buffer (rank 0 passes MPI_IN_PLACE, the others send it from
// there). The send buffer is never written; only rank 0's receive buffer
// is defined.
#pragma once

#include <vector>

#include "mcb/collective.hpp"
#include "mcb/plan.hpp"
#include "mcb/system.hpp"

namespace mcb::gather {

/// The system MPI's own MPI_Gather(v) and their persistent forms
/// (algorithms system and system_persistent) are system_mpi::blocking and
/// system_mpi::persistent of Collective::gather and gatherv.
/// Linear: every rank sends its block to rank 0, which posts P-1 receives
/// at once. Phase: gather.
Plan linear(const CollArgs& args);
/// Binomial tree: in step k, the ranks with bit k set send what they
/// gathered (their subtree's blocks, contiguous) to rank - 2^k. Phase:
/// gather.
Plan binomial(const CollArgs& args);

/// Shared memory (allreduce/shm's engine): every rank's block to rank 0
/// through the node's segment (copy-in), in place (registered buffers) or
/// by process_vm_readv (cma), --interface persistent or blocking; across
/// nodes the leaders' packs by MPI_Gatherv. Phases: copy_in, gather,
/// complete (one node); copy_in, inter_node, copy_out (several).
Plan shm_linear(const CollArgs& args, const Layout& layout, const Params& params);

/// Every gather algorithm that mcb_gather offers, and the same after
/// MPI_Gatherv's system entries (mcb_gatherv).
const std::vector<Algorithm>& algorithms();
const std::vector<Algorithm>& v_algorithms();

}  // namespace mcb::gather
