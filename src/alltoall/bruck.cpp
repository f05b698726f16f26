// bruck: the Bruck et al. (1997) alltoall for any P, as described in the
// many-core alltoall paper (alltoall-manycore-locality, Section 2) and the
// radix-2 case of TRA (alltoall-tunable-radix-tra, Section III).
//   rotate:      tmp[i] = send[(rank + i) % P]            (local copies)
//   exchange:    for k = 1, 2, 4, ... < P: the blocks i with bit k set go to
//                rank + k and arrive from rank - k (packed, one MPI_Sendrecv)
//   rotate_back: recv[(rank - i) % P] = tmp[i]
// Per rank: ceil(log2 P) messages, each of (number of i < P with bit k set)
// blocks, about P/2 blocks of s bytes. Needs 2P + 2 ceil(P/2) blocks of
// scratch; the send buffer is only read.
#include <memory>
#include <vector>

#include "mcb/alltoall.hpp"

namespace mcb::alltoall {

namespace {

struct BruckState {
  Buffer tmp, pack_send, pack_recv;
  std::vector<std::vector<int>> rounds;  // block indices sent in each round
};

}  // namespace

Plan bruck(const CollArgs& args) {
  const int p = args.size(), me = args.rank();
  const std::size_t block = args.block_bytes();
  const Memory& mem = args.memory();
  auto st = std::make_shared<BruckState>();
  const std::size_t half = static_cast<std::size_t>(p) / 2 + 1;
  st->tmp = Buffer(mem, block * p);
  st->pack_send = Buffer(mem, block * half);
  st->pack_recv = Buffer(mem, block * half);
  for (int k = 1; k < p; k <<= 1) {
    std::vector<int> idx;
    for (int i = 1; i < p; ++i)
      if (i & k) idx.push_back(i);
    st->rounds.push_back(std::move(idx));
  }
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);
  auto* tmp = st->tmp.as<char>();

  Plan plan;
  plan.add("rotate", [=, &mem] {
    mem.copy(tmp, send + me * block, (p - me) * block);
    mem.copy(tmp + (p - me) * block, send, me * block);
  });
  plan.add("exchange", [=, &mem, a = args] {
    auto* out = st->pack_send.as<char>();
    auto* in = st->pack_recv.as<char>();
    int k = 1;
    for (const auto& idx : st->rounds) {
      for (std::size_t b = 0; b < idx.size(); ++b) mem.copy(out + b * block, tmp + idx[b] * block, block);
      const int n = static_cast<int>(idx.size()) * a.count;
      MPI_Sendrecv(out, n, a.type, (me + k) % p, 1, in, n, a.type, (me - k + p) % p, 1, a.comm, MPI_STATUS_IGNORE);
      for (std::size_t b = 0; b < idx.size(); ++b) mem.copy(tmp + idx[b] * block, in + b * block, block);
      k <<= 1;
    }
  });
  plan.add("rotate_back", [=, &mem] {
    for (int i = 0; i < p; ++i) mem.copy(recv + ((me - i + p) % p) * block, tmp + i * block, block);
  });
  return plan;
}

}  // namespace mcb::alltoall
