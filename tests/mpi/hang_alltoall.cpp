// A benchmark binary whose algorithm never finishes, for --timeout (issue 47):
// `hang` is the pairwise alltoall, and from --hang-from bytes on, after
// --hang-after correct calls at that size, rank --stuck-rank waits in
// MPI_Recv for a message nobody sends while the others go on to the loop's
// barrier. Not in any production registry: the sweeps that run every
// algorithm of --list never see it.
#include <mpi.h>

#include <memory>

#include "alltoall_spec.hpp"
#include "mcb/alltoall.hpp"

namespace {

mcb::Plan hang(const mcb::CollArgs& a, const mcb::Layout&, const mcb::Params& params) {
  mcb::Plan plan = mcb::alltoall::pairwise(a);
  const long from = params.get_int("hang-from", 0), after = params.get_int("hang-after", 0);
  const int stuck = static_cast<int>(params.get_int("stuck-rank", 1) % a.size());
  if (static_cast<long>(a.block_bytes()) < from) return plan;
  auto calls = std::make_shared<long>(0);
  plan.add("hang", [a, after, stuck, calls] {
    if (a.rank() != stuck || (*calls)++ < after) return;
    char byte = 0;
    MPI_Recv(&byte, 1, MPI_CHAR, MPI_ANY_SOURCE, 4747, a.comm, MPI_STATUS_IGNORE);  // never sent
  });
  return plan;
}

const std::vector<mcb::Algorithm>& hanging() {
  static const std::vector<mcb::Algorithm> list = {
      {"hang",
       "pairwise, then one rank blocks forever in MPI_Recv",
       {{"hang-from", "block bytes from which it hangs", "0"},
        {"hang-after", "correct calls at such a size before it hangs", "0"},
        {"stuck-rank", "the rank that blocks (modulo the ranks)", "1"}},
       hang},
      {"pairwise", "correct", {}, mcb::layout_free(mcb::alltoall::pairwise)}};
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv, mcb::bench::alltoall_spec("mcb_hang_alltoall", &hanging()));
}
