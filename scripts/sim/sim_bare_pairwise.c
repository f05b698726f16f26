/* The bare simulator's floor for scripts/sim/sim_scale.py --target bare: the
 * pairwise alltoall's messages and nothing else. Step k = 1 .. P-1: one
 * MPI_Sendrecv of BYTES to rank + k, from rank - k (mcb's pairwise sends the
 * same), after one barrier; one iteration; prints the max time over ranks.
 *   smpicc -O2 sim_bare_pairwise.c -o bare && smpirun ... ./bare BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int n = argc > 1 ? atoi(argv[1]) : 4;
  char* send = calloc((size_t)n * (size_t)p, 1);
  char* recv = calloc((size_t)n * (size_t)p, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int k = 1; k < p; ++k) {
    const int to = (rank + k) % p, from = (rank - k + p) % p;
    MPI_Sendrecv(send + (size_t)to * n, n, MPI_CHAR, to, 0, recv + (size_t)from * n, n, MPI_CHAR, from, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  double t = MPI_Wtime() - t0, most = 0;
  MPI_Reduce(&t, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("bare pairwise %d B, %d ranks: %.3f us simulated\n", n, p, most * 1e6);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
