// Block addressing shared by the allgather and allgatherv algorithms: block
// i of the receive buffer (every rank's count, CollArgs::v in allgatherv,
// packed in rank order), and where a rank's own block comes from (its send
// buffer, or its place in the receive buffer under MPI_IN_PLACE).
#pragma once

#include <mpi.h>

#include "mcb/collective.hpp"

namespace mcb::allgather::detail {

struct Blocks {
  explicit Blocks(const CollArgs& a)
      : args(a), p(a.size()), rank(a.rank()), elem(a.type_bytes()), recv(static_cast<char*>(a.recvbuf)) {}

  /// Block i's elements, and its start in the receive buffer.
  int count(int i) const { return args.count_of(i); }
  char* at(int i) const { return recv + args.displ_of(i) * elem; }
  /// Elements of blocks [lo, hi), lo <= hi <= p (no wrap).
  int span(int lo, int hi) const { return static_cast<int>(args.displ_of(hi) - args.displ_of(lo)); }
  /// Elements of the n blocks from, from + 1, ... (mod p).
  int rotated(int from, int n) const {
    const int end = from + n;
    return end <= p ? span(from, end) : span(from, p) + span(0, end - p);
  }
  std::size_t bytes(int i) const { return static_cast<std::size_t>(count(i)) * elem; }
  bool in_place() const { return args.sendbuf == MPI_IN_PLACE; }
  /// My contribution: the send buffer, or my block of the receive buffer.
  const void* own() const { return in_place() ? at(rank) : args.sendbuf; }
  /// Copies my contribution to my block of the receive buffer (nothing to
  /// do in place).
  void place_own() const {
    if (!in_place()) args.memory().copy(at(rank), args.sendbuf, bytes(rank));
  }
  int mod(long i) const { return static_cast<int>(((i % p) + p) % p); }

  CollArgs args;
  int p, rank;
  std::size_t elem;
  char* recv;
};

}  // namespace mcb::allgather::detail
