// Six-step FFT (Bailey; the transpose algorithm of FFTW's MPI transforms
// and of the TRA paper's Section VI): N = n1 n2 points, input index
// j = n2 j1 + j2, output index m = k1 + n1 k2,
//   X[k1 + n1 k2] = sum_j2 w_n2^(j2 k2) w_N^(j2 k1) sum_j1 x[n2 j1 + j2] w_n1^(j1 k1).
// With n1 = P a and n2 = P b each rank holds a rows of the n1 x n2 input
// (its P k points in natural order) and:
//   transpose 1  A (n1 x n2) -> B = A^T: b rows of length n1 per rank;
//   compute      b FFTs of length n1, times the twiddle factors w_N^(j2 k1);
//   transpose 2  -> D = C^T: a rows of length n2 per rank;
//   compute      a FFTs of length n2 (E[k1][k2] = X[k1 + n1 k2]);
//   transpose 3  -> F = E^T: b rows of length n1 per rank, which are the
//                rank's P k outputs in natural order.
// Each transpose packs the blocks bound for each peer (k = a b points, 16 k
// bytes), exchanges them with the alltoall under test, and unpacks them
// transposed. Messages and bytes per transform and rank: three alltoalls
// of 16 k bytes per peer, i.e. 3 (P - 1) blocks of 16 k bytes for a direct
// alltoall (the algorithm's own counts otherwise).
#include "six_step.hpp"

#include <fftw3.h>

#include <cmath>
#include <complex>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "mcb/error.hpp"

namespace mcb::fft {

namespace {

using Complex = std::complex<double>;

fftw_complex* as_fftw(Complex* p) { return reinterpret_cast<fftw_complex*>(p); }

// What the steps share: scratch, FFTW plans and twiddle factors.
struct State {
  Shape s;
  int rank = 0;
  const Complex* in = nullptr;
  Complex* out = nullptr;
  std::vector<Complex> send, recv, work, twiddle;
  fftw_plan rows_n1 = nullptr, rows_n2 = nullptr;

  ~State() {
    if (rows_n1) fftw_destroy_plan(rows_n1);
    if (rows_n2) fftw_destroy_plan(rows_n2);
  }

  // In-place FFTs of `howmany` contiguous rows of length n of `work`.
  fftw_plan rows(std::size_t n, std::size_t howmany) {
    const int len = static_cast<int>(n);
    return fftw_plan_many_dft(1, &len, static_cast<int>(howmany), as_fftw(work.data()), nullptr, 1, len,
                              as_fftw(work.data()), nullptr, 1, len, FFTW_FORWARD, FFTW_ESTIMATE);
  }

  // Packs the local rows x cols matrix `m` for the transpose: peer q gets
  // columns [q cols/P, (q+1) cols/P) of every row, row by row.
  void pack(const Complex* m, std::size_t rows, std::size_t cols) {
    const std::size_t width = cols / static_cast<std::size_t>(s.p);
    Complex* to = send.data();
    for (int q = 0; q < s.p; ++q)
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t c = 0; c < width; ++c) *to++ = m[i * cols + static_cast<std::size_t>(q) * width + c];
  }

  // Unpacks what pack() sent (rows x width blocks from each peer q) into
  // the local width x (P rows) matrix `m`: m[c][q rows + i] = block_q[i][c].
  void unpack(Complex* m, std::size_t rows, std::size_t width) {
    const std::size_t cols = rows * static_cast<std::size_t>(s.p);
    const Complex* from = recv.data();
    for (int q = 0; q < s.p; ++q)
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t c = 0; c < width; ++c) m[c * cols + static_cast<std::size_t>(q) * rows + i] = *from++;
  }
};

}  // namespace

Shape shape(int p, std::size_t k) {
  Shape s;
  s.p = p;
  s.k = k;
  for (std::size_t a = 1; a * a <= k; ++a)
    if (k % a == 0) s.a = a;
  s.b = k / s.a;
  return s;
}

Plan six_step(const CollArgs& args, const std::function<Plan(const CollArgs&)>& transpose) {
  if (args.memory().kind() != MemKind::host)
    throw Error("--mem " + to_string(args.memory().kind()) + ": mcb_fft transforms host memory only");
  if (args.sendbuf == MPI_IN_PLACE) throw Error("mcb_fft has no in-place transform");
  if (args.count < 1) throw Error("mcb_fft needs at least one point per peer");
  auto st = std::make_shared<State>();
  State& t = *st;
  t.s = shape(args.size(), static_cast<std::size_t>(args.count));
  t.rank = args.rank();
  t.in = static_cast<const Complex*>(args.sendbuf);
  t.out = static_cast<Complex*>(args.recvbuf);
  const Shape& s = t.s;
  t.send.resize(s.local());
  t.recv.resize(s.local());
  t.work.resize(s.local());
  t.rows_n1 = t.rows(s.n1(), s.b);
  t.rows_n2 = t.rows(s.n2(), s.a);
  if (!t.rows_n1 || !t.rows_n2)
    throw Error("FFTW could not plan transforms of " + std::to_string(s.n1()) + " and " + std::to_string(s.n2()) +
                " points");
  // w_N^(j2 k1) for this rank's rows j2 = rank b + i of C, reduced mod N
  // first so that the angle is exact.
  t.twiddle.resize(s.b * s.n1());
  const std::size_t n = s.points();
  for (std::size_t i = 0; i < s.b; ++i) {
    const std::size_t j2 = static_cast<std::size_t>(t.rank) * s.b + i;
    for (std::size_t k1 = 0; k1 < s.n1(); ++k1) {
      const long double angle = -2.0L * std::numbers::pi_v<long double> * static_cast<long double>((j2 * k1) % n) /
                                static_cast<long double>(n);
      t.twiddle[i * s.n1() + k1] = Complex(static_cast<double>(std::cos(angle)), static_cast<double>(std::sin(angle)));
    }
  }

  const Plan exchange = transpose(args.on(args.comm, t.send.data(), t.recv.data(), args.count));
  Plan plan;
  auto add_transpose = [&] {
    for (const auto& phase : exchange.phases())
      for (const auto& step : phase.steps) plan.add("transpose", step);
  };
  plan.add("compute", [st] { st->pack(st->in, st->s.a, st->s.n2()); });
  add_transpose();
  plan.add("compute", [st] {
    State& t = *st;
    const Shape& s = t.s;
    t.unpack(t.work.data(), s.a, s.b);  // B: b rows of n1
    fftw_execute(t.rows_n1);
    for (std::size_t i = 0; i < t.work.size(); ++i) t.work[i] *= t.twiddle[i];
    t.pack(t.work.data(), s.b, s.n1());
  });
  add_transpose();
  plan.add("compute", [st] {
    State& t = *st;
    const Shape& s = t.s;
    t.unpack(t.work.data(), s.b, s.a);  // D: a rows of n2
    fftw_execute(t.rows_n2);
    t.pack(t.work.data(), s.a, s.n2());
  });
  add_transpose();
  plan.add("compute", [st] { st->unpack(st->out, st->s.a, st->s.b); });  // F: b rows of n1, natural order
  for (const auto& [name, value] : exchange.params()) plan.set_param(name, value);
  return plan;
}

void serial(const void* in, void* out, std::size_t n) {
  std::vector<Complex> a(n), b(n);
  std::copy_n(static_cast<const Complex*>(in), n, a.data());
  fftw_plan plan =
      fftw_plan_dft_1d(static_cast<int>(n), as_fftw(a.data()), as_fftw(b.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  if (!plan) throw Error("FFTW could not plan a transform of " + std::to_string(n) + " points");
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  std::copy_n(b.data(), n, static_cast<Complex*>(out));
}

}  // namespace mcb::fft
