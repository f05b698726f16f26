// Counts, with the PMPI interposer, the messages and bytes that tra and tra2
// really send, and checks them against the model (mcb/tra_model.hpp), rank
// by rank:
//   tra  on the first P ranks, every P <= MAX_TRA and every radix 2..P:
//        K messages and D blocks
//   tra2 on the first P ranks, every P <= MAX_TRA2, every Q dividing P (N =
//        P/Q virtual nodes, block or cyclic), every r1 in 2..Q and r2 in
//        2..N: K(Q,r1) messages inside the node and K(N,r2) across nodes,
//        N*D(Q,r1) + Q*D(N,r2) blocks in all
// Every result is compared with MPI_Alltoall and the send buffer with its
// copy from before the call.
//
// Usage: test_tra_count MAX_TRA MAX_TRA2 [block|cyclic]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "count_messages.hpp"
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "mcb/tra_model.hpp"

namespace {

int failures = 0, checked = 0;

void check(bool ok, int rank, const std::string& what) {
  ++checked;
  if (!ok && failures++ < 20) std::fprintf(stderr, "test_tra_count: rank %d: FAIL %s\n", rank, what.c_str());
}

constexpr int kCount = 3;  // ints per block
constexpr long kBlock = kCount * static_cast<long>(sizeof(int));

struct Traffic {
  long messages = 0, bytes = 0, inter_messages = 0;
};

// Runs `plan` once with counting on; `off_node[w]` marks the world ranks on
// other nodes than mine.
Traffic count(const mcb::Plan& plan, MPI_Comm comm, const std::vector<bool>& off_node) {
  mcb::test::count_execution(plan, comm);
  Traffic t;
  for (std::size_t w = 0; w < off_node.size(); ++w) {
    t.messages += mcb::test::messages_to(static_cast<int>(w));
    t.bytes += mcb::test::bytes_to(static_cast<int>(w));
    if (off_node[w]) t.inter_messages += mcb::test::messages_to(static_cast<int>(w));
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const int max_tra = std::min(argc > 1 ? std::atoi(argv[1]) : world_size, world_size);
  const int max_tra2 = std::min(argc > 2 ? std::atoi(argv[2]) : 16, world_size);
  const mcb::RankOrder order = argc > 3 ? mcb::parse_rank_order(argv[3]) : mcb::RankOrder::block;
  long tra_configs = 0, tra2_configs = 0;

  for (int p = 1; p <= std::max(max_tra, max_tra2); ++p) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank < p ? 0 : MPI_UNDEFINED, world_rank, &comm);
    if (comm != MPI_COMM_NULL) {
      std::vector<int> send(static_cast<std::size_t>(p) * kCount), expected(send.size()), recv(send.size());
      for (std::size_t i = 0; i < send.size(); ++i) send[i] = world_rank * 100000 + static_cast<int>(i);
      const std::vector<int> pristine = send;
      MPI_Alltoall(send.data(), kCount, MPI_INT, expected.data(), kCount, MPI_INT, comm);
      mcb::CollArgs args{send.data(), recv.data(), kCount, MPI_INT, comm};
      auto verify = [&](const std::string& label) {
        check(recv == expected, world_rank, label + ": result differs from MPI_Alltoall");
        check(send == pristine, world_rank, label + ": send buffer modified");
      };

      for (int r = 2; p <= max_tra && r <= std::max(p, 2); ++r) {
        mcb::Params params;
        params.set("radix", std::to_string(r));
        std::fill(recv.begin(), recv.end(), -1);
        const Traffic t = count(mcb::alltoall::tra(args, params), comm, std::vector<bool>(world_size, false));
        const mcb::alltoall::TraCost model = mcb::alltoall::tra_cost(p, r);
        const std::string label = "tra P=" + std::to_string(p) + " r=" + std::to_string(r);
        check(t.messages == model.rounds, world_rank,
              label + ": " + std::to_string(t.messages) + " messages, model K = " + std::to_string(model.rounds));
        check(t.bytes == model.blocks * kBlock, world_rank,
              label + ": " + std::to_string(t.bytes / kBlock) + " blocks, model D = " + std::to_string(model.blocks));
        verify(label);
        ++tra_configs;
      }

      for (int q = 1; p <= max_tra2 && q <= p; ++q) {
        if (p % q != 0) continue;
        mcb::LayoutOptions options;
        options.ranks_per_node = q;
        options.order = order;
        mcb::Layout layout = mcb::Layout::create(comm, options);
        std::vector<int> world_of(static_cast<std::size_t>(p));
        MPI_Allgather(&world_rank, 1, MPI_INT, world_of.data(), 1, MPI_INT, layout.comm());
        std::vector<bool> off_node(static_cast<std::size_t>(world_size), false);
        for (int k = 0; k < p; ++k) off_node[world_of[k]] = layout.node_of()[k] != layout.node();
        mcb::CollArgs on_layout = args.on(layout.comm());
        std::vector<int> expected_here(send.size());
        MPI_Alltoall(send.data(), kCount, MPI_INT, expected_here.data(), kCount, MPI_INT, layout.comm());
        const int nodes = p / q;
        for (int r1 = 2; r1 <= std::max(q, 2); ++r1)
          for (int r2 = 2; r2 <= std::max(nodes, 2); ++r2) {
            mcb::Params params;
            params.set("radix-intra", std::to_string(r1));
            params.set("radix-inter", std::to_string(r2));
            std::fill(recv.begin(), recv.end(), -1);
            const Traffic t = count(mcb::alltoall::tra2(on_layout, layout, params), layout.comm(), off_node);
            const mcb::alltoall::Tra2Cost model = mcb::alltoall::tra2_cost(nodes, q, r1, r2);
            const std::string label = "tra2 P=" + std::to_string(p) + " Q=" + std::to_string(q) +
                                      " r1=" + std::to_string(r1) + " r2=" + std::to_string(r2);
            check(
                t.messages == model.rounds, world_rank,
                label + ": " + std::to_string(t.messages) + " messages, model K1+K2 = " + std::to_string(model.rounds));
            check(t.inter_messages == model.inter.rounds, world_rank,
                  label + ": " + std::to_string(t.inter_messages) +
                      " inter-node messages, model K2 = " + std::to_string(model.inter.rounds));
            check(t.bytes == model.blocks * kBlock, world_rank,
                  label + ": " + std::to_string(t.bytes / kBlock) +
                      " blocks, model N*D1+Q*D2 = " + std::to_string(model.blocks));
            check(recv == expected_here, world_rank, label + ": result differs from MPI_Alltoall");
            check(send == pristine, world_rank, label + ": send buffer modified");
            ++tra2_configs;
          }
      }
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank == 0) {
    std::printf("# ranks: %d\n", world_size);
    std::printf("tra: P = 1..%d, every radix: %ld configurations; tra2: P = 1..%d, every Q, r1, r2 (%s): %ld\n",
                max_tra, tra_configs, max_tra2, mcb::to_string(order).c_str(), tra2_configs);
    std::printf(total ? "%d counts or results differ\n" : "all counts match the model\n", total);
  }
  MPI_Finalize();
  return total ? 1 : 0;
}
