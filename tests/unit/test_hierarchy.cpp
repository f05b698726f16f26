// The MPI-free helpers of the node-aware alltoall family: block repacks,
// node groups and the divisor arithmetic behind the parameter errors.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "mcb/error.hpp"
#include "node_aware/hierarchy.hpp"

namespace mcb::alltoall::detail {
namespace {

std::vector<int> run(const Repack& r, const std::vector<int>& src) {
  std::vector<int> dst(src.size(), -1);
  r.run(host_memory(), dst.data(), src.data(), sizeof(int));
  return dst;
}

TEST(Repack, MovesBlocksWhereTheMapSays) {
  std::vector<int> src{10, 11, 12, 13, 14, 15};
  Repack transpose({0, 2, 4, 1, 3, 5});  // 3x2 -> 2x3
  EXPECT_EQ(run(transpose, src), (std::vector<int>{10, 12, 14, 11, 13, 15}));
  EXPECT_FALSE(transpose.identity());
}

TEST(Repack, IdentityIsDetected) {
  std::vector<std::size_t> id(7);
  std::iota(id.begin(), id.end(), 0);
  EXPECT_TRUE(Repack(id).identity());
  EXPECT_FALSE(Repack({1, 2, 3}).identity());  // contiguous, but shifted
  EXPECT_EQ(run(Repack({1, 2, 0}), {7, 8, 9}), (std::vector<int>{8, 9, 7}));
}

TEST(NodeGroups, ConsecutiveGroups) {
  NodeGroups g = NodeGroups::consecutive(8, 2);
  EXPECT_EQ(g.count, 4);
  EXPECT_EQ(g.size, 2);
  EXPECT_EQ(g.group_of, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(g.index_of, (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(g.members[3], (std::vector<int>{6, 7}));
}

TEST(NodeGroups, RegionsMayInterleave) {
  NodeGroups g = NodeGroups::from_regions("la", {0, 1, 0, 1}, "numa");
  EXPECT_EQ(g.count, 2);
  EXPECT_EQ(g.size, 2);
  EXPECT_EQ(g.members[1], (std::vector<int>{1, 3}));
  EXPECT_EQ(g.index_of, (std::vector<int>{0, 0, 1, 1}));
}

TEST(NodeGroups, UnequalRegionsAreRejected) {
  try {
    NodeGroups::from_regions("locality_aware", {0, 0, 0, 1, 1, 1, 2, 2}, "numa");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "locality_aware: --region numa cuts the 8 ranks of a node into regions of 3, 3, 2 ranks; the groups "
                 "must be equal (use --procs-per-group with one of 1, 2, 4, 8)");
  }
}

TEST(Divisors, DefaultsClipToADivisor) {
  EXPECT_EQ(largest_divisor_up_to(8, 4), 4);
  EXPECT_EQ(largest_divisor_up_to(6, 4), 3);
  EXPECT_EQ(largest_divisor_up_to(2, 4), 2);
  EXPECT_EQ(largest_divisor_up_to(7, 4), 1);
  EXPECT_EQ(divisors_of(12), "1, 2, 3, 4, 6, 12");
}

TEST(Divisors, ProcsPerLeaderErrorsNameTheValuesThatFit) {
  Params p;
  p.set("leaders-per-node", "3");
  try {
    procs_per_leader("multileader", 8, p);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "multileader: --leaders-per-node 3 does not divide the 8 ranks per node; values that fit: 1, 2, 4, 8");
  }
  Params q;
  q.set("procs-per-leader", "2");
  EXPECT_EQ(procs_per_leader("multileader", 8, q), 2);
  EXPECT_EQ(procs_per_leader("multileader", 8, Params{}), 4);
}

}  // namespace
}  // namespace mcb::alltoall::detail
