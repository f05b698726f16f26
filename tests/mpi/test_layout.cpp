// Checks a Layout built from the command line options against what the
// options promise: node sizes, node / lane / region communicators, cyclic
// order, regions from (synthetic) hwloc topologies. Usage:
//   test_layout RANKS_PER_NODE ORDER REGION EXPECTED_REGIONS_PER_NODE
#include <mpi.h>

#include <cstdio>
#include <string>

#include "mcb/error.hpp"
#include "mcb/layout.hpp"

namespace {

int errors = 0;

void check(bool ok, const std::string& what, int rank) {
  if (!ok) {
    std::fprintf(stderr, "rank %d: FAILED %s\n", rank, what.c_str());
    ++errors;
  }
}

int comm_size(MPI_Comm c) {
  int s = 0;
  MPI_Comm_size(c, &s);
  return s;
}

int comm_rank(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 5) {
    std::fprintf(stderr, "usage: test_layout RANKS_PER_NODE ORDER REGION REGIONS_PER_NODE\n");
    MPI_Finalize();
    return 2;
  }
  int world = 0, wsize = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  mcb::LayoutOptions opt;
  opt.ranks_per_node = std::stoi(argv[1]);
  opt.order = mcb::parse_rank_order(argv[2]);
  opt.region = mcb::RegionSpec::parse(argv[3]);
  const int want_regions = std::stoi(argv[4]);
  {
    mcb::Layout l = mcb::Layout::create(MPI_COMM_WORLD, opt);
    const int k = opt.ranks_per_node, nodes = wsize / k, r = l.rank();
    check(l.size() == wsize, "size", world);
    check(l.num_nodes() == nodes, "num_nodes " + std::to_string(l.num_nodes()), world);
    check(l.ranks_per_node() == k, "ranks_per_node", world);
    // The physical node is always world_rank / k; the order decides the rank.
    check(l.node() == world / k, "node of world rank", world);
    if (opt.order == mcb::RankOrder::block) {
      check(r == world, "block order keeps ranks", world);
      check(l.local_rank() == r % k, "block local rank", world);
    } else {
      check(r == (world % k) * nodes + world / k, "cyclic rank", world);
      check(l.node() == r % nodes, "cyclic: consecutive ranks on different nodes", world);
    }
    check(comm_size(l.node_comm()) == k && comm_rank(l.node_comm()) == l.local_rank(), "node_comm", world);
    check(comm_size(l.lane_comm()) == nodes && comm_rank(l.lane_comm()) == l.node(), "lane_comm", world);
    check(l.num_regions() == want_regions,
          "num_regions " + std::to_string(l.num_regions()) + " != " + std::to_string(want_regions), world);
    check(comm_size(l.region_comm()) * want_regions == k, "region_comm size", world);
    // Lane members share the local rank.
    int mine = l.local_rank(), lo = 0, hi = 0;
    MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, l.lane_comm());
    MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, l.lane_comm());
    check(lo == mine && hi == mine, "lane members share the local rank", world);
    // derived() caches.
    MPI_Comm a = l.derived("half", r % 2, r), b = l.derived("half", r % 2, r);
    check(a == b && comm_size(a) == (wsize + 1 - r % 2) / 2, "derived cache", world);
  }
  int total = 0;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world == 0) std::printf("# ranks: %d\nlayout: %d errors\n", wsize, total);
  MPI_Finalize();
  return total ? 1 : 0;
}
