// mcb allreduce: every algorithm as a Plan factory on any communicator, and
// the registry that the mcb_allreduce benchmark lists.
//
// Semantics are MPI_Allreduce's: args.count elements of args.type (the whole
// vector) reduced with args.op, which must be commutative (the benchmark's
// --op: sum, prod, min, max, band, bor, bxor); args.sendbuf may be
// MPI_IN_PLACE. The send buffer is never written. The algorithms of mcb
// reduce with mcb's own kernels (mcb/reduction.hpp) on host memory; a type or
// operation those lack goes through MPI_Reduce_local.
#pragma once

#include <vector>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "mcb/system.hpp"

namespace mcb::allreduce {

/// The system MPI's own MPI_Allreduce and its persistent variant (algorithms
/// system and system_persistent) are system_mpi::blocking and
/// system_mpi::persistent of Collective::allreduce (mcb/system.hpp).
/// Recursive doubling: log2 P exchanges of the whole vector, each followed
/// by a reduction; any P (the ranks beyond the largest power of two fold in
/// first and get the result at the end). Phases: fold, exchange, unfold.
Plan recursive_doubling(const CollArgs& args);
/// Rabenseifner: reduce_scatter by recursive halving, then allgather by
/// recursive doubling; any P (fold and unfold as recursive_doubling).
/// Phases: fold, reduce_scatter, allgather, unfold.
Plan rabenseifner(const CollArgs& args);
/// Ring: reduce_scatter in P-1 steps around the ring, then allgather in P-1
/// steps. Phases: reduce_scatter, allgather.
Plan ring(const CollArgs& args);
/// The multi-lane allreduce (allreduce-multi-process-per-gpu, Algorithm 2):
/// MPI_Reduce_scatter on the node, the chunk allreduced across nodes on the
/// lane by --inner, MPI_Allgatherv on the node. Needs the layout's
/// communicator and the same number of ranks on every node. Phases:
/// reduce_scatter, inter_node (several nodes), allgather.
Plan lane(const CollArgs& args, const Layout& layout, const Params& params);

// The multi-process-per-GPU allreduces (allreduce-multi-process-per-gpu,
// Section IV): the PPG processes of a GPU (--procs-per-gpu, local rank l on
// GPU l / PPG) share its send and receive buffers, and process l % PPG
// works on slice l % PPG of the vector; with --gpu-aware no each stages its
// slice through host memory (phases d2h, h2d).

/// One MPI_Allreduce per slice among the processes of the same slice on
/// every GPU. Phases: allreduce.
Plan ppg_standard(const CollArgs& args, const Layout& layout, const Params& params);
/// lane's steps per slice: reduce_scatter among the node's GPUs, the chunk
/// allreduced across nodes by --inner, allgatherv. Phases as lane.
Plan ppg_lane(const CollArgs& args, const Layout& layout, const Params& params);

// The shared-memory algorithms of allreduce-shared-memory-multiradix. Each
// runs on the layout's communicator (args.comm must be layout.comm()),
// needs the same number of ranks on every node, and keeps a node-wide
// shared segment (MPI_Win_allocate_shared) with one counter flag per rank.
// --interface persistent (default) sets up in the factory, blocking in the
// first execution, cached per communicator, count and type. With several
// nodes the node-level result is allreduced across nodes by --inner on the
// lane communicator.

/// Recursive exchange with flexible factors (--factors=-4,-2,2,4). Phases:
/// copy_in, reduce_scatter, inter_node (several nodes), allgather.
Plan shm_recursive_exchange(const CollArgs& args, const Layout& layout, const Params& params);
/// Tree: reduce stages of fan-in --factors=-4,-2 into local rank 0's region,
/// one leader per node across nodes, then every rank copies the sum out.
/// Phases: copy_in, reduce, inter_node (several nodes), bcast.
Plan shm_tree(const CollArgs& args, const Layout& layout, const Params& params);
/// Cyclic shift (commutative operations): dissemination reduce_scatter and
/// Bruck allgather with factors whose product may exceed the ranks per node
/// (--factors=-2,-2,-2,2,2,2 for 7). Phases as shm_recursive_exchange.
Plan shm_cyclic_shift(const CollArgs& args, const Layout& layout, const Params& params);

/// Every allreduce algorithm that mcb_allreduce offers.
const std::vector<Algorithm>& algorithms();

/// The shared-memory algorithms' blocking interface keeps its set-up
/// engines per communicator and call shape, over one shared segment per
/// domain communicator (grown to the largest vector so far); at most
/// `shapes` engines per communicator from now on, the least recently used
/// dropped (0: unbounded, the default). The preload sets it from
/// MCB_PRELOAD_CACHE.
void set_blocking_cache_limit(std::size_t shapes);
/// Shared-memory segments (MPI shared windows) this process holds now.
long shm_segments_held();

// Reduce (to rank 0) and bcast (from rank 0), the other halves of the tree,
// for mcb_reduce and mcb_bcast. bcast is out of place: rank 0's send buffer
// reaches every receive buffer (rank 0's too); in place, rank 0's receive
// buffer is the source, as in MPI_Bcast.

/// MPI_Reduce to rank 0 and MPI_Bcast from rank 0 (mcb_reduce's and
/// mcb_bcast's system): system_mpi::blocking of Collective::reduce, bcast.

/// The shared-memory tree as reduce: phases copy_in, reduce, inter_node
/// (several nodes: the leaders' MPI_Reduce), copy_out.
Plan shm_tree_reduce(const CollArgs& args, const Layout& layout, const Params& params);
/// The shared-memory tree as bcast: rank 0 copies in, the leaders
/// MPI_Bcast across nodes, every rank copies out. Phases: copy_in,
/// inter_node (several nodes), bcast.
Plan shm_tree_bcast(const CollArgs& args, const Layout& layout, const Params& params);
const std::vector<Algorithm>& reduce_algorithms();
const std::vector<Algorithm>& bcast_algorithms();

}  // namespace mcb::allreduce
