// The reduce and bcast descriptions for the harness (mcb_reduce,
// mcb_bcast), rooted at rank 0. reduce: the allreduce vector, pattern, types
// and operations, only rank 0's result validated. bcast: rank 0's vector
// (any type) reaches every rank; every rank validated.
#pragma once

#include "allreduce_spec.hpp"

namespace mcb::bench {

inline CollectiveSpec reduce_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  CollectiveSpec spec = allreduce_spec(binary, algorithms);
  spec.collective = "reduce";
  spec.root_result = true;
  spec.bus_factor = nullptr;  // nccl-tests: 1
  return spec;
}

inline CollectiveSpec bcast_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto vector = [](std::size_t count, int) { return count; };
  auto send_value = [](int rank, int p, std::size_t, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(p), index);
  };
  CollectiveSpec spec{binary, "bcast", algorithms, vector, vector, send_value};
  spec.source = [](int, int, std::size_t, std::size_t j) { return Source{0, j}; };
  spec.in_place_offset = [](int, int, std::size_t) { return std::size_t{0}; };
  spec.size_unit = "bytes of the vector";
  spec.registered_buffers = true;
  return spec;
}

}  // namespace mcb::bench
