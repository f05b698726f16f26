// ring: the ring allgather (allgather-sparbit, Section II-A). Step
// i = 0..P-2: send block rank-i to rank+1 and receive block rank-i-1 from
// rank-1, one MPI_Sendrecv; the block sent is the one received in the step
// before (my own in step 0). Per rank: P-1 messages of s bytes each way;
// every message travels one rank over.
#include "blocks.hpp"
#include "mcb/allgather.hpp"

namespace mcb::allgather {

Plan ring(const CollArgs& args) {
  const detail::Blocks b(args);
  Plan plan;
  plan.add("exchange", [b] {
    b.place_own();
    const int right = b.mod(b.rank + 1), left = b.mod(b.rank - 1);
    for (int i = 0; i < b.p - 1; ++i) {
      const int out = b.mod(b.rank - i), in = b.mod(b.rank - i - 1);
      MPI_Sendrecv(b.at(out), b.count(out), b.args.type, right, 0, b.at(in), b.count(in), b.args.type, left, 0,
                   b.args.comm, MPI_STATUS_IGNORE);
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(ring) { return {"ring", "ring, P-1 steps to the next rank", {}, layout_free(ring)}; }

}  // namespace mcb::allgather
