// mcb_reduce: the reduce benchmark (to rank 0): the system's MPI_Reduce and
// the shared-memory tree.
#include "mcb/allreduce.hpp"
#include "rooted_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::reduce_spec("mcb_reduce", &mcb::allreduce::reduce_algorithms()));
}
