// The alltoall baselines through the library API, on sub-communicators of
// uneven sizes (even and odd world ranks), against MPI_Alltoall on the same
// communicator; the send buffer must stay unchanged. Exits non-zero on any
// mismatch.
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world = 0, wsize = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, world % 2, world, &sub);
  int rank = 0, size = 0;
  MPI_Comm_rank(sub, &rank);
  MPI_Comm_size(sub, &size);
  int errors = 0;
  for (int count : {1, 3, 100}) {
    std::vector<int> send(static_cast<std::size_t>(count) * size), pristine, recv(send.size()), ref(send.size());
    for (std::size_t i = 0; i < send.size(); ++i) send[i] = world * 100000 + static_cast<int>(i);
    pristine = send;
    mcb::CollArgs args{send.data(), recv.data(), count, MPI_INT, sub};
    MPI_Alltoall(send.data(), count, MPI_INT, ref.data(), count, MPI_INT, sub);
    for (const auto& name : mcb::alltoall::inner_names()) {
      std::fill(recv.begin(), recv.end(), -1);
      mcb::Plan plan = mcb::alltoall::make_inner(name, args);
      for (int rep = 0; rep < 3; ++rep) plan.execute();  // a plan runs many times
      if (recv != ref || send != pristine) {
        std::fprintf(stderr, "rank %d: inner %s wrong on a communicator of %d (count %d)\n", world, name.c_str(), size,
                     count);
        ++errors;
      }
    }
  }
  bool threw = false;
  try {
    mcb::alltoall::make_inner("nonsense", mcb::CollArgs{nullptr, nullptr, 1, MPI_INT, sub});
  } catch (const mcb::Error& e) {
    threw = std::string(e.what()).find("pairwise") != std::string::npos;
  }
  if (!threw) {
    std::fprintf(stderr, "rank %d: make_inner(\"nonsense\") did not throw a helpful mcb::Error\n", world);
    ++errors;
  }
  int total = 0;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world == 0) std::printf("# ranks: %d\ninner api: %d errors\n", wsize, total);
  MPI_Comm_free(&sub);
  MPI_Finalize();
  return total ? 1 : 0;
}
