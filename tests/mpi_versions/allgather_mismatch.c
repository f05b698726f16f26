/* Not mcb's: what an MPI does with an erroneous alltoall and allgather (3
 * ints sent per block, blocks of 2 received) under MPI_ERRORS_RETURN. Open
 * MPI 4.1.4 and 5.0.7 and MPICH 4.0.2 return an error from both; MPICH
 * 4.2.1's allgather returns success (docs/mpi-versions.md). Not built by
 * CMake:
 *   mpicc tests/mpi_versions/allgather_mismatch.c -o mismatch && mpiexec -n 4 ./mismatch */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int s[3 * 64] = {0}, r[3 * 64] = {0};
  int rc1 = MPI_Alltoall(s, 3, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD);
  int rc2 = MPI_Allgather(s, 3, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD);
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int len;
  MPI_Get_library_version(v, &len);
  printf("rank %d of %d: alltoall %s, allgather %s (%.40s)\n", rank, p, rc1 ? "error" : "success",
         rc2 ? "error" : "success", v);
  MPI_Finalize();
  return 0;
}
