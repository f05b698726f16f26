// mcb_scatter: the scatter benchmark (rank 0 the root): the system's MPI_Scatter and
// every algorithm of mcb::scatter.
#include "mcb/scatter.hpp"
#include "rooted_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv,
                                   mcb::bench::scatter_spec("mcb_scatter", &mcb::scatter::algorithms(), false));
}
