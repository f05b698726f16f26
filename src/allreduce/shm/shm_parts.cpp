// The stages cut at parts (see shm_parts.hpp).
#include "shm_parts.hpp"

#include <set>

namespace mcb::allreduce::detail {

namespace {

// The parts of `ranks` (a predicate on owners) as runs, adjacent parts
// merged when `merge` says they may be, empty ones left out.
template <class Keep, class Merge>
std::vector<PartRun> runs_of(const std::vector<int>& owner, const std::vector<std::size_t>& displs, Keep keep,
                             Merge merge) {
  std::vector<PartRun> runs;
  for (int p = 0; p < static_cast<int>(owner.size()); ++p) {
    if (!keep(owner[static_cast<std::size_t>(p)])) continue;
    const Range r{displs[static_cast<std::size_t>(p)], displs[static_cast<std::size_t>(p) + 1]};
    if (r.size() == 0) continue;
    if (!runs.empty() && runs.back().last + 1 == p && runs.back().bytes.hi == r.lo &&
        merge(owner[static_cast<std::size_t>(runs.back().last)], owner[static_cast<std::size_t>(p)])) {
      runs.back().last = p;
      runs.back().bytes.hi = r.hi;
    } else {
      runs.push_back({p, p, r});
    }
  }
  return runs;
}

std::vector<int> group_of(int rank, int f, int stride) {
  const int digit = (rank / stride) % f;
  std::vector<int> g;
  for (int d = 0; d < f; ++d)
    if (d != digit) g.push_back(rank + (d - digit) * stride);
  return g;
}

std::vector<int> owned(int rank, const std::vector<int>& owner) {
  std::vector<int> mine;
  for (int p = 0; p < static_cast<int>(owner.size()); ++p)
    if (owner[static_cast<std::size_t>(p)] == rank) mine.push_back(p);
  return mine;
}

}  // namespace

PartsSchedule reduce_scatter_parts(int, int rank, const std::vector<int>& factors, const std::vector<int>& owner,
                                   const std::vector<std::size_t>& displs) {
  PartsSchedule s;
  std::set<int> readers;
  int stride = 1;
  for (int f : factors) {
    PartsStage st;
    st.members = group_of(rank, f, stride);
    readers.insert(st.members.begin(), st.members.end());
    stride *= f;
    // Kept: the parts whose owner has my digits 1..j (the same residue
    // modulo the product of the factors so far).
    st.runs = runs_of(
        owner, displs, [&](int o) { return o % stride == rank % stride; }, [](int, int) { return true; });
    s.stages.push_back(std::move(st));
  }
  s.mine = owned(rank, owner);
  s.readers.assign(readers.begin(), readers.end());
  return s;
}

GatherSchedule allgather_parts(int q, int rank, const std::vector<int>& factors, const std::vector<int>& owner,
                               const std::vector<std::size_t>& displs) {
  GatherSchedule s;
  std::set<int> readers;
  // held[x]: whose parts rank x holds (a set of domain ranks).
  std::vector<std::set<int>> held(static_cast<std::size_t>(q));
  for (int x = 0; x < q; ++x) held[static_cast<std::size_t>(x)] = {x};
  int span = q;
  for (std::size_t a = 0; a < factors.size(); ++a) {
    const int g = factors[a];
    span /= g;
    if (a + 1 == factors.size()) {
      const auto& mine = held[static_cast<std::size_t>(rank)];
      s.held_before = runs_of(
          owner, displs, [&](int o) { return mine.count(o) != 0; }, [](int, int) { return true; });
    }
    GatherStage st;
    st.members = group_of(rank, g, span);
    readers.insert(st.members.begin(), st.members.end());
    for (int m : st.members) {
      const auto& theirs = held[static_cast<std::size_t>(m)];
      for (const PartRun& r : runs_of(
               owner, displs, [&](int o) { return theirs.count(o) != 0; }, [](int, int) { return true; }))
        st.copies.push_back({m, r});
    }
    std::vector<std::set<int>> next(static_cast<std::size_t>(q));
    for (int x = 0; x < q; ++x) {
      std::set<int>& into = next[static_cast<std::size_t>(x)];
      into = held[static_cast<std::size_t>(x)];
      for (int m : group_of(x, g, span))
        into.insert(held[static_cast<std::size_t>(m)].begin(), held[static_cast<std::size_t>(m)].end());
    }
    held = std::move(next);
    s.stages.push_back(std::move(st));
  }
  s.mine = owned(rank, owner);
  if (factors.empty())
    s.held_before = runs_of(
        owner, displs, [&](int o) { return o == rank; }, [](int, int) { return true; });
  s.readers.assign(readers.begin(), readers.end());
  return s;
}

}  // namespace mcb::allreduce::detail
