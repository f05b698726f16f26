// mcb_gatherv: the gatherv benchmark (rank 0 the root): the system's MPI_Gatherv and
// every algorithm of mcb::gather.
#include "mcb/gather.hpp"
#include "rooted_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::gather_spec("mcb_gatherv", &mcb::gather::v_algorithms(), true));
}
