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

}  // namespace
}  // namespace mcb::bench
