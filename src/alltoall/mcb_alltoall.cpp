// mcb_alltoall: the alltoall benchmark (every algorithm of mcb::alltoall).
#include "alltoall_spec.hpp"
#include "mcb/alltoall.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv, mcb::bench::alltoall_spec("mcb_alltoall", &mcb::alltoall::algorithms()));
}
