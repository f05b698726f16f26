// The FFT description for the harness: one algorithm per alltoall (each
// making the transform's transposes), buffers of P k complex points per
// rank, and FFTW's serial transform on rank 0 as the reference, compared
// norm-wise (relative error at most 1e-9). Shared by mcb_fft and the
// tests' deliberately broken variant.
#pragma once

#include <vector>

#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"
#include "six_step.hpp"

namespace mcb::bench {

/// An FFT algorithm for each alltoall of `alltoalls`: same name and
/// parameters, its plan the six-step transform with that alltoall's plan as
/// the transpose.
inline std::vector<Algorithm> fft_algorithms(const std::vector<Algorithm>& alltoalls) {
  std::vector<Algorithm> list;
  for (const Algorithm& alltoall : alltoalls) {
    Algorithm a = alltoall;
    a.summary = "transposes by " + alltoall.name + ": " + alltoall.summary;
    a.make = [make = alltoall.make](const CollArgs& args, const Layout& layout, const Params& params) {
      return fft::six_step(args, [&](const CollArgs& t) { return make(t, layout, params); });
    };
    list.push_back(std::move(a));
  }
  return list;
}

inline CollectiveSpec fft_spec(const char* binary, const std::vector<Algorithm>* algorithms) {
  auto per_rank = [](std::size_t count, int p) { return count * static_cast<std::size_t>(p); };
  auto send_value = [](int rank, int, std::size_t, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), 0, index);
  };
  // The vector gathered on rank 0, FFTW's serial transform, the result
  // scattered back in the same distribution.
  auto reference = [](const CollArgs& a) {
    const int p = a.size();
    const std::size_t local = static_cast<std::size_t>(p) * static_cast<std::size_t>(a.count);  // points per rank
    const bool root = a.rank() == 0;
    std::vector<double> all(root ? 2 * local * static_cast<std::size_t>(p) : 0), out(all.size());
    const int n = static_cast<int>(local);
    MPI_Gather(a.sendbuf, n, MPI_C_DOUBLE_COMPLEX, all.data(), n, MPI_C_DOUBLE_COMPLEX, 0, a.comm);
    if (root) fft::serial(all.data(), out.data(), local * static_cast<std::size_t>(p));
    MPI_Scatter(out.data(), n, MPI_C_DOUBLE_COMPLEX, a.recvbuf, n, MPI_C_DOUBLE_COMPLEX, 0, a.comm);
  };
  CollectiveSpec spec{binary, "fft", algorithms, per_rank, per_rank, send_value, reference};
  spec.types = {"complex"};
  spec.size_unit = "bytes per peer and transpose (16 k: N = P^2 k points)";
  spec.tolerance = 1e-9;
  spec.bus_factor = [](int p) { return 3.0 * (p - 1.0) / p; };  // three transposes of the rank's vector
  return spec;
}

}  // namespace mcb::bench
