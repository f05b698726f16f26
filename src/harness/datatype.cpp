#include "harness/datatype.hpp"

#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

#include "mcb/error.hpp"

namespace mcb::bench {

Datatype parse_datatype(const std::string& name) {
  std::string n = name.rfind("mpi_", 0) == 0 ? name.substr(4) : name;
  if (n == "char") return {"char", MPI_CHAR, 1};
  if (n == "int") return {"int", MPI_INT, sizeof(int), elem_of(MPI_INT)};
  if (n == "float") return {"float", MPI_FLOAT, sizeof(float), Elem::float32};
  if (n == "double") return {"double", MPI_DOUBLE, sizeof(double), Elem::float64};
  if (n == "complex" || n == "c_double_complex") return {"complex", MPI_C_DOUBLE_COMPLEX, 2 * sizeof(double)};
  const std::pair<const char*, MPI_Datatype> integers[] = {
      {"int8", MPI_INT8_T},   {"uint8", MPI_UINT8_T},   {"int16", MPI_INT16_T}, {"uint16", MPI_UINT16_T},
      {"int32", MPI_INT32_T}, {"uint32", MPI_UINT32_T}, {"int64", MPI_INT64_T}, {"uint64", MPI_UINT64_T}};
  for (const auto& [text, mpi] : integers)
    if (n == text) return {text, mpi, elem_bytes(*elem_of(mpi)), elem_of(mpi)};
  if (n == "half" || n == "float16") {
#if defined(MPIX_C_FLOAT16) && defined(__FLT16_MANT_DIG__)
    // MPICH 4.0 declares the type, but its datatype engine (yaksa) has no
    // 16-bit float: MPI_Reduce_local and the collectives abort inside MPI
    // (an assertion in typerep_yaksa_pack.c, MPICH 4.0.2), whatever the
    // error handler, so the run is refused instead.
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    if (std::strstr(version, "MPICH Version:") && std::strstr(version, "Version:\t4.0"))
      throw Error("--type " + name +
                  ": MPICH 4.0 declares MPIX_C_FLOAT16 but aborts reducing it (yaksa has no "
                  "16-bit float); refused");
    return {"half", MPIX_C_FLOAT16, 2, Elem::float16};
#else
    throw Error("--type " + name + ": this MPI has no 16-bit floating-point type (MPICH has MPIX_C_FLOAT16)");
#endif
  }
  if (n == "bfloat16")
    throw Error("--type " + name + ": MPI has no bfloat16 type (neither the standard nor this MPI defines one)");
  throw Error("--type " + name +
              ": expected char, int, float, double, complex, int8, uint8, int16, uint16, int32, uint32, int64, uint64 "
              "or half");
}

std::uint64_t pattern(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  // splitmix64 finalizer over a combination of the three coordinates.
  std::uint64_t z = a * 0x9E3779B97F4A7C15ull + b * 0xC2B2AE3D27D4EB4Full + c * 0x165667B19E3779F9ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void store_element(const Datatype& type, void* dst, std::uint64_t value) {
  if (type.mpi == MPI_CHAR) {
    auto v = static_cast<unsigned char>(value & 0xff);
    std::memcpy(dst, &v, 1);
  } else if (type.mpi == MPI_INT) {
    auto v = static_cast<int>(value & 0x7fffffff);
    std::memcpy(dst, &v, sizeof v);
  } else if (type.mpi == MPI_FLOAT) {
    auto v = static_cast<float>(value & 0xffffff);
    std::memcpy(dst, &v, sizeof v);
  } else if (type.mpi == MPI_C_DOUBLE_COMPLEX) {
    // Real and imaginary parts from 26 bits each, both exact.
    const double v[2] = {static_cast<double>(value & ((1ull << 26) - 1)),
                         static_cast<double>((value >> 26) & ((1ull << 26) - 1))};
    std::memcpy(dst, v, sizeof v);
  } else {
    auto v = static_cast<double>(value & ((1ull << 52) - 1));
    std::memcpy(dst, &v, sizeof v);
  }
}

void store_integer(const Datatype& type, void* dst, std::int64_t value) {
  visit_elem(type.elem.value_or(Elem::float64), [&](auto t) {
    t = static_cast<decltype(t)>(value);
    std::memcpy(dst, &t, sizeof t);
  });
}

std::string format_element(const Datatype& type, const void* src) {
  if (type.elem)
    return visit_elem(*type.elem, [&](auto t) {
      std::memcpy(&t, src, sizeof t);
      if constexpr (std::is_integral_v<decltype(t)>)
        return std::to_string(t);
      else
        return std::to_string(static_cast<double>(t));
    });
  if (type.mpi == MPI_CHAR) {
    unsigned char v;
    std::memcpy(&v, src, 1);
    return std::to_string(v);
  }
  if (type.mpi == MPI_C_DOUBLE_COMPLEX) {
    double v[2];
    std::memcpy(v, src, sizeof v);
    char text[64];
    std::snprintf(text, sizeof text, "(%.17g, %.17g)", v[0], v[1]);
    return text;
  }
  double v;
  std::memcpy(&v, src, sizeof v);
  return std::to_string(v);
}

}  // namespace mcb::bench
