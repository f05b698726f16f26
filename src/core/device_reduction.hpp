// mcb's k-way reductions on device memory (allreduce-multi-process-per-gpu:
// the reductions of ring, recursive doubling and Rabenseifner when MPI moves
// device buffers): dsts[d][i] = srcs[0][i] op ... op srcs[k-1][i] in one
// grid-stride pass, each source read once and each destination written once,
// the operands combined in source order with the host kernels' operations
// (reduce_ops.hpp), so a device result equals the host's. A destination may
// be one of the sources: each thread reads its element of every source before
// it writes. Compiled by nvcc (memory_cuda.cu) and by hipcc for the HIP
// backend: the same source, only the half type's header differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "mcb/error.hpp"
#include "mcb/reduction.hpp"
#include "reduce_ops.hpp"

#if defined(__HIPCC__)
#include <hip/hip_fp16.h>
#else
#include <cuda_fp16.h>
#endif

namespace mcb::device {

/// The most operands of one launch (passed by value as kernel arguments).
constexpr int kMaxSources = 64;
constexpr int kMaxDestinations = 4;

template <class T>
struct Operands {
  const T* src[kMaxSources];
  T* dst[kMaxDestinations];
  int k, nd;
};

template <class T, class Op>
__global__ void reduce_kernel(Operands<T> o, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    T acc = o.src[0][i];
    for (int j = 1; j < o.k; ++j) acc = Op::apply(acc, o.src[j][i]);
    for (int d = 0; d < o.nd; ++d) o.dst[d][i] = acc;
  }
}

/// Threads per block and the most blocks of a launch (a grid-stride loop
/// covers the rest): enough blocks to fill an H100's 132 SMs many times over.
constexpr unsigned kThreads = 256, kMaxBlocks = 8192;

template <class T, class Op>
void launch(void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  Operands<T> o{};
  for (int j = 0; j < k; ++j) o.src[j] = static_cast<const T*>(srcs[j]);
  for (int d = 0; d < nd; ++d) o.dst[d] = static_cast<T*>(dsts[d]);
  o.k = k;
  o.nd = nd;
  const auto count = static_cast<std::size_t>(n);
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + kThreads - 1) / kThreads, kMaxBlocks));
  reduce_kernel<T, Op><<<blocks, kThreads>>>(o, count);
}

template <class T>
void launch_op(ReduceOp op, void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  switch (op) {
    case ReduceOp::sum:
      return launch<T, kernel_ops::Sum>(dsts, nd, srcs, k, n);
    case ReduceOp::prod:
      return launch<T, kernel_ops::Prod>(dsts, nd, srcs, k, n);
    case ReduceOp::min:
      return launch<T, kernel_ops::Min>(dsts, nd, srcs, k, n);
    case ReduceOp::max:
      return launch<T, kernel_ops::Max>(dsts, nd, srcs, k, n);
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == ReduceOp::band) return launch<T, kernel_ops::Band>(dsts, nd, srcs, k, n);
    if (op == ReduceOp::bor) return launch<T, kernel_ops::Bor>(dsts, nd, srcs, k, n);
    if (op == ReduceOp::bxor) return launch<T, kernel_ops::Bxor>(dsts, nd, srcs, k, n);
  }
}

/// Launches the reduction on the current device's default stream (the
/// caller checks the launch and synchronizes); throws Error for a type or
/// operation mcb has no kernel for, or more operands than one launch takes.
inline void reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op mpi) {
  const auto e = elem_of(type);
  const auto op = op_of(mpi);
  if (!e || !op || !op_allowed(*op, *e))
    throw Error(
        "reductions on device memory: mcb has kernels for its types and sum, prod, min, max, band, bor and "
        "bxor only (no MPI_Reduce_local on device memory)");
  if (k > kMaxSources || nd > kMaxDestinations)
    throw Error("reductions on device memory: " + std::to_string(k) + " sources and " + std::to_string(nd) +
                " destinations; one launch takes at most " + std::to_string(kMaxSources) + " and " +
                std::to_string(kMaxDestinations));
  switch (*e) {
    case Elem::int8:
      return launch_op<std::int8_t>(*op, dsts, nd, srcs, k, n);
    case Elem::uint8:
      return launch_op<std::uint8_t>(*op, dsts, nd, srcs, k, n);
    case Elem::int16:
      return launch_op<std::int16_t>(*op, dsts, nd, srcs, k, n);
    case Elem::uint16:
      return launch_op<std::uint16_t>(*op, dsts, nd, srcs, k, n);
    case Elem::int32:
      return launch_op<std::int32_t>(*op, dsts, nd, srcs, k, n);
    case Elem::uint32:
      return launch_op<std::uint32_t>(*op, dsts, nd, srcs, k, n);
    case Elem::int64:
      return launch_op<std::int64_t>(*op, dsts, nd, srcs, k, n);
    case Elem::uint64:
      return launch_op<std::uint64_t>(*op, dsts, nd, srcs, k, n);
    case Elem::float16:
      return launch_op<__half>(*op, dsts, nd, srcs, k, n);
    case Elem::float32:
      return launch_op<float>(*op, dsts, nd, srcs, k, n);
    case Elem::float64:
      return launch_op<double>(*op, dsts, nd, srcs, k, n);
  }
}

}  // namespace mcb::device
