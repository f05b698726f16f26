// The descriptions of the rooted collectives for the harness, rooted at
// rank 0. reduce (mcb_reduce): the allreduce vector, pattern, types and
// operations, only rank 0's result validated. bcast (mcb_bcast): rank 0's
// vector (any type) reaches every rank; every rank validated. gather(v)
// (mcb_gather, mcb_gatherv): every rank's block packed in rank order in
// rank 0's receive buffer, only rank 0's validated; scatter(v)
// (mcb_scatter, mcb_scatterv): block r of rank 0's send buffer reaches rank
// r; every rank validated. -m is the bytes of a rank's block, as in OSU's;
// the v-forms spread P blocks' worth as --counts says.
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
  auto vector = [](const Shape& s, int) { return s.count; };
  auto send_value = [](int rank, const Shape& s, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(s.p), index);
  };
  CollectiveSpec spec{binary, "bcast", algorithms, vector, vector, send_value};
  spec.source = [](int, const Shape&, std::size_t j) { return Source{0, j}; };
  spec.in_place_offset = [](int, const Shape&) { return std::size_t{0}; };
  spec.size_unit = "bytes of the vector";
  spec.registered_buffers = true;
  return spec;
}

namespace detail {
inline std::uint64_t block_value(int rank, const Shape& s, std::size_t index) {
  return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(s.p), index);
}
}  // namespace detail

/// gather (`v` false) or gatherv: in place, every rank's block at its place
/// in its receive buffer (rank 0 passes MPI_IN_PLACE, the others send from
/// there), so every receive buffer holds the P blocks.
inline CollectiveSpec gather_spec(const char* binary, const std::vector<Algorithm>* algorithms, bool v) {
  auto own_block = [](const Shape& s, int rank) { return s.of(rank); };
  auto all_blocks = [](const Shape& s, int) { return s.total; };
  CollectiveSpec spec{binary, v ? "gatherv" : "gather", algorithms, own_block, all_blocks, detail::block_value};
  spec.source = [](int, const Shape& s, std::size_t j) {
    const int b = s.block_of(j);
    return Source{b, j - s.at(b)};
  };
  spec.in_place_offset = [](int rank, const Shape& s) { return s.at(rank); };
  spec.root_result = true;
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // nccl-tests' gather: (n-1)/n arrives at the root
  spec.registered_buffers = true;                         // shm_linear reads them in place
  if (v) {
    spec.shape = Shape::spread;
    spec.vcounts = true;
    spec.size_unit = "bytes per block (equal counts; --counts spreads P blocks' worth)";
  }
  return spec;
}

/// scatter (`v` false) or scatterv: rank 0's send buffer holds the P
/// blocks; in place they are in its receive buffer (MPI_IN_PLACE as its
/// receive buffer), where its own block, the first, stays.
inline CollectiveSpec scatter_spec(const char* binary, const std::vector<Algorithm>* algorithms, bool v) {
  auto sent = [](const Shape& s, int rank) { return rank == 0 ? s.total : std::size_t{0}; };
  auto received = [](const Shape& s, int rank) { return rank == 0 ? s.total : s.of(rank); };
  CollectiveSpec spec{binary, v ? "scatterv" : "scatter", algorithms, sent, received, detail::block_value};
  spec.source = [](int rank, const Shape& s, std::size_t j) { return Source{0, s.at(rank) + j}; };
  spec.result_elements = [](const Shape& s, int rank) { return s.of(rank); };
  spec.in_place_offset = [](int, const Shape&) { return std::size_t{0}; };
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // nccl-tests' scatter: (n-1)/n leaves the root
  spec.registered_buffers = true;                         // shm_linear reads rank 0's in place
  if (v) {
    spec.shape = Shape::spread;
    spec.vcounts = true;
    spec.size_unit = "bytes per block (equal counts; --counts spreads P blocks' worth)";
  }
  return spec;
}

}  // namespace mcb::bench
