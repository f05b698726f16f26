// Who is where: nodes (MPI_COMM_TYPE_SHARED or virtual nodes of K
// consecutive ranks), the rank order of the benchmark communicator (block or
// cyclic across nodes), regions inside a node (fixed size or an hwloc level)
// and lanes (the ranks with the same local rank on every node). Everything
// is derived once, collectively, and cached in the Layout.
#pragma once

#include <mpi.h>

#include <map>
#include <string>
#include <vector>

namespace mcb {

enum class RankOrder { block, cyclic };
std::string to_string(RankOrder order);
RankOrder parse_rank_order(const std::string& name);  // throws Error

/// How a node is cut into regions: not at all, K consecutive local ranks,
/// or the NUMA node / package / L3 cache holding the rank's core.
struct RegionSpec {
  enum class Kind { none, size, numa, package, l3 };
  Kind kind = Kind::none;
  int size = 0;  // for Kind::size
  /// "none", "numa", "package", "l3" or "size:K"; throws Error otherwise.
  static RegionSpec parse(const std::string& text);
  std::string str() const;
};

/// Region index (dense, 0-based, in core order) of each of `local_ranks`
/// ranks of a node, local rank i taken to sit on core i (modulo the number
/// of cores): block placement. Uses the hwloc topology of this process,
/// which honours HWLOC_SYNTHETIC and HWLOC_XMLFILE. Throws Error when the
/// topology lacks the level.
std::vector<int> region_map(const RegionSpec& spec, int local_ranks);

/// The bytes of the largest cache (the last level, hwloc's largest data or
/// unified cache object; without hwloc sysconf's level 3, else level 2)
/// that holds the first core; 0 if unknown. Read once per process.
std::size_t last_level_cache_bytes();

/// Whether this build reads node topologies with hwloc (-DMCB_WITH_HWLOC);
/// without it RegionSpec::parse refuses numa, package and l3.
bool have_hwloc();

struct LayoutOptions {
  int ranks_per_node = 0;  // 0: nodes from MPI_COMM_TYPE_SHARED
  /// >= 0 (and ranks_per_node 0): this rank's node is named by a color, and
  /// the ranks of the base communicator that pass the same color share a
  /// node (virtual nodes that need not be consecutive or even; the
  /// LD_PRELOAD library's nodes of K consecutive MPI_COMM_WORLD ranks seen
  /// from any communicator). -1: MPI_COMM_TYPE_SHARED.
  int node_color = -1;
  RankOrder order = RankOrder::block;
  RegionSpec region;
  /// GPUs: G per node (0: ranks per node / procs_per_gpu) and PPG processes
  /// per GPU, in block order: local rank l drives GPU l / PPG as its process
  /// l % PPG (allreduce-multi-process-per-gpu, Section IV-A).
  int gpus_per_node = 0;
  int procs_per_gpu = 1;
};

class Layout {
 public:
  /// Collective over `base`. Throws Error (on every rank) on bad options.
  static Layout create(MPI_Comm base, const LayoutOptions& options = {});
  Layout(Layout&&) noexcept;
  Layout& operator=(Layout&&) noexcept;
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;
  ~Layout();

  /// The benchmark communicator (base reordered per the rank order).
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  const LayoutOptions& options() const { return options_; }

  int node() const { return node_of_[rank_]; }
  int num_nodes() const { return num_nodes_; }
  int local_rank() const { return local_rank_of_[rank_]; }
  int local_size() const { return node_sizes_[node()]; }
  /// Ranks per node if every node has the same number, else 0.
  int ranks_per_node() const { return ranks_per_node_; }
  bool uniform() const { return ranks_per_node_ != 0; }
  /// Per rank of comm(): its node and its rank within the node.
  const std::vector<int>& node_of() const { return node_of_; }
  const std::vector<int>& local_rank_of() const { return local_rank_of_; }
  const std::vector<int>& node_sizes() const { return node_sizes_; }

  /// My node's ranks, ordered by comm() rank.
  MPI_Comm node_comm() const { return node_comm_; }
  /// The ranks with my local rank, one per node, ordered by node.
  MPI_Comm lane_comm() const { return lane_comm_; }

  /// My region inside my node (options().region); a whole node if none.
  int region() const { return region_; }
  int num_regions() const { return num_regions_; }
  MPI_Comm region_comm() const { return region_comm_; }
  /// The region of every local rank of my node (the same map on every node
  /// of a uniform layout); all zeros when options().region is none.
  const std::vector<int>& local_regions() const { return local_regions_; }

  /// GPUs (LayoutOptions::gpus_per_node, procs_per_gpu): my GPU's index on
  /// my node (local rank / PPG), my rank among its processes (local rank %
  /// PPG), its index over all nodes (node * G + gpu()), and the ranks that
  /// drive it (ordered by local rank). Without GPU options every rank has a
  /// GPU of its own.
  int gpus_per_node() const { return gpus_per_node_; }
  int procs_per_gpu() const { return options_.procs_per_gpu; }
  int gpu() const { return local_rank() / options_.procs_per_gpu; }
  int gpu_rank() const { return local_rank() % options_.procs_per_gpu; }
  int gpu_id() const { return node() * gpus_per_node_ + gpu(); }
  int num_gpus() const { return size_ / options_.procs_per_gpu; }
  MPI_Comm gpu_comm() const { return gpu_comm_; }
  /// Whether --gpus-per-node or --procs-per-gpu was given.
  bool gpus_given() const { return options_.gpus_per_node > 0 || options_.procs_per_gpu > 1; }

  /// A communicator split from comm() with (color, key), created on the
  /// first call for `name` and cached; collective over comm() then.
  MPI_Comm derived(const std::string& name, int color, int key) const;

  /// "8 ranks, 2 nodes x 4, block order" and so on.
  std::string describe() const;

 private:
  Layout() = default;
  void release();

  LayoutOptions options_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm node_comm_ = MPI_COMM_NULL;
  MPI_Comm lane_comm_ = MPI_COMM_NULL;
  MPI_Comm region_comm_ = MPI_COMM_NULL;
  MPI_Comm gpu_comm_ = MPI_COMM_NULL;
  int gpus_per_node_ = 0;
  int rank_ = 0, size_ = 0, num_nodes_ = 0, ranks_per_node_ = 0;
  int region_ = 0, num_regions_ = 1;
  std::vector<int> node_of_, local_rank_of_, node_sizes_, local_regions_;
  mutable std::map<std::string, MPI_Comm> derived_;
};

}  // namespace mcb
