// bruck: Bruck's allgather (allgather-sparbit, Section II-A), any P. In a
// scratch buffer x of P blocks, x[j] becomes block rank+j:
//   exchange: x[0] = my block; for d = 1, 2, 4, ... < P send x[0..n) to
//             rank-d and receive x[d..d+n) from rank+d, n = min(d, P-d)
//   rotate:   recv[(rank + j) % P] = x[j] (two copies)
// Per rank: ceil(log2 P) messages, P-1 blocks in all (the last step sends
// only the P-d blocks still missing when P is not a power of two); the
// distance doubles with the data.
#include "blocks.hpp"
#include "mcb/allgather.hpp"

namespace mcb::allgather {

Plan bruck(const CollArgs& args) {
  const detail::Blocks b(args);
  // The scratch holds the blocks in the order rank, rank + 1, ... (mod P).
  const Buffer scratch(args.memory(), static_cast<std::size_t>(b.span(0, b.p)) * b.elem);
  auto* x = scratch.as<char>();
  Plan plan;
  plan.add("exchange", [b, scratch, x] {
    b.args.memory().copy(x, b.own(), b.bytes(b.rank));
    for (int d = 1; d < b.p; d *= 2) {
      const int n = std::min(d, b.p - d), to = b.mod(b.rank - d), from = b.mod(b.rank + d);
      MPI_Sendrecv(x, b.rotated(b.rank, n), b.args.type, to, 0, x + b.rotated(b.rank, d) * b.elem, b.rotated(from, n),
                   b.args.type, from, 0, b.args.comm, MPI_STATUS_IGNORE);
    }
  });
  plan.add("rotate", [b, scratch, x] {
    const std::size_t head = static_cast<std::size_t>(b.span(b.rank, b.p)) * b.elem;
    b.args.memory().copy(b.at(b.rank), x, head);
    b.args.memory().copy(b.at(0), x + head, static_cast<std::size_t>(b.span(0, b.rank)) * b.elem);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(bruck) {
  return {"bruck", "Bruck, ceil(log2 P) steps of doubling distance, then a rotation, any P", {}, layout_free(bruck)};
}

}  // namespace mcb::allgather
