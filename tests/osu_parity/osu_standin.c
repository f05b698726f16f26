/* A stand-in for OSU's osu_alltoall, osu_allgather and osu_allreduce in the
 * test of scripts/measure/osu_parity.py (tests/osu_parity/check.sh): an MPI program,
 * as OSU's are, that initializes MPI, prints OSU's -f table on rank 0 for
 * the sizes doubling over -m MIN:MAX (default 1:16) with every latency
 * 1e6 us, and finalizes. Other arguments are ignored. (A shell script in
 * its place, never calling MPI_Init, killed MPICH's mpiexec with SIGPIPE in
 * 27 of 800 launches on a loaded 2-core machine; this program in none.) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  unsigned long lo = 1, hi = 16;
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], "-m") == 0 && sscanf(argv[i + 1], "%lu:%lu", &lo, &hi) != 2) {
      fprintf(stderr, "osu stand-in: -m %s: expected MIN:MAX\n", argv[i + 1]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    printf("# OSU MPI Stand-in Latency Test v7.4\n");
    printf("# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n");
    for (unsigned long s = lo ? lo : 1; s <= hi; s *= 2)
      printf("%-10lu%18.2f%18.2f%18.2f%12d\n", s, 1e6, 1e6, 1e6, 1000);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
