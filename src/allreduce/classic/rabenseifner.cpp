// rabenseifner: Rabenseifner's allreduce (Thakur, Rabenseifner and Gropp
// 2005): reduce_scatter by recursive halving, then allgather by recursive
// doubling, on the vector cut into pof2 chunks (pof2 = the largest power of
// two <= P; the other ranks fold in first, as in recursive_doubling).
//   fold:           recv = send; folded pairs hand their vector over
//   reduce_scatter: mask = pof2/2 ... 1: keep the half of my chunk range
//                   that holds my new rank, send the other half to new rank
//                   XOR mask and reduce its copy of my half into mine
//   allgather:      mask = 1 ... pof2/2: swap my 2^k gathered chunks with
//                   new rank XOR mask
//   unfold:         the odd ranks of the pairs send the result back
// Per rank: 2*log2(pof2) messages, about 2n(pof2-1)/pof2 bytes sent,
// n(pof2-1)/pof2 bytes reduced.
#include "mcb/allreduce.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

Plan rabenseifner(const CollArgs& args) {
  const detail::Fold f(args.rank(), args.size());
  const detail::Vector v(args, f.pof2);
  const Buffer tmp(args.memory(), args.block_bytes());
  Plan plan;
  plan.add("fold", [v, f, tmp] {
    v.copy_in();
    detail::fold_in(v, f, tmp.data());
  });
  plan.add("reduce_scatter", [v, f, tmp] {
    if (f.folded()) return;
    const auto& a = v.args;
    int lo = 0, hi = f.pof2;
    for (int mask = f.pof2 / 2; mask > 0; mask >>= 1) {
      const int partner = f.real(f.newrank ^ mask), mid = (lo + hi) / 2;
      const bool lower = (f.newrank & mask) == 0;
      const int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
      const int send_lo = lower ? mid : lo, send_hi = lower ? hi : mid;
      MPI_Sendrecv(v.at(send_lo), v.count(send_lo, send_hi), a.type, partner, 0, tmp.data(), v.count(keep_lo, keep_hi),
                   a.type, partner, 0, a.comm, MPI_STATUS_IGNORE);
      v.reduce(v.at(keep_lo), tmp.data(), v.count(keep_lo, keep_hi));
      lo = keep_lo;
      hi = keep_hi;
    }
  });
  plan.add("allgather", [v, f] {
    if (f.folded()) return;
    const auto& a = v.args;
    for (int mask = 1; mask < f.pof2; mask <<= 1) {
      const int partner_new = f.newrank ^ mask, partner = f.real(partner_new);
      const int mine = f.newrank & ~(mask - 1), theirs = partner_new & ~(mask - 1);
      MPI_Sendrecv(v.at(mine), v.count(mine, mine + mask), a.type, partner, 0, v.at(theirs),
                   v.count(theirs, theirs + mask), a.type, partner, 0, a.comm, MPI_STATUS_IGNORE);
    }
  });
  plan.add("unfold", [v, f] { detail::fold_out(v, f); });
  return plan;
}

MCB_DECLARE_ALGORITHM(rabenseifner) {
  return {"rabenseifner",
          "reduce_scatter by recursive halving, allgather by recursive doubling, any P",
          {},
          layout_free(rabenseifner)};
}

}  // namespace mcb::allreduce
