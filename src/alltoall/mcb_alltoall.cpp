// mcb_alltoall: the alltoall benchmark. Block k of rank i's send buffer goes
// to rank k; its element j carries pattern(i, k, j).
#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"
#include "mcb/alltoall.hpp"

namespace {

std::size_t per_peer(std::size_t count, int p) { return count * static_cast<std::size_t>(p); }

std::uint64_t send_value(int rank, int, std::size_t count, std::size_t index) {
  return mcb::bench::pattern(static_cast<std::uint64_t>(rank), index / count, index % count);
}

void reference(const mcb::CollArgs& a) { MPI_Alltoall(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm); }

}  // namespace

int main(int argc, char** argv) {
  const mcb::bench::CollectiveSpec spec{"mcb_alltoall", "alltoall", &mcb::alltoall::algorithms(), per_peer, per_peer,
                                        send_value,     reference};
  return mcb::bench::run_benchmark(argc, argv, spec);
}
