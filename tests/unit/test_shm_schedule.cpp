// The shared-memory recursive exchange schedule, simulated: for every node
// size q <= 12, every ordered factorization of q for the reduce_scatter and
// every one for the allgather, and vectors of 1 to 40 cache lines (and a
// partial line), each rank's cache lines start as a random 64-bit weight of
// the rank; the stages run as the schedule says, and every rank must end
// with every line equal to the sum of all weights (mod 2^64: a rank counted
// twice or missed shows). Within a stage no rank may read a line that
// another rank writes, and whoever reads my region must be in my readers.
// Also: factor parsing, its errors, the default factors, and when a waiting
// rank yields its CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "factorizations.hpp"
#include "mcb/error.hpp"
#include "shm/shm.hpp"
#include "shm/shm_schedule.hpp"

namespace mcb::allreduce::detail {
namespace {

using test::factorizations;

using Lines = std::vector<std::uint64_t>;

// Each rank's lines start as a well-mixed weight; a correct schedule ends
// with the sum of all of them (mod 2^64) on every line.
std::uint64_t weight(int rank) { return (static_cast<std::uint64_t>(rank) + 1) * 0x9E3779B97F4A7C15ull; }
std::uint64_t all_weights(int q) {
  std::uint64_t all = 0;
  for (int r = 0; r < q; ++r) all += weight(r);
  return all;
}

using test::error_of;

void simulate(int q, const Factors& f, std::size_t bytes) {
  const std::size_t lines = (bytes + kCacheLine - 1) / kCacheLine;
  const std::uint64_t all = all_weights(q);
  std::vector<ShmSchedule> s;
  for (int r = 0; r < q; ++r) s.push_back(shm_schedule(q, r, f, bytes));
  auto line_range = [&](Range r) {
    return std::pair<std::size_t, std::size_t>{r.lo / kCacheLine, (r.hi + kCacheLine - 1) / kCacheLine};
  };
  auto reads = [&](int reader, int owner) {
    const auto& rd = s[static_cast<std::size_t>(owner)].readers;
    return std::find(rd.begin(), rd.end(), reader) != rd.end();
  };
  const std::string where = "q=" + std::to_string(q) + " factors " + to_string(f) + " bytes " + std::to_string(bytes);

  std::vector<Lines> region(static_cast<std::size_t>(q), Lines(lines));
  for (int r = 0; r < q; ++r) std::fill(region[r].begin(), region[r].end(), weight(r));
  for (std::size_t j = 0; j < f.reduce_scatter.size(); ++j) {
    auto next = region;
    for (int r = 0; r < q; ++r) {
      const auto [lo, hi] = line_range(s[r].rs_range[j]);
      for (int m : s[r].rs_members[j]) {
        ASSERT_TRUE(reads(r, m)) << where;
        const auto [mlo, mhi] = line_range(s[m].rs_range[j]);
        ASSERT_TRUE(mhi <= lo || hi <= mlo || mlo == mhi || lo == hi)
            << where << ": ranks " << r << " and " << m << " write overlapping lines in one stage";
        for (std::size_t l = lo; l < hi; ++l) next[r][l] += region[m][l];
      }
    }
    region = std::move(next);
  }
  for (int r = 0; r < q; ++r) {
    const auto [lo, hi] = line_range(s[r].piece);
    for (std::size_t l = lo; l < hi; ++l) ASSERT_EQ(region[r][l], all) << where << ": rank " << r << " line " << l;
  }
  std::vector<Lines> out(static_cast<std::size_t>(q), Lines(lines, 0));
  const std::size_t stages = f.allgather.size();
  for (std::size_t a = 0; a < stages; ++a) {
    const bool last = a + 1 == stages;
    auto next = region;
    for (int r = 0; r < q; ++r) {
      auto& dst = last ? out[r] : next[r];
      if (last)
        for (const Range& h : s[r].held_before_last)
          for (auto [lo, hi] = line_range(h); lo < hi; ++lo) dst[lo] = region[r][lo];
      for (const Copy& c : s[r].ag_copies[a]) {
        ASSERT_TRUE(reads(r, c.from)) << where;
        for (auto [lo, hi] = line_range(c.range); lo < hi; ++lo) {
          ASSERT_EQ(region[c.from][lo], all) << where << ": rank " << r << " copies an unfinished line " << lo;
          dst[lo] = region[c.from][lo];
        }
      }
    }
    region = std::move(next);
  }
  if (stages == 0)
    for (int r = 0; r < q; ++r)
      for (const Range& h : s[r].held_before_last)
        for (auto [lo, hi] = line_range(h); lo < hi; ++lo) out[r][lo] = region[r][lo];
  for (int r = 0; r < q; ++r)
    for (std::size_t l = 0; l < lines; ++l) ASSERT_EQ(out[r][l], all) << where << ": rank " << r << " line " << l;
}

TEST(ShmSchedule, EveryFactorizationDeliversTheSum) {
  for (int q = 1; q <= 12; ++q)
    for (const auto& rs : factorizations(q))
      for (const auto& ag : factorizations(q))
        for (std::size_t bytes : {4ul, 64ul, 100ul, 64ul * 7, 64ul * 40 + 8}) simulate(q, Factors{rs, ag}, bytes);
}

TEST(ShmSchedule, DefaultFactorsForEveryNodeSize) {
  for (int q = 1; q <= 130; ++q) simulate(q, default_factors(q), 64 * 33 + 4);
  EXPECT_EQ(to_string(default_factors(8)), "-8,8");
  EXPECT_EQ(to_string(default_factors(12)), "-6,-2,2,6");
  EXPECT_EQ(to_string(default_factors(7)), "-7,7");
  EXPECT_EQ(to_string(default_factors(128)), "-8,-8,-2,2,8,8");
  EXPECT_EQ(to_string(default_factors(1)), "none");
}

TEST(ShmSchedule, NoPieceBelowACacheLine) {
  // 8 ranks, 3 cache lines: five ranks own nothing, the others whole lines.
  int owners = 0;
  for (int r = 0; r < 8; ++r) {
    const Range p = shm_schedule(8, r, default_factors(8), 3 * 64).piece;
    EXPECT_EQ(p.lo % 64, 0u);
    EXPECT_EQ(p.size() % 64, 0u);
    owners += p.size() > 0;
  }
  EXPECT_EQ(owners, 3);
}

TEST(ShmSchedule, ParseFactors) {
  const Factors f = parse_factors("x", "-4,-2,2,4", 8);
  EXPECT_EQ(f.reduce_scatter, (std::vector<int>{4, 2}));
  EXPECT_EQ(f.allgather, (std::vector<int>{2, 4}));
  EXPECT_EQ(to_string(parse_factors("x", "-7,7", 7)), "-7,7");
  auto error = [](const char* text, int q) { return error_of([&] { parse_factors("shm", text, q); }); };
  EXPECT_EQ(error("-3,-2,2,4", 8),
            "shm: --factors -3,-2,2,4: the reduce_scatter factors multiply to 6, not to the 8 ranks per node (use "
            "divisors of 8: 1, 2, 4, 8)");
  EXPECT_EQ(
      error("-8", 8),
      "shm: --factors -8: the allgather factors multiply to 1, not to the 8 ranks per node (use divisors of 8: 1, "
      "2, 4, 8)");
  EXPECT_NE(error("-4,-x", 8).find("'-x' is not a factor"), std::string::npos);
  EXPECT_NE(error("-4,1,2", 8).find("'1' is not a factor"), std::string::npos);
  EXPECT_NE(error("-8,8,", 8).find("empty item"), std::string::npos);
}

}  // namespace
}  // namespace mcb::allreduce::detail

namespace mcb::allreduce::detail {
namespace {

// The tree: every fan-in list up to 12 ranks; the ranks of a stage sum their
// part over the group into the root's region; local rank 0 must end with
// the sum of all weights on every line, no two ranks may write one line in
// a stage, and every rank that touches a region must be among its readers.
TEST(TreeSchedule, EveryFanInListSumsIntoRankZero) {
  for (int q = 1; q <= 12; ++q)
    for (const auto& rs : factorizations(q))
      for (std::size_t bytes : {4ul, 64ul, 64ul * 5 + 4, 64ul * 40}) {
        const Factors f{rs, {}};
        const std::size_t lines = (bytes + kCacheLine - 1) / kCacheLine;
        const std::uint64_t all = all_weights(q);
        std::vector<TreeSchedule> t;
        for (int r = 0; r < q; ++r) t.push_back(tree_schedule(q, r, f, bytes));
        std::vector<Lines> region(static_cast<std::size_t>(q), Lines(lines));
        for (int r = 0; r < q; ++r) std::fill(region[r].begin(), region[r].end(), weight(r));
        const std::string where = "q=" + std::to_string(q) + " factors " + to_string(f);
        for (std::size_t j = 0; j < rs.size(); ++j) {
          auto next = region;
          std::vector<std::set<std::size_t>> written(static_cast<std::size_t>(q));
          for (int r = 0; r < q; ++r) {
            const TreeStage& st = t[r].stages[j];
            if (!st.active) continue;
            const auto& rd = t[st.root].readers;
            if (r != st.root) {
              ASSERT_NE(std::find(rd.begin(), rd.end(), r), rd.end()) << where;
            }
            for (std::size_t l = st.part.lo / kCacheLine; l < (st.part.hi + kCacheLine - 1) / kCacheLine; ++l) {
              ASSERT_TRUE(written[st.root].insert(l).second) << where << ": line " << l << " written twice";
              std::uint64_t sum = region[st.root][l];
              if (r != st.root) sum += region[r][l];
              for (int m : st.members)
                if (m != st.root) sum += region[m][l];
              next[st.root][l] = sum;
            }
          }
          region = std::move(next);
        }
        for (std::size_t l = 0; l < lines; ++l) ASSERT_EQ(region[0][l], all) << where << " line " << l;
      }
}

}  // namespace
}  // namespace mcb::allreduce::detail

namespace mcb::allreduce::detail {
namespace {

// The cyclic shift: every q <= 13 with factor lists multiplying to q and to
// more than q ({2,2,2} for 5, 6, 7; {2,2,2,2} for 9..13; {3,3} for 7, 8),
// partial sums simulated stage by stage: every rank must end with every
// line equal to the sum of all weights.
void simulate_cyclic(int q, const Factors& f, std::size_t bytes) {
  const std::size_t lines = (bytes + kCacheLine - 1) / kCacheLine;
  const std::uint64_t all = all_weights(q);
  std::vector<CyclicSchedule> c;
  for (int r = 0; r < q; ++r) c.push_back(cyclic_schedule(q, r, f, bytes));
  auto lr = [](Range r) {
    return std::pair<std::size_t, std::size_t>{r.lo / kCacheLine, (r.hi + kCacheLine - 1) / kCacheLine};
  };
  const std::string where = "q=" + std::to_string(q) + " factors " + to_string(f) + " bytes " + std::to_string(bytes);
  std::vector<Lines> region(static_cast<std::size_t>(q), Lines(lines));
  for (int r = 0; r < q; ++r) std::fill(region[r].begin(), region[r].end(), weight(r));
  for (std::size_t j = 0; j < f.reduce_scatter.size(); ++j) {
    auto next = region;
    for (int r = 0; r < q; ++r)
      for (const CyclicReduce& op : c[r].rs[j])
        for (auto [lo, hi] = lr(op.range); lo < hi; ++lo)
          for (int m : op.from) {
            const auto& rd = c[m].readers;
            ASSERT_NE(std::find(rd.begin(), rd.end(), r), rd.end()) << where << ": " << r << " reads " << m;
            next[r][lo] += region[m][lo];
          }
    region = std::move(next);
  }
  for (int r = 0; r < q; ++r)
    for (auto [lo, hi] = lr(c[r].piece); lo < hi; ++lo) ASSERT_EQ(region[r][lo], all) << where << ": rank " << r;
  std::vector<Lines> out(static_cast<std::size_t>(q), Lines(lines, 0));
  const std::size_t stages = f.allgather.size();
  for (std::size_t a = 0; a < stages; ++a) {
    const bool last = a + 1 == stages;
    auto next = region;
    for (int r = 0; r < q; ++r) {
      auto& dst = last ? out[r] : next[r];
      if (last)
        for (const Range& h : c[r].held_before_last)
          for (auto [lo, hi] = lr(h); lo < hi; ++lo) dst[lo] = region[r][lo];
      for (const Copy& x : c[r].ag_copies[a])
        for (auto [lo, hi] = lr(x.range); lo < hi; ++lo) {
          ASSERT_EQ(region[x.from][lo], all) << where << ": rank " << r << " copies an unfinished line";
          dst[lo] = region[x.from][lo];
        }
    }
    region = std::move(next);
  }
  if (stages == 0)
    for (int r = 0; r < q; ++r) out[r] = region[r];
  for (int r = 0; r < q; ++r)
    for (std::size_t l = 0; l < lines; ++l) ASSERT_EQ(out[r][l], all) << where << ": rank " << r << " line " << l;
}

TEST(CyclicSchedule, ExactAndLargerFactorLists) {
  for (int q = 1; q <= 13; ++q) {
    std::vector<std::vector<int>> lists = factorizations(q);
    for (const auto& extra : std::vector<std::vector<int>>{{2, 2, 2}, {2, 2, 2, 2}, {3, 3}, {4, 4}, {q + 1}}) {
      long p = 1;
      for (int x : extra) p *= x;
      if (p > q) lists.push_back(extra);
    }
    for (const auto& rs : lists)
      for (const auto& ag : lists)
        for (std::size_t bytes : {4ul, 64ul * 3, 64ul * 13 + 4, 64ul * 40}) simulate_cyclic(q, Factors{rs, ag}, bytes);
  }
}

TEST(CyclicSchedule, FactorsMayExceedTheNode) {
  EXPECT_EQ(to_string(parse_factors("x", "-2,-2,-2,2,2,2", 7, false, true)), "-2,-2,-2,2,2,2");
  try {
    parse_factors("shm_cyclic_shift", "-2,-2,2,2", 7, false, true);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "shm_cyclic_shift: --factors -2,-2,2,2: the reduce_scatter factors multiply to 4, less than the 7 "
                 "ranks per node");
  }
}

}  // namespace
}  // namespace mcb::allreduce::detail

namespace mcb::allreduce::detail {
namespace {

// The recursive exchange between nodes: for every p <= 24, every
// reduce_scatter factorization of every divisor of p (mirrored for the
// allgather, the rest a nested allreduce) and counts 0..9, 31 and 1000,
// each rank's elements start as its weight times (element + 1); messages
// are matched (the peer with digit v must list me as its peer of my digit,
// with the same parts), and every rank must end with the sum on every
// element (mod 2^64).
void simulate_exchange(int p, const Factors& f, std::size_t count) {
  const std::string where = "p=" + std::to_string(p) + " factors " + to_string(f) + " count " + std::to_string(count);
  std::vector<ExchangeSchedule> x;
  for (int r = 0; r < p; ++r) x.push_back(exchange_schedule(p, r, f, count));
  using Vec = std::vector<std::uint64_t>;
  std::vector<Vec> v(static_cast<std::size_t>(p), Vec(count));
  for (int r = 0; r < p; ++r)
    for (std::size_t i = 0; i < count; ++i) v[r][i] = weight(r) * (i + 1);
  auto check_group = [&](const ExchangeStage& st, int r) {
    ASSERT_EQ(st.peers[static_cast<std::size_t>(st.mine)], r) << where;
    for (int peer : st.peers) ASSERT_TRUE(peer >= 0 && peer < p) << where;
  };
  const std::size_t stages = f.reduce_scatter.size();
  for (std::size_t j = 0; j < stages; ++j) {
    auto next = v;
    for (int r = 0; r < p; ++r) {
      const ExchangeStage& st = x[r].reduce_scatter[j];
      check_group(st, r);
      const Range mine = st.parts[static_cast<std::size_t>(st.mine)];
      for (std::size_t d = 0; d < st.peers.size(); ++d) {
        const int peer = st.peers[d];
        if (peer == r) continue;
        const ExchangeStage& ps = x[peer].reduce_scatter[j];
        ASSERT_EQ(ps.peers, st.peers) << where << ": ranks " << r << " and " << peer << " disagree on the group";
        ASSERT_EQ(ps.mine, static_cast<int>(d)) << where;
        ASSERT_EQ(ps.parts[static_cast<std::size_t>(st.mine)].lo, mine.lo) << where;
        ASSERT_EQ(ps.parts[static_cast<std::size_t>(st.mine)].hi, mine.hi) << where;
        for (std::size_t i = mine.lo; i < mine.hi; ++i) next[r][i] += v[peer][i];
      }
    }
    v = std::move(next);
  }
  auto next = v;
  for (int r = 0; r < p; ++r) {
    const Range piece = x[r].piece;
    ASSERT_NE(std::find(x[r].nested.begin(), x[r].nested.end(), r), x[r].nested.end()) << where;
    ASSERT_TRUE(std::is_sorted(x[r].nested.begin(), x[r].nested.end())) << where;
    for (int m : x[r].nested) {
      ASSERT_EQ(x[m].nested, x[r].nested) << where;
      ASSERT_EQ(x[m].piece.lo, piece.lo) << where;
      ASSERT_EQ(x[m].piece.hi, piece.hi) << where;
      if (m != r)
        for (std::size_t i = piece.lo; i < piece.hi; ++i) next[r][i] += v[m][i];
    }
  }
  v = std::move(next);
  for (std::size_t j = 0; j < stages; ++j) {
    auto next = v;
    for (int r = 0; r < p; ++r) {
      const ExchangeStage& st = x[r].allgather[j];
      check_group(st, r);
      for (std::size_t d = 0; d < st.peers.size(); ++d) {
        const int peer = st.peers[d];
        if (peer == r) continue;
        ASSERT_EQ(x[peer].allgather[j].mine, static_cast<int>(d)) << where;
        for (std::size_t i = st.parts[d].lo; i < st.parts[d].hi; ++i) next[r][i] = v[peer][i];
      }
    }
    v = std::move(next);
  }
  for (int r = 0; r < p; ++r)
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t all = 0;
      for (int o = 0; o < p; ++o) all += weight(o) * (i + 1);
      ASSERT_EQ(v[r][i], all) << where << ": rank " << r << " element " << i;
    }
}

TEST(ExchangeSchedule, EveryFactorizationOfEveryDivisor) {
  for (int p = 1; p <= 24; ++p)
    for (int r = 1; r <= p; ++r) {
      if (p % r != 0) continue;
      for (const auto& rs : factorizations(r)) {
        const Factors f{rs, std::vector<int>(rs.rbegin(), rs.rend())};
        for (std::size_t count : {0ul, 1ul, 2ul, 3ul, 5ul, 9ul, 31ul, 1000ul}) simulate_exchange(p, f, count);
      }
    }
}

TEST(ExchangeSchedule, NestedAllreduceGroups) {
  // 8 nodes, -2,2: pairs (0,1), (2,3)... split the vector; the four ranks
  // with the same digit then hold the same piece.
  const ExchangeSchedule x = exchange_schedule(8, 5, parse_exchange_factors("x", "-2,2", 8), 10);
  EXPECT_EQ(x.reduce_scatter.size(), 1u);
  EXPECT_EQ(x.reduce_scatter[0].peers, (std::vector<int>{4, 5}));
  EXPECT_EQ(x.piece.lo, 5u);
  EXPECT_EQ(x.piece.hi, 10u);
  EXPECT_EQ(x.nested, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(exchange_schedule(8, 5, parse_exchange_factors("x", "none", 8), 10).nested.size(), 8u);
}

TEST(ExchangeSchedule, ParseNodeFactors) {
  EXPECT_EQ(to_string(parse_exchange_factors("x", "-4,-2,2,4", 16)), "-4,-2,2,4");
  EXPECT_EQ(to_string(parse_exchange_factors("x", "none", 5)), "none");
  auto error = [](const char* text, int p) { return error_of([&] { parse_exchange_factors("shm_tree", text, p); }); };
  EXPECT_EQ(error("-3,3", 8),
            "shm_tree: --node-factors -3,3: the reduce_scatter factors multiply to 3, not a divisor of the 8 nodes "
            "(use divisors of 8: 1, 2, 4, 8; none for the nested allreduce alone)");
  EXPECT_EQ(error("-4,-2,4,2", 8),
            "shm_tree: --node-factors -4,-2,4,2: the allgather factors must mirror the reduce_scatter factors "
            "(-4,-2,2,4)");
  EXPECT_EQ(error("2,-2", 4),
            "shm_tree: --node-factors 2,-2: the reduce_scatter factors (negative) come before the allgather factors");
  EXPECT_NE(error("-2,y", 4).find("--node-factors -2,y: 'y' is not a factor"), std::string::npos);
}

// A waiting rank yields soon when the ranks outnumber their CPUs, never when
// it is bound to a CPU of its own (only a foreign process could take it),
// late when unbound.
TEST(ShmSegment, SpinBeforeYield) {
  using std::chrono::microseconds;
  const auto never = std::chrono::steady_clock::duration::max();
  EXPECT_EQ(spin_before_yield(1, 2, 2), never);              // --bind-to core, a CPU each
  EXPECT_EQ(spin_before_yield(1, 1, 2), microseconds(2));    // bound to the same CPU
  EXPECT_EQ(spin_before_yield(2, 2, 3), microseconds(2));    // 3 unbound ranks on 2 CPUs
  EXPECT_EQ(spin_before_yield(2, 2, 2), microseconds(200));  // unbound, a CPU each
  EXPECT_EQ(spin_before_yield(0, 0, 2), microseconds(2));    // the masks unknown
}

}  // namespace
}  // namespace mcb::allreduce::detail
