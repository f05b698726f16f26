// The system MPI's own collectives as plans, once for every collective:
// `system` (MPI_Alltoall, MPI_Allgather, MPI_Allreduce, MPI_Reduce to rank
// 0, MPI_Bcast from rank 0, MPI_Reduce_scatter_block, MPI_Reduce_scatter,
// MPI_Allgatherv, and MPI_Gather(v) and MPI_Scatter(v) rooted at rank 0)
// and `system_persistent` (MPI-4's *_init, or Open MPI 4.1's MPIX_*_init
// from its pcollreq extension, set up once and run with MPI_Start +
// MPI_Wait). Their message and byte counts are whatever
// the MPI's selector picks; they are the reference every other algorithm is
// measured against.
#pragma once

#include <string>
#include <vector>

#include "mcb/collective.hpp"

namespace mcb::system_mpi {

enum class Collective {
  alltoall,
  allgather,
  allreduce,
  reduce,
  bcast,
  reduce_scatter_block,
  reduce_scatter,
  allgatherv,
  gather,
  gatherv,
  scatter,
  scatterv
};

/// The blocking collective, one phase named after it ("alltoall", ...).
/// Reduce: to rank 0 (in place, only the root passes MPI_IN_PLACE); bcast:
/// from rank 0, which first copies its send buffer into its receive buffer.
/// The v-forms take every rank's count from CollArgs::v. In place
/// (CollArgs::sendbuf MPI_IN_PLACE), as mcb's benchmarks place the data:
/// gather(v): the root passes MPI_IN_PLACE, the others send their block
/// from its place in their receive buffer; scatter(v): the root's send
/// data is its receive buffer (which it passes as the send buffer, with
/// MPI_IN_PLACE as the receive buffer).
Plan blocking(Collective c, const CollArgs& args);
/// The persistent collective; throws Error when this MPI has neither the
/// MPI-4 nor the MPIX_ initialiser.
Plan persistent(Collective c, const CollArgs& args);
bool have_persistent(Collective c);
/// The registry's entries, in --list order: "system" and
/// "system_persistent" (marked unavailable, with the reason,
/// where this MPI has no initialiser). `charged`: in the
/// simulation build, where local work costs simulated time
/// (local_work::charged()), `system` runs this plan instead of SMPI's own
/// collective, which pays none of its copies: mcb's implementation of what
/// SMPI's selector runs, so that the reference pays like the algorithms it
/// is held against. Empty: SMPI's own everywhere.
std::vector<Algorithm> algorithms(Collective c, PlanFactory charged = {});
/// A `charged` plan: `inner` (mcb's implementation of what SMPI's selector
/// runs) in one phase named after the collective, as SMPI's own, with the
/// note "system: MPICH's selection as SMPI makes it (RULE), run by mcb's
/// implementations, paying their local work" that the header prints.
Plan charged_plan(Collective c, const Plan& inner, const std::string& rule);

}  // namespace mcb::system_mpi

#define MCB_REGISTRY_DECLARE_(name) MCB_DECLARE_ALGORITHM(name);
#define MCB_REGISTRY_ADD_(name) v.push_back(declare_##name());
/// A collective's registry, algorithms(): the system's entries of
/// system_mpi::Collective::coll, then those of LIST, an X-macro naming one
/// algorithm per line (each declared in its own file with
/// MCB_DECLARE_ALGORITHM), in --list order.
#define MCB_ALGORITHM_REGISTRY(coll, LIST) MCB_ALGORITHM_REGISTRY_CHARGED(coll, LIST, {})
/// A second registry of LIST's algorithms (declared by the first) under the
/// name `function`, after the system's entries of `coll`: the allgather
/// algorithms as allgatherv's, the gather algorithms as gatherv's.
#define MCB_ALGORITHM_REGISTRY_AS(function, coll, LIST)                                                  \
  const std::vector<Algorithm>& function() {                                                             \
    static const std::vector<Algorithm> list = [] {                                                      \
      std::vector<Algorithm> v = ::mcb::system_mpi::algorithms(::mcb::system_mpi::Collective::coll, {}); \
      LIST(MCB_REGISTRY_ADD_)                                                                            \
      return v;                                                                                          \
    }();                                                                                                 \
    return list;                                                                                         \
  }
/// The same, with the plan `system` runs where the simulation build charges
/// local work (system_mpi::algorithms' `charged`).
#define MCB_ALGORITHM_REGISTRY_CHARGED(coll, LIST, charged)                                                   \
  LIST(MCB_REGISTRY_DECLARE_)                                                                                 \
  const std::vector<Algorithm>& algorithms() {                                                                \
    static const std::vector<Algorithm> list = [] {                                                           \
      std::vector<Algorithm> v = ::mcb::system_mpi::algorithms(::mcb::system_mpi::Collective::coll, charged); \
      LIST(MCB_REGISTRY_ADD_)                                                                                 \
      return v;                                                                                               \
    }();                                                                                                      \
    return list;                                                                                              \
  }
