// pairwise: pairwise exchange, Algorithm 1 of the many-core alltoall paper
// (alltoall-manycore-locality, Section 2). Step i = 1..P-1: send my block for
// rank+i, receive the block of rank-i, with one MPI_Sendrecv; step 0 is a
// local copy. Per rank: P-1 messages of s bytes sent and received, one
// exchange in flight at a time.
#include "mcb/alltoall.hpp"

namespace mcb::alltoall {

Plan pairwise(const CollArgs& args) {
  const int p = args.size(), me = args.rank();
  const std::size_t block = args.block_bytes();
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  Plan plan;
  plan.add("exchange", [=, a = args] {
    a.memory().copy(recv + me * block, send + me * block, block);
    for (int i = 1; i < p; ++i) {
      const int to = (me + i) % p, from = (me - i + p) % p;
      MPI_Sendrecv(send + to * block, a.count, a.type, to, 0, recv + from * block, a.count, a.type, from, 0, a.comm,
                   MPI_STATUS_IGNORE);
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(pairwise) {
  return {"pairwise", "pairwise exchange, P-1 MPI_Sendrecv steps (Algorithm 1)", {}, layout_free(pairwise)};
}

}  // namespace mcb::alltoall
