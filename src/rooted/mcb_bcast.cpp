// mcb_bcast: the bcast benchmark (from rank 0): the system's MPI_Bcast and
// the shared-memory tree.
#include "mcb/allreduce.hpp"
#include "rooted_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::bcast_spec("mcb_bcast", &mcb::allreduce::bcast_algorithms()));
}
