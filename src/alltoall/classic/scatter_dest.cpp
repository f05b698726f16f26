// scatter_dest: MPICH's medium-message alltoall as MVAPICH2 and SimGrid SMPI
// implement it (alltoall__mvapich2_scatter_dest; MPICH's selection takes it
// for blocks below 32 KiB, or below 256 B on fewer than 8 ranks): the P
// partners in windows of 4 (MVAPICH2's alltoall throttle factor as SMPI sets
// it); each window posts MPI_Irecv from rank+i and MPI_Isend to rank-i for
// its 4 values of i, then waits for all of them (Tony Ladd's throttling:
// only 8 requests in flight). The own block is a message to itself, as in
// MPICH and SMPI. Per rank: P messages of s bytes each way (one to itself),
// ceil(P/4) waits. It is mcb's stand-in for
// SMPI's own where the simulation build makes `system` pay its local work.
#include <algorithm>
#include <memory>
#include <vector>

#include "mcb/alltoall.hpp"
#include "mcb/wait.hpp"

namespace mcb::alltoall {

namespace {
constexpr int kWindow = 4;  // MV2_ALLTOALL_THROTTLE_FACTOR in SimGrid 3.32
}  // namespace

Plan scatter_dest(const CollArgs& args) {
  const int p = args.size(), me = args.rank();
  const std::size_t block = args.block_bytes();
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  auto requests = std::make_shared<std::vector<MPI_Request>>(2 * static_cast<std::size_t>(kWindow));
  Plan plan;
  plan.add("exchange", [=, a = args] {
    for (int base = 0; base < p; base += kWindow) {
      MPI_Request* req = requests->data();
      const int n = std::min(kWindow, p - base);
      for (int i = base; i < base + n; ++i) {
        const int from = (me + i) % p;
        MPI_Irecv(recv + from * block, a.count, a.type, from, 0, a.comm, req++);
      }
      for (int i = base; i < base + n; ++i) {
        const int to = (me - i + p) % p;
        MPI_Isend(send + to * block, a.count, a.type, to, 0, a.comm, req++);
      }
      wait_all(static_cast<int>(req - requests->data()), requests->data());
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(scatter_dest) {
  return {"scatter_dest",
          "MPICH's medium-message alltoall: Isend/Irecv in windows of 4 partners, a Waitall each",
          {},
          layout_free(scatter_dest)};
}

}  // namespace mcb::alltoall
