// Local work in simulated time, probed on one rank (tests/simulate/model.py
// checks the times against the platform's mcb/copy-bw, mcb/reduce-bw and
// mcb/call-overhead):
//   sim_local_work_probe on|off BYTES
// times, each between two MPI_Wtime calls: nothing (the baseline: SMPI's
// own MPI_Wtime injection), one copy of BYTES through the host backend, a
// 3-way sum of BYTES / 4 floats (reduce_many) and MPI_Reduce_local of as
// many; prints "WHAT: SECONDS" (%.12e) per line.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mcb/local_work.hpp"
#include "mcb/memory.hpp"
#include "vector.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3 || (std::strcmp(argv[1], "on") != 0 && std::strcmp(argv[1], "off") != 0)) {
    std::fprintf(stderr, "usage: sim_local_work_probe on|off BYTES\n");
    MPI_Finalize();
    return 2;
  }
  mcb::local_work::enable(std::strcmp(argv[1], "on") == 0);
  const std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  const int floats = static_cast<int>(bytes / sizeof(float));
  std::vector<float> a(floats, 1.0f), b(floats, 2.0f), c(floats, 3.0f), d(floats, 0.0f);
  const mcb::Memory& mem = mcb::host_memory();
  auto timed = [](const char* what, auto&& work) {
    const double t0 = MPI_Wtime();
    work();
    const double t1 = MPI_Wtime();
    std::printf("%s: %.12e\n", what, t1 - t0);
  };
  timed("nothing", [] {});
  timed("copy", [&] { mem.copy(d.data(), a.data(), bytes); });
  const void* srcs[3] = {a.data(), b.data(), c.data()};
  timed("reduce3", [&] { mcb::allreduce::detail::reduce_many(d.data(), srcs, 3, floats, MPI_FLOAT, MPI_SUM); });
  timed("reduce_local", [&] { MPI_Reduce_local(a.data(), d.data(), floats, MPI_FLOAT, MPI_SUM); });
  MPI_Finalize();
  return 0;
}
