// mcb scatter: the scatter algorithms as Plan factories on any
// communicator, and the registries that mcb_scatter and mcb_scatterv list.
//
// Semantics are MPI_Scatter's from rank 0 with args.count elements of
// args.type per rank, or with args.v (mcb_scatterv) MPI_Scatterv's: rank
// i's block has args.v->counts[i] elements, packed in rank order in rank
// 0's send buffer. In place (args.sendbuf MPI_IN_PLACE), as mcb's
// benchmarks place the data: rank 0's send data is its receive buffer
// (MPI_Scatter(recvbuf, ..., MPI_IN_PLACE, ...)), where its own block stays;
// the others receive as without it. The send buffer is never written.
#pragma once

#include <vector>

#include "mcb/collective.hpp"
#include "mcb/plan.hpp"
#include "mcb/system.hpp"

namespace mcb::scatter {

/// The system MPI's own MPI_Scatter(v) and their persistent forms
/// (algorithms system and system_persistent) are system_mpi::blocking and
/// system_mpi::persistent of Collective::scatter and scatterv.
/// Linear: rank 0 sends every other rank its block, P-1 sends posted at
/// once. Phase: scatter.
Plan linear(const CollArgs& args);
/// Binomial tree: a rank receives its subtree's blocks (contiguous) from
/// its parent, then sends each child its subtree's, the largest first.
/// Phase: scatter.
Plan binomial(const CollArgs& args);

/// Shared memory (allreduce/shm's engine): every rank's block from rank 0
/// through the node's segment (copy-in), in place (registered buffers) or
/// by process_vm_readv (cma), --interface persistent or blocking; across
/// nodes the leaders' packs by MPI_Scatterv. Phases: copy_in, scatter,
/// complete (one node); copy_in, inter_node, scatter (several).
Plan shm_linear(const CollArgs& args, const Layout& layout, const Params& params);

/// Every scatter algorithm that mcb_scatter offers, and the same after
/// MPI_Scatterv's system entries (mcb_scatterv).
const std::vector<Algorithm>& algorithms();
const std::vector<Algorithm>& v_algorithms();

}  // namespace mcb::scatter
