// The alltoall description for the harness: buffer sizes, the validation
// pattern (element j of the block from rank i to rank k is pattern(i, k, j))
// and where each received element comes from (block b of rank r's receive
// buffer is block r of rank b's send buffer). Shared by mcb_alltoall and the
// tests' deliberately broken variant.
#pragma once

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"

namespace mcb::bench {

inline CollectiveSpec alltoall_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto per_peer = [](const Shape& s, int) { return s.count * static_cast<std::size_t>(s.p); };
  auto send_value = [](int rank, const Shape& s, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), index / s.count, index % s.count);
  };
  CollectiveSpec spec{binary, "alltoall", algorithms, per_peer, per_peer, send_value};
  spec.source = [](int rank, const Shape& s, std::size_t j) {
    return Source{static_cast<int>(j / s.count), static_cast<std::size_t>(rank) * s.count + j % s.count};
  };
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // (n-1)/n of the buffer leaves the rank
  return spec;
}

}  // namespace mcb::bench
