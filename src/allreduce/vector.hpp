// What the allreduce algorithms share: the vector split into near-equal
// chunks, the reduction of one piece into another, and the fold that brings
// any P down to a power of two for the recursive algorithms.
#pragma once

#include <mpi.h>

#include <bit>
#include <cstddef>

#include "mcb/collective.hpp"
#include "mcb/error.hpp"
#include "mcb/reduction.hpp"

namespace mcb::allreduce::detail {

/// The vector of one call: `count` elements in `parts` chunks, the first
/// count % parts one element longer.
struct Vector {
  Vector(const CollArgs& a, int parts)
      : args(a), parts(parts), elem(a.type_bytes()), recv(static_cast<char*>(a.recvbuf)) {}

  long first(int chunk) const {
    const long base = args.count / parts, extra = args.count % parts;
    return chunk * base + std::min<long>(chunk, extra);
  }
  /// Elements of chunks [lo, hi).
  int count(int lo, int hi) const { return static_cast<int>(first(hi) - first(lo)); }
  char* at(int chunk) const { return recv + static_cast<std::size_t>(first(chunk)) * elem; }
  std::size_t bytes(int lo, int hi) const { return static_cast<std::size_t>(count(lo, hi)) * elem; }
  /// recv = send (nothing to do in place).
  void copy_in() const {
    if (args.sendbuf != MPI_IN_PLACE) args.memory().copy(recv, args.sendbuf, args.block_bytes());
  }
  /// dst = src op dst over n elements: mcb's kernel (mcb/reduction.hpp) on
  /// the host, its device twin on device memory (Memory::reduce).
  void reduce(void* dst, const void* src, int n) const {
    if (n > 0) args.memory().reduce_local(src, dst, n, args.type, args.op);
  }

  CollArgs args;
  int parts;
  std::size_t elem;
  char* recv;
};

/// The k-way reductions of the shared-memory allreduces: mcb's kernels.
using mcb::reduce_many;
using mcb::reduce_many_to;

/// The recursive algorithms run on pof2 = the largest power of two <= P
/// ranks. The first 2*rem ranks (rem = P - pof2) pair up: the even one sends
/// its vector to the odd one and waits (`folded`), the odd one works on as
/// new rank rank/2; the others are new rank rank - rem.
struct Fold {
  Fold(int rank, int p) : rank(rank), pof2(static_cast<int>(std::bit_floor(static_cast<unsigned>(p)))), rem(p - pof2) {
    if (rank < 2 * rem)
      newrank = rank % 2 == 0 ? -1 : rank / 2;
    else
      newrank = rank - rem;
  }
  bool folded() const { return newrank < 0; }
  /// The rank of new rank n.
  int real(int n) const { return n < rem ? 2 * n + 1 : n + rem; }

  int rank, pof2, rem, newrank = 0;
};

/// Fold step: the even rank of a folded pair sends its vector to the odd
/// one, which reduces it into its own (using `tmp`, one vector).
inline void fold_in(const Vector& v, const Fold& f, void* tmp) {
  const auto& a = v.args;
  if (f.rank >= 2 * f.rem) return;
  if (f.folded()) {
    MPI_Send(v.recv, a.count, a.type, f.rank + 1, 0, a.comm);
  } else {
    MPI_Recv(tmp, a.count, a.type, f.rank - 1, 0, a.comm, MPI_STATUS_IGNORE);
    v.reduce(v.recv, tmp, a.count);
  }
}

/// Unfold step: the odd rank of a pair sends the result to the even one.
inline void fold_out(const Vector& v, const Fold& f) {
  const auto& a = v.args;
  if (f.rank >= 2 * f.rem) return;
  if (f.folded())
    MPI_Recv(v.recv, a.count, a.type, f.rank + 1, 0, a.comm, MPI_STATUS_IGNORE);
  else
    MPI_Send(v.recv, a.count, a.type, f.rank - 1, 0, a.comm);
}

/// Throws unless the call's buffers are host memory: the shared-memory
/// algorithms (Algorithm::host_only) read their peers' buffers in place.
inline void require_host(const CollArgs& args, const char* who) {
  if (args.memory().kind() != MemKind::host)
    throw Error(std::string(who) + ": works on host shared memory; device buffers go through host copies");
}

}  // namespace mcb::allreduce::detail
