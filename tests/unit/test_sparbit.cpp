// Sparbit's schedule, computed and not run: the blocks per step of the
// paper and of ALGORITHM-NOTES (P = 6 and P = 100), the number of steps, and
// a simulation of every rank for every P <= 300 in which each received block
// must be held by its sender, be new to its receiver, and the receive
// buffers must end complete (the index arithmetic of sparbit.cpp).
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "mcb/allgather.hpp"

namespace {

std::vector<int> blocks_per_step(int p) {
  std::vector<int> out;
  for (const auto& s : mcb::allgather::sparbit_schedule(p)) out.push_back(s.blocks);
  return out;
}

int mod(long i, int p) { return static_cast<int>(((i % p) + p) % p); }

}  // namespace

TEST(Sparbit, PaperSchedules) {
  EXPECT_EQ(blocks_per_step(6), (std::vector<int>{1, 1, 3}));
  EXPECT_EQ(blocks_per_step(100), (std::vector<int>{1, 2, 3, 6, 12, 25, 50}));
  EXPECT_EQ(blocks_per_step(5), (std::vector<int>{1, 1, 2}));  // Figure 2's five ranks
  EXPECT_EQ(blocks_per_step(8), (std::vector<int>{1, 2, 4}));
  EXPECT_TRUE(blocks_per_step(1).empty());
  std::vector<int> distances;
  for (const auto& s : mcb::allgather::sparbit_schedule(100)) distances.push_back(s.distance);
  EXPECT_EQ(distances, (std::vector<int>{64, 32, 16, 8, 4, 2, 1}));
}

TEST(Sparbit, SimulatedDeliveryForEveryP) {
  for (int p = 1; p <= 300; ++p) {
    const auto steps = mcb::allgather::sparbit_schedule(p);
    ASSERT_EQ(static_cast<int>(steps.size()), std::bit_width(static_cast<unsigned>(p - 1))) << "P=" << p;
    // held[r][b]: rank r has block b.
    std::vector<std::vector<char>> held(static_cast<std::size_t>(p), std::vector<char>(static_cast<std::size_t>(p), 0));
    for (int r = 0; r < p; ++r) held[r][r] = 1;
    long total = 0;
    for (const auto& s : steps) {
      auto next = held;
      for (int r = 0; r < p; ++r) {
        const int from = mod(r - s.distance, p);
        for (long c = 0; c < s.blocks; ++c) {
          const int sent = mod(from - 2 * c * s.distance, p), received = mod(r - (2 * c + 1) * s.distance, p);
          ASSERT_EQ(sent, received) << "P=" << p << " d=" << s.distance;
          ASSERT_TRUE(held[from][sent]) << "P=" << p << " d=" << s.distance << ": rank " << from << " lacks " << sent;
          ASSERT_FALSE(next[r][received])
              << "P=" << p << " d=" << s.distance << ": rank " << r << " gets " << received << " twice";
          next[r][received] = 1;
        }
      }
      held = std::move(next);
      total += s.blocks;
    }
    EXPECT_EQ(total, p - 1) << "P=" << p;
    for (int r = 0; r < p; ++r)
      for (int b = 0; b < p; ++b) ASSERT_TRUE(held[r][b]) << "P=" << p << ": rank " << r << " misses block " << b;
  }
}
