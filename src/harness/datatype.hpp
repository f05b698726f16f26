// Element types the benchmarks can move (-T/--type) and the validation
// patterns written in them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mcb/reduction.hpp"

namespace mcb::bench {

struct Datatype {
  std::string name;  // char, int, float, double, complex (two doubles), int8 ... uint64, half
  MPI_Datatype mpi = MPI_CHAR;
  std::size_t bytes = 1;
  std::optional<Elem> elem;  // the types mcb reduces itself (all but char and complex)
};

/// "char", "int", "float", "double", "complex" (OSU's mpi_char ... spellings
/// too), nccl-tests' "int8", "uint8", "int16", "uint16", "int32", "uint32",
/// "int64", "uint64" and "half" (where the MPI has a 16-bit float:
/// MPICH's MPIX_C_FLOAT16). "bfloat16" and an MPI without half: Error.
Datatype parse_datatype(const std::string& name);

/// A well-mixed 64-bit value from (a, b, c): the validation pattern of
/// element c sent from rank a to rank b (or any other triple).
std::uint64_t pattern(std::uint64_t a, std::uint64_t b, std::uint64_t c);

/// Writes `value` as one element of `type` (truncated so that it is exact:
/// 8 bits for char, 31 for int, 24 for float, 52 for double, 26 for each
/// part of complex).
void store_element(const Datatype& type, void* dst, std::uint64_t value);
/// Writes the small integer `value` as one element of a reducible type
/// (`type.elem`): exact for the values the reduction patterns use (within
/// +-256); integers wider than the type wrap (two's complement).
void store_integer(const Datatype& type, void* dst, std::int64_t value);
/// One element as text, for error messages.
std::string format_element(const Datatype& type, const void* src);

}  // namespace mcb::bench
