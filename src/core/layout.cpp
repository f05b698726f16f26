#include "mcb/layout.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "mcb/error.hpp"

#ifdef MCB_SIMULATE
#include <simgrid/host.h>

#include <cstdlib>
#endif

namespace mcb {

std::string to_string(RankOrder order) { return order == RankOrder::block ? "block" : "cyclic"; }

RankOrder parse_rank_order(const std::string& name) {
  if (name == "block") return RankOrder::block;
  if (name == "cyclic") return RankOrder::cyclic;
  throw Error("--rank-order " + name + ": expected block or cyclic");
}

namespace {

void free_comm(MPI_Comm& c) {
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  c = MPI_COMM_NULL;
}

// The node of a simulated rank's host (simulation build): the host property
// mcb/node of the platforms whose hosts are single cores (one rank per host,
// the cores of a node sharing its memory: scripts/sim/platforms/make_platforms.py),
// or -1 where hosts are whole nodes (MPI_COMM_TYPE_SHARED finds those).
int simulated_node() {
#ifdef MCB_SIMULATE
  if (const char* node = sg_host_get_property_value(sg_host_self(), "mcb/node")) return std::atoi(node);
#endif
  return -1;
}

// Node index (dense, ordered by the node's lowest base rank) of every rank
// of `base`: blocks of `ranks_per_node`, the ranks of the same `color` (>= 0),
// the simulated node, or MPI_COMM_TYPE_SHARED.
std::vector<int> node_ids(MPI_Comm base, int ranks_per_node, int color) {
  if (color < 0 && ranks_per_node <= 0) color = simulated_node();
  int rank = 0, size = 0;
  MPI_Comm_rank(base, &rank);
  MPI_Comm_size(base, &size);
  std::vector<int> ids(size);
  if (ranks_per_node > 0) {
    for (int r = 0; r < size; ++r) ids[r] = r / ranks_per_node;
    return ids;
  }
  MPI_Comm shared = MPI_COMM_NULL;
  if (color >= 0)
    MPI_Comm_split(base, color, rank, &shared);
  else
    MPI_Comm_split_type(base, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
  int leader = rank;  // lowest base rank on my node
  MPI_Bcast(&leader, 1, MPI_INT, 0, shared);
  MPI_Comm_free(&shared);
  std::vector<int> leaders(size);
  MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, base);
  std::vector<int> sorted = leaders;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (int r = 0; r < size; ++r)
    ids[r] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), leaders[r]) - sorted.begin());
  return ids;
}

}  // namespace

Layout Layout::create(MPI_Comm base, const LayoutOptions& options) {
  int base_rank = 0, base_size = 0;
  MPI_Comm_rank(base, &base_rank);
  MPI_Comm_size(base, &base_size);
  if (options.ranks_per_node < 0)
    throw Error("--ranks-per-node " + std::to_string(options.ranks_per_node) + ": must be >= 1");
  if (options.ranks_per_node > 0 && base_size % options.ranks_per_node != 0)
    throw Error("--ranks-per-node " + std::to_string(options.ranks_per_node) + " does not divide the " +
                std::to_string(base_size) + " ranks; values that fit: " + divisors_of(base_size));
  if (options.region.kind == RegionSpec::Kind::size && options.region.size < 1)
    throw Error("--region size:" + std::to_string(options.region.size) + ": the size must be >= 1");
  if (options.procs_per_gpu < 1)
    throw Error("--procs-per-gpu " + std::to_string(options.procs_per_gpu) + ": must be >= 1");
  if (options.gpus_per_node < 0)
    throw Error("--gpus-per-node " + std::to_string(options.gpus_per_node) + ": must be >= 1");

  Layout l;
  l.options_ = options;
  std::vector<int> base_node = node_ids(base, options.ranks_per_node, options.node_color);
  std::vector<int> base_local(base_size);
  {
    std::vector<int> seen(base_size, 0);
    for (int r = 0; r < base_size; ++r) base_local[r] = seen[base_node[r]]++;
  }
  int key = options.order == RankOrder::block ? base_rank : base_local[base_rank] * base_size + base_node[base_rank];
#ifdef MCB_SIMULATE
  // SMPI gives every rank its own copy of a derived communicator's group,
  // and every message looks its ranks up there: at 896 ranks a split or dup
  // of MPI_COMM_WORLD made those lookups 4% of the simulation (cache misses)
  // against 0.3% on MPI_COMM_WORLD itself. In block order the reordered
  // communicator is the world's: use it.
  if (base == MPI_COMM_WORLD && options.order == RankOrder::block)
    l.comm_ = MPI_COMM_WORLD;
  else
#endif
    MPI_Comm_split(base, 0, key, &l.comm_);
  MPI_Comm_rank(l.comm_, &l.rank_);
  MPI_Comm_size(l.comm_, &l.size_);

  // Node of every rank of the reordered communicator.
  int my_node = base_node[base_rank];
  l.node_of_.resize(l.size_);
  MPI_Allgather(&my_node, 1, MPI_INT, l.node_of_.data(), 1, MPI_INT, l.comm_);
  l.num_nodes_ = *std::max_element(l.node_of_.begin(), l.node_of_.end()) + 1;
  l.node_sizes_.assign(l.num_nodes_, 0);
  l.local_rank_of_.resize(l.size_);
  for (int r = 0; r < l.size_; ++r) l.local_rank_of_[r] = l.node_sizes_[l.node_of_[r]]++;
  bool uniform = std::all_of(l.node_sizes_.begin(), l.node_sizes_.end(), [&](int s) { return s == l.node_sizes_[0]; });
  l.ranks_per_node_ = uniform ? l.node_sizes_[0] : 0;

  MPI_Comm_split(l.comm_, l.node(), l.rank_, &l.node_comm_);
  MPI_Comm_split(l.comm_, l.local_rank(), l.node(), &l.lane_comm_);

  // Regions: every rank maps its node's local ranks the same way.
  std::vector<int> regions = agree_on(l.comm_, [&] { return region_map(options.region, l.local_size()); });
  l.local_regions_ = regions;
  l.region_ = regions[l.local_rank()];
  l.num_regions_ = *std::max_element(regions.begin(), regions.end()) + 1;
  MPI_Comm_split(l.node_comm_, l.region_, l.local_rank(), &l.region_comm_);

  // GPUs: G x PPG ranks on every node.
  const int ppg = options.procs_per_gpu, g = options.gpus_per_node;
  if (l.gpus_given()) {
    if (!uniform)
      throw Error("--gpus-per-node and --procs-per-gpu need the same number of ranks on every node (" + l.describe() +
                  ")");
    if (g > 0 && g * ppg != l.ranks_per_node_)
      throw Error("--gpus-per-node " + std::to_string(g) + " x --procs-per-gpu " + std::to_string(ppg) + " = " +
                  std::to_string(g * ppg) + " ranks per node, but there are " + std::to_string(l.ranks_per_node_) +
                  " (" + l.describe() + ")");
    if (l.ranks_per_node_ % ppg != 0)
      throw Error("--procs-per-gpu " + std::to_string(ppg) + " does not divide the " +
                  std::to_string(l.ranks_per_node_) +
                  " ranks per node; values that fit: " + divisors_of(l.ranks_per_node_));
  }
  l.gpus_per_node_ = l.local_size() / ppg;
  MPI_Comm_split(l.node_comm_, l.gpu(), l.local_rank(), &l.gpu_comm_);
  return l;
}

Layout::Layout(Layout&& o) noexcept { *this = std::move(o); }

Layout& Layout::operator=(Layout&& o) noexcept {
  if (this != &o) {
    release();
    options_ = o.options_;
    comm_ = std::exchange(o.comm_, MPI_COMM_NULL);
    node_comm_ = std::exchange(o.node_comm_, MPI_COMM_NULL);
    lane_comm_ = std::exchange(o.lane_comm_, MPI_COMM_NULL);
    region_comm_ = std::exchange(o.region_comm_, MPI_COMM_NULL);
    gpu_comm_ = std::exchange(o.gpu_comm_, MPI_COMM_NULL);
    gpus_per_node_ = o.gpus_per_node_;
    rank_ = o.rank_;
    size_ = o.size_;
    num_nodes_ = o.num_nodes_;
    ranks_per_node_ = o.ranks_per_node_;
    region_ = o.region_;
    num_regions_ = o.num_regions_;
    node_of_ = std::move(o.node_of_);
    local_rank_of_ = std::move(o.local_rank_of_);
    node_sizes_ = std::move(o.node_sizes_);
    local_regions_ = std::move(o.local_regions_);
    derived_ = std::move(o.derived_);
    o.derived_.clear();
  }
  return *this;
}

Layout::~Layout() { release(); }

void Layout::release() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& [name, c] : derived_) free_comm(c);
  derived_.clear();
  free_comm(gpu_comm_);
  free_comm(region_comm_);
  free_comm(lane_comm_);
  free_comm(node_comm_);
  if (comm_ != MPI_COMM_WORLD) free_comm(comm_);  // the simulation build may use the world's
}

MPI_Comm Layout::derived(const std::string& name, int color, int key) const {
  auto it = derived_.find(name);
  if (it != derived_.end()) return it->second;
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_split(comm_, color, key, &c);
  derived_[name] = c;
  return c;
}

std::string Layout::describe() const {
  std::string s =
      std::to_string(size_) + " ranks on " + std::to_string(num_nodes_) + " node" + (num_nodes_ == 1 ? "" : "s");
  s += uniform() ? " x " + std::to_string(ranks_per_node_) : " (uneven)";
  s += options_.ranks_per_node > 0 || options_.node_color >= 0 ? " (virtual)" : "";
  s += ", " + to_string(options_.order) + " order";
  if (options_.region.kind != RegionSpec::Kind::none)
    s += ", regions " + options_.region.str() + " (" + std::to_string(num_regions_) + " on node " +
         std::to_string(node()) + ")";
  if (gpus_given())
    s += ", " + std::to_string(gpus_per_node_) + " GPU" + (gpus_per_node_ == 1 ? "" : "s") + " per node x " +
         std::to_string(options_.procs_per_gpu) + " process" + (options_.procs_per_gpu == 1 ? "" : "es");
  return s;
}

}  // namespace mcb
