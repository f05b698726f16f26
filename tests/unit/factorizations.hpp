// Every ordered factorization of q into factors >= 2 ({} for q = 1): the
// factor lists the shared-memory schedules' tests run through.
#pragma once

#include <vector>

namespace mcb::test {

inline std::vector<std::vector<int>> factorizations(int q) {
  if (q == 1) return {{}};
  std::vector<std::vector<int>> out;
  for (int f = 2; f <= q; ++f)
    if (q % f == 0)
      for (auto rest : factorizations(q / f)) {
        rest.insert(rest.begin(), f);
        out.push_back(rest);
      }
  return out;
}

}  // namespace mcb::test
