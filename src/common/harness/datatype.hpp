// Element types the benchmarks can move (-T/--type) and the validation
// patterns written in them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace mcb::bench {

struct Datatype {
  std::string name;  // char, int, float, double, complex (two doubles)
  MPI_Datatype mpi = MPI_CHAR;
  std::size_t bytes = 1;
};

/// "char", "int", "float", "double", "complex" (OSU's mpi_char ... spellings
/// too).
Datatype parse_datatype(const std::string& name);

/// A well-mixed 64-bit value from (a, b, c): the validation pattern of
/// element c sent from rank a to rank b (or any other triple).
std::uint64_t pattern(std::uint64_t a, std::uint64_t b, std::uint64_t c);

/// Writes `value` as one element of `type` (truncated so that it is exact:
/// 8 bits for char, 31 for int, 24 for float, 52 for double, 26 for each
/// part of complex).
void store_element(const Datatype& type, void* dst, std::uint64_t value);
/// One element as text, for error messages.
std::string format_element(const Datatype& type, const void* src);

}  // namespace mcb::bench
