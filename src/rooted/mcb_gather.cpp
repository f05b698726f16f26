// mcb_gather: the gather benchmark (rank 0 the root): the system's MPI_Gather and
// every algorithm of mcb::gather.
#include "mcb/gather.hpp"
#include "rooted_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::gather_spec("mcb_gather", &mcb::gather::algorithms(), false));
}
