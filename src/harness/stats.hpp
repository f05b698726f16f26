// Statistics over the iterations of one measurement.
#pragma once

#include <cstddef>
#include <vector>

namespace mcb::bench {

struct Stats {
  /// Over the iterations of one series (mcb's: per iteration the slowest
  /// rank's time); stddev: sample (n-1).
  double avg = 0, median = 0, min = 0, max = 0, stddev = 0;
  /// Percentiles, linear between order statistics (numpy's default): the
  /// value at rank q (n - 1) of the sorted samples.
  double p90 = 0, p99 = 0;
  std::size_t n = 0;
  /// OSU's Avg, Min and Max Latency: each rank's mean over the iterations,
  /// then the mean, minimum and maximum of those over the ranks.
  double rank_avg = 0, rank_min = 0, rank_max = 0;
};

/// Summary of `samples` (empty: all zero).
Stats summarize(std::vector<double> samples);

}  // namespace mcb::bench
