// mcb_reduce_scatter: the reduce_scatter benchmark (the system's
// MPI_Reduce_scatter and every algorithm of mcb::reduce_scatter on the
// parts --counts gives).
#include "mcb/reduce_scatter.hpp"
#include "reduce_scatter_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(
      argc, argv, mcb::bench::reduce_scatter_spec("mcb_reduce_scatter", &mcb::reduce_scatter::algorithms(), false));
}
