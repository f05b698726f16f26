// Calls mcb's Bruck alltoall through the installed library and checks it
// against MPI_Alltoall.
#include <mpi.h>

#include <cstdio>
#include <mcb/alltoall.hpp>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = 4;
  std::vector<double> send(count * size), recv(send.size()), ref(send.size());
  for (std::size_t i = 0; i < send.size(); ++i) send[i] = rank * 1000.0 + static_cast<double>(i);
  mcb::Plan plan = mcb::alltoall::bruck({send.data(), recv.data(), count, MPI_DOUBLE, MPI_COMM_WORLD});
  plan.execute();  // set up once, run as often as needed
  MPI_Alltoall(send.data(), count, MPI_DOUBLE, ref.data(), count, MPI_DOUBLE, MPI_COMM_WORLD);
  int bad = recv != ref, any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (rank == 0) std::printf("consumer: bruck %s on %d ranks\n", any ? "WRONG" : "ok", size);
  MPI_Finalize();
  return any;
}
