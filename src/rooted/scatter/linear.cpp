// linear: the linear scatter (Open MPI's basic_linear, MPICH's linear):
// rank 0 sends every other rank its block, the sends posted at once, and
// copies its own; every other rank receives one message. Rank 0: P-1
// messages of the others' blocks.
#include <memory>
#include <vector>

#include "mcb/scatter.hpp"
#include "mcb/wait.hpp"
#include "rooted_blocks.hpp"

namespace mcb::scatter {

Plan linear(const CollArgs& args) {
  const rooted::Blocks b(args);
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  void* recv = args.recvbuf;
  // Rank 0's blocks: the send buffer, or in place its receive buffer.
  const void* all = in_place ? recv : args.sendbuf;
  auto requests = std::make_shared<std::vector<MPI_Request>>(static_cast<std::size_t>(b.p));
  Plan plan;
  plan.add("scatter", [b, recv, all, in_place, requests] {
    const auto& a = b.args;
    if (b.rank != 0) {
      MPI_Recv(recv, a.count, a.type, 0, 0, a.comm, MPI_STATUS_IGNORE);
      return;
    }
    MPI_Request* r = requests->data();
    for (int i = 1; i < b.p; ++i) MPI_Isend(b.at(all, 0, i), a.count_of(i), a.type, i, 0, a.comm, &r[i - 1]);
    if (!in_place) a.memory().copy(recv, all, b.bytes(0, 1));
    wait_all(b.p - 1, r);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(linear) {
  return {
      "linear", "linear: rank 0 sends every other rank its block, P-1 sends posted at once", {}, layout_free(linear)};
}

}  // namespace mcb::scatter
