// recursive_exchange: the message-passing recursive exchange allreduce
// between nodes (allreduce-shared-memory-multiradix, Section 2.1.2,
// Figure 3), the inter-node step of the shared-memory allreduces
// (--inner recursive_exchange --node-factors=-4,-2,2,4).
//   reduce_scatter: stage j (factor f_j): my range cut into f_j parts; send
//                   part v to the member with digit v, receive their copies
//                   of my part, sum the f_j of them (one pass)
//   allreduce:      (reduce_scatter factors multiplying to R < P) the P/R
//                   ranks holding my piece swap it and each sums all of
//                   them in rank order (the same sum on every one)
//   allgather:      the stages in reverse: send my part, receive the others
// Schedule in shm_schedule.hpp (exchange_schedule). Per rank, vector of n
// bytes: sum(f_j - 1) messages each way per direction, about n(1 - 1/R)
// bytes sent in each of reduce_scatter and allgather; (P/R - 1) messages of
// n/R in the nested allreduce. Every stage posts all its receives and sends
// at once (a factor is "ports plus one"), then waits.
#include <memory>
#include <vector>

#include "mcb/allreduce.hpp"
#include "mcb/wait.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "vector.hpp"

namespace mcb::allreduce::detail {

namespace {

// The scratch a stage receives into, in elements: the others' copies of my
// part in the largest reduce_scatter stage, or of my piece in the nested
// allreduce.
std::size_t scratch_elems(const ExchangeSchedule& x) {
  std::size_t most = (x.nested.size() - 1) * x.piece.size();
  for (const auto& st : x.reduce_scatter)
    most = std::max(most, (st.parts.size() - 1) * st.parts[static_cast<std::size_t>(st.mine)].size());
  return most;
}

}  // namespace

Plan recursive_exchange(const CollArgs& args, const Factors& factors) {
  auto x = std::make_shared<const ExchangeSchedule>(
      exchange_schedule(args.size(), args.rank(), factors, static_cast<std::size_t>(args.count)));
  const std::size_t elem = args.type_bytes();
  const Buffer tmp(args.memory(), scratch_elems(*x) * elem);
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  char* const recv = static_cast<char*>(args.recvbuf);
  const char* const send = in_place ? recv : static_cast<const char*>(args.sendbuf);
  auto at = [elem](const char* base, std::size_t lo) { return base + lo * elem; };
  auto n = [](Range r) { return static_cast<int>(r.size()); };
  const int max_peers = static_cast<int>(std::max(x->nested.size(), [&] {
    std::size_t most = 1;
    for (const auto& st : x->reduce_scatter) most = std::max(most, st.peers.size());
    return most;
  }()));
  auto reqs = std::make_shared<std::vector<MPI_Request>>(2 * static_cast<std::size_t>(max_peers));
  auto srcs = std::make_shared<std::vector<const void*>>(static_cast<std::size_t>(max_peers));
  Plan plan;

  plan.add("reduce_scatter", [=] {
    char* const scratch = static_cast<char*>(tmp.data());
    const char* from = send;  // my vector so far: the send buffer, then the receive buffer
    for (const ExchangeStage& st : x->reduce_scatter) {
      const Range mine = st.parts[static_cast<std::size_t>(st.mine)];
      int k = 0, slot = 0;
      for (std::size_t v = 0; v < st.peers.size(); ++v) {
        if (static_cast<int>(v) == st.mine) continue;
        char* into = scratch + static_cast<std::size_t>(slot++) * mine.size() * elem;
        MPI_Irecv(into, n(mine), args.type, st.peers[v], 0, args.comm, &(*reqs)[static_cast<std::size_t>(k++)]);
        MPI_Isend(at(from, st.parts[v].lo), n(st.parts[v]), args.type, st.peers[v], 0, args.comm,
                  &(*reqs)[static_cast<std::size_t>(k++)]);
      }
      wait_all(k, reqs->data());
      // My own part first: the destination may be that source.
      auto& src = *srcs;
      src[0] = at(from, mine.lo);
      for (int s = 0; s < slot; ++s) src[static_cast<std::size_t>(s) + 1] = scratch + s * mine.size() * elem;
      void* dst[1] = {recv + mine.lo * elem};
      args.memory().reduce(dst, 1, src.data(), slot + 1, n(mine), args.type, args.op);
      from = recv;
    }
    if (x->reduce_scatter.empty() && !in_place) args.memory().copy(recv, send, args.block_bytes());
  });
  if (x->nested.size() > 1)
    plan.add("allreduce", [=] {
      char* const scratch = static_cast<char*>(tmp.data());
      const Range p = x->piece;
      auto& src = *srcs;  // every rank's copy of the piece, in rank order
      int k = 0, slot = 0;
      for (std::size_t i = 0; i < x->nested.size(); ++i) {
        const int m = x->nested[i];
        if (m == args.rank()) {
          src[i] = at(recv, p.lo);
          continue;
        }
        char* into = scratch + static_cast<std::size_t>(slot++) * p.size() * elem;
        src[i] = into;
        MPI_Irecv(into, n(p), args.type, m, 1, args.comm, &(*reqs)[static_cast<std::size_t>(k++)]);
        MPI_Isend(at(recv, p.lo), n(p), args.type, m, 1, args.comm, &(*reqs)[static_cast<std::size_t>(k++)]);
      }
      wait_all(k, reqs->data());
      void* dst[1] = {recv + p.lo * elem};
      args.memory().reduce(dst, 1, src.data(), static_cast<int>(x->nested.size()), n(p), args.type, args.op);
    });
  plan.add("allgather", [=] {
    for (const ExchangeStage& st : x->allgather) {
      const Range mine = st.parts[static_cast<std::size_t>(st.mine)];
      int k = 0;
      for (std::size_t v = 0; v < st.peers.size(); ++v) {
        if (static_cast<int>(v) == st.mine) continue;
        MPI_Irecv(recv + st.parts[v].lo * elem, n(st.parts[v]), args.type, st.peers[v], 2, args.comm,
                  &(*reqs)[static_cast<std::size_t>(k++)]);
        MPI_Isend(recv + mine.lo * elem, n(mine), args.type, st.peers[v], 2, args.comm,
                  &(*reqs)[static_cast<std::size_t>(k++)]);
      }
      wait_all(k, reqs->data());
    }
  });
  return plan;
}

}  // namespace mcb::allreduce::detail
