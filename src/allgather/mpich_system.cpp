// What `system` runs in the simulation build where local work costs
// simulated time (system_mpi::algorithms' `charged`; docs/simulation.md,
// "What system pays in the simulation build"): the allgather that SimGrid
// 3.32's MPICH selector (allgather__mpich, Thakur et al. 2005) picks for the
// whole gathered size n = P s, run by mcb's implementation of it, so that
// the reference pays its copies like every algorithm held against it:
//   P a power of two and n < 512 KiB:  recursive_doubling
//   n <= 80 KiB:                       bruck
//   else:                              ring
// One phase, "allgather", as SMPI's own; the plan's note gives the rule.
#include <string>

#include "mcb/allgather.hpp"

namespace mcb::allgather {

std::string mpich_choice(std::size_t block_bytes, int p) {
  const std::size_t total = block_bytes * static_cast<std::size_t>(p);
  if ((p & (p - 1)) == 0 && total < 524288) return "recursive_doubling";
  if (total <= 81920) return "bruck";
  return "ring";
}

Plan mpich_system(const CollArgs& args, const Layout&, const Params&) {
  const std::string name = mpich_choice(args.block_bytes(), args.size());
  const Plan inner = name == "recursive_doubling" ? recursive_doubling(args)
                     : name == "bruck"            ? bruck(args)
                                                  : ring(args);
  return system_mpi::charged_plan(system_mpi::Collective::allgather, inner,
                                  "recursive_doubling for P a power of two below 512 KiB in all, bruck up to 80 "
                                  "KiB, ring above");
}

}  // namespace mcb::allgather
