// Counts, with the PMPI interposer, the messages Sparbit really sends, and
// checks them against sparbit_schedule(), rank by rank: on the first P ranks,
// for every P up to the run's size, rank r sends exactly `blocks` messages of
// one block to r + d in the step of distance d (the distances are distinct
// modulo P, so each destination names its step), P-1 messages in all. The
// result is compared with MPI_Allgather, in place and not, and the send
// buffer with its copy from before the call. Rank 0 prints the blocks per
// step it counted for every P ("P=6: blocks per step 1,1,3").
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "count_messages.hpp"
#include "mcb/allgather.hpp"

namespace {

int failures = 0;

void check(bool ok, int rank, const std::string& what) {
  if (!ok && failures++ < 20) std::fprintf(stderr, "test_sparbit_count: rank %d: FAIL %s\n", rank, what.c_str());
}

constexpr int kCount = 3;  // ints per block
constexpr long kBlock = kCount * static_cast<long>(sizeof(int));

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);

  for (int p = 1; p <= world_size; ++p) {
    MPI_Comm comm = MPI_COMM_NULL;  // the first p ranks: rank in comm == world rank
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < p ? 0 : MPI_UNDEFINED, world_rank, &comm);
    if (comm != MPI_COMM_NULL) {
      std::vector<int> send(kCount), expected(static_cast<std::size_t>(p) * kCount), recv(expected.size());
      for (int i = 0; i < kCount; ++i) send[static_cast<std::size_t>(i)] = world_rank * 1000 + i;
      const std::vector<int> pristine = send;
      MPI_Allgather(send.data(), kCount, MPI_INT, expected.data(), kCount, MPI_INT, comm);
      const std::string label = "P=" + std::to_string(p);

      std::fill(recv.begin(), recv.end(), -1);
      mcb::test::count_execution(mcb::allgather::sparbit({send.data(), recv.data(), kCount, MPI_INT, comm}), comm);
      std::string counted;
      long messages = 0, bytes = 0;
      for (const auto& step : mcb::allgather::sparbit_schedule(p)) {
        const long got = mcb::test::messages_to((world_rank + step.distance) % p);
        check(got == step.blocks, world_rank,
              label + " distance " + std::to_string(step.distance) + ": " + std::to_string(got) +
                  " messages, schedule " + std::to_string(step.blocks));
        counted += (counted.empty() ? "" : ",") + std::to_string(got);
      }
      for (int w = 0; w < p; ++w) {
        messages += mcb::test::messages_to(w);
        bytes += mcb::test::bytes_to(w);
      }
      check(messages == p - 1 && bytes == (p - 1) * kBlock, world_rank,
            label + ": " + std::to_string(messages) + " messages of " + std::to_string(bytes) + " bytes in all");
      check(recv == expected, world_rank, label + ": result differs from MPI_Allgather");
      check(send == pristine, world_rank, label + ": send buffer modified");

      std::fill(recv.begin(), recv.end(), -1);
      std::copy(send.begin(), send.end(), recv.begin() + static_cast<long>(world_rank) * kCount);
      mcb::allgather::sparbit({MPI_IN_PLACE, recv.data(), kCount, MPI_INT, comm}).execute();
      check(recv == expected, world_rank, label + " in place: result differs from MPI_Allgather");
      if (world_rank == 0) std::printf("P=%d: blocks per step %s\n", p, counted.empty() ? "none" : counted.c_str());
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) std::printf(total ? "%d counts or results differ\n" : "all counts match the schedule\n", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
