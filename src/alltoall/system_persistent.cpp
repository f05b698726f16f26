// system_persistent: the system MPI's persistent alltoall (MPI-4
// MPI_Alltoall_init, or Open MPI 4.1's MPIX_Alltoall_init from the pcollreq
// extension), set up once and run with MPI_Start + MPI_Wait. Same messages
// as the MPI's non-persistent schedule; the set-up cost leaves the timed loop.
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4
#define MCB_ALLTOALL_INIT MPI_Alltoall_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MCB_ALLTOALL_INIT MPIX_Alltoall_init
#endif

namespace mcb::alltoall {

bool have_system_persistent() {
#ifdef MCB_ALLTOALL_INIT
  return true;
#else
  return false;
#endif
}

Plan system_persistent(const CollArgs& args) {
#ifdef MCB_ALLTOALL_INIT
  return persistent_request_plan("alltoall", [&args](MPI_Request* r) {
    MCB_ALLTOALL_INIT(args.sendbuf, args.count, args.type, args.recvbuf, args.count, args.type, args.comm,
                      MPI_INFO_NULL, r);
  });
#else
  (void)args;
  throw Error("system_persistent: this MPI has neither MPI_Alltoall_init nor MPIX_Alltoall_init");
#endif
}

}  // namespace mcb::alltoall
