// Counts the inter-node messages and bytes of every node-aware alltoall
// (pairwise and nonblocking inner exchanges, every leader and group count
// that divides ranks per node) with the PMPI interposer, and checks them
// against the paper's formulas, per node (Q ranks per node, N nodes, s bytes
// per block):
//   pairwise Q*Q*(N-1)   hierarchical N-1          multileader L*L*(N-1)
//   node_aware Q*(N-1)   locality_aware Q*G*(N-1)  multileader_node_aware L*(N-1)
// and Q*Q*(N-1)*s bytes for all of them (off-node data leaves once). It
// also checks the degenerate cases the paper states: multileader and
// multileader_node_aware with 1 leader per node are hierarchical,
// multileader_node_aware with every rank a leader and locality_aware with 1
// group per node are node_aware: same results and the same message counts,
// inter-node and in all. Every result is compared with MPI_Alltoall.
//
// Usage: test_message_count RANKS_PER_NODE [block|cyclic]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "count_messages.hpp"
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"

namespace {

struct Outcome {
  long inter_messages = 0, inter_bytes = 0, all_messages = 0, all_bytes = 0;  // per node
  std::vector<int> result;
};

int failures = 0;

void check(bool ok, int rank, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "test_message_count: rank %d: FAIL %s\n", rank, what.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  mcb::LayoutOptions options;
  options.ranks_per_node = argc > 1 ? std::atoi(argv[1]) : 0;
  options.order = argc > 2 ? mcb::parse_rank_order(argv[2]) : mcb::RankOrder::block;
  mcb::Layout layout = mcb::Layout::create(MPI_COMM_WORLD, options);
  const int p = layout.size(), me = layout.rank(), q = layout.ranks_per_node(), n = layout.num_nodes();
  const int count = 3;  // ints per block: 12 bytes
  const long block = count * static_cast<long>(sizeof(int));

  // Node of every world rank (counts are kept per world rank).
  std::vector<int> world_of(static_cast<std::size_t>(p)), world_node(static_cast<std::size_t>(world_size));
  MPI_Allgather(&world_rank, 1, MPI_INT, world_of.data(), 1, MPI_INT, layout.comm());
  for (int r = 0; r < p; ++r) world_node[world_of[r]] = layout.node_of()[r];

  std::vector<int> send(static_cast<std::size_t>(p) * count), expected(send.size());
  for (std::size_t i = 0; i < send.size(); ++i) send[i] = me * 100000 + static_cast<int>(i);
  MPI_Alltoall(send.data(), count, MPI_INT, expected.data(), count, MPI_INT, layout.comm());

  auto run = [&](const std::string& algo, const mcb::Params& params) {
    std::vector<int> recv(send.size(), -1);
    mcb::CollArgs args{send.data(), recv.data(), count, MPI_INT, layout.comm()};
    const mcb::Algorithm& a = mcb::alltoall::find(algo);
    mcb::Plan plan = mcb::agree_on(layout.comm(), [&] { return a.make(args, layout, params); });
    mcb::test::count_execution(plan, layout.comm());
    Outcome o;
    long mine[4] = {0, 0, 0, 0};
    for (int w = 0; w < world_size; ++w) {
      const bool off = world_node[w] != layout.node();
      mine[0] += off ? mcb::test::messages_to(w) : 0;
      mine[1] += off ? mcb::test::bytes_to(w) : 0;
      mine[2] += mcb::test::messages_to(w);
      mine[3] += mcb::test::bytes_to(w);
    }
    long node[4];
    MPI_Allreduce(mine, node, 4, MPI_LONG, MPI_SUM, layout.node_comm());
    o = {node[0], node[1], node[2], node[3], recv};
    return o;
  };

  std::map<std::string, Outcome> seen;
  auto expect = [&](const std::string& algo, const std::string& inner, const std::string& pname, int pval,
                    long messages) {
    mcb::Params params;
    params.set("inner", inner);
    std::string label = algo + " inner=" + inner;
    if (!pname.empty()) {
      params.set(pname, std::to_string(pval));
      label += " " + pname + "=" + std::to_string(pval);
    }
    Outcome o = run(algo, params);
    const long bytes = static_cast<long>(q) * q * (n - 1) * block;
    check(o.result == expected, me, label + ": result differs from MPI_Alltoall");
    check(o.inter_messages == messages, me,
          label + ": " + std::to_string(o.inter_messages) + " inter-node messages per node, expected " +
              std::to_string(messages));
    check(
        o.inter_bytes == bytes, me,
        label + ": " + std::to_string(o.inter_bytes) + " inter-node bytes per node, expected " + std::to_string(bytes));
    // Every node the same.
    long lo[2] = {o.inter_messages, o.inter_bytes}, hi[2] = {o.inter_messages, o.inter_bytes};
    MPI_Allreduce(MPI_IN_PLACE, lo, 2, MPI_LONG, MPI_MIN, layout.comm());
    MPI_Allreduce(MPI_IN_PLACE, hi, 2, MPI_LONG, MPI_MAX, layout.comm());
    check(lo[0] == hi[0] && lo[1] == hi[1], me, label + ": nodes differ in inter-node traffic");
    if (me == 0)
      std::printf("%-64s %6ld inter-node messages per node (formula %ld), %8ld bytes (formula %ld)\n", label.c_str(),
                  o.inter_messages, messages, o.inter_bytes, bytes);
    seen[label] = o;
  };
  auto same = [&](const std::string& a, const std::string& b) {
    const Outcome &x = seen.at(a), &y = seen.at(b);
    check(x.result == y.result, me, a + " and " + b + ": different results");
    check(x.inter_messages == y.inter_messages && x.inter_bytes == y.inter_bytes && x.all_messages == y.all_messages &&
              x.all_bytes == y.all_bytes,
          me,
          a + " and " + b + ": different message counts (" + std::to_string(x.all_messages) + " vs " +
              std::to_string(y.all_messages) + " in all)");
    if (me == 0) std::printf("same results and message counts: %s == %s\n", a.c_str(), b.c_str());
  };

  for (const std::string inner : {"pairwise", "nonblocking"}) {
    mcb::Params plain;
    Outcome base = run("pairwise", plain);
    check(base.inter_messages == static_cast<long>(q) * q * (n - 1), me, "pairwise baseline message count");
    expect("hierarchical", inner, "", 0, n - 1);
    expect("node_aware", inner, "", 0, static_cast<long>(q) * (n - 1));
    for (int d = 1; d <= q; ++d) {
      if (q % d) continue;
      expect("multileader", inner, "leaders-per-node", d, static_cast<long>(d) * d * (n - 1));
      expect("multileader_node_aware", inner, "leaders-per-node", d, static_cast<long>(d) * (n - 1));
      expect("locality_aware", inner, "groups-per-node", d, static_cast<long>(q) * d * (n - 1));
    }
    const std::string i = " inner=" + inner;
    same("multileader" + i + " leaders-per-node=1", "hierarchical" + i);
    same("multileader_node_aware" + i + " leaders-per-node=1", "hierarchical" + i);
    same("multileader_node_aware" + i + " leaders-per-node=" + std::to_string(q), "node_aware" + i);
    same("locality_aware" + i + " groups-per-node=1", "node_aware" + i);
  }

  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0) std::printf(any ? "test_message_count: FAILED\n" : "test_message_count: all counts match\n");
  MPI_Finalize();
  return any ? 1 : 0;
}
