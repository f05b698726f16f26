#include "harness/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mcb::bench {

Stats summarize(std::vector<double> samples) {
  Stats s;
  s.n = samples.size();
  if (s.n == 0) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.avg = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  s.median = s.n % 2 ? samples[s.n / 2] : (samples[s.n / 2 - 1] + samples[s.n / 2]) / 2;
  auto percentile = [&](double q) {
    const double at = q * static_cast<double>(s.n - 1);
    const auto lo = static_cast<std::size_t>(at);
    const std::size_t hi = std::min(lo + 1, s.n - 1);
    return samples[lo] + (samples[hi] - samples[lo]) * (at - static_cast<double>(lo));
  };
  s.p90 = percentile(0.90);
  s.p99 = percentile(0.99);
  if (s.n > 1) {
    double ss = 0;
    for (double x : samples) ss += (x - s.avg) * (x - s.avg);
    s.stddev = std::sqrt(ss / static_cast<double>(s.n - 1));
  }
  return s;
}

}  // namespace mcb::bench
