// One intercepted collective call, served by the mcb algorithm that the
// environment names or handed to the MPI's own: the checks (the same answer
// on every rank: they read only what a correct program passes alike on all
// of them), the cached layout, shape and plan, packing of non-contiguous
// datatypes, and the counters of the report.
#pragma once

#include <mpi.h>

#include "config.hpp"

namespace mcb::preload {

/// The arguments of MPI_Alltoall, MPI_Allgather or MPI_Allreduce (allreduce:
/// scount/stype are its count/type; rcount/rtype unused).
struct Call {
  Coll coll = Coll::alltoall;
  const void* send = nullptr;
  int scount = 0;
  MPI_Datatype stype = MPI_DATATYPE_NULL;
  void* recv = nullptr;
  int rcount = 0;
  MPI_Datatype rtype = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
};

/// The MPI's own collective for a call (PMPI_*).
using Fallback = int (*)(const Call&);

/// The call served by cfg's algorithm, or by `fallback`; MPI's return code.
/// Runs inside the re-entrancy guard.
int serve(const Config& cfg, int world_rank, const Call& call, Fallback fallback);

}  // namespace mcb::preload
