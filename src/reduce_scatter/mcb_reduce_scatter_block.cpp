// mcb_reduce_scatter_block: the reduce_scatter_block benchmark (the
// system's MPI_Reduce_scatter_block and every algorithm of
// mcb::reduce_scatter on equal parts).
#include "mcb/reduce_scatter.hpp"
#include "reduce_scatter_spec.hpp"

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(
      argc, argv,
      mcb::bench::reduce_scatter_spec("mcb_reduce_scatter_block", &mcb::reduce_scatter::block_algorithms(), true));
}
