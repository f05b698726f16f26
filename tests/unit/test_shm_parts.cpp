// The shared-memory stages cut at parts (shm_parts.hpp), simulated: for
// every domain size q <= 12 and every ordered factorization of q, parts of
// random sizes (empty ones among them), one domain (part p owned by rank p)
// and several (the parts of P = 3q ranks owned by their domain rank, block
// and cyclic). Reduce-scatter: each rank's input is a distinct power of two
// per rank; a stage may only read what the member holds after its stage
// before (its input in the first), and every rank must end with each of
// its parts equal to the sum over all ranks (a rank counted twice or missed
// shows). Allgather: a copy may only take parts its source holds, and every
// rank must end with every part.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "factorizations.hpp"
#include "shm/shm_parts.hpp"

namespace mcb::allreduce::detail {
namespace {

using test::factorizations;

struct Case {
  std::vector<int> owner;
  std::vector<std::size_t> displs;
};

// One domain of q (part p owned by rank p), and P = 3q parts owned by
// their domain rank in block and in cyclic order; part sizes random, about
// a third of them empty.
std::vector<Case> cases(int q, std::mt19937& rng) {
  std::vector<std::vector<int>> owners(3);
  for (int p = 0; p < q; ++p) owners[0].push_back(p);
  for (int p = 0; p < 3 * q; ++p) {
    owners[1].push_back(p % q);  // block: 3 nodes of q
    owners[2].push_back(p / 3);  // cyclic: consecutive ranks on consecutive nodes
  }
  std::vector<Case> out;
  for (auto& owner : owners) {
    Case c{owner, {0}};
    for (std::size_t p = 0; p < owner.size(); ++p) c.displs.push_back(c.displs.back() + rng() % 3 * 8);
    out.push_back(c);
  }
  return out;
}

TEST(ShmParts, ReduceScatterSumsEachPartOverTheDomain) {
  std::mt19937 rng(71);
  for (int q = 1; q <= 12; ++q)
    for (const auto& f : factorizations(q))
      for (const Case& c : cases(q, rng)) {
        const int parts = static_cast<int>(c.owner.size());
        std::vector<PartsSchedule> s;
        for (int r = 0; r < q; ++r) s.push_back(reduce_scatter_parts(q, r, f, c.owner, c.displs));
        // held[r][p]: rank r's partial sum of part p after the stage before
        // (the input: 1 << r).
        std::vector<std::map<int, std::uint64_t>> held(static_cast<std::size_t>(q));
        for (int r = 0; r < q; ++r)
          for (int p = 0; p < parts; ++p) held[static_cast<std::size_t>(r)][p] = std::uint64_t{1} << r;
        for (std::size_t j = 0; j < f.size(); ++j) {
          std::vector<std::map<int, std::uint64_t>> next(static_cast<std::size_t>(q));
          for (int r = 0; r < q; ++r)
            for (const PartRun& run : s[static_cast<std::size_t>(r)].stages[j].runs)
              for (int p = run.first; p <= run.last; ++p) {
                std::uint64_t sum = held[static_cast<std::size_t>(r)].at(p);
                for (int m : s[static_cast<std::size_t>(r)].stages[j].members) {
                  ASSERT_TRUE(held[static_cast<std::size_t>(m)].count(p))
                      << "q=" << q << " stage " << j << ": rank " << r << " reads part " << p << " of " << m;
                  sum += held[static_cast<std::size_t>(m)].at(p);
                }
                next[static_cast<std::size_t>(r)][p] = sum;
              }
          held = std::move(next);
        }
        const std::uint64_t all = (std::uint64_t{1} << q) - 1;
        for (int r = 0; r < q; ++r)
          for (int p : s[static_cast<std::size_t>(r)].mine) {
            if (c.displs[static_cast<std::size_t>(p) + 1] == c.displs[static_cast<std::size_t>(p)]) continue;
            ASSERT_TRUE(held[static_cast<std::size_t>(r)].count(p)) << "q=" << q << ": rank " << r << " part " << p;
            EXPECT_EQ(held[static_cast<std::size_t>(r)].at(p), all) << "q=" << q << ": rank " << r << " part " << p;
          }
      }
}

TEST(ShmParts, AllgatherLeavesEveryPartEverywhere) {
  std::mt19937 rng(17);
  for (int q = 1; q <= 12; ++q)
    for (const auto& f : factorizations(q))
      for (const Case& c : cases(q, rng)) {
        const int parts = static_cast<int>(c.owner.size());
        std::vector<GatherSchedule> s;
        for (int r = 0; r < q; ++r) s.push_back(allgather_parts(q, r, f, c.owner, c.displs));
        std::vector<std::set<int>> held(static_cast<std::size_t>(q));
        for (int p = 0; p < parts; ++p) held[static_cast<std::size_t>(c.owner[static_cast<std::size_t>(p)])].insert(p);
        std::vector<std::set<int>> result(static_cast<std::size_t>(q));
        for (std::size_t a = 0; a < f.size(); ++a) {
          std::vector<std::set<int>> next = held;
          for (int r = 0; r < q; ++r) {
            const bool last = a + 1 == f.size();
            if (last)
              for (const PartRun& run : s[static_cast<std::size_t>(r)].held_before)
                for (int p = run.first; p <= run.last; ++p) {
                  ASSERT_TRUE(held[static_cast<std::size_t>(r)].count(p)) << "q=" << q << ": rank " << r;
                  result[static_cast<std::size_t>(r)].insert(p);
                }
            for (const PartCopy& cp : s[static_cast<std::size_t>(r)].stages[a].copies)
              for (int p = cp.run.first; p <= cp.run.last; ++p) {
                ASSERT_TRUE(held[static_cast<std::size_t>(cp.from)].count(p))
                    << "q=" << q << " stage " << a << ": rank " << r << " copies part " << p << " from " << cp.from;
                next[static_cast<std::size_t>(r)].insert(p);
                if (last) result[static_cast<std::size_t>(r)].insert(p);
              }
          }
          held = std::move(next);
        }
        if (f.empty())
          for (const PartRun& run : s[0].held_before)
            for (int p = run.first; p <= run.last; ++p) result[0].insert(p);
        for (int r = 0; r < q; ++r)
          for (int p = 0; p < parts; ++p) {
            const bool empty = c.displs[static_cast<std::size_t>(p) + 1] == c.displs[static_cast<std::size_t>(p)];
            EXPECT_TRUE(empty || result[static_cast<std::size_t>(r)].count(p))
                << "q=" << q << ": rank " << r << " lacks " << p;
          }
      }
}

}  // namespace
}  // namespace mcb::allreduce::detail
