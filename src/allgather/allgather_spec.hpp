// The allgather description for the harness: buffer sizes, the validation
// pattern (element j of rank i's block is pattern(i, P, j)), where a rank's
// block sits in place (block `rank` of the receive buffer) and where each
// received element comes from (block b: rank b's send buffer).
#pragma once

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"

namespace mcb::bench {

inline CollectiveSpec allgather_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto one_block = [](std::size_t count, int) { return count; };
  auto all_blocks = [](std::size_t count, int p) { return count * static_cast<std::size_t>(p); };
  auto send_value = [](int rank, int p, std::size_t, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(p), index);
  };
  CollectiveSpec spec{binary, "allgather", algorithms, one_block, all_blocks, send_value};
  spec.source = [](int, int, std::size_t count, std::size_t j) {
    return Source{static_cast<int>(j / count), j % count};
  };
  spec.in_place_offset = [](int rank, int, std::size_t count) { return count * static_cast<std::size_t>(rank); };
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // (n-1)/n of the receive buffer arrives
  return spec;
}

}  // namespace mcb::bench
