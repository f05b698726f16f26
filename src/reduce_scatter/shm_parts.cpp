// The shared-memory reduce-scatter's schedule (see shm_parts.hpp).
#include "shm_parts.hpp"

#include <set>

namespace mcb::reduce_scatter::detail {

PartsSchedule parts_schedule(int q, int rank, const std::vector<int>& factors, const std::vector<int>& owner,
                             const std::vector<std::size_t>& displs) {
  PartsSchedule s;
  const int parts = static_cast<int>(owner.size());
  std::set<int> readers;
  int stride = 1;
  for (int f : factors) {
    PartsStage st;
    const int digit = (rank / stride) % f;
    for (int d = 0; d < f; ++d)
      if (d != digit) st.members.push_back(rank + (d - digit) * stride);
    readers.insert(st.members.begin(), st.members.end());
    stride *= f;
    // Kept: the parts whose owner has my digits 1..j (the same residue
    // modulo the product of the factors so far).
    for (int p = 0; p < parts; ++p) {
      if (owner[static_cast<std::size_t>(p)] % stride != rank % stride) continue;
      const Range r{displs[static_cast<std::size_t>(p)], displs[static_cast<std::size_t>(p) + 1]};
      if (r.size() == 0) continue;
      if (!st.runs.empty() && st.runs.back().last + 1 == p && st.runs.back().bytes.hi == r.lo) {
        st.runs.back().last = p;
        st.runs.back().bytes.hi = r.hi;
      } else {
        st.runs.push_back({p, p, r});
      }
    }
    s.stages.push_back(std::move(st));
  }
  for (int p = 0; p < parts; ++p)
    if (owner[static_cast<std::size_t>(p)] == rank) s.mine.push_back(p);
  (void)q;
  s.readers.assign(readers.begin(), readers.end());
  return s;
}

}  // namespace mcb::reduce_scatter::detail
