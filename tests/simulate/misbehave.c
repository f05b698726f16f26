/* A program that goes wrong in one of the ways scripts/sim/simulate.py must
 * report with one line and a non-zero exit, under SMPI:
 *   deadlock  every rank receives first, from its neighbour (SMPI: "Deadlock detected", exit 0)
 *   nocsv     runs, exits 0 and writes no CSV (ignores --csv FILE)
 *   die       rank 1 exits with status 3 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "deadlock") == 0) {
    MPI_Recv(&value, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD);
  } else if (strcmp(mode, "die") == 0 && rank == 1) {
    exit(3);
  } else if (strcmp(mode, "nocsv") != 0 && strcmp(mode, "die") != 0) {
    if (rank == 0) fprintf(stderr, "misbehave: expected deadlock, nocsv or die\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
