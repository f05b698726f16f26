// Statistics over the iterations of one measurement.
#pragma once

#include <cstddef>
#include <vector>

namespace mcb::bench {

struct Stats {
  double avg = 0, median = 0, min = 0, max = 0, stddev = 0;  // stddev: sample (n-1)
  std::size_t n = 0;
};

/// Summary of `samples` (empty: all zero).
Stats summarize(std::vector<double> samples);

}  // namespace mcb::bench
