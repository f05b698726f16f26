// reduce_many: the k-way reduction of the shared-memory allreduces (see
// vector.hpp). One pass over k sources instead of k-1 passes of
// MPI_Reduce_local, each of which reads and writes the destination again.
#include <algorithm>
#include <cstring>
#include <vector>

#include "vector.hpp"

namespace mcb::allreduce::detail {

namespace {

template <class T>
void sum_many(void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  constexpr int kChunk = 1024;  // elements: 4-8 KiB, stays in L1
  T acc[kChunk];
  for (int base = 0; base < n; base += kChunk) {
    const int len = std::min(kChunk, n - base);
    const T* first = static_cast<const T*>(srcs[0]) + base;
    const T* second = k > 1 ? static_cast<const T*>(srcs[1]) + base : nullptr;
    if (second)  // the first two sources in one loop: acc is written once
      for (int i = 0; i < len; ++i) acc[i] = first[i] + second[i];
    else
      std::memcpy(acc, first, static_cast<std::size_t>(len) * sizeof(T));
    for (int j = 2; j < k; ++j) {
      const T* in = static_cast<const T*>(srcs[j]) + base;
      for (int i = 0; i < len; ++i) acc[i] += in[i];
    }
    for (int d = 0; d < nd; ++d)
      std::memcpy(static_cast<T*>(dsts[d]) + base, acc, static_cast<std::size_t>(len) * sizeof(T));
  }
}

}  // namespace

void reduce_many_to(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op) {
  if (n <= 0 || k <= 0 || nd <= 0) return;
  if (op == MPI_SUM && type == MPI_FLOAT) return sum_many<float>(dsts, nd, srcs, k, n);
  if (op == MPI_SUM && type == MPI_DOUBLE) return sum_many<double>(dsts, nd, srcs, k, n);
  if (op == MPI_SUM && type == MPI_INT) return sum_many<int>(dsts, nd, srcs, k, n);
  // Any other operation: through MPI_Reduce_local into a scratch vector, so
  // that a destination may alias any source here too.
  int size = 0;
  MPI_Type_size(type, &size);
  const std::size_t bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(size);
  std::vector<char> acc(static_cast<const char*>(srcs[0]), static_cast<const char*>(srcs[0]) + bytes);
  for (int j = 1; j < k; ++j) MPI_Reduce_local(srcs[j], acc.data(), n, type, op);
  for (int d = 0; d < nd; ++d) std::memcpy(dsts[d], acc.data(), bytes);
}

void reduce_many(void* dst, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op, void* dst2) {
  void* dsts[2] = {dst, dst2};
  reduce_many_to(dsts, dst2 ? 2 : 1, srcs, k, n, type, op);
}

}  // namespace mcb::allreduce::detail
