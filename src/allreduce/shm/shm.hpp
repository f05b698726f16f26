// The node-wide shared segment of the shared-memory allreduces
// (allreduce-shared-memory-multiradix, Sections 2.1.1 and 3.1): one
// MPI_Win_allocate_shared window per node, holding per local rank a flag
// word on a cache line of its own, two slots where a blocking call
// publishes its buffers (copy_path.hpp; alternate calls use alternate
// slots), a data region and the small path's two vector slots
// (small_path.hpp; up to 16 bytes on the flag's line), and the counter
// barriers built on the flags.
// Each rank owns its flag and a private counter: set() stores ++counter to the flag (release); wait(q, target) spins
// until q's flag has reached target (acquire), compared as a wrap-safe unsigned difference. Flags are never reset, so
// one plan can run again and again.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "copy_path.hpp"
#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "shm_schedule.hpp"

namespace mcb::allreduce::detail {

constexpr std::size_t kCacheLine = 64;

// How long ShmSegment::wait spins before it yields its CPU, given the CPUs
// this rank may run on (0: unknown), those the node's ranks may run on
// together and their number. More ranks than CPUs (or unknown): 2 us, as
// the rank it waits for may need its core. A rank bound to one CPU
// otherwise: never (max), as no rank of the job can be on its core, only a
// foreign process, and yielding to that costs a whole scheduler slice per
// wait (a blocking gatherv of 1 MiB blocks took 4 ms a call beside a busy
// loop on the other core, 0.2-0.5 ms without the yield; issue 71).
// Unbound ranks: 200 us.
std::chrono::steady_clock::duration spin_before_yield(int own_cpus, int job_cpus, int ranks);

class ShmSegment {
 public:
  /// Collective over `node`: every rank gets a data region of `bytes`
  /// (rounded up to cache lines), an area of `slot_bytes` for the small
  /// path's vector slots apart from it (so that the stages of another shape
  /// on the same segment never write where a small call still reads) and a
  /// zeroed flag; `peers`: discover_peers(node).
  ShmSegment(MPI_Comm node, std::size_t bytes, Peers peers, std::size_t slot_bytes = 0);
  ~ShmSegment();
  /// Segments (shared windows) alive in this process.
  static long held();
  ShmSegment(const ShmSegment&) = delete;
  ShmSegment& operator=(const ShmSegment&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The data region of every rank, in bytes (cache lines).
  std::size_t bytes() const { return bytes_; }
  char* data(int local) const { return data_[static_cast<std::size_t>(local)]; }
  /// The small path's area of every rank (slot_bytes(), cache lines), and
  /// its two slots for a vector of `bytes`: up to kInlineVector bytes on
  /// the flag's own cache line (the waiting rank finds the vector in the
  /// line it spun on: one cache miss per peer and call less), else the
  /// halves of the area whatever the vector's size. Slot `parity` is the
  /// pair of the two places: whichever of them a call uses, a rank reuses
  /// it two calls later at the earliest, as with one place per parity.
  std::size_t slot_bytes() const { return slot_bytes_; }
  char* vector_slot(int local, std::uint32_t parity, std::size_t bytes) const {
    if (bytes <= kInlineVector)
      return reinterpret_cast<char*>(flags_[static_cast<std::size_t>(local)]) + kInlineAt + parity * kInlineVector;
    return data(local) - slot_bytes_ + parity * (slot_bytes_ / 2 / kCacheLine * kCacheLine);
  }
  /// The largest vector that rides on the flag's cache line (two of them,
  /// 16-byte aligned, after the flag).
  static constexpr std::size_t kInlineVector = 16;
  /// The small path's calls on this segment so far, then one more: its
  /// parity picks the slot (every rank makes the same calls).
  std::uint32_t next_small_call() { return small_calls_++; }
  /// The domain's process ids and whether cross-memory attach works.
  const Peers& peers() const { return peers_; }

  /// The value set() will store next minus one: the steps done so far.
  std::uint32_t counter() const { return counter_; }
  /// Marks the next step done: flag = ++counter (after a release fence).
  void set();
  /// Waits until local rank q's flag has reached `target`.
  void wait(int q, std::uint32_t target) const;
  /// Every rank's descriptor for this call (a blocking call's buffers),
  /// into known(): one step (set) and a wait for every other rank of the
  /// segment. A rank writes its slot only when its descriptor changed
  /// since its last exchange, and says which in a version word (one per
  /// call parity, as a rank may be one call ahead) on a cache line of its
  /// own, stored only when it changes; a peer's slot is read only when its
  /// version moved (a slot read and a cache miss per peer and call less
  /// where buffers repeat, issue 57).
  void exchange(const Descriptor& mine);
  const std::vector<Descriptor>& known() const { return known_; }
  /// The exchanges so far in which known() changed.
  std::uint64_t known_changes() const { return known_changes_; }
  /// A blocking call on `engines`, which write the data region (the
  /// engines of a shape: the segment is its communicator's arena, shared
  /// by every shape): when the last such call was another's, waits until
  /// every rank finished every call so far (their flags at my counter). A
  /// call's first step waits only for the readers of my region in its own
  /// schedule, which need not be the last one's (other factors, another
  /// algorithm). At 2 ranks that is the same wait.
  void begin_call(std::uint64_t engines);

 private:
  static constexpr std::size_t kInlineAt = 32;  // the inline slots' offset on the flag's line
  static_assert(kInlineAt + 2 * kInlineVector <= kCacheLine, "the inline slots must fit the flag's line");
  std::atomic<std::uint32_t>& flag(int q) const { return *flags_[static_cast<std::size_t>(q)]; }
  std::atomic<std::uint32_t>& version(int q, std::uint32_t call) const {
    return reinterpret_cast<std::atomic<std::uint32_t>*>(reinterpret_cast<char*>(flags_[static_cast<std::size_t>(q)]) +
                                                         kCacheLine)[call % 2];
  }
  Descriptor* slot(int q, std::uint32_t version) const;

  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = 0, size_ = 0;
  std::size_t bytes_ = 0, slot_bytes_ = 0;

  std::uint32_t counter_ = 0;
  std::uint32_t small_calls_ = 0;    // small-path calls so far
  std::uint32_t calls_ = 0;          // exchanges so far
  std::uint32_t version_ = 0;        // my descriptor's changes so far (0: none published)
  Descriptor published_;             // my descriptor as last published
  std::vector<Descriptor> known_;    // every rank's, as of the last exchange
  std::vector<std::uint32_t> seen_;  // the version of each in known_
  std::uint64_t known_changes_ = 0;
  std::uint64_t last_engines_ = 0;  // whose blocking call was the last (begin_call; 0: none)
  std::chrono::steady_clock::duration spin_{std::chrono::microseconds(2)};  // wait()'s spin before it yields
  Peers peers_;
  std::vector<char*> data_;
  std::vector<std::atomic<std::uint32_t>*> flags_;
};

/// The allgather stages of a shared-memory allreduce: stage a waits until
/// the ranks in waits[a] reach `first` + a, copies copies[a] from their
/// regions into mine, or at the last stage into `out` together with my own
/// ranges `own_last`, then sets my flag. With no stage, only `own_last`.
/// `spread`: the ranks wrote their pieces into my region (spread_piece),
/// so the one stage copies copies[0]'s ranges out of my own region.
void run_allgather(ShmSegment& seg, const std::vector<std::vector<int>>& waits,
                   const std::vector<std::vector<Copy>>& copies, const std::vector<Range>& own_last,
                   std::uint32_t first, char* out, const Memory& mem, bool spread = false);

/// Spread (one node, copy-in path, a single reduce_scatter stage and a
/// single allgather stage, both over every rank, as with factors -Q,Q): the
/// reduce_scatter sums my piece into my receive buffer, then writes it into
/// every other rank's region at the same offsets (spread_piece), and the
/// allgather copies the others' pieces out of my own region. Only I read
/// the others' regions at my piece, so once I summed it I may overwrite it.
/// Per rank it moves n/Q x 2(Q-1) bytes more than reading the pieces from
/// their owners' regions, but each rank's writes of a call land in lines
/// that only one other rank reads next, and no line of my own region at my
/// piece is touched: on two bound ranks of an AMD EPYC VM at 4 MiB
/// (scripts/peers/shm_patterns.cpp, docs/allreduce.md) 282-364 us against
/// 700-994 us for the schedules that read each piece from its owner.
void spread_piece(ShmSegment& seg, const char* piece, Range range, const Memory& mem);

/// Where a shared-memory algorithm runs: a node, or with --region
/// (numa, package, l3, size:K) each region of a node, one segment and one
/// leader (tree) or lane of pieces (recursive exchange, cyclic shift) per
/// region: "inter-node communication is done in parallel between sockets
/// of the node, and shared memory portions of the algorithm allocate one
/// shared memory segment per socket" (Section 2.1.2).
struct Domain {
  MPI_Comm comm = MPI_COMM_NULL;  // my domain's ranks, in comm() order
  MPI_Comm lane = MPI_COMM_NULL;  // the ranks with my domain rank, one per domain, in comm() order
  int size = 0;                   // ranks per domain
  int rank = 0;                   // mine in it
  int count = 0;                  // domains
  std::string name;               // "node" or "region"
};

/// Every domain rank's lane, as ranks of the layout's communicator in the
/// lane's order (Domain::lane: on nodes ordered by node, on regions by
/// rank), and every rank's domain rank; from the layout alone (no
/// communication). The reduce-scatter and allgather stages cut at parts
/// (shm_parts.hpp) own a lane's parts per domain rank.
struct Lanes {
  std::vector<std::vector<int>> of;  // by domain rank
  std::vector<int> drank;            // by rank of the layout's communicator
};
Lanes lanes_of(const Layout& layout, const Domain& dom);

/// Every rank's block (args' counts, CollArgs::count_of) as bytes of the
/// vector: its start, P + 1 of them (the last the vector's end).
std::vector<std::size_t> part_bytes(const CollArgs& args);
/// A v-form's counts as the blocking cache's key sees them (";c0;c1...";
/// "" for the block forms, whose count says it all).
std::string counts_key(const CollArgs& args);

/// A start such that start + lo is `at`: the stages address every
/// destination at the vector's offsets (sum_to), and a part that lands
/// elsewhere (a receive buffer's start, its place in a pack) is addressed
/// through such a start; computed on integers, never dereferenced.
inline char* shifted(char* at, std::size_t lo) {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(at) - lo);
}

/// Throws Error naming `who` unless args.comm is the layout's communicator
/// and every node has the same number of ranks.
void require_layout(const char* who, const CollArgs& args, const Layout& layout);

/// The checks every shared-memory algorithm makes (host memory, the
/// layout's communicator, the same number of ranks on every node and in
/// every region, elements that tile a cache line); throws Error naming
/// `who`. Collective over the layout's communicator (the lane across
/// regions is created on first use).
Domain shm_domain(const char* who, const CollArgs& args, const Layout& layout);

/// The allreduce across domains of the domain-level result, on the lane
/// communicator (--inner), with its --node-factors for recursive_exchange.
struct Inner {
  std::string name = "system";
  Factors factors;
};
ParamSpec inner_node_param();
ParamSpec node_factors_param();
/// --inner and --node-factors from params, checked for the domains.
Inner parse_inner(const char* who, const Params& params, const Domain& domain);
/// Adds inner (and node-factors) to `resolved` when there are several domains.
void add_inner(std::vector<std::pair<std::string, std::string>>& resolved, const Inner& inner, int domains);
/// That allreduce, in place on `count` elements at `piece`, on `lane`.
Plan inter_node_plan(const Inner& inner, const CollArgs& args, MPI_Comm lane, void* piece, int count);
/// What the recursive exchange and the cyclic shift resolve before their
/// setup (so that it cannot fail on bad input): the domain, --factors (the
/// default when not given; `at_least`: lists may multiply to more than the
/// ranks per domain), --inner, and the parameters as resolved, for the
/// report and the blocking cache key. Throws Error naming `who`.
struct ShmConfig {
  Domain dom;
  Factors factors;
  Inner inner;
  std::vector<std::pair<std::string, std::string>> resolved;
};
ShmConfig shm_config(const char* who, const CollArgs& args, const Layout& layout, const Params& params, bool at_least);

/// The message-passing recursive exchange (recursive_exchange.cpp) on args.comm.
Plan recursive_exchange(const CollArgs& args, const Factors& factors);

/// --factors, with `help` saying what the algorithm's lists mean; not a
/// list parameter (the value holds commas), alternatives separated by '/'.
ParamSpec factors_param(const std::string& help);
/// --factors of the tree (allreduce and reduce): the reduce fan-ins.
ParamSpec tree_factors_param();
/// Why a shared-memory algorithm cannot run on a layout ("" when it can).
std::string shm_unsupported(const Layout& layout);
/// The registry entry of a shared-memory algorithm: unsupported where
/// shm_unsupported says so, and unavailable where simulated ranks share no
/// memory (the SimGrid SMPI build, MCB_SIMULATE).
Algorithm shared_memory_algorithm(Algorithm algorithm);

}  // namespace mcb::allreduce::detail
