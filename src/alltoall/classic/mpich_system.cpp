// What `system` runs in the simulation build where local work costs
// simulated time (system_mpi::algorithms' `charged`; docs/simulation.md,
// "What system pays in the simulation build"): the alltoall that SimGrid
// 3.32's MPICH selector (smpi/coll-selector:mpich, alltoall__mpich) picks for
// the block size s and P, run by mcb's implementation of it, so that the
// reference pays its rotations, packing and own-block copies like every
// algorithm held against it (SMPI's own pays none):
//   s < 256 B and P >= 8:  bruck
//   s < 32 KiB:            scatter_dest (Isend/Irecv in windows of 4)
//   else:                  pairwise (SMPI's ring, rank+i / rank-i, for even
//                          P; for odd P SMPI 3.32 picks its XOR pair
//                          exchange, which refuses a P that is not a power
//                          of two: pairwise is MPICH's own rule there)
// One phase, "alltoall", as SMPI's own; the plan's note gives the rule.
#include <string>

#include "mcb/alltoall.hpp"

namespace mcb::alltoall {

std::string mpich_choice(std::size_t block_bytes, int p) {
  if (block_bytes < 256 && p >= 8) return "bruck";
  if (block_bytes < 32768) return "scatter_dest";
  return "pairwise";
}

Plan mpich_system(const CollArgs& args, const Layout&, const Params&) {
  const std::string name = mpich_choice(args.block_bytes(), args.size());
  const Plan inner = name == "bruck" ? bruck(args) : name == "scatter_dest" ? scatter_dest(args) : pairwise(args);
  return system_mpi::charged_plan(system_mpi::Collective::alltoall, inner,
                                  "bruck below 256 B per block on 8 ranks or more, scatter_dest below 32 KiB, "
                                  "pairwise above");
}

}  // namespace mcb::alltoall
