// recursive_doubling: recursive doubling allreduce (Thakur, Rabenseifner and
// Gropp 2005; the classic baseline of allreduce-shared-memory-multiradix).
//   fold:     recv = send; with P not a power of two, the first 2*rem ranks
//             pair up and the even one hands its vector to the odd one
//   exchange: for mask = 1, 2, ..., pof2/2 swap the whole vector with new
//             rank XOR mask and reduce it into mine
//   unfold:   the odd ranks of the pairs send the result back
// Per rank: log2(pof2) messages of the whole vector (n bytes), plus one
// for the folded pairs; log2(pof2) local reductions of n bytes.
#include "mcb/allreduce.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

Plan recursive_doubling(const CollArgs& args) {
  const detail::Vector v(args, 1);
  const detail::Fold f(args.rank(), args.size());
  const Buffer tmp(args.memory(), args.block_bytes());
  Plan plan;
  plan.add("fold", [v, f, tmp] {
    v.copy_in();
    detail::fold_in(v, f, tmp.data());
  });
  plan.add("exchange", [v, f, tmp] {
    if (f.folded()) return;
    const auto& a = v.args;
    for (int mask = 1; mask < f.pof2; mask <<= 1) {
      const int partner = f.real(f.newrank ^ mask);
      MPI_Sendrecv(v.recv, a.count, a.type, partner, 0, tmp.data(), a.count, a.type, partner, 0, a.comm,
                   MPI_STATUS_IGNORE);
      v.reduce(v.recv, tmp.data(), a.count);
    }
  });
  plan.add("unfold", [v, f] { detail::fold_out(v, f); });
  return plan;
}

MCB_DECLARE_ALGORITHM(recursive_doubling) {
  return {"recursive_doubling",
          "recursive doubling, log2 P exchanges of the whole vector, any P",
          {},
          layout_free(recursive_doubling)};
}

}  // namespace mcb::allreduce
