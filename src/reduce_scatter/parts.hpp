// What the reduce-scatter algorithms share: the vector's parts (rank r's
// count and start, CollArgs::count_of and displ_of), the input (the send
// buffer, or in place the receive buffer) and the reductions on them.
#pragma once

#include <mpi.h>

#include <algorithm>

#include "mcb/collective.hpp"

namespace mcb::reduce_scatter::detail {

struct Parts {
  explicit Parts(const CollArgs& a)
      : args(a), p(a.size()), rank(a.rank()), elem(a.type_bytes()), recv(static_cast<char*>(a.recvbuf)) {}

  bool in_place() const { return args.sendbuf == MPI_IN_PLACE; }
  /// The vector this rank contributes.
  const char* in() const { return in_place() ? recv : static_cast<const char*>(args.sendbuf); }
  int count(int r) const { return args.count_of(r); }
  /// Elements of parts [lo, hi).
  int span(int lo, int hi) const { return static_cast<int>(args.displ_of(hi) - args.displ_of(lo)); }
  /// Part r of a buffer that holds the whole vector.
  const char* at(const char* vector, int r) const { return vector + args.displ_of(r) * elem; }
  char* at(char* vector, int r) const { return vector + args.displ_of(r) * elem; }
  std::size_t bytes(int r) const { return static_cast<std::size_t>(count(r)) * elem; }
  int largest() const {
    int most = 0;
    for (int r = 0; r < p; ++r) most = std::max(most, count(r));
    return most;
  }
  int mod(long i) const { return static_cast<int>(((i % p) + p) % p); }
  /// dst = a op b over n elements (dst may be a, not b).
  void reduce(void* dst, const void* a, const void* b, int n) const {
    if (n <= 0) return;
    const void* srcs[2] = {a, b};
    void* dsts[1] = {dst};
    args.memory().reduce(dsts, 1, srcs, 2, n, args.type, args.op);
  }
  /// My part of the result, `part`, into the receive buffer (nothing when
  /// it is there already).
  void deliver(const char* part) const {
    if (part != recv) args.memory().copy(recv, part, bytes(rank));
  }

  CollArgs args;
  int p, rank;
  std::size_t elem;
  char* recv;
};

}  // namespace mcb::reduce_scatter::detail
