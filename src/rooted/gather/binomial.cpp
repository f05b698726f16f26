// binomial: the binomial-tree gather (Open MPI's and MPICH's binomial),
// rooted at rank 0. Rank r's subtree is the ranks [r, r + span): for
// k = 0, 1, ... while bit k of r is clear, r receives the subtree of
// r + 2^k (2^k blocks or fewer) next to what it holds; then it sends all it
// holds to r - lowbit(r). The blocks of a subtree are contiguous in rank
// order, so each step is one message into place: straight into rank 0's
// receive buffer there, into a scratch buffer of the subtree elsewhere (a
// leaf sends its block from where it is). Rank 0: ceil(log2 P) messages,
// (P-1)/P of the data; a rank with bit k lowest: k messages in, one out.
#include "mcb/gather.hpp"
#include "rooted_blocks.hpp"

namespace mcb::gather {

Plan binomial(const CollArgs& args) {
  const rooted::Blocks b(args);
  const int me = b.rank, span = b.span(me);
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  const void* own = in_place ? b.at(args.recvbuf, 0, me) : args.sendbuf;
  // Where my subtree's blocks gather: rank 0's receive buffer, or scratch
  // (a leaf has nothing to gather and sends its block as it is).
  const Buffer scratch =
      me == 0 || span == 1 ? Buffer() : Buffer(args.memory(), std::max<std::size_t>(1, b.bytes(me, me + span)));
  void* held = me == 0 ? args.recvbuf : scratch.data();
  Plan plan;
  plan.add("gather", [b, me, span, own, held, scratch, in_place] {
    const auto& a = b.args;
    if (span == 1 && me != 0) {
      MPI_Send(own, a.count, a.type, me - (me & -me), 0, a.comm);
      return;
    }
    if (me != 0 || !in_place) a.memory().copy(held, own, b.bytes(me, me + 1));
    for (int mask = 1; mask < span; mask <<= 1) {
      const int child = me + mask;
      if (child >= b.p) break;
      MPI_Recv(b.at(held, me, child), b.count(child, child + mask), a.type, child, 0, a.comm, MPI_STATUS_IGNORE);
    }
    if (me != 0) MPI_Send(held, b.count(me, me + span), a.type, me - (me & -me), 0, a.comm);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(binomial) {
  return {"binomial",
          "binomial tree to rank 0, ceil(log2 P) steps, subtrees gathered contiguously",
          {},
          layout_free(binomial)};
}

}  // namespace mcb::gather
