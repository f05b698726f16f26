// pairwise: the pairwise-exchange reduce-scatter (MPICH's pairwise for
// commutative operations). My part starts as my input of it; step
// s = 1..P-1: send my input of part rank+s to rank+s, receive rank-s's
// input of my part and add it. Per rank: P-1 messages of about n/P bytes,
// n(P-1)/P bytes sent and reduced; step s pairs ranks s apart.
#include "mcb/reduce_scatter.hpp"
#include "parts.hpp"

namespace mcb::reduce_scatter {

Plan pairwise(const CollArgs& args) {
  const detail::Parts x(args);
  const std::size_t mine = std::max<std::size_t>(1, x.bytes(x.rank));
  // In place my sum cannot build up at the start of the receive buffer
  // while other parts of the input are still to be sent from it.
  const Buffer tmp(args.memory(), mine), acc = x.in_place() ? Buffer(args.memory(), mine) : Buffer();
  Plan plan;
  plan.add("exchange", [x, tmp, acc] {
    const auto& g = x.args;
    const char* in = x.in();
    const int me = x.rank, n = x.count(me);
    char* sum = x.in_place() ? static_cast<char*>(acc.data()) : x.recv;
    g.memory().copy(sum, x.at(in, me), x.bytes(me));
    for (int s = 1; s < x.p; ++s) {
      const int to = x.mod(me + s), from = x.mod(me - s);
      MPI_Sendrecv(x.at(in, to), x.count(to), g.type, to, 0, tmp.data(), n, g.type, from, 0, g.comm, MPI_STATUS_IGNORE);
      x.reduce(sum, sum, tmp.data(), n);
    }
    x.deliver(sum);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(pairwise) {
  return {"pairwise", "pairwise exchange, P-1 steps, step s with the ranks s apart", {}, layout_free(pairwise)};
}

}  // namespace mcb::reduce_scatter
