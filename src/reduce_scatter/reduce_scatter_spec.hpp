// The reduce-scatter descriptions for the harness (mcb_reduce_scatter_block,
// mcb_reduce_scatter): -m is the bytes of the vector, as in OSU's
// osu_reduce_scatter(_block). The block form gives every rank 1/P of it
// (rounded down: the vector is P such parts); the v-form spreads the whole
// vector as --counts says (equal: OSU's split, the first ranks one element
// more). Every rank's send buffer is the vector in the reduction pattern
// (harness/validation.hpp), the types and operations of the allreduce;
// rank r's result is part r of the reduced vector. In place the vector is
// in the receive buffer and part r lands at its start.
#pragma once

#include "allreduce_spec.hpp"

namespace mcb::bench {

inline CollectiveSpec reduce_scatter_spec(const char* binary, const std::vector<Algorithm>* algorithms, bool block) {
  CollectiveSpec spec = allreduce_spec(binary, algorithms);
  spec.collective = block ? "reduce_scatter_block" : "reduce_scatter";
  auto vector = [](const Shape& s, int) { return s.total; };
  spec.send_elements = vector;
  spec.recv_elements = vector;  // in place the vector; out of place only the part is defined
  spec.result_elements = [](const Shape& s, int rank) { return s.of(rank); };
  spec.source = [](int rank, const Shape& s, std::size_t j) { return Source{rank, s.at(rank) + j}; };
  spec.bus_factor = [](int p) { return (p - 1.0) / p; };  // nccl-tests' reduce_scatter
  spec.gpus = false;  // --buffers registered stays: the shared-memory form reads them in place
  if (block) {
    spec.shape = [](std::size_t elements, int p, CountsKind) {
      return Shape::equal(elements / static_cast<std::size_t>(p), p);
    };
    spec.size_unit = "bytes of the vector (each rank's part 1/P of it, rounded down, as OSU's)";
  } else {
    spec.shape = [](std::size_t elements, int p, CountsKind kind) {
      return Shape::packed(elements / static_cast<std::size_t>(p), spread_counts(elements, p, kind));
    };
    spec.vcounts = true;
    spec.size_unit = "bytes of the vector, its parts as --counts spreads them (equal: OSU's)";
  }
  return spec;
}

}  // namespace mcb::bench
