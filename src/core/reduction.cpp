// mcb's local reductions (mcb/reduction.hpp): a template per operation,
// instantiated for every element type it is defined on, chosen once per
// call from the MPI datatype and operation.
#include "mcb/reduction.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "mcb/local_work.hpp"
#include "reduce_ops.hpp"

namespace mcb {

namespace {

using kernel_ops::Band;
using kernel_ops::Bor;
using kernel_ops::Bxor;
using kernel_ops::Max;
using kernel_ops::Min;
using kernel_ops::Prod;
using kernel_ops::Sum;

// The last pass of a chunk: dsts[d][i] = acc[i] op in[i] for every
// destination, one loop per destination count that the compiler vectorizes.
template <class T, class Op, int ND>
[[gnu::always_inline]] inline void finish(T* const* dsts, int base, const T* acc, const T* in, int len) {
  for (int i = 0; i < len; ++i) {
    const T v = Op::apply(acc[i], in[i]);
    for (int d = 0; d < ND; ++d) dsts[d][base + i] = v;
  }
}

template <class T, class Op>
[[gnu::always_inline]] inline void many(void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  constexpr int kChunk = 1024;  // elements: 1-8 KiB, stays in L1
  T acc[kChunk];
  T* out[2] = {static_cast<T*>(dsts[0]), nd > 1 ? static_cast<T*>(dsts[1]) : nullptr};
  for (int base = 0; base < n; base += kChunk) {
    const int len = std::min(kChunk, n - base);
    if (k == 1) {
      for (int d = 0; d < nd; ++d)
        std::memmove(static_cast<T*>(dsts[d]) + base, static_cast<const T*>(srcs[0]) + base,
                     static_cast<std::size_t>(len) * sizeof(T));
      continue;
    }
    // Sources 0 .. k-2 into acc (L1; the first source itself when k = 2),
    // then the last one combined on the way out, so that each destination
    // is written once, straight from registers for one or two destinations.
    const T* first = static_cast<const T*>(srcs[0]) + base;
    if (k > 2) {
      const T* second = static_cast<const T*>(srcs[1]) + base;
      for (int i = 0; i < len; ++i) acc[i] = Op::apply(first[i], second[i]);
      for (int j = 2; j + 1 < k; ++j) {
        const T* in = static_cast<const T*>(srcs[j]) + base;
        for (int i = 0; i < len; ++i) acc[i] = Op::apply(acc[i], in[i]);
      }
      first = acc;
    }
    const T* last = static_cast<const T*>(srcs[k - 1]) + base;
    if (nd == 1) {
      finish<T, Op, 1>(out, base, first, last, len);
    } else if (nd == 2) {
      finish<T, Op, 2>(out, base, first, last, len);
    } else {
      if (first != acc) std::memcpy(acc, first, static_cast<std::size_t>(len) * sizeof(T));
      for (int i = 0; i < len; ++i) acc[i] = Op::apply(acc[i], last[i]);
      for (int d = 0; d < nd; ++d)
        std::memcpy(static_cast<T*>(dsts[d]) + base, acc, static_cast<std::size_t>(len) * sizeof(T));
    }
  }
}

using Kernel = void (*)(void* const*, int, const void* const*, int, int);

// The kernels, compiled for the build's baseline (x86-64: SSE2) and, on
// x86-64, for AVX2 too, taken where the CPU has it: the same loops, the same
// operation per element in the same order, twice the vector width. At 2
// bound ranks the copy-in shared-memory allreduce's sum is most of a call up
// to a few hundred KiB (issue 48; docs/allreduce.md).
template <class T, class Op>
void many_baseline(void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  many<T, Op>(dsts, nd, srcs, k, n);
}
#if defined(__x86_64__) && defined(__GNUC__)
template <class T, class Op>
[[gnu::target("avx2")]] void many_avx2(void* const* dsts, int nd, const void* const* srcs, int k, int n) {
  many<T, Op>(dsts, nd, srcs, k, n);
}
bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
template <class T, class Op>
Kernel many_for_cpu() {
  return has_avx2() ? many_avx2<T, Op> : many_baseline<T, Op>;
}
#else
template <class T, class Op>
Kernel many_for_cpu() {
  return many_baseline<T, Op>;
}
#endif

template <class T>
Kernel kernel_of(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return many_for_cpu<T, Sum>();
    case ReduceOp::prod:
      return many_for_cpu<T, Prod>();
    case ReduceOp::min:
      return many_for_cpu<T, Min>();
    case ReduceOp::max:
      return many_for_cpu<T, Max>();
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == ReduceOp::band) return many_for_cpu<T, Band>();
    if (op == ReduceOp::bor) return many_for_cpu<T, Bor>();
    if (op == ReduceOp::bxor) return many_for_cpu<T, Bxor>();
  }
  return nullptr;
}

// mcb's kernel for (type, op), or nullptr.
Kernel kernel(MPI_Datatype type, MPI_Op mpi) {
  const auto e = elem_of(type);
  const auto op = op_of(mpi);
  if (!e || !op || !op_allowed(*op, *e)) return nullptr;
  return visit_elem(*e, [&](auto t) { return kernel_of<decltype(t)>(*op); });
}

}  // namespace

std::optional<Elem> elem_of(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return std::nullopt;
  if (type == MPI_FLOAT) return Elem::float32;
  if (type == MPI_DOUBLE) return Elem::float64;
#ifdef MPIX_C_FLOAT16
  if (type == MPIX_C_FLOAT16) return Elem::float16;
#endif
  // The C integer types, by their size and signedness on this platform.
  struct Integer {
    MPI_Datatype type;
    std::size_t bytes;
    bool is_signed;
  };
  const Integer integers[] = {
      {MPI_INT, sizeof(int), true},
      {MPI_INT8_T, 1, true},
      {MPI_UINT8_T, 1, false},
      {MPI_INT16_T, 2, true},
      {MPI_UINT16_T, 2, false},
      {MPI_INT32_T, 4, true},
      {MPI_UINT32_T, 4, false},
      {MPI_INT64_T, 8, true},
      {MPI_UINT64_T, 8, false},
      {MPI_SIGNED_CHAR, 1, true},
      {MPI_UNSIGNED_CHAR, 1, false},
      {MPI_SHORT, sizeof(short), true},
      {MPI_UNSIGNED_SHORT, sizeof(short), false},
      {MPI_UNSIGNED, sizeof(unsigned), false},
      {MPI_LONG, sizeof(long), true},
      {MPI_UNSIGNED_LONG, sizeof(long), false},
      {MPI_LONG_LONG, sizeof(long long), true},
      {MPI_UNSIGNED_LONG_LONG, sizeof(long long), false},
  };
  for (const auto& i : integers) {
    if (i.type != type) continue;
    switch (i.bytes) {
      case 1:
        return i.is_signed ? Elem::int8 : Elem::uint8;
      case 2:
        return i.is_signed ? Elem::int16 : Elem::uint16;
      case 4:
        return i.is_signed ? Elem::int32 : Elem::uint32;
      case 8:
        return i.is_signed ? Elem::int64 : Elem::uint64;
    }
  }
  return std::nullopt;
}

namespace {

// Each operation with its MPI handle and its name, in ReduceOp's order (the
// handles are not constants in every MPI, so the table is made at run time).
struct OpEntry {
  ReduceOp op;
  MPI_Op mpi;
  const char* name;
};
const std::vector<OpEntry>& ops() {
  static const std::vector<OpEntry> table = {{ReduceOp::sum, MPI_SUM, "sum"},    {ReduceOp::prod, MPI_PROD, "prod"},
                                             {ReduceOp::min, MPI_MIN, "min"},    {ReduceOp::max, MPI_MAX, "max"},
                                             {ReduceOp::band, MPI_BAND, "band"}, {ReduceOp::bor, MPI_BOR, "bor"},
                                             {ReduceOp::bxor, MPI_BXOR, "bxor"}};
  return table;
}

}  // namespace

std::optional<ReduceOp> op_of(MPI_Op op) {
  for (const auto& e : ops())
    if (e.mpi == op) return e.op;
  return std::nullopt;
}

std::optional<ReduceOp> op_named(const std::string& name) {
  for (const auto& e : ops())
    if (name == e.name) return e.op;
  return std::nullopt;
}

MPI_Op mpi_op(ReduceOp op) { return ops()[static_cast<std::size_t>(op)].mpi; }

std::string to_string(ReduceOp op) { return ops()[static_cast<std::size_t>(op)].name; }

bool is_floating(Elem e) { return e == Elem::float16 || e == Elem::float32 || e == Elem::float64; }
bool is_unsigned(Elem e) { return e == Elem::uint8 || e == Elem::uint16 || e == Elem::uint32 || e == Elem::uint64; }
bool op_allowed(ReduceOp op, Elem e) {
  return !is_floating(e) || op == ReduceOp::sum || op == ReduceOp::prod || op == ReduceOp::min || op == ReduceOp::max;
}

std::size_t elem_bytes(Elem e) {
  return visit_elem(e, [](auto t) { return sizeof t; });
}

Reducer::Reducer(MPI_Datatype type, MPI_Op op) : type_(type), op_(op), kernel_(kernel(type, op)) {
  // mcb's kernel needs no MPI (mcb_copy_bw runs it without MPI_Init).
  if (kernel_)
    size_ = static_cast<int>(elem_bytes(*elem_of(type)));
  else
    MPI_Type_size(type, &size_);
}

void Reducer::operator()(void* const* dsts, int nd, const void* const* srcs, int k, int n) const {
  if (n <= 0 || k <= 0 || nd <= 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(size_);
  // Simulated time (simulation build): k operands read, extra destinations copied.
  if (k == 1)
    local_work::copy(bytes * static_cast<std::size_t>(nd));
  else
    local_work::reduce(bytes * static_cast<std::size_t>(k));
  if (k > 1 && nd > 1) local_work::copy(bytes * static_cast<std::size_t>(nd - 1));
  if (kernel_) return kernel_(dsts, nd, srcs, k, n);
  // Any other type or operation: MPI_Reduce_local into a scratch vector, so
  // that a destination may alias any source here too. MPI_Reduce_local
  // computes inout = in op inout: the operands are taken from the last.
  std::vector<char> acc(static_cast<const char*>(srcs[k - 1]), static_cast<const char*>(srcs[k - 1]) + bytes);
  for (int j = k - 2; j >= 0; --j) PMPI_Reduce_local(srcs[j], acc.data(), n, type_, op_);
  for (int d = 0; d < nd; ++d) std::memcpy(dsts[d], acc.data(), bytes);
}

void reduce_many_to(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op) {
  if (n <= 0 || k <= 0 || nd <= 0) return;
  Reducer(type, op)(dsts, nd, srcs, k, n);
}

void reduce_many(void* dst, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op, void* dst2) {
  void* dsts[2] = {dst, dst2};
  reduce_many_to(dsts, dst2 ? 2 : 1, srcs, k, n, type, op);
}

void reduce_local(const void* in, void* inout, int n, MPI_Datatype type, MPI_Op op) {
  const void* srcs[2] = {in, inout};
  reduce_many(inout, srcs, 2, n, type, op);
}

}  // namespace mcb
