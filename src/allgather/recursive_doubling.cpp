// recursive_doubling: recursive doubling allgather (allgather-sparbit,
// Section II-A), for power-of-two P. Step k = 0..log2(P)-1: exchange with
// rank XOR 2^k the 2^k consecutive blocks gathered so far (those of my
// aligned group of 2^k ranks) for the partner's group, one MPI_Sendrecv.
// Per rank: log2 P messages of s, 2s, 4s, ... bytes, P-1 blocks in all; the
// distance doubles with the data.
#include "blocks.hpp"
#include "mcb/allgather.hpp"
#include "mcb/error.hpp"

namespace mcb::allgather {

std::string recursive_doubling_unsupported(int p) {
  return p > 0 && (p & (p - 1)) == 0 ? "" : "needs a power-of-two number of ranks";
}

Plan recursive_doubling(const CollArgs& args) {
  const detail::Blocks b(args);
  if (const std::string why = recursive_doubling_unsupported(b.p); !why.empty())
    throw Error("recursive_doubling " + why + " (ranks: " + std::to_string(b.p) + ")");
  Plan plan;
  plan.add("exchange", [b] {
    b.place_own();
    for (int d = 1; d < b.p; d *= 2) {
      const int partner = b.rank ^ d, mine = b.rank & ~(d - 1), theirs = partner & ~(d - 1);
      MPI_Sendrecv(b.at(mine), b.span(mine, mine + d), b.args.type, partner, 0, b.at(theirs),
                   b.span(theirs, theirs + d), b.args.type, partner, 0, b.args.comm, MPI_STATUS_IGNORE);
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(recursive_doubling) {
  Algorithm a{"recursive_doubling",
              "recursive doubling, log2 P pairwise steps, power-of-two P only",
              {},
              layout_free(recursive_doubling)};
  a.unsupported = [](const Layout& l) { return recursive_doubling_unsupported(l.size()); };
  return a;
}

}  // namespace mcb::allgather
