/* The intra-node model of a platform, probed with plain MPI (tests/simulate/
 * model.py checks the times against the platform's parameters):
 *   model_probe one BYTES      rank 1 sends BYTES to rank 0 (rank 0 idle otherwise)
 *   model_probe pairs BYTES    rank i < P/2 sends BYTES to rank i + P/2, all at once
 *   model_probe gather BYTES   every rank > 0 sends BYTES to rank 0, all at once
 *   model_probe last BYTES     the last rank sends BYTES to rank 0 (across sockets, with enough
 *                              ranks), timed from its send (no barrier skew)
 * Blocking MPI_Send (no per-send overhead under rendezvous) and MPI_Recv /
 * MPI_Irecv + MPI_Wait. Prints "MODE BYTES P: SECONDS" (%.9e), the time
 * from a barrier to the last receive, the max over ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 3) {
    if (rank == 0) fprintf(stderr, "usage: model_probe one|pairs|gather BYTES\n");
    MPI_Finalize();
    return 2;
  }
  const char* mode = argv[1];
  const int n = atoi(argv[2]);
  char* buf = calloc((size_t)n * (size_t)p, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (strcmp(mode, "one") == 0) {
    if (rank == 1) MPI_Send(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    if (rank == 0) MPI_Recv(buf, n, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (strcmp(mode, "last") == 0) {
    /* Timed from the send to the receive's end (the simulated clock is one
     * for all ranks): the barrier's skew over many ranks is left out. */
    double sent = 0, got = 0;
    if (rank == p - 1 && p > 1) {
      sent = MPI_Wtime();
      MPI_Send(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      MPI_Send(&sent, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    if (rank == 0 && p > 1) {
      MPI_Recv(buf, n, MPI_CHAR, p - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      got = MPI_Wtime();
      MPI_Recv(&sent, 1, MPI_DOUBLE, p - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("%s %d %d: %.9e\n", mode, n, p, got - sent);
    }
    free(buf);
    MPI_Finalize();
    return 0;
  } else if (strcmp(mode, "pairs") == 0) {
    const int half = p / 2;
    if (rank < half) MPI_Send(buf, n, MPI_CHAR, rank + half, 0, MPI_COMM_WORLD);
    if (rank >= half && rank < 2 * half) MPI_Recv(buf, n, MPI_CHAR, rank - half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (strcmp(mode, "gather") == 0) {
    if (rank == 0) {
      MPI_Request* req = malloc(sizeof(MPI_Request) * (size_t)p);
      for (int i = 1; i < p; ++i) MPI_Irecv(buf + (size_t)i * n, n, MPI_CHAR, i, 0, MPI_COMM_WORLD, &req[i]);
      for (int i = 1; i < p; ++i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
      free(req);
    } else {
      MPI_Send(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  } else {
    if (rank == 0) fprintf(stderr, "model_probe: unknown mode %s\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double t = MPI_Wtime() - t0, most = 0;
  MPI_Reduce(&t, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%s %d %d: %.9e\n", mode, n, p, most);
  free(buf);
  MPI_Finalize();
  return 0;
}
