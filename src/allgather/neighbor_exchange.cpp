// neighbor_exchange: Chen et al.'s neighbor exchange (allgather-sparbit,
// Section II-A), for even P. Ranks 2q and 2q+1 form pair q. Step 0: the two
// ranks of a pair swap their blocks, so each holds pair q's two blocks. Steps
// i = 1..P/2-1 alternate between the two neighbours: an even rank talks to
// rank-1 at odd i and to rank+1 at even i, an odd rank the other way round;
// each sends the two-block pair it received in the step before and receives
// the next pair from the other side (pairs q -/+ 1, 2, ... in turn). Per
// rank: P/2 messages, one of s bytes then P/2-1 of 2s, always to a
// neighbour.
#include "blocks.hpp"
#include "mcb/allgather.hpp"
#include "mcb/error.hpp"

namespace mcb::allgather {

std::string neighbor_exchange_unsupported(int p) { return p % 2 == 0 ? "" : "needs an even number of ranks"; }

Plan neighbor_exchange(const CollArgs& args) {
  const detail::Blocks b(args);
  if (const std::string why = neighbor_exchange_unsupported(b.p); !why.empty())
    throw Error("neighbor_exchange " + why + " (ranks: " + std::to_string(b.p) + ")");
  Plan plan;
  plan.add("exchange", [b] {
    const int pairs = b.p / 2, q = b.rank / 2;
    const bool even = b.rank % 2 == 0;
    auto first = [&](int pair) { return 2 * (((pair % pairs) + pairs) % pairs); };
    b.place_own();
    const int partner = even ? b.rank + 1 : b.rank - 1;
    MPI_Sendrecv(b.at(b.rank), b.count(b.rank), b.args.type, partner, 0, b.at(partner), b.count(partner), b.args.type,
                 partner, 0, b.args.comm, MPI_STATUS_IGNORE);
    int last = q;  // the pair received in the step before
    for (int i = 1; i < pairs; ++i) {
      const bool to_left = (i % 2 == 1) == even;  // even ranks start on the left
      const int peer = b.mod(to_left ? b.rank - 1 : b.rank + 1);
      const int next = to_left ? q - (i + 1) / 2 : q + (i + 1) / 2;
      const int out = first(last), in = first(next);
      MPI_Sendrecv(b.at(out), b.span(out, out + 2), b.args.type, peer, 0, b.at(in), b.span(in, in + 2), b.args.type,
                   peer, 0, b.args.comm, MPI_STATUS_IGNORE);
      last = next;
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(neighbor_exchange) {
  Algorithm a{"neighbor_exchange",
              "neighbor exchange, P/2 steps of two blocks, even P only",
              {},
              layout_free(neighbor_exchange)};
  a.unsupported = [](const Layout& l) { return neighbor_exchange_unsupported(l.size()); };
  return a;
}

}  // namespace mcb::allgather
