// One intercepted collective call, served by the mcb algorithm that the
// environment names or handed to the MPI's own: the checks (the same answer
// on every rank: they read only what a correct program passes alike on all
// of them), the cached layout, shape and plan, packing of non-contiguous
// datatypes, and the counters of the report.
#pragma once

#include <mpi.h>

#include <type_traits>

#include "config.hpp"

namespace mcb::preload {

/// The arguments of an intercepted call, by the send and receive sides of
/// MPI's signatures: alltoall, allgather(v), gather(v), scatter(v) as they
/// are; allreduce, reduce, reduce_scatter(_block): scount/stype their count
/// and type (reduce_scatter_block: its receive count), rcount/rtype unused;
/// bcast: send is MPI_IN_PLACE, recv/rcount/rtype its buffer, count and
/// type. `counts` and `displs`: the per-rank arrays of the v-forms
/// (allgatherv's and gatherv's receive counts and displacements,
/// scatterv's send ones, reduce_scatter's receive counts), in the caller's
/// memory and rank order.
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
  bool fortran = false;  // through a Fortran entry point (fortran.cpp): counted as such
  int root = 0;          // the rooted collectives
  const int* counts = nullptr;
  const int* displs = nullptr;
  /// A rooted call from root R > 0 runs on the communicator rotated to start
  /// at R (serve.cpp): R here, which the root's buffer of every rank's
  /// blocks (gather, scatter) is rotated by.
  int rotation = 0;
};

/// The MPI's own collective for a call: PMPI_* for a C call, the MPI's own
/// Fortran entry point, with the caller's Fortran arguments, for a Fortran
/// one. A reference to a callable that outlives the call (no allocation).
class Fallback {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Fallback>>>
  Fallback(const F& f)  // NOLINT: implicit, from a lambda at the call
      : object_(&f), call_([](const void* o, const Call& q) { return (*static_cast<const F*>(o))(q); }) {}
  int operator()(const Call& q) const { return call_(object_, q); }

 private:
  const void* object_;
  int (*call_)(const void*, const Call&);
};

/// The call served by cfg's algorithm, or by `fallback`; MPI's return code.
/// Runs inside the re-entrancy guard (the fallback too: a Fortran entry
/// point of the MPI that calls the C function is not intercepted again).
int serve(const Config& cfg, const Call& call, Fallback fallback);

}  // namespace mcb::preload
