// summarize(): the statistics of one measurement.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/stats.hpp"

namespace mcb::bench {
namespace {

TEST(Summarize, EvenCount) {
  Stats s = summarize({1, 2, 3, 4});
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.avg, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));  // sample (n-1) deviation
}

TEST(Summarize, UnsortedInput) {
  Stats s = summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
}

TEST(Summarize, OddCountMedianIsTheMiddleValue) {
  Stats s = summarize({9, 1, 5, 100, 2});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 5);
  EXPECT_DOUBLE_EQ(s.avg, 23.4);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 100);
}

TEST(Summarize, SingleSampleHasNoDeviation) {
  Stats s = summarize({7.5});
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.avg, 7.5);
  EXPECT_DOUBLE_EQ(s.median, 7.5);
  EXPECT_DOUBLE_EQ(s.min, 7.5);
  EXPECT_DOUBLE_EQ(s.max, 7.5);
  EXPECT_EQ(s.stddev, 0.0);
}

TEST(Summarize, ConstantSamplesHaveZeroDeviation) {
  Stats s = summarize(std::vector<double>(10, 3.25));
  EXPECT_DOUBLE_EQ(s.avg, 3.25);
  EXPECT_DOUBLE_EQ(s.stddev, 0.0);
}

TEST(Summarize, EmptyIsAllZero) {
  Stats s = summarize({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.avg, 0.0);
  EXPECT_EQ(s.median, 0.0);
  EXPECT_EQ(s.min, 0.0);
  EXPECT_EQ(s.max, 0.0);
  EXPECT_EQ(s.stddev, 0.0);
}

// Percentiles as numpy.percentile's default: linear between the order
// statistics at q (n - 1).
TEST(Summarize, PercentilesInterpolateBetweenOrderStatistics) {
  Stats s = summarize({11, 1, 10, 2, 9, 3, 8, 4, 7, 5, 6});  // 1..11, shuffled
  EXPECT_DOUBLE_EQ(s.median, 6.0);
  EXPECT_DOUBLE_EQ(s.p90, 10.0);  // at 9.0
  EXPECT_DOUBLE_EQ(s.p99, 10.9);  // at 9.9
  Stats one = summarize({7.5});
  EXPECT_DOUBLE_EQ(one.p90, 7.5);
  EXPECT_DOUBLE_EQ(one.p99, 7.5);
  Stats two = summarize({0, 100});
  EXPECT_DOUBLE_EQ(two.p90, 90.0);
  EXPECT_DOUBLE_EQ(two.p99, 99.0);
}

}  // namespace
}  // namespace mcb::bench
