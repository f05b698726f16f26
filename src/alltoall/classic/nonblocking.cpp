// nonblocking: the non-blocking exchange, Algorithm 2 of the many-core
// alltoall paper (alltoall-manycore-locality, Section 2). For i = 1..P-1 it
// posts MPI_Irecv from rank-i and MPI_Isend to rank+i, then waits for all
// (MPI_Waitall, through mcb::wait_all); the own block is a local copy. Per
// rank: P-1 messages of s bytes each way, all in flight at once.
#include <memory>
#include <vector>

#include "mcb/alltoall.hpp"
#include "mcb/wait.hpp"

namespace mcb::alltoall {

Plan nonblocking(const CollArgs& args) {
  const int p = args.size(), me = args.rank();
  const std::size_t block = args.block_bytes();
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  auto requests = std::make_shared<std::vector<MPI_Request>>(2 * static_cast<std::size_t>(p - 1));
  Plan plan;
  plan.add("exchange", [=, a = args] {
    MPI_Request* req = requests->data();
    for (int i = 1; i < p; ++i) {
      const int to = (me + i) % p, from = (me - i + p) % p;
      MPI_Irecv(recv + from * block, a.count, a.type, from, 0, a.comm, req++);
      MPI_Isend(send + to * block, a.count, a.type, to, 0, a.comm, req++);
    }
    a.memory().copy(recv + me * block, send + me * block, block);
    wait_all(static_cast<int>(requests->size()), requests->data());
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(nonblocking) {
  return {"nonblocking", "all Isend/Irecv then one Waitall (Algorithm 2)", {}, layout_free(nonblocking)};
}

}  // namespace mcb::alltoall
