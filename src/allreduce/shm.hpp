// The node-wide shared segment of the shared-memory allreduces
// (allreduce-shared-memory-multiradix, Sections 2.1.1 and 3.1): one
// MPI_Win_allocate_shared window per node, holding per local rank a flag
// word on a cache line of its own and a data region, and the counter
// barriers built on the flags. Each rank owns its flag and a private counter:
// set() stores ++counter to the flag (release); wait(q, target) spins until
// q's flag has reached target (acquire), compared as a wrap-safe unsigned
// difference. Flags are never reset, so one plan can run again and again.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "shm_schedule.hpp"

namespace mcb::allreduce::detail {

constexpr std::size_t kCacheLine = 64;

class ShmSegment {
 public:
  /// Collective over `node`: every rank gets a data region of `bytes`
  /// (rounded up to cache lines) and a zeroed flag.
  ShmSegment(MPI_Comm node, std::size_t bytes);
  ~ShmSegment();
  ShmSegment(const ShmSegment&) = delete;
  ShmSegment& operator=(const ShmSegment&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  char* data(int local) const { return data_[static_cast<std::size_t>(local)]; }

  /// The value set() will store next minus one: the steps done so far.
  std::uint32_t counter() const { return counter_; }
  /// Marks the next step done: flag = ++counter (after a release fence).
  void set();
  /// Waits until local rank q's flag has reached `target`.
  void wait(int q, std::uint32_t target) const;

 private:
  std::atomic<std::uint32_t>& flag(int q) const { return *flags_[static_cast<std::size_t>(q)]; }

  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = 0, size_ = 0;
  std::uint32_t counter_ = 0;
  std::vector<char*> data_;
  std::vector<std::atomic<std::uint32_t>*> flags_;
};

/// The allgather stages of a shared-memory allreduce: stage a waits until
/// the ranks in waits[a] reach `first` + a, copies copies[a] from their
/// regions into mine, or at the last stage into `out` together with my own
/// ranges `own_last`, then sets my flag. With no stage, only `own_last`.
void run_allgather(ShmSegment& seg, const std::vector<std::vector<int>>& waits,
                   const std::vector<std::vector<Copy>>& copies, const std::vector<Range>& own_last,
                   std::uint32_t first, char* out, const Memory& mem);

/// The checks every shared-memory algorithm makes (host memory, the
/// layout's communicator, the same number of ranks on every node, elements
/// that tile a cache line); throws Error naming `who`. Returns ranks per node.
int shm_ranks_per_node(const char* who, const CollArgs& args, const Layout& layout);

/// --inner: the allreduce across nodes of the node-level result, on the lane
/// communicator (system, recursive_doubling, rabenseifner or ring).
ParamSpec inner_node_param();
/// --factors, with `help` saying what the algorithm's lists mean; not a
/// list parameter (the value holds commas), alternatives separated by '/'.
ParamSpec factors_param(const std::string& help);
/// --factors of the tree (allreduce and reduce): the reduce fan-ins.
ParamSpec tree_factors_param();
/// Why a shared-memory algorithm cannot run on a layout ("" when it can).
std::string shm_unsupported(const Layout& layout);
void check_inner(const std::string& inner);
/// That allreduce, in place on `count` elements at `piece`.
Plan inter_node_plan(const std::string& inner, const CollArgs& args, const Layout& layout, void* piece, int count);

}  // namespace mcb::allreduce::detail
