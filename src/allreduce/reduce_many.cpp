// reduce_many: the k-way reduction of the shared-memory allreduces (see
// vector.hpp). One pass over k sources instead of k-1 passes of
// MPI_Reduce_local, each of which reads and writes the destination again.
#include <algorithm>
#include <cstring>
#include <vector>

#include "mcb/local_work.hpp"
#include "vector.hpp"

namespace mcb::allreduce::detail {

namespace {

// The last pass of a chunk: dsts[d][i] = acc[i] + in[i] for every
// destination, one loop per destination count that the compiler vectorizes.
template <class T, int ND>
void finish(T* const* dsts, int base, const T* acc, const T* in, int len) {
  for (int i = 0; i < len; ++i) {
    const T v = acc[i] + in[i];
    for (int d = 0; d < ND; ++d) dsts[d][base + i] = v;
  }
}

template <class T>
void sum_many(void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  // Simulated time (simulation build): k operands read, extra destinations copied.
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  if (k == 1)
    local_work::copy(bytes * static_cast<std::size_t>(nd));
  else
    local_work::reduce(bytes * static_cast<std::size_t>(k));
  if (k > 1 && nd > 1) local_work::copy(bytes * static_cast<std::size_t>(nd - 1));
  constexpr int kChunk = 1024;  // elements: 4-8 KiB, stays in L1
  T acc[kChunk];
  T* out[2] = {static_cast<T*>(dsts[0]), nd > 1 ? static_cast<T*>(dsts[1]) : nullptr};
  for (int base = 0; base < n; base += kChunk) {
    const int len = std::min(kChunk, n - base);
    if (k == 1) {
      for (int d = 0; d < nd; ++d)
        std::memcpy(static_cast<T*>(dsts[d]) + base, static_cast<const T*>(srcs[0]) + base,
                    static_cast<std::size_t>(len) * sizeof(T));
      continue;
    }
    // Sources 0 .. k-2 into acc (L1; the first source itself when k = 2),
    // then the last one added on the way out, so that each destination is
    // written once, straight from registers for one or two destinations.
    const T* first = static_cast<const T*>(srcs[0]) + base;
    if (k > 2) {
      const T* second = static_cast<const T*>(srcs[1]) + base;
      for (int i = 0; i < len; ++i) acc[i] = first[i] + second[i];
      for (int j = 2; j + 1 < k; ++j) {
        const T* in = static_cast<const T*>(srcs[j]) + base;
        for (int i = 0; i < len; ++i) acc[i] += in[i];
      }
      first = acc;
    }
    const T* last = static_cast<const T*>(srcs[k - 1]) + base;
    if (nd == 1) {
      finish<T, 1>(out, base, first, last, len);
    } else if (nd == 2) {
      finish<T, 2>(out, base, first, last, len);
    } else {
      if (first != acc) std::memcpy(acc, first, static_cast<std::size_t>(len) * sizeof(T));
      for (int i = 0; i < len; ++i) acc[i] += last[i];
      for (int d = 0; d < nd; ++d)
        std::memcpy(static_cast<T*>(dsts[d]) + base, acc, static_cast<std::size_t>(len) * sizeof(T));
    }
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
  for (int j = 1; j < k; ++j) MPI_Reduce_local(srcs[j], acc.data(), n, type, op);  // charges itself
  for (int d = 0; d < nd; ++d) std::memcpy(dsts[d], acc.data(), bytes);
  local_work::copy(bytes * static_cast<std::size_t>(nd + 1));
}

void reduce_many(void* dst, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op, void* dst2) {
  void* dsts[2] = {dst, dst2};
  reduce_many_to(dsts, dst2 ? 2 : 1, srcs, k, n, type, op);
}

}  // namespace mcb::allreduce::detail
