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
#include "mcb/plan.hpp"

namespace mcb::alltoall {

/// MPI_Alltoall of the system MPI. Phase: alltoall.
Plan system(const CollArgs& args);
/// MPI_Alltoall_init (MPI-4) or MPIX_Alltoall_init (Open MPI 4.1 pcollreq),
/// started and waited per execution. Phase: alltoall. Throws Error when
/// this MPI has neither.
Plan system_persistent(const CollArgs& args);
bool have_system_persistent();
/// Pairwise exchange (Algorithm 1): P-1 MPI_Sendrecv steps. Phase: exchange.
Plan pairwise(const CollArgs& args);
/// Non-blocking exchange (Algorithm 2): all Irecv/Isend, one Waitall.
/// Phase: exchange.
Plan nonblocking(const CollArgs& args);
/// Bruck: ceil(log2 P) rounds, any P. Phases: rotate, exchange, rotate_back.
Plan bruck(const CollArgs& args);

/// Every alltoall algorithm that mcb_alltoall offers.
const std::vector<Algorithm>& algorithms();
/// Looks up an algorithm by name; throws Error listing the known ones.
const Algorithm& find(const std::string& name);

/// The names usable as an inner exchange on a sub-communicator.
std::vector<std::string> inner_names();
/// An inner exchange by name (pairwise, nonblocking, bruck, system, ...).
Plan make_inner(const std::string& name, const CollArgs& args);

}  // namespace mcb::alltoall
