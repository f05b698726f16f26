// linear: the linear gather (Open MPI's basic_linear, MPICH's linear):
// every rank sends its block to rank 0, which receives the P-1 blocks with
// receives posted at once and copies its own. Rank 0: P-1 messages of the
// others' blocks; every other rank: one message of its block.
#include <memory>
#include <vector>

#include "mcb/gather.hpp"
#include "mcb/wait.hpp"
#include "rooted_blocks.hpp"

namespace mcb::gather {

Plan linear(const CollArgs& args) {
  const rooted::Blocks b(args);
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  void* recv = args.recvbuf;
  // My block: the send buffer, or in place its place in my receive buffer.
  const void* own = in_place ? b.at(recv, 0, b.rank) : args.sendbuf;
  auto requests = std::make_shared<std::vector<MPI_Request>>(static_cast<std::size_t>(b.p));
  Plan plan;
  plan.add("gather", [b, recv, own, in_place, requests] {
    const auto& a = b.args;
    if (b.rank != 0) {
      MPI_Send(own, a.count, a.type, 0, 0, a.comm);
      return;
    }
    MPI_Request* r = requests->data();
    for (int i = 1; i < b.p; ++i) MPI_Irecv(b.at(recv, 0, i), a.count_of(i), a.type, i, 0, a.comm, &r[i - 1]);
    if (!in_place) a.memory().copy(recv, own, b.bytes(0, 1));
    wait_all(b.p - 1, r);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(linear) {
  return {
      "linear", "linear: every rank sends its block to rank 0, P-1 receives posted at once", {}, layout_free(linear)};
}

}  // namespace mcb::gather
