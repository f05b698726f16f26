// recursive_halving: the recursive-halving reduce-scatter (Thakur,
// Rabenseifner and Gropp 2005; MPICH's and Open MPI's recursive_halving),
// on pof2 = the largest power of two <= P ranks, parts counted in elements
// so that uneven parts cost no padding.
//   fold:     the first 2*rem ranks (rem = P - pof2) pair up; the even one
//             sends its whole vector to the odd one, which adds it to its
//             own and works on as new rank rank/2 for parts 2n and 2n+1
//   exchange: mask = pof2/2 ... 1: keep the half of my new-rank range that
//             holds my new rank, send the other half to new rank XOR mask
//             and add its copy of my half to mine
//   unfold:   the odd rank of a pair sends the even one its part
// Per rank: log2(pof2) messages of n/2, n/4, ... (n(pof2-1)/pof2 bytes
// sent and reduced), plus the fold's n and the unfold's n/P on 2*rem ranks.
#include "mcb/reduce_scatter.hpp"
#include "parts.hpp"
#include "vector.hpp"  // allreduce's Fold: the same pairing as recursive doubling's

namespace mcb::reduce_scatter {

namespace {

// The first original part of new rank n (n = pof2: P).
int first_part(const allreduce::detail::Fold& f, int n) { return n < f.rem ? 2 * n : n + f.rem; }

}  // namespace

Plan recursive_halving(const CollArgs& args) {
  const detail::Parts x(args);
  const allreduce::detail::Fold f(x.rank, x.p);
  const std::size_t all = std::max<std::size_t>(1, static_cast<std::size_t>(x.span(0, x.p)) * x.elem);
  const Buffer work(args.memory(), all), tmp(args.memory(), all);
  // The vector as summed so far: my input, then the work buffer.
  auto from = std::make_shared<const char*>(nullptr);
  Plan plan;
  plan.add("fold", [x, f, work, tmp, from] {
    const auto& g = x.args;
    const char* in = x.in();
    *from = in;
    if (x.rank >= 2 * f.rem) return;
    const int n = x.span(0, x.p);
    if (f.folded()) {
      MPI_Send(in, n, g.type, x.rank + 1, 0, g.comm);
      return;
    }
    MPI_Recv(tmp.data(), n, g.type, x.rank - 1, 0, g.comm, MPI_STATUS_IGNORE);
    x.reduce(work.data(), in, tmp.data(), n);
    *from = static_cast<const char*>(work.data());
  });
  plan.add("exchange", [x, f, work, tmp, from] {
    if (f.folded()) return;
    const auto& g = x.args;
    int lo = 0, hi = f.pof2;  // new ranks whose parts I hold
    for (int mask = f.pof2 / 2; mask > 0; mask >>= 1) {
      const int mid = (lo + hi) / 2;
      const bool lower = (f.newrank & mask) == 0;
      const int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
      const int send_lo = lower ? mid : lo, send_hi = lower ? hi : mid;
      const int k0 = first_part(f, keep_lo), k1 = first_part(f, keep_hi);
      const int s0 = first_part(f, send_lo), s1 = first_part(f, send_hi);
      MPI_Sendrecv(x.at(*from, s0), x.span(s0, s1), g.type, f.real(f.newrank ^ mask), 0, tmp.data(), x.span(k0, k1),
                   g.type, f.real(f.newrank ^ mask), 0, g.comm, MPI_STATUS_IGNORE);
      char* w = static_cast<char*>(work.data());
      x.reduce(x.at(w, k0), x.at(*from, k0), tmp.data(), x.span(k0, k1));
      *from = w;
      lo = keep_lo;
      hi = keep_hi;
    }
  });
  plan.add("unfold", [x, f, from] {
    const auto& g = x.args;
    if (f.folded()) {
      MPI_Recv(x.recv, x.count(x.rank), g.type, x.rank + 1, 0, g.comm, MPI_STATUS_IGNORE);
      return;
    }
    if (x.rank < 2 * f.rem) MPI_Send(x.at(*from, x.rank - 1), x.count(x.rank - 1), g.type, x.rank - 1, 0, g.comm);
    // My part; in place with no step (P = 1) it is where it belongs.
    x.deliver(x.at(*from, x.rank));
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(recursive_halving) {
  return {"recursive_halving",
          "recursive halving, log2 P steps of halving parts, any P (extra ranks fold in)",
          {},
          layout_free(recursive_halving)};
}

}  // namespace mcb::reduce_scatter
