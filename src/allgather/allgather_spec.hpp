// The allgather description for the harness: buffer sizes, the validation
// pattern (element j of rank i's block is pattern(i, P, j)), where a rank's
// block sits in place (block `rank` of the receive buffer) and where each
// received element comes from (block b: rank b's send buffer).
#pragma once

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"

namespace mcb::bench {

inline CollectiveSpec allgather_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto one_block = [](const Shape& s, int) { return s.count; };
  auto all_blocks = [](const Shape& s, int) { return s.count * static_cast<std::size_t>(s.p); };
  auto send_value = [](int rank, const Shape& s, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(s.p), index);
  };
  CollectiveSpec spec{binary, "allgather", algorithms, one_block, all_blocks, send_value};
  spec.source = [](int, const Shape& s, std::size_t j) { return Source{static_cast<int>(j / s.count), j % s.count}; };
  spec.in_place_offset = [](int rank, const Shape& s) { return s.count * static_cast<std::size_t>(rank); };
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // (n-1)/n of the receive buffer arrives
  spec.registered_buffers = true;                         // the shared-memory allgather reads them in place
  return spec;
}

}  // namespace mcb::bench
