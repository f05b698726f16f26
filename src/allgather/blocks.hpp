// Block addressing shared by the allgather algorithms: block i of the receive
// buffer, and where a rank's own block comes from (its send buffer, or its
// place in the receive buffer under MPI_IN_PLACE).
#pragma once

#include <mpi.h>

#include "mcb/collective.hpp"

namespace mcb::allgather::detail {

struct Blocks {
  explicit Blocks(const CollArgs& a)
      : args(a), p(a.size()), rank(a.rank()), bytes(a.block_bytes()), recv(static_cast<char*>(a.recvbuf)) {}

  char* at(int i) const { return recv + static_cast<std::size_t>(i) * bytes; }
  bool in_place() const { return args.sendbuf == MPI_IN_PLACE; }
  /// My contribution: the send buffer, or my block of the receive buffer.
  const void* own() const { return in_place() ? at(rank) : args.sendbuf; }
  /// Copies my contribution to my block of the receive buffer (nothing to
  /// do in place).
  void place_own() const {
    if (!in_place()) args.memory().copy(at(rank), args.sendbuf, bytes);
  }
  int mod(long i) const { return static_cast<int>(((i % p) + p) % p); }

  CollArgs args;
  int p, rank;
  std::size_t bytes;
  char* recv;
};

}  // namespace mcb::allgather::detail
