// Completing a set of requests: MPI_Waitall, except in the simulation build.
// SimGrid SMPI 3.32 completes MPI_Waitall with one MPI_Waitany per request,
// each a scan of the whole set, so n requests cost n^2 (2 x 511 requests of
// the nonblocking alltoall at 512 ranks ran for minutes). There the requests
// complete one at a time with MPI_Wait, in order: the last call returns when
// the last request completes, the same simulated instant as MPI_Waitall.
#pragma once

#include <mpi.h>

namespace mcb {

inline void wait_all(int count, MPI_Request* requests) {
#ifdef MCB_SIMULATE
  for (int i = 0; i < count; ++i) MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
#else
  MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
#endif
}

}  // namespace mcb
