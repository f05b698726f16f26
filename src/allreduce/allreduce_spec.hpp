// The allreduce description for the harness: one vector of `count` elements
// per rank (-m is its size in bytes), reduced (the validation pattern and the
// expected result: harness/validation.hpp, exact in every type), in place at
// offset 0. The element types of nccl-tests that MPI has (float, the
// default as in OSU; int8 ... uint64; half where the MPI has it) and the
// operations sum (the default), prod, min, max and, on integers, band, bor,
// bxor. bfloat16 is named so that it is refused with a reason.
#pragma once

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"

namespace mcb::bench {

inline CollectiveSpec allreduce_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto vector = [](const Shape& s, int) { return s.count; };
  CollectiveSpec spec{binary, "allreduce", algorithms, vector, vector, nullptr};
  spec.in_place_offset = [](int, const Shape&) { return std::size_t{0}; };
  spec.reduces = true;
  spec.ops = {"sum", "prod", "min", "max", "band", "bor", "bxor"};
  spec.bus_factor = [](int p) { return 2.0 * (p - 1.0) / p; };  // reduce-scatter + allgather
  spec.types = {"float", "double", "int",   "int8",   "uint8", "int16",   "uint16",
                "int32", "uint32", "int64", "uint64", "half",  "bfloat16"};
  spec.size_unit = "bytes of the vector";
  spec.gpus = true;
  spec.registered_buffers = true;
  return spec;
}

}  // namespace mcb::bench
