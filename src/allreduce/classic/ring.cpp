// ring: the ring allreduce (Patarasuk and Yuan 2009; Algorithm 1 of
// allreduce-multi-process-per-gpu) on the vector cut into P chunks.
//   reduce_scatter: recv = send; step i = 0..P-2: send chunk rank-i to
//                   rank+1, receive chunk rank-i-1 from rank-1 and reduce
//                   it into mine; rank then holds chunk rank+1 complete
//   allgather:      step i = 0..P-2: send chunk rank+1-i to rank+1, receive
//                   chunk rank-i from rank-1 into place
// Per rank: 2(P-1) messages of about n/P bytes, 2n(P-1)/P bytes sent,
// n(P-1)/P bytes reduced; every message goes to the next rank.
#include "mcb/allreduce.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

Plan ring(const CollArgs& args) {
  const int p = args.size(), me = args.rank();
  const detail::Vector v(args, p);
  const Buffer tmp(args.memory(), v.bytes(0, 1));  // the first chunk is the longest
  auto mod = [p](int i) { return ((i % p) + p) % p; };
  const int right = mod(me + 1), left = mod(me - 1);
  Plan plan;
  plan.add("reduce_scatter", [v, tmp, me, p, right, left, mod] {
    const auto& a = v.args;
    v.copy_in();
    for (int i = 0; i < p - 1; ++i) {
      const int out = mod(me - i), in = mod(me - i - 1);
      MPI_Sendrecv(v.at(out), v.count(out, out + 1), a.type, right, 0, tmp.data(), v.count(in, in + 1), a.type, left, 0,
                   a.comm, MPI_STATUS_IGNORE);
      v.reduce(v.at(in), tmp.data(), v.count(in, in + 1));
    }
  });
  plan.add("allgather", [v, me, p, right, left, mod] {
    const auto& a = v.args;
    for (int i = 0; i < p - 1; ++i) {
      const int out = mod(me + 1 - i), in = mod(me - i);
      MPI_Sendrecv(v.at(out), v.count(out, out + 1), a.type, right, 0, v.at(in), v.count(in, in + 1), a.type, left, 0,
                   a.comm, MPI_STATUS_IGNORE);
    }
  });
  return plan;
}

MCB_DECLARE_ALGORITHM(ring) {
  return {"ring", "ring reduce_scatter then ring allgather, 2(P-1) steps of n/P", {}, layout_free(ring)};
}

}  // namespace mcb::allreduce
