// ShmSegment: the shared window and the counter barriers (see shm.hpp).
#include "shm.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "vector.hpp"

namespace mcb::allreduce::detail {

static_assert(std::atomic<std::uint32_t>::is_always_lock_free, "flags must be lock-free to live in shared memory");

namespace {

// Per rank: the flag's cache line (the flag, the small path's two inline
// vector slots), the version line (the two version words of exchange),
// then two descriptor slots; then the small path's vector slots and the
// data region.
constexpr std::size_t kSlot = 2 * kCacheLine;
constexpr std::size_t kHeader = 2 * kCacheLine + 2 * kSlot;
static_assert(sizeof(Descriptor) <= kSlot, "a descriptor must fit its slot");

}  // namespace

namespace {
std::atomic<long> segments_held{0};  // ShmSegments alive in this process

// The affinity masks of this rank and of every rank of `node` together.
std::chrono::steady_clock::duration spin_of(MPI_Comm node, int ranks) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return spin_before_yield(0, 0, ranks);  // unknown
  const int own = CPU_COUNT(&set);
  constexpr int kWords = static_cast<int>(sizeof set / sizeof(unsigned long));
  unsigned long words[kWords];
  std::memcpy(words, &set, sizeof set);
  MPI_Allreduce(MPI_IN_PLACE, words, kWords, MPI_UNSIGNED_LONG, MPI_BOR, node);
  std::memcpy(&set, words, sizeof set);
  return spin_before_yield(own, CPU_COUNT(&set), ranks);
}
}  // namespace

std::chrono::steady_clock::duration spin_before_yield(int own_cpus, int job_cpus, int ranks) {
  using std::chrono::microseconds;
  if (own_cpus < 1 || job_cpus < ranks) return microseconds(2);
  return own_cpus == 1 ? std::chrono::steady_clock::duration::max() : microseconds(200);
}

ShmSegment::ShmSegment(MPI_Comm node, std::size_t bytes, Peers peers, std::size_t slot_bytes)
    : peers_(std::move(peers)) {
  MPI_Comm_rank(node, &rank_);
  MPI_Comm_size(node, &size_);
  bytes_ = (bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  slot_bytes_ = (slot_bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  const std::size_t region = kHeader + bytes_ + slot_bytes_;
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
    // The small path's slots first, on the page of the flag where they are
    // small (one page walk less per peer and call than past a large region).
    data_[static_cast<std::size_t>(q)] = base + kHeader + slot_bytes_;
  }
  new (&flag(rank_)) std::atomic<std::uint32_t>(0);
  for (std::uint32_t parity = 0; parity < 2; ++parity) new (&version(rank_, parity)) std::atomic<std::uint32_t>(0);
  known_.resize(static_cast<std::size_t>(size_));
  seen_.assign(static_cast<std::size_t>(size_), 0);
  spin_ = spin_of(node, size_);
  ++segments_held;
  MPI_Barrier(node);  // every flag and version is zero before anyone reads it
}

long ShmSegment::held() { return segments_held.load(); }

ShmSegment::~ShmSegment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (win_ == MPI_WIN_NULL) return;
  --segments_held;
  if (!finalized) MPI_Win_free(&win_);
}

Descriptor* ShmSegment::slot(int q, std::uint32_t version) const {
  return reinterpret_cast<Descriptor*>(reinterpret_cast<char*>(flags_[static_cast<std::size_t>(q)]) + 2 * kCacheLine +
                                       (version % 2) * kSlot);
}

void ShmSegment::exchange(const Descriptor& mine) {
  // Version v goes to slot v % 2. A descriptor changes at most once per
  // exchange, so version v is written at least two exchanges after v - 2,
  // and every rank read v - 2 (if it did) in the exchange that published
  // it, before it passed the next one, which the writer waited for. The
  // version word of this exchange's parity is mine alone until every rank
  // passed it: a rank one exchange ahead writes the other word. A word is
  // stored only when it changes, and it is on a line of its own, not the
  // flag's: while buffers repeat, the peers' reads of it hit their own
  // caches and the flag's line carries the flag alone (with the version
  // words on the flag's line a blocking 4 KiB allreduce on plain buffers
  // read 1.11x its persistent call, 1.05x with them here; issue 57).
  const std::uint32_t call = calls_++;
  bool changed = false;
  if (version_ == 0 || !(mine == published_)) {
    ++version_;
    *slot(rank_, version_) = mine;
    published_ = mine;
    known_[static_cast<std::size_t>(rank_)] = mine;
    seen_[static_cast<std::size_t>(rank_)] = version_;
    changed = true;
  }
  std::atomic<std::uint32_t>& word = version(rank_, call);
  if (word.load(std::memory_order_relaxed) != version_) word.store(version_, std::memory_order_relaxed);
  set();  // (release: the slot and the version before the flag)
  for (int q = 0; q < size_; ++q) {
    if (q == rank_) continue;
    wait(q, counter_);
    const std::uint32_t v = version(q, call).load(std::memory_order_relaxed);
    if (v == seen_[static_cast<std::size_t>(q)]) continue;
    known_[static_cast<std::size_t>(q)] = *slot(q, v);
    seen_[static_cast<std::size_t>(q)] = v;
    changed = true;
  }
  known_changes_ += changed ? 1 : 0;
}

void ShmSegment::begin_call(std::uint64_t engines) {
  if (engines == last_engines_) return;
  if (last_engines_)
    for (int q = 0; q < size_; ++q) wait(q, counter_);
  last_engines_ = engines;
}

void ShmSegment::set() { flag(rank_).store(++counter_, std::memory_order_release); }

void ShmSegment::wait(int q, std::uint32_t target) const {
  // Spin for spin_, then yield between checks: with more ranks than CPUs
  // (spin_ 2 us) the partner needs the core to make progress. Yielding after
  // a fixed 64 spins instead cost a system call in most waits of a small
  // allreduce on two bound ranks: 0.51 us against 0.18 us at 8 B, 2.8x; and
  // yielding after 2 us there still made the copy-in allreduce at 2 bound
  // ranks 1.1-1.6x slower from 1 KiB to 256 KiB on a virtual machine, where
  // a system call is expensive (issue 48): with a CPU each, spin 200 us,
  // and ranks bound to a CPU each never yield (spin_before_yield).
  std::chrono::steady_clock::time_point start{};
  for (std::uint64_t spins = 0;; ++spins) {
    const std::uint32_t now = flag(q).load(std::memory_order_acquire);
    if (static_cast<std::int32_t>(now - target) >= 0) return;
    if (spins % 64 != 63 || spin_ == std::chrono::steady_clock::duration::max()) continue;
    const auto t = std::chrono::steady_clock::now();
    if (spins == 63)
      start = t;
    else if (t - start >= spin_)
      sched_yield();
  }
}

void run_allgather(ShmSegment& seg, const std::vector<std::vector<int>>& waits,
                   const std::vector<std::vector<Copy>>& copies, const std::vector<Range>& own_last,
                   std::uint32_t first, char* out, const Memory& mem, bool spread) {
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
      mem.copy((last ? out : seg.data(me)) + c.range.lo, seg.data(spread ? me : c.from) + c.range.lo, c.range.size());
    seg.set();
  }
}

void spread_piece(ShmSegment& seg, const char* piece, Range range, const Memory& mem) {
  for (int q = 0; q < seg.size(); ++q)
    if (q != seg.rank()) mem.copy(seg.data(q) + range.lo, piece, range.size());
}

namespace {

// Ranks per region if every region of a node has as many, else 0.
int uniform_region_size(const Layout& layout) {
  const auto& regions = layout.local_regions();
  std::vector<int> sizes(static_cast<std::size_t>(layout.num_regions()), 0);
  for (int r : regions) ++sizes[static_cast<std::size_t>(r)];
  for (int n : sizes)
    if (n != sizes.front()) return 0;
  return sizes.front();
}

bool by_region(const Layout& layout) { return layout.options().region.kind != RegionSpec::Kind::none; }

}  // namespace

Algorithm shared_memory_algorithm(Algorithm algorithm) {
  algorithm.unsupported = shm_unsupported;
  algorithm.host_only = true;  // peers read each other's buffers in host shared memory
#ifdef MCB_SIMULATE
  algorithm.available = false;
  algorithm.unavailable_why = "SMPI shares no memory between simulated ranks (simulation build)";
#endif
  return algorithm;
}

std::string shm_unsupported(const Layout& layout) {
  if (!layout.uniform()) return "needs the same number of ranks on every node";
  if (by_region(layout) && uniform_region_size(layout) == 0) return "needs the same number of ranks in every region";
  return "";
}

void require_layout(const char* who, const CollArgs& args, const Layout& layout) {
  int congruent = MPI_UNEQUAL;
  MPI_Comm_compare(args.comm, layout.comm(), &congruent);
  if (congruent != MPI_IDENT && congruent != MPI_CONGRUENT)
    throw Error(std::string(who) + ": needs the layout's communicator");
  if (!layout.uniform()) throw Error(std::string(who) + ": needs the same number of ranks on every node");
}

std::vector<std::size_t> part_bytes(const CollArgs& args) {
  const int p = args.size();
  const std::size_t elem = args.type_bytes();
  std::vector<std::size_t> displs(static_cast<std::size_t>(p) + 1);
  for (int r = 0; r <= p; ++r) displs[static_cast<std::size_t>(r)] = args.displ_of(r) * elem;
  return displs;
}

std::string counts_key(const CollArgs& args) {
  std::string key;
  if (args.v)
    for (int c : args.v->counts) key.append(";").append(std::to_string(c));
  return key;
}

Lanes lanes_of(const Layout& layout, const Domain& dom) {
  Lanes l;
  const int p = layout.size();
  l.of.assign(static_cast<std::size_t>(dom.size), {});
  l.drank.resize(static_cast<std::size_t>(p));
  const auto& regions = layout.local_regions();
  const bool by_region = dom.name == "region";
  for (int r = 0; r < p; ++r) {
    const int local = layout.local_rank_of()[static_cast<std::size_t>(r)];
    int d = local;
    if (by_region) {
      d = 0;
      for (int x = 0; x < local; ++x)
        d += regions[static_cast<std::size_t>(x)] == regions[static_cast<std::size_t>(local)];
    }
    l.drank[static_cast<std::size_t>(r)] = d;
  }
  if (by_region) {
    for (int r = 0; r < p; ++r) l.of[static_cast<std::size_t>(l.drank[static_cast<std::size_t>(r)])].push_back(r);
    return l;
  }
  for (auto& lane : l.of) lane.assign(static_cast<std::size_t>(layout.num_nodes()), -1);
  for (int r = 0; r < p; ++r)
    l.of[static_cast<std::size_t>(l.drank[static_cast<std::size_t>(r)])]
        [static_cast<std::size_t>(layout.node_of()[static_cast<std::size_t>(r)])] = r;
  return l;
}

Domain shm_domain(const char* who, const CollArgs& args, const Layout& layout) {
  require_host(args, who);
  require_layout(who, args, layout);
  if (const std::string why = shm_unsupported(layout); !why.empty()) throw Error(std::string(who) + ": " + why);
  if (kCacheLine % args.type_bytes() != 0)
    throw Error(std::string(who) + ": elements of " + std::to_string(args.type_bytes()) +
                " bytes do not tile a cache line");
  Domain d;
  if (!by_region(layout)) {
    d = {layout.node_comm(),  layout.lane_comm(), layout.ranks_per_node(),
         layout.local_rank(), layout.num_nodes(), "node"};
  } else {
    d.comm = layout.region_comm();
    d.size = uniform_region_size(layout);
    MPI_Comm_rank(d.comm, &d.rank);
    d.count = layout.size() / d.size;
    d.lane = layout.derived("allreduce.region_lane", d.rank, layout.rank());
    d.name = "region";
  }
  return d;
}

namespace {

// The allreduces usable across domains, in --list order.
const std::vector<std::string>& inner_names() {
  static const std::vector<std::string> names{"system", "recursive_doubling", "rabenseifner", "ring",
                                              "recursive_exchange"};
  return names;
}

}  // namespace

Inner parse_inner(const char* who, const Params& params, const Domain& domain) {
  Inner inner;
  inner.name = params.get("inner", "system");
  if (std::find(inner_names().begin(), inner_names().end(), inner.name) == inner_names().end()) {
    std::string list;
    for (const auto& known : inner_names()) list += (list.empty() ? "" : ", ") + known;
    throw Error(std::string(who) + ": --inner " + inner.name + ": expected one of " + list);
  }
  if (inner.name == "recursive_exchange")
    inner.factors = params.has("node-factors")
                        ? parse_exchange_factors(who, params.get("node-factors"), domain.count, domain.name + "s")
                        : default_factors(domain.count);
  return inner;
}

ShmConfig shm_config(const char* who, const CollArgs& args, const Layout& layout, const Params& params, bool at_least) {
  ShmConfig c;
  c.dom = shm_domain(who, args, layout);
  c.factors = params.has("factors") ? parse_factors(who, params.get("factors"), c.dom.size, false, at_least)
                                    : default_factors(c.dom.size);
  c.inner = parse_inner(who, params, c.dom);
  c.resolved = {{"factors", to_string(c.factors)}};
  add_inner(c.resolved, c.inner, c.dom.count);
  return c;
}

void add_inner(std::vector<std::pair<std::string, std::string>>& resolved, const Inner& inner, int domains) {
  if (domains <= 1) return;
  resolved.emplace_back("inner", inner.name);
  if (inner.name == "recursive_exchange") resolved.emplace_back("node-factors", to_string(inner.factors));
}

// The domain-level piece allreduced across the domains on my lane, in place.
Plan inter_node_plan(const Inner& inner, const CollArgs& args, MPI_Comm lane_comm, void* piece, int count) {
  const CollArgs lane = args.on(lane_comm, MPI_IN_PLACE, piece, count);
  if (inner.name == "recursive_doubling") return allreduce::recursive_doubling(lane);
  if (inner.name == "rabenseifner") return allreduce::rabenseifner(lane);
  if (inner.name == "ring") return allreduce::ring(lane);
  if (inner.name == "recursive_exchange") return recursive_exchange(lane, inner.factors);
  return system_mpi::blocking(system_mpi::Collective::allreduce, lane);
}

ParamSpec factors_param(const std::string& help) { return {"factors", help, "", {}, {}, false}; }

ParamSpec tree_factors_param() {
  return factors_param(
      "=-f1,-f2,...: reduce fan-ins (negative), multiplying to the ranks per node (or region); alternatives "
      "separated by / (default: prime factors merged up to 8)");
}

ParamSpec inner_node_param() {
  return {"inner",
          "the allreduce across nodes (or regions) on each lane: system, recursive_doubling, rabenseifner, ring or "
          "recursive_exchange",
          "system", inner_names()};
}

ParamSpec node_factors_param() {
  return {"node-factors",
          "=-f1,-f2,...,f2,f1: factors of --inner recursive_exchange across nodes (or regions): reduce_scatter "
          "(negative) and the mirrored allgather, the reduce_scatter product a divisor of the node count, the rest "
          "done by a nested allreduce (none: that alone); alternatives separated by / (default: prime factors "
          "merged up to 8)",
          "",
          {},
          [](const Params& p) { return p.get("inner", "system") == "recursive_exchange"; },
          false};
}

}  // namespace mcb::allreduce::detail
