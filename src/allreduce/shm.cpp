// ShmSegment: the shared window and the counter barriers (see shm.hpp).
#include "shm.hpp"

#include <sched.h>

#include <new>

#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "vector.hpp"

namespace mcb::allreduce::detail {

static_assert(std::atomic<std::uint32_t>::is_always_lock_free, "flags must be lock-free to live in shared memory");

ShmSegment::ShmSegment(MPI_Comm node, std::size_t bytes) {
  MPI_Comm_rank(node, &rank_);
  MPI_Comm_size(node, &size_);
  const std::size_t region = kCacheLine + (bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  char* mine = nullptr;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each rank's region near its core
  const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(region), 1, info, node, &mine, &win_);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS)
    throw Error("shared memory: MPI_Win_allocate_shared of " + std::to_string(region) + " bytes failed");
  data_.resize(static_cast<std::size_t>(size_));
  flags_.resize(static_cast<std::size_t>(size_));
  for (int q = 0; q < size_; ++q) {
    MPI_Aint got = 0;
    int unit = 0;
    char* base = nullptr;
    MPI_Win_shared_query(win_, q, &got, &unit, &base);
    flags_[static_cast<std::size_t>(q)] = reinterpret_cast<std::atomic<std::uint32_t>*>(base);
    data_[static_cast<std::size_t>(q)] = base + kCacheLine;
  }
  new (flags_[static_cast<std::size_t>(rank_)]) std::atomic<std::uint32_t>(0);
  MPI_Barrier(node);  // every flag is zero before anyone waits on it
}

ShmSegment::~ShmSegment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
}

void ShmSegment::set() { flag(rank_).store(++counter_, std::memory_order_release); }

void ShmSegment::wait(int q, std::uint32_t target) const {
  // Spin briefly, then yield: with more ranks than cores the partner needs
  // the core to make progress.
  for (int spins = 0;; ++spins) {
    const std::uint32_t now = flag(q).load(std::memory_order_acquire);
    if (static_cast<std::int32_t>(now - target) >= 0) return;
    if (spins >= 64) sched_yield();
  }
}

void run_allgather(ShmSegment& seg, const std::vector<std::vector<int>>& waits,
                   const std::vector<std::vector<Copy>>& copies, const std::vector<Range>& own_last,
                   std::uint32_t first, char* out, const Memory& mem) {
  const int me = seg.rank();
  auto copy_own = [&] {
    for (const Range& r : own_last) mem.copy(out + r.lo, seg.data(me) + r.lo, r.size());
  };
  if (copies.empty()) copy_own();
  for (std::size_t a = 0; a < copies.size(); ++a) {
    const bool last = a + 1 == copies.size();
    for (int m : waits[a]) seg.wait(m, first + static_cast<std::uint32_t>(a));
    if (last) copy_own();
    for (const Copy& c : copies[a])
      mem.copy((last ? out : seg.data(me)) + c.range.lo, seg.data(c.from) + c.range.lo, c.range.size());
    seg.set();
  }
}

// The checks and settings every shared-memory algorithm shares: host
// memory, the layout of args.comm, the same number of ranks on every node.
// Returns the ranks per node.
int shm_ranks_per_node(const char* who, const CollArgs& args, const Layout& layout) {
  require_host(args, who);
  int congruent = MPI_UNEQUAL;
  MPI_Comm_compare(args.comm, layout.comm(), &congruent);
  if (congruent != MPI_IDENT && congruent != MPI_CONGRUENT)
    throw Error(std::string(who) + ": needs the layout's communicator");
  if (!layout.uniform()) throw Error(std::string(who) + ": needs the same number of ranks on every node");
  if (kCacheLine % args.type_bytes() != 0)
    throw Error(std::string(who) + ": elements of " + std::to_string(args.type_bytes()) +
                " bytes do not tile a cache line");
  return layout.ranks_per_node();
}

namespace {

// The allreduces usable across nodes, in --list order.
const std::vector<std::string>& inner_names() {
  static const std::vector<std::string> names{"system", "recursive_doubling", "rabenseifner", "ring"};
  return names;
}

}  // namespace

void check_inner(const std::string& inner) {
  for (const auto& known : inner_names())
    if (inner == known) return;
  std::string list;
  for (const auto& known : inner_names()) list += (list.empty() ? "" : ", ") + known;
  throw Error("--inner " + inner + ": expected one of " + list);
}

// The node-level piece allreduced across the nodes on my lane, in place.
Plan inter_node_plan(const std::string& inner, const CollArgs& args, const Layout& layout, void* piece, int count) {
  check_inner(inner);
  const CollArgs lane = args.on(layout.lane_comm(), MPI_IN_PLACE, piece, count);
  if (inner == "recursive_doubling") return recursive_doubling(lane);
  if (inner == "rabenseifner") return rabenseifner(lane);
  if (inner == "ring") return ring(lane);
  return system(lane);
}

ParamSpec factors_param(const std::string& help) { return {"factors", help, "", {}, {}, false}; }

ParamSpec tree_factors_param() {
  return factors_param(
      "=-f1,-f2,...: reduce fan-ins (negative), multiplying to the ranks per node; alternatives separated by / "
      "(default: prime factors merged up to 8)");
}

std::string shm_unsupported(const Layout& layout) {
  return layout.uniform() ? "" : "needs the same number of ranks on every node";
}

ParamSpec inner_node_param() {
  return {"inner", "the allreduce across nodes on each lane: system, recursive_doubling, rabenseifner or ring",
          "system", inner_names()};
}

}  // namespace mcb::allreduce::detail
