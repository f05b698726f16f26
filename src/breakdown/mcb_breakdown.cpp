// mcb_breakdown: one algorithm broken down into its phases (gather,
// inter_node, intra_node, scatter, repack, ...) over message sizes
// (-m), node counts (--nodes) and parameter lists (--procs-per-group 1,2,4),
// in both phase modes by default: the tables behind the alltoall paper's
// Figures 13-16. Same harness, options and CSV schema as mcb_alltoall.
#include "alltoall_spec.hpp"
#include "mcb/alltoall.hpp"

int main(int argc, char** argv) {
  auto spec = mcb::bench::alltoall_spec("mcb_breakdown", &mcb::alltoall::algorithms());
  spec.tool = mcb::bench::Tool::breakdown;
  return mcb::bench::run_benchmark(argc, argv, spec);
}
