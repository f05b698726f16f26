// mcb_allgather: the allgather benchmark (every algorithm of mcb::allgather).
#include "allgather_spec.hpp"
#include "mcb/allgather.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::allgather_spec("mcb_allgather", &mcb::allgather::algorithms()));
}
