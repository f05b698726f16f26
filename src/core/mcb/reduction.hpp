// mcb's own local reductions: the element types and operations that mcb's
// algorithms reduce without asking the MPI (MPI_Reduce_local of a vendor MPI
// can be wrong, and it reads and writes the destination once per operand).
// One pass over k operands, cache-sized chunks, a loop per (type, operation)
// that the compiler vectorizes. Anything else (a user-defined operation, a
// pair type) goes through MPI_Reduce_local.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mcb {

/// The element types of mcb's kernels: nccl-tests' types that MPI has.
enum class Elem { int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64 };
/// The operations of mcb's kernels; the bitwise ones on integer types only.
enum class ReduceOp { sum, prod, min, max, band, bor, bxor };

/// The kernel type of an MPI datatype (MPI_INT, MPI_INT32_T, MPI_FLOAT,
/// MPI_UNSIGNED_LONG, ... by size and signedness; MPIX_C_FLOAT16 where the
/// MPI has it), or nothing.
std::optional<Elem> elem_of(MPI_Datatype type);
/// MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_BAND, MPI_BOR, MPI_BXOR, or nothing.
std::optional<ReduceOp> op_of(MPI_Op op);
/// "sum", "prod", ... as to_string() names them, or nothing.
std::optional<ReduceOp> op_named(const std::string& name);
/// MPI's handle of an operation.
MPI_Op mpi_op(ReduceOp op);
/// "sum", "prod", ...
std::string to_string(ReduceOp op);
/// Whether MPI defines `op` on `e` (the bitwise ones not on floating point).
bool op_allowed(ReduceOp op, Elem e);
bool is_floating(Elem e);
bool is_unsigned(Elem e);
std::size_t elem_bytes(Elem e);

/// f(T{}) with the C++ type T of `e` (std::int8_t ... double; _Float16 for
/// float16), and what f returns: one switch over the types for every
/// per-type function (kernels, element I/O).
template <class F>
decltype(auto) visit_elem(Elem e, F&& f) {
  switch (e) {
    case Elem::int8:
      return f(std::int8_t{});
    case Elem::uint8:
      return f(std::uint8_t{});
    case Elem::int16:
      return f(std::int16_t{});
    case Elem::uint16:
      return f(std::uint16_t{});
    case Elem::int32:
      return f(std::int32_t{});
    case Elem::uint32:
      return f(std::uint32_t{});
    case Elem::int64:
      return f(std::int64_t{});
    case Elem::uint64:
      return f(std::uint64_t{});
    case Elem::float16:
#if defined(__FLT16_MANT_DIG__) && !defined(__CUDACC__)  // _Float16: GCC 12 and Clang on x86-64 (nvcc: not)
      return f(_Float16{});
#else
      return f(std::uint16_t{});  // never: float16 is refused without _Float16
#endif
    case Elem::float32:
      return f(float{});
    default:
      return f(double{});
  }
}

/// inout[i] = in[i] op inout[i] for n elements, by mcb's kernel when it has
/// one for (type, op), else MPI_Reduce_local. Charges its simulated time.
void reduce_local(const void* in, void* inout, int n, MPI_Datatype type, MPI_Op op);

/// dsts[d][i] = srcs[0][i] op srcs[1][i] op ... op srcs[k-1][i] for every
/// destination d < nd, in one pass (each source read once, each destination
/// written once); a destination may be any of the sources (same offset).
/// Operands are combined in source order. Charges its simulated time.
void reduce_many_to(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op);
/// reduce_many_to for one (type, operation), resolved once: what an engine
/// that reduces the same shape on every call keeps, so that a call does not
/// look its kernel up again (the lookup was 1.3-1.6% of a blocking 8 B
/// small-path allreduce, issue 57).
class Reducer {
 public:
  Reducer() = default;
  Reducer(MPI_Datatype type, MPI_Op op);
  void operator()(void* const* dsts, int nd, const void* const* srcs, int k, int n) const;
  std::size_t element_bytes() const { return static_cast<std::size_t>(size_); }

 private:
  using Kernel = void (*)(void* const*, int, const void* const*, int, int);
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
  Kernel kernel_ = nullptr;  // nullptr: MPI_Reduce_local
  int size_ = 0;             // bytes per element
};
/// The same into dst (and dst2, if given).
void reduce_many(void* dst, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op, void* dst2 = nullptr);

}  // namespace mcb
