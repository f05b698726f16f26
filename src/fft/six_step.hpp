// The distributed one-dimensional FFT of mcb_fft: the six-step (transpose)
// algorithm over P ranks, local FFTs by FFTW 3, every global transpose by an
// mcb alltoall (the TRA paper, Section VI and Figure 13).
#pragma once

#include <cstddef>
#include <functional>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"

namespace mcb::fft {

/// The shape of a transform of N = P^2 k complex points on P ranks: the
/// vector as an n1 x n2 matrix, n1 = P a, n2 = P b, a b = k (a the largest
/// divisor of k not above sqrt(k)). Each rank holds P k points in natural
/// (block) order before and after, and exchanges k points with every peer
/// in each transpose.
struct Shape {
  int p = 1;
  std::size_t k = 1, a = 1, b = 1;
  std::size_t n1() const { return static_cast<std::size_t>(p) * a; }
  std::size_t n2() const { return static_cast<std::size_t>(p) * b; }
  std::size_t local() const { return static_cast<std::size_t>(p) * k; }  // points per rank
  std::size_t points() const { return local() * static_cast<std::size_t>(p); }
};
Shape shape(int p, std::size_t k);

/// The forward transform (FFTW_FORWARD, unnormalized) of the vector whose
/// block of P k complex doubles (MPI_C_DOUBLE_COMPLEX) on each rank is
/// args.sendbuf, into args.recvbuf in the same distribution; args.count = k.
/// `transpose` makes the exchange of k points between every pair of ranks
/// (an mcb alltoall, or the system's) on the arguments it is given (its own
/// scratch buffers); it is set up once and run three times per transform,
/// and its parameters become the plan's. Phases: compute (packing, local
/// FFTs, twiddle factors, unpacking), transpose (the alltoall alone),
/// alternating: compute, transpose, compute, transpose, compute, transpose,
/// compute. The send buffer is never written.
Plan six_step(const CollArgs& args, const std::function<Plan(const CollArgs&)>& transpose);

/// The same transform serially (FFTW on the whole vector) of `in`, N points,
/// into `out`: the reference of the validation.
void serial(const void* in, void* out, std::size_t n);

}  // namespace mcb::fft
