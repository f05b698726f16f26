// sparbit: stripe parallel binomial trees (allgather-sparbit, Section III,
// Algorithm 1), any P. Every rank roots a binomial tree over the ring of
// ranks; the trees run in parallel. L = ceil(log2 P) steps with distance
// d = 2^(L-1), ..., 2, 1. A rank holding blocks rank - k*d (k < expected)
// sends blocks rank - 2c*d to rank+d and receives blocks rank - (2c+1)*d from
// rank-d, for c in [0, expected - ignore), one message per block; ignore is
// 1 on the steps where the last block received must not be forwarded (the
// trees' leaves when P is not a power of two; bits of
// ((~(P >> t)) | 1) << t, t = trailing zeros of P), and expected becomes
// 2*expected - ignore. Per rank: P-1 messages of s bytes, in L steps (blocks
// per step: P = 6 -> 1, 1, 3; P = 100 -> 1, 2, 3, 6, 12, 25, 50); the
// heaviest steps talk to the nearest ranks. No scratch, no final rotation.
#include <bit>
#include <memory>
#include <vector>

#include "blocks.hpp"
#include "mcb/allgather.hpp"
#include "mcb/wait.hpp"

namespace mcb::allgather {

std::vector<SparbitStep> sparbit_schedule(int p) {
  std::vector<SparbitStep> steps;
  if (p < 2) return steps;
  const auto up = static_cast<unsigned>(p);
  const int levels = std::bit_width(up - 1);  // ceil(log2 P)
  const int t = std::countr_zero(up);
  const unsigned ignore_steps = ((~(up >> t)) | 1u) << t;
  int expected = 1;
  for (unsigned d = 1u << (levels - 1); d > 0; d >>= 1) {
    const int ignore = (d & ignore_steps) == d ? 1 : 0;
    steps.push_back({static_cast<int>(d), expected - ignore});
    expected = 2 * expected - ignore;
  }
  return steps;
}

Plan sparbit(const CollArgs& args) {
  const detail::Blocks b(args);
  const std::vector<SparbitStep> steps = sparbit_schedule(b.p);
  int most = 0;
  for (const auto& s : steps) most = std::max(most, s.blocks);
  auto requests = std::make_shared<std::vector<MPI_Request>>(2 * static_cast<std::size_t>(most));
  Plan plan;
  plan.add("exchange", [b, steps, requests] {
    b.place_own();
    MPI_Request* r = requests->data();
    for (const auto& s : steps) {
      const long d = s.distance;
      const int to = b.mod(b.rank + d), from = b.mod(b.rank - d);
      for (long c = 0; c < s.blocks; ++c) {
        const int in = b.mod(b.rank - (2 * c + 1) * d);
        MPI_Irecv(b.at(in), b.count(in), b.args.type, from, 0, b.args.comm, &r[c]);
      }
      for (long c = 0; c < s.blocks; ++c) {
        const int out = b.mod(b.rank - 2 * c * d);
        MPI_Isend(b.at(out), b.count(out), b.args.type, to, 0, b.args.comm, &r[s.blocks + c]);
      }
      wait_all(2 * s.blocks, r);
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(sparbit) {
  return {"sparbit",
          "Sparbit, ceil(log2 P) steps of halving distance, one message per block, any P",
          {},
          layout_free(sparbit)};
}

}  // namespace mcb::allgather
