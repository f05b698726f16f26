/* A vendor MPI with a wrong reduction, for validation's sake (issue 32):
 * preloaded into the ranks (run_mpi.py --preload), MPI_Allreduce and
 * MPI_Reduce of MPI_SUM on MPI_FLOAT call the real ones, then add 1 to the
 * last element of rank 0's result. Nothing else changes: the harness's own
 * bookkeeping (doubles, ints) and point-to-point traffic are untouched, so
 * mcb's own algorithms still pass and `--algorithm system -c` must fail. */
#include <mpi.h>

static void corrupt(void* result, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, int root) {
  int rank = 0;
  if (count < 1 || type != MPI_FLOAT || op != MPI_SUM) return;
  PMPI_Comm_rank(comm, &rank);
  if (rank == root) ((float*)result)[count - 1] += 1.0f;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  corrupt(recvbuf, count, type, op, comm, 0);
  return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  const int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  corrupt(recvbuf, count, type, op, comm, root);
  return rc;
}
