// mcb_fft with deliberately wrong transposes, to prove that the norm-wise
// validation of floating-point results catches a wrong point and a small
// error far above the tolerance (1e-9), and passes a correct transform.
#include <complex>

#include "fft_spec.hpp"
#include "mcb/alltoall.hpp"

namespace {

using Complex = std::complex<double>;

// Pairwise, then the last rank scales one received point by `factor`.
mcb::PlanFactory scaled(double factor) {
  return [factor](const mcb::CollArgs& a, const mcb::Layout&, const mcb::Params&) {
    mcb::Plan plan = mcb::alltoall::pairwise(a);
    plan.add("corrupt", [a, factor] {
      if (a.rank() == a.size() - 1) static_cast<Complex*>(a.recvbuf)[0] *= factor;
    });
    return plan;
  };
}

const std::vector<mcb::Algorithm>& broken() {
  static const std::vector<mcb::Algorithm> list = mcb::bench::fft_algorithms({
      {"wrong_point", "one point of each transpose negated", {}, scaled(-1.0)},
      {"small_error", "one point of each transpose off by 1e-6 (relative)", {}, scaled(1.0 + 1e-6)},
      {"pairwise", "correct", {}, scaled(1.0)},
  });
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv, mcb::bench::fft_spec("mcb_broken_fft", &broken()));
}
