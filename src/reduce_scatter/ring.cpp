// ring: the ring reduce-scatter (Open MPI's ring; the first half of the
// ring allreduce, Patarasuk and Yuan 2009). Step s = 0..P-2: send the
// partial sum of part rank-s-1 to rank+1 (my own input of it in step 0),
// receive the partial sum of part rank-s-2 from rank-1 and add my input of
// it; after the last step the received part is mine, complete. Per rank:
// P-1 messages of about n/P bytes, n(P-1)/P bytes sent and reduced; every
// message goes to the next rank.
#include "mcb/reduce_scatter.hpp"
#include "parts.hpp"

namespace mcb::reduce_scatter {

Plan ring(const CollArgs& args) {
  const detail::Parts x(args);
  const std::size_t most = std::max<std::size_t>(1, static_cast<std::size_t>(x.largest()) * x.elem);
  const Buffer a(args.memory(), most), b(args.memory(), most);  // received partial sums, alternately
  Plan plan;
  plan.add("exchange", [x, a, b] {
    const auto& g = x.args;
    const char* in = x.in();
    const int me = x.rank, right = x.mod(me + 1), left = x.mod(me - 1);
    const char* out = x.at(in, x.mod(me - 1));
    for (int s = 0; s + 1 < x.p; ++s) {
      const int sent = x.mod(me - s - 1), got = x.mod(me - s - 2);
      char* into = static_cast<char*>(s % 2 == 0 ? a.data() : b.data());
      MPI_Sendrecv(out, x.count(sent), g.type, right, 0, into, x.count(got), g.type, left, 0, g.comm,
                   MPI_STATUS_IGNORE);
      out = into;
      if (s + 2 < x.p) {
        x.reduce(into, into, x.at(in, got), x.count(got));
        continue;
      }
      // The last step: part `me`. In place, my part's input may overlap
      // the start of the receive buffer, where the result goes.
      const std::size_t d = g.displ_of(me), c = static_cast<std::size_t>(x.count(me));
      const bool direct = !x.in_place() || d == 0 || d >= c;
      if (direct) {
        x.reduce(x.recv, x.at(in, me), into, x.count(me));
      } else {
        x.reduce(into, into, x.at(in, me), x.count(me));
        x.deliver(into);
      }
    }
    if (x.p == 1) x.deliver(in);
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(ring) {
  return {"ring", "ring, P-1 steps to the next rank, each a partial sum of one part", {}, layout_free(ring)};
}

}  // namespace mcb::reduce_scatter
