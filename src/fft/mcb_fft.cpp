// mcb_fft: a one-dimensional complex FFT of N = P^2 k points on P ranks (the
// TRA paper's application, Section VI and Figure 13), its three global
// transposes made by the alltoall chosen with --algorithm (every algorithm
// and parameter of mcb_alltoall). -m is the bytes each rank exchanges with
// each peer per transpose (16 k: 16 B is the paper's N = P^2, 1024 B its
// N = 64 P^2). Phases: transpose (the alltoalls) and compute (packing,
// local FFTs by FFTW, twiddle factors). Validated (-c) against FFTW's serial
// transform of the whole vector on rank 0.
#include "fft_spec.hpp"
#include "mcb/alltoall.hpp"

int main(int argc, char** argv) {
  static const std::vector<mcb::Algorithm> algorithms = mcb::bench::fft_algorithms(mcb::alltoall::algorithms());
  return mcb::bench::run_benchmark(argc, argv, mcb::bench::fft_spec("mcb_fft", &algorithms));
}
