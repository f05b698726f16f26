// The allreduce description for the harness: one vector of `count` elements
// per rank (-m is its size in bytes), the validation pattern (element j of
// rank i is a small integer from pattern(i, P, j), so that sums are exact in
// float and double whatever the order), in place at offset 0, MPI_SUM, and
// the system MPI's MPI_Allreduce as the reference. Reductions need an
// arithmetic type: int, float (the default, as in OSU) or double.
#pragma once

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"

namespace mcb::bench {

inline CollectiveSpec allreduce_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto vector = [](std::size_t count, int) { return count; };
  auto send_value = [](int rank, int p, std::size_t, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(p), index) % 256;
  };
  auto reference = [](const CollArgs& a) { MPI_Allreduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm); };
  CollectiveSpec spec{binary, "allreduce", algorithms, vector, vector, send_value, reference};
  spec.in_place_offset = [](int, int, std::size_t) { return std::size_t{0}; };
  spec.op = [] { return MPI_SUM; };
  spec.bus_factor = [](int p) { return 2.0 * (p - 1.0) / p; };  // reduce-scatter + allgather
  spec.types = {"float", "int", "double"};
  spec.size_unit = "bytes of the vector";
  spec.gpus = true;
  spec.registered_buffers = true;
  return spec;
}

}  // namespace mcb::bench
