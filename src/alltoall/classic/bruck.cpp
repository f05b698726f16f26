// bruck: the Bruck et al. (1997) alltoall for any P, as described in the
// many-core alltoall paper (alltoall-manycore-locality, Section 2). It is
// TRA with radix 2 (alltoall-tunable-radix-tra, Section III; tra.cpp):
//   rotate:      tmp[i] = send[(rank + i) % P]
//   exchange:    for k = 1, 2, 4, ... < P: the blocks i with bit k set go to
//                rank + k and arrive from rank - k (packed, one MPI_Sendrecv)
//   rotate_back: recv[(rank - i) % P] = tmp[i]
// Per rank: ceil(log2 P) messages, each of (number of i < P with bit k set)
// blocks, about P/2 blocks of s bytes.
#include "mcb/alltoall.hpp"
#include "tra/tra.hpp"

namespace mcb::alltoall {

Plan bruck(const CollArgs& args) { return detail::tra_plan(args, 2); }

MCB_DECLARE_ALGORITHM(bruck) {
  return {"bruck", "Bruck, ceil(log2 P) rounds of about P/2 blocks, any P", {}, layout_free(bruck)};
}

}  // namespace mcb::alltoall
