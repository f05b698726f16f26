#include "harness/datatype.hpp"

#include <cstdio>
#include <cstring>

#include "mcb/error.hpp"

namespace mcb::bench {

Datatype parse_datatype(const std::string& name) {
  std::string n = name.rfind("mpi_", 0) == 0 ? name.substr(4) : name;
  if (n == "char") return {"char", MPI_CHAR, 1};
  if (n == "int") return {"int", MPI_INT, sizeof(int)};
  if (n == "float") return {"float", MPI_FLOAT, sizeof(float)};
  if (n == "double") return {"double", MPI_DOUBLE, sizeof(double)};
  if (n == "complex" || n == "c_double_complex") return {"complex", MPI_C_DOUBLE_COMPLEX, 2 * sizeof(double)};
  throw Error("--type " + name + ": expected char, int, float, double or complex");
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

std::string format_element(const Datatype& type, const void* src) {
  if (type.mpi == MPI_CHAR) {
    unsigned char v;
    std::memcpy(&v, src, 1);
    return std::to_string(v);
  }
  if (type.mpi == MPI_INT) {
    int v;
    std::memcpy(&v, src, sizeof v);
    return std::to_string(v);
  }
  if (type.mpi == MPI_FLOAT) {
    float v;
    std::memcpy(&v, src, sizeof v);
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
