// mcb_allgatherv: the allgatherv benchmark (MPI_Allgatherv and every
// allgather algorithm of mcb::allgather on every rank's own count).
#include "allgatherv_spec.hpp"
#include "mcb/allgather.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::allgatherv_spec("mcb_allgatherv", &mcb::allgather::v_algorithms()));
}
