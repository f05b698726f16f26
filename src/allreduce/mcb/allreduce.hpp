// mcb allreduce: every algorithm as a Plan factory on any communicator, and
// the registry that the mcb_allreduce benchmark lists.
//
// Semantics are MPI_Allreduce's: args.count elements of args.type (the whole
// vector) reduced with args.op, which must be commutative (MPI_SUM in the
// benchmark); args.sendbuf may be MPI_IN_PLACE. The send buffer is never
// written. The algorithms of mcb reduce with MPI_Reduce_local, on host
// memory.
#pragma once

#include <vector>

#include "mcb/collective.hpp"
#include "mcb/plan.hpp"

namespace mcb::allreduce {

/// MPI_Allreduce of the system MPI. Phase: allreduce.
Plan system(const CollArgs& args);
/// MPI_Allreduce_init (MPI-4) or MPIX_Allreduce_init (Open MPI 4.1
/// pcollreq), started and waited per execution. Phase: allreduce. Throws
/// Error when this MPI has neither.
Plan system_persistent(const CollArgs& args);
bool have_system_persistent();
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

/// Every allreduce algorithm that mcb_allreduce offers.
const std::vector<Algorithm>& algorithms();

}  // namespace mcb::allreduce
