// The FFT description for the harness: one algorithm per alltoall (each
// making the transform's transposes), buffers of P k complex points per
// rank, and FFTW's serial transform of the whole vector (every rank's
// pattern, computed on each rank without MPI) as the expected result, its
// slice compared norm-wise (relative error at most 1e-9). Shared by mcb_fft
// and the tests' deliberately broken variant.
#pragma once

#include <cstring>
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
  auto per_rank = [](const Shape& s, int) { return s.count * static_cast<std::size_t>(s.p); };
  auto send_value = [](int rank, const Shape&, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), 0, index);
  };
  CollectiveSpec spec{binary, "fft", algorithms, per_rank, per_rank, send_value};
  // The whole vector (rank q's points are q's pattern, in rank order),
  // FFTW's serial transform, and this rank's slice of it.
  spec.expected = [](int rank, const Shape& s, std::vector<unsigned char>& out) {
    const std::size_t local = static_cast<std::size_t>(s.p) * s.count, all = local * static_cast<std::size_t>(s.p);
    const Datatype complex = parse_datatype("complex");
    std::vector<double> in(2 * all), transform(2 * all);
    for (std::size_t i = 0; i < all; ++i) store_element(complex, &in[2 * i], pattern(i / local, 0, i % local));
    fft::serial(in.data(), transform.data(), all);
    std::memcpy(out.data(), &transform[2 * local * static_cast<std::size_t>(rank)], local * 2 * sizeof(double));
  };
  spec.types = {"complex"};
  spec.size_unit = "bytes per peer and transpose (16 k: N = P^2 k points)";
  spec.tolerance = 1e-9;
  spec.bus_factor = [](int p) { return 3.0 * (p - 1.0) / p; };  // three transposes of the rank's vector
  return spec;
}

}  // namespace mcb::bench
