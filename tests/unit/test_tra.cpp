// The tunable-radix alltoall without MPI: the model's K and D against the
// paper's own numbers and propositions, the schedule that tra.cpp sends
// (enumerated from digits) against the model round by round, and the
// schedule run on simulated ranks, which must deliver every block to its
// destination, for every P <= 130 and every radix 2..P.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/tra_model.hpp"
#include "tra/tra.hpp"

namespace mcb::alltoall {
namespace {

TEST(TraModel, ThePapersNumbers) {
  // Section III-B: P = 16384, r = sqrt(P) = 128: K = 254, D = 32512; r = 2: D = 114688.
  EXPECT_EQ(tra_cost(16384, 128).rounds, 254);
  EXPECT_EQ(tra_cost(16384, 128).blocks, 32512);
  EXPECT_EQ(tra_cost(16384, 2).blocks, 114688);
  EXPECT_EQ(tra_cost(16384, 2).rounds, 14);
  EXPECT_EQ(tra_cost(16384, 16384).rounds, 16383);
  // Figure 1 (P = 8, r = 3): 4 rounds. Figure 3 (P = 11, r = 3): w = 3, 5 rounds.
  EXPECT_EQ(tra_cost(8, 3).rounds, 4);
  EXPECT_EQ(tra_cost(11, 3).digits, 3);
  EXPECT_EQ(tra_cost(11, 3).rounds, 5);
  // Figure 2 (P = 9 = 3^2): K = w(r-1) = 4, D = w(r-1) r^(w-1) = 12.
  EXPECT_EQ(tra_cost(9, 3).rounds, 4);
  EXPECT_EQ(tra_cost(9, 3).blocks, 12);
}

TEST(TraModel, DigitsAreCountedWithIntegers) {
  EXPECT_EQ(tra_digits(125, 5), 3);  // floating ceil(log(125)/log(5)) can give 4
  EXPECT_EQ(tra_digits(126, 5), 4);
  EXPECT_EQ(tra_digits(1, 2), 0);
  EXPECT_EQ(tra_digits(2, 2), 1);
  EXPECT_EQ(tra_default_radix(1), 2);
  EXPECT_EQ(tra_default_radix(16), 4);
  EXPECT_EQ(tra_default_radix(17), 5);
  EXPECT_EQ(tra_default_radix(2048), 46);
}

TEST(TraModel, PropositionsOneAndTwoAtPowers) {
  for (long r = 2; r <= 12; ++r)
    for (long w = 1, p = r; p <= 5000; ++w, p *= r) {
      long top = p / r;
      EXPECT_EQ(tra_cost(p, r).rounds, w * (r - 1)) << "P=" << p << " r=" << r;
      EXPECT_EQ(tra_cost(p, r).blocks, w * (r - 1) * top) << "P=" << p << " r=" << r;
    }
}

TEST(TraModel, ExtremesAreBruckAndSpreadOut) {
  for (long p = 2; p <= 300; ++p) {
    long log2 = 0;
    while ((1L << log2) < p) ++log2;
    EXPECT_EQ(tra_cost(p, 2).rounds, log2) << p;
    EXPECT_EQ(tra_cost(p, p).rounds, p - 1) << p;
    EXPECT_EQ(tra_cost(p, p).blocks, p - 1) << p;
  }
}

TEST(TraModel, Tra2AddsTheLayers) {
  // Figure 5: N = 2 nodes of Q = 4, radix 2 both layers: 2 + 1 = 3 rounds, as TRA on 8.
  const Tra2Cost c = tra2_cost(2, 4, 2, 2);
  EXPECT_EQ(c.rounds, 3);
  EXPECT_EQ(c.rounds, tra_cost(8, 2).rounds);
  EXPECT_EQ(c.inter.rounds, 1);
  EXPECT_EQ(c.blocks, 2 * tra_cost(4, 2).blocks + 4 * tra_cost(2, 2).blocks);
}

TEST(TraModel, HockneyIsLatencyPlusBandwidth) { EXPECT_DOUBLE_EQ(hockney(10, 100, 2.0, 0.5, 4.0), 20.0 + 200.0); }

// The schedule the algorithm sends, enumerated from the digits, equals the
// model round by round: K rounds, each Proposition 4's h blocks, in order.
TEST(TraSchedule, EqualsTheModelRoundByRound) {
  for (int p = 1; p <= 300; ++p)
    for (int r = 2; r <= std::max(p, 2); ++r) {
      const auto steps = detail::tra_schedule(p, r);
      const auto rounds = tra_rounds(p, r);
      const TraCost cost = tra_cost(p, r);
      ASSERT_EQ(static_cast<long>(steps.size()), cost.rounds) << "P=" << p << " r=" << r;
      ASSERT_EQ(rounds.size(), steps.size()) << "P=" << p << " r=" << r;
      long blocks = 0;
      for (std::size_t k = 0; k < steps.size(); ++k) {
        ASSERT_EQ(steps[k].distance, rounds[k].distance) << "P=" << p << " r=" << r << " round " << k;
        ASSERT_EQ(steps[k].blocks, rounds[k].blocks) << "P=" << p << " r=" << r << " round " << k;
        blocks += steps[k].blocks;
      }
      ASSERT_EQ(blocks, cost.blocks) << "P=" << p << " r=" << r;
    }
}

// Runs the schedule on P simulated ranks: rotate, every round moves the
// scheduled blocks from rank q to q + distance, rotate back. Every rank must
// end with the block that every source had for it.
TEST(TraSchedule, DeliversEveryBlock) {
  for (int p = 1; p <= 130; ++p)
    for (int r = 2; r <= std::max(p, 2); ++r) {
      const auto steps = detail::tra_schedule(p, r);
      std::vector<std::vector<int>> x(p, std::vector<int>(p));  // x[rank][i], block = src * p + dst
      for (int me = 0; me < p; ++me)
        for (int i = 0; i < p; ++i) x[me][i] = me * p + (me + i) % p;
      for (const auto& s : steps) {
        std::vector<std::vector<int>> next = x;
        for (int me = 0; me < p; ++me)
          for (const auto& [first, len] : s.runs)
            for (int i = first; i < first + len; ++i) next[(me + s.distance) % p][i] = x[me][i];
        x = std::move(next);
      }
      for (int me = 0; me < p; ++me)
        for (int src = 0; src < p; ++src)
          ASSERT_EQ(x[me][(me - src + p) % p], src * p + me) << "P=" << p << " r=" << r << " rank " << me;
    }
}

TEST(TraRadix, OutOfRangeNamesTheRange) {
  auto error_of = [](auto f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  Params p;
  EXPECT_EQ(detail::resolve_radix("tra", p, "radix", 16, "ranks", 4), 4);
  EXPECT_EQ(detail::resolve_radix("tra", p, "radix", 1, "ranks", 2), 2);
  p.set("radix", "17");
  EXPECT_EQ(error_of([&] { detail::resolve_radix("tra", p, "radix", 16, "ranks", 4); }),
            "tra: --radix 17 is outside [2, 16] (ranks: 16)");
  p.set("radix", "1");
  EXPECT_EQ(error_of([&] { detail::resolve_radix("tra", p, "radix", 16, "ranks", 4); }),
            "tra: --radix 1 is outside [2, 16] (ranks: 16)");
  p.set("radix", "16");
  EXPECT_EQ(detail::resolve_radix("tra", p, "radix", 16, "ranks", 4), 16);
  p.set("radix", "two");
  EXPECT_NE(error_of([&] { detail::resolve_radix("tra", p, "radix", 16, "ranks", 4); }).find("--radix"),
            std::string::npos);
}

}  // namespace
}  // namespace mcb::alltoall
