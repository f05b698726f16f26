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
void sum_many(void* dst, void* dst2, const void* const* srcs, int k, int n) {
  constexpr int kChunk = 1024;  // elements: 4-8 KiB, stays in L1
  T acc[kChunk];
  auto* out = static_cast<T*>(dst);
  for (int base = 0; base < n; base += kChunk) {
    const int len = std::min(kChunk, n - base);
    std::memcpy(acc, static_cast<const T*>(srcs[0]) + base, static_cast<std::size_t>(len) * sizeof(T));
    for (int j = 1; j < k; ++j) {
      const T* in = static_cast<const T*>(srcs[j]) + base;
      for (int i = 0; i < len; ++i) acc[i] += in[i];
    }
    std::memcpy(out + base, acc, static_cast<std::size_t>(len) * sizeof(T));
    if (dst2) std::memcpy(static_cast<T*>(dst2) + base, acc, static_cast<std::size_t>(len) * sizeof(T));
  }
}

}  // namespace

void reduce_many(void* dst, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op, void* dst2) {
  if (n <= 0 || k <= 0) return;
  if (op == MPI_SUM && type == MPI_FLOAT) return sum_many<float>(dst, dst2, srcs, k, n);
  if (op == MPI_SUM && type == MPI_DOUBLE) return sum_many<double>(dst, dst2, srcs, k, n);
  if (op == MPI_SUM && type == MPI_INT) return sum_many<int>(dst, dst2, srcs, k, n);
  // Any other operation: through MPI_Reduce_local into a scratch vector, so
  // that dst may alias any source here too.
  int size = 0;
  MPI_Type_size(type, &size);
  const std::size_t bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(size);
  std::vector<char> acc(static_cast<const char*>(srcs[0]), static_cast<const char*>(srcs[0]) + bytes);
  for (int j = 1; j < k; ++j) MPI_Reduce_local(srcs[j], acc.data(), n, type, op);
  std::memcpy(dst, acc.data(), bytes);
  if (dst2) std::memcpy(dst2, acc.data(), bytes);
}

}  // namespace mcb::allreduce::detail
