// binomial: the binomial-tree scatter (Open MPI's and MPICH's binomial)
// from rank 0, the gather's tree run backwards. Rank r's subtree is the
// ranks [r, r + span); r receives its subtree's blocks (contiguous in rank
// order) from r - lowbit(r), then for k from the highest below lowbit(r)
// down sends r + 2^k the blocks of its subtree, the largest subtree first;
// then it keeps its own block. Rank 0 sends straight from its send buffer,
// a leaf receives straight into its receive buffer, the others hold their
// subtree in scratch. Rank 0: ceil(log2 P) messages, (P-1)/P of the data.
#include <bit>

#include "mcb/scatter.hpp"
#include "rooted_blocks.hpp"

namespace mcb::scatter {

Plan binomial(const CollArgs& args) {
  const rooted::Blocks b(args);
  const int me = b.rank, span = b.span(me);
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  const bool leaf = me != 0 && span == 1;
  const Buffer scratch =
      me == 0 || leaf ? Buffer() : Buffer(args.memory(), std::max<std::size_t>(1, b.bytes(me, me + span)));
  // Where my subtree's blocks are: rank 0's send data, a leaf's receive
  // buffer, or scratch.
  const void* held = me == 0 ? (in_place ? args.recvbuf : args.sendbuf) : leaf ? args.recvbuf : scratch.data();
  // The children, farthest (largest subtree) first.
  const int top = span > 1 ? static_cast<int>(std::bit_floor(static_cast<unsigned>(span - 1))) : 0;
  Plan plan;
  plan.add("scatter", [b, me, span, top, held, scratch, in_place, leaf] {
    const auto& a = b.args;
    if (me != 0)
      MPI_Recv(const_cast<void*>(held), b.count(me, me + span), a.type, me - (me & -me), 0, a.comm, MPI_STATUS_IGNORE);
    if (leaf) return;
    for (int mask = top; mask > 0; mask >>= 1) {
      const int child = me + mask;
      if (child < b.p) MPI_Send(b.at(held, me, child), b.count(child, child + mask), a.type, child, 0, a.comm);
    }
    if (me != 0 || !in_place) a.memory().copy(a.recvbuf, held, b.bytes(me, me + 1));
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(binomial) {
  return {"binomial",
          "binomial tree from rank 0, ceil(log2 P) steps, subtrees sent contiguously",
          {},
          layout_free(binomial)};
}

}  // namespace mcb::scatter
