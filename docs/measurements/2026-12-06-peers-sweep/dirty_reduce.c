// MPI_Reduce of n floats, 2 ranks: the send buffer untouched between calls, or written by its owner before each call.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = atoi(argv[1]) / 4, iters = 20000, dirty = atoi(argv[2]);
  float *s = aligned_alloc(4096, n * 4 + 4096), *r = aligned_alloc(4096, n * 4 + 4096);
  for (int i = 0; i < n; ++i) s[i] = i;
  double t = 0;
  for (int it = -1000; it < iters; ++it) {
    if (dirty)
      for (int i = 0; i < n; i += 16) s[i] += 1.0f; /* one store per cache line */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Reduce(s, r, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (it >= 0) t += MPI_Wtime() - t0;
  }
  double sum;
  MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%d B dirty=%d %.2f us\n", n * 4, dirty, sum / 2 / iters * 1e6);
  MPI_Finalize();
}
