// The reduce and bcast descriptions for the harness (mcb_reduce,
// mcb_bcast), rooted at rank 0. reduce: the allreduce vector and pattern,
// MPI_SUM, MPI_Reduce as the reference, only rank 0's result validated.
// bcast: rank 0's vector (any type) reaches every rank; the reference is
// rank 0 copying send to receive, then MPI_Bcast; every rank validated.
#pragma once

#include "allreduce_spec.hpp"

namespace mcb::bench {

inline CollectiveSpec reduce_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  CollectiveSpec spec = allreduce_spec(binary, algorithms);
  spec.collective = "reduce";
  spec.reference = [](const CollArgs& a) {
    int rank = 0;
    MPI_Comm_rank(a.comm, &rank);
    const void* send = a.sendbuf == MPI_IN_PLACE && rank != 0 ? a.recvbuf : a.sendbuf;
    MPI_Reduce(send, a.recvbuf, a.count, a.type, a.op, 0, a.comm);
  };
  spec.root_result = true;
  spec.bus_factor = nullptr;  // nccl-tests: 1
  return spec;
}

inline CollectiveSpec bcast_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto vector = [](std::size_t count, int) { return count; };
  auto send_value = [](int rank, int p, std::size_t, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(p), index);
  };
  auto reference = [](const CollArgs& a) {
    int rank = 0;
    MPI_Comm_rank(a.comm, &rank);
    if (rank == 0 && a.sendbuf != MPI_IN_PLACE) a.memory().copy(a.recvbuf, a.sendbuf, a.block_bytes());
    MPI_Bcast(a.recvbuf, a.count, a.type, 0, a.comm);
  };
  CollectiveSpec spec{binary, "bcast", algorithms, vector, vector, send_value, reference};
  spec.in_place_offset = [](int, int, std::size_t) { return std::size_t{0}; };
  spec.size_unit = "bytes of the vector";
  spec.registered_buffers = true;
  return spec;
}

}  // namespace mcb::bench
