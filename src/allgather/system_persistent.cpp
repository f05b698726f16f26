// system_persistent: the system MPI's persistent allgather (MPI-4
// MPI_Allgather_init, or Open MPI 4.1's MPIX_Allgather_init from the
// pcollreq extension), set up once and run with MPI_Start + MPI_Wait. Same
// messages as the MPI's persistent schedule; the set-up leaves the timed loop.
#include "mcb/allgather.hpp"
#include "mcb/error.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4
#define MCB_ALLGATHER_INIT MPI_Allgather_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MCB_ALLGATHER_INIT MPIX_Allgather_init
#endif

namespace mcb::allgather {

bool have_system_persistent() {
#ifdef MCB_ALLGATHER_INIT
  return true;
#else
  return false;
#endif
}

Plan system_persistent(const CollArgs& args) {
#ifdef MCB_ALLGATHER_INIT
  return persistent_request_plan("allgather", [&args](MPI_Request* r) {
    MCB_ALLGATHER_INIT(args.sendbuf, args.count, args.type, args.recvbuf, args.count, args.type, args.comm,
                       MPI_INFO_NULL, r);
  });
#else
  (void)args;
  throw Error("system_persistent: this MPI has neither MPI_Allgather_init nor MPIX_Allgather_init");
#endif
}

}  // namespace mcb::allgather
