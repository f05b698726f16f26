// mcb_allreduce: the allreduce benchmark (every algorithm of mcb::allreduce).
#include "allreduce_spec.hpp"
#include "mcb/allreduce.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::allreduce_spec("mcb_allreduce", &mcb::allreduce::algorithms()));
}
