// system_persistent: the system MPI's persistent allreduce (MPI-4
// MPI_Allreduce_init, or Open MPI 4.1's MPIX_Allreduce_init from the
// pcollreq extension), set up once and run with MPI_Start + MPI_Wait. Same
// messages as the MPI's persistent schedule; the set-up leaves the timed loop.
#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4
#define MCB_ALLREDUCE_INIT MPI_Allreduce_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MCB_ALLREDUCE_INIT MPIX_Allreduce_init
#endif

namespace mcb::allreduce {

bool have_system_persistent() {
#ifdef MCB_ALLREDUCE_INIT
  return true;
#else
  return false;
#endif
}

Plan system_persistent(const CollArgs& args) {
#ifdef MCB_ALLREDUCE_INIT
  return persistent_request_plan("allreduce", [&args](MPI_Request* r) {
    MCB_ALLREDUCE_INIT(args.sendbuf, args.recvbuf, args.count, args.type, args.op, args.comm, MPI_INFO_NULL, r);
  });
#else
  (void)args;
  throw Error("system_persistent: this MPI has neither MPI_Allreduce_init nor MPIX_Allreduce_init");
#endif
}

}  // namespace mcb::allreduce
