// The allgatherv description for the harness (mcb_allgatherv): rank r's
// block has --counts' share of P x count elements (-m: the bytes of a
// block, as in OSU's osu_allgatherv, whose counts are equal), the blocks
// packed in rank order in every receive buffer; the pattern, the sources
// and the in-place place as the allgather's.
#pragma once

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"

namespace mcb::bench {

inline CollectiveSpec allgatherv_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto own_block = [](const Shape& s, int rank) { return s.of(rank); };
  auto all_blocks = [](const Shape& s, int) { return s.total; };
  auto send_value = [](int rank, const Shape& s, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(s.p), index);
  };
  CollectiveSpec spec{binary, "allgatherv", algorithms, own_block, all_blocks, send_value};
  spec.source = [](int, const Shape& s, std::size_t j) {
    const int b = s.block_of(j);
    return Source{b, j - s.at(b)};
  };
  spec.in_place_offset = [](int rank, const Shape& s) { return s.at(rank); };
  spec.shape = Shape::spread;
  spec.vcounts = true;
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // as allgather's
  spec.registered_buffers = true;                         // the shared-memory allgather reads them in place
  spec.size_unit = "bytes per block (equal counts; --counts spreads P blocks' worth)";
  return spec;
}

}  // namespace mcb::bench
