// The two interfaces of the shared-memory allreduces
// (allreduce-shared-memory-multiradix, Section 4). An algorithm is set up
// once for a communicator, a count and a type (its node segment, schedule
// and inter-node plan: Engines), and has one Engine per copy path
// (copy_path.hpp), whose phases run on whatever buffers a call brings.
//   persistent: the plan sets up in the factory (timed by the harness as
//               setup_us), like MPI_Allreduce_init + MPI_Start/MPI_Wait,
//               and decides the copy path there from the buffers it was
//               given (registered at init);
//   blocking:   the plan's one phase "allreduce" looks the setup up in a
//               cache attached to the communicator, keyed by algorithm,
//               count, type, operation and parameters, and sets it up on
//               the first call (lazily, inside that call); every call
//               publishes its buffers in the segment and the domain agrees
//               on the path for that call (not on the copy-in path, asked
//               with --copy copy-in or the only one: no rank touches
//               another's buffers there). The engines of every shape
//               share one segment per domain communicator (its arena: the
//               peers, found once, and a segment grown to the largest
//               vector so far, doubling), so a new shape costs its
//               schedule and no collective; the cache (bounded by
//               set_blocking_cache_limit) and the arena go with their
//               communicators.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "copy_path.hpp"
#include "mcb/collective.hpp"
#include "mcb/plan.hpp"
#include "mcb/reduction.hpp"
#include "shm.hpp"

namespace mcb::allreduce::detail {

/// One call: this rank's buffers and every domain rank's as the path reaches them.
struct Call {
  const void* send = nullptr;
  void* recv = nullptr;
  const Reach* reach = nullptr;
  /// Every rank of the domain has made this call's first step already: its
  /// path's Engine::enter, then the one step of the blocking call's
  /// exchange (engine.cpp's enter_call); the first phase neither waits nor
  /// sets its flag (first_step).
  bool entered = false;
  /// My input: the send buffer, or the receive buffer in place.
  const char* in() const { return static_cast<const char*>(send == MPI_IN_PLACE ? recv : send); }
};

struct Engine {
  struct Phase {
    std::string name;
    std::function<void(const Call&)> run;
  };
  std::vector<Phase> phases;
  /// The first step of a call on this path but its handoff: wait until the
  /// ranks that read my region are done with my last call (their flags at
  /// `start`, my counter when the call began), then copy in what the path
  /// copies in (maybe nothing). Empty where the first phase hands over more
  /// than once (the copy-in bcast by pieces): no call enters it early.
  using Enter = std::function<void(const Call&, std::uint32_t start)>;
  Enter enter;
};

/// The first step of a call: my counter when it began into `base`; then,
/// unless the call has entered (Call::entered: `base` is one step back),
/// `enter` and my flag set (the one step).
inline void first_step(ShmSegment& seg, const Engine::Enter& enter, const Call& c, std::uint32_t& base) {
  if (c.entered) {
    base = seg.counter() - 1;
    return;
  }
  base = seg.counter();
  enter(c, base);
  seg.set();
}

/// An algorithm set up on a domain: the segment, and an engine per path,
/// made on first use by `make` (which must not communicate).
class Engines {
 public:
  /// `region`: the engines write the segment's data region (the small
  /// path's use only its slots).
  Engines(std::shared_ptr<ShmSegment> seg, std::function<std::shared_ptr<Engine>(Path)> make, bool region = true)
      : seg_(std::move(seg)), make_(std::move(make)), region_(region), id_(++made) {}
  bool region() const { return region_; }
  /// Unique in this process (an address may come again after a drop).
  std::uint64_t id() const { return id_; }
  ShmSegment& seg() const { return *seg_; }
  const std::shared_ptr<ShmSegment>& segment() const { return seg_; }
  const Engine& get(Path p);

  /// A blocking call's buffers, kept between calls (the engines of one
  /// --copy: it is part of the cache key): mine as described, and the path
  /// they alone would take (for these buffers, while the registry stood
  /// still) and its engine; the call's path and its engine, whether every
  /// rank guessed it, and every rank's buffers as this rank reaches them on
  /// it (for the segment's descriptors and the registry then). Engines are
  /// kept by address: a repeated call looks none up.
  struct Described {
    const void* in = nullptr;
    const void* out = nullptr;
    std::uint64_t registry = 0;
    Descriptor mine;
    const Engine* guess = nullptr;
  };
  std::optional<Described> described;
  Reach reach;
  const Engine* agreed = nullptr;
  bool guessed = false;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> reach_for;  // (known_changes, registry)

 private:
  std::shared_ptr<ShmSegment> seg_;
  std::function<std::shared_ptr<Engine>(Path)> make_;
  std::array<std::shared_ptr<Engine>, 3> made_;  // by Path
  bool region_ = true;
  std::uint64_t id_ = 0;
  static inline std::uint64_t made = 0;
};

/// What a call's stages use without allocating or looking up: lists of
/// sources and destinations with room for every rank of the domain and one
/// more, on the cma path a chunk per source, together small enough to stay
/// in the core's cache while the chunk is summed, and the call's reduction
/// resolved once (its kernel and element size: looked up per sum, they were
/// about 185 instructions of a registered 8 KiB allreduce, issue 57).
class Scratch {
 public:
  Scratch(int q, bool cma, const CollArgs& args);
  Reducer reduce;                 // args.type and args.op
  std::vector<const void*> srcs;  // q + 1 entries
  std::vector<void*> to;          // q + 1 entries
  std::vector<char*> dsts;        // capacity q + 1: clear() and push_back() per use
  std::size_t chunk() const { return chunk_; }
  char* at(int i) { return bytes_.data() + static_cast<std::size_t>(i) * chunk_; }

 private:
  std::size_t chunk_ = 0;
  std::vector<char> bytes_;
};

/// cma_read, where the probe allowed it: a refusal now aborts the job
/// with the reason (it cannot be agreed on in the middle of a call).
void cma_read_or_abort(pid_t pid, void* local, std::uintptr_t remote, std::size_t bytes);

/// The first stage of a registered or cma call: the sum over the inputs of
/// the domain ranks `from` (me included) of bytes [lo, hi), written at the
/// same offsets into each of the buffers w.dsts (their starts).
/// registered: read in place; cma: the others' chunks read with
/// process_vm_readv into `scratch`, then summed (a refusal now, after the
/// probe allowed it, aborts the job with the reason).
void sum_inputs(const Call& c, int me, const std::vector<pid_t>& pids, const std::vector<int>& from, std::size_t lo,
                std::size_t hi, Scratch& w);
/// dsts (w.dsts, their starts) at [lo, lo + n elements) = the sum of the k
/// sources already in w.srcs.
void sum_to(Scratch& w, int k, std::size_t lo, std::size_t bytes);

/// The --interface parameter: persistent (default) or blocking.
ParamSpec interface_param();

using Resolved = std::vector<std::pair<std::string, std::string>>;

/// A plan on args' buffers over the Engines that `setup` makes on a
/// segment of the domain `dom` with a data region of at least
/// args.block_bytes() per rank (`setup` must not communicate): now, on a
/// segment of its own (persistent), or on the first execution, cached per
/// (args.comm, `who`, count, type, op, `resolved`), on the domain's arena
/// (blocking, per params' --interface). The copy path (--copy)
/// is decided now from args' buffers, the same on every rank of args.comm,
/// and reported as the parameter copy=...; a path named in --copy that
/// cannot run is an Error. `copy_in_only`: why the algorithm has only the
/// copy-in path here ("" when it has all three). `traffic(path)`: the bytes this rank reads and
/// writes per call (Plan::traffic). `resolved`: the parameters as the
/// algorithm resolved them (checked before, so that `setup` cannot fail on
/// bad input), for the report and the cache key. `slot_bytes`: the small
/// path's area per rank that the segment must have (small_path.hpp).
/// A blocking plan called again on the same shape finds its engines without
/// a lookup while the communicator's cache has not changed since its last call.
/// `options`: what the collectives other than the allreduce add.
struct EngineOptions {
  /// What else tells two calls of the same count apart (a v-form's
  /// counts), for the blocking cache's key.
  std::string shape;
  /// The blocking plan's one phase: the collective's name.
  std::string phase = "allreduce";
  /// The send buffer's bytes out of place (an allgather's block), where
  /// registration is looked up; 0: args.block_bytes(), as the receive
  /// buffer's.
  std::size_t send_bytes = 0;
  /// The receive buffer's bytes (and in place the input's), where
  /// registration is looked up; 0: args.block_bytes(). A scatter's
  /// non-root receives less than the segment's region holds.
  std::size_t recv_bytes = 0;
  /// --copy auto takes cross-memory attach only where each rank reads at
  /// least this many bytes from a peer in one system call (0: always,
  /// where the probe found it fast).
  std::size_t cma_min = 0;
  std::size_t cma_piece = 0;  // the bytes a rank reads from a peer per call
  /// --copy auto takes cross-memory attach where a kernel copy takes at
  /// most this many times a memcpy (the probe's Peers::cma_ratio): 1, or
  /// Q/(Q-1) for an allgather, whose copy-in moves each block twice (into
  /// its owner's region, out to every reader) where cma moves it once.
  double cma_ratio = 1.0;
  /// --copy auto takes cross-memory attach wherever it works (however the
  /// probe timed it, which reads its sample in cache) when the copy-in
  /// path would touch at least the last-level cache per call
  /// (mcb::last_level_cache_bytes()): the node's
  /// send, receive and region bytes (0: never). An allgather's copy-in
  /// moves each block three times (into its owner's region, out to the
  /// reader, and the owner's own out of place), cma twice: out of cache
  /// the bandwidth decides (issue 71: 2 bound ranks, 4 MiB blocks, cma
  /// 0.93-1.14 of Open MPI's own, copy-in 1.3-1.75; 2 MiB blocks, copy-in
  /// 0.7-0.9, cma 1.03-1.17).
  std::size_t copy_in_footprint = 0;
  /// The blocking interface's --copy auto copies in, on any buffers, where
  /// a rank reads fewer bytes than this from a peer (cma_piece; 0: never):
  /// the call then makes no entering exchange (enter_call), which a rooted
  /// call's root would otherwise wait in for its peers' arrival (issue 71:
  /// a blocking scatter of 1 B - 1 KiB blocks on 2 bound ranks, MPICH
  /// 4.0.2, copy-in 0.07-0.20 us, registered through the exchange
  /// 0.16-0.24; from 2 KiB registered is ahead).
  std::size_t blocking_copy_in_below = 0;
};
/// The reduce-scatter's and allgather's cma_min: below it a peer's piece
/// costs more in its process_vm_readv than in a copy through the segment
/// (2 bound ranks, issue 71: cma 3.1-3.4 us against copy-in 0.24-0.28 us
/// for the reduce_scatter stage of 64 B-1 KiB vectors).
inline constexpr std::size_t kCmaMinPiece = 32 * 1024;
/// This core's private (L2) cache in bytes, 0 where unknown: the 2-rank
/// auto rules of the gathers and allgathers (a block whose copy-in fits it
/// is read from the peer's cache, which the probe does not price).
std::size_t private_cache_bytes();
Plan engine_plan(const std::string& who, const CollArgs& args, const Params& params, const Resolved& resolved,
                 MPI_Comm dom, std::function<std::shared_ptr<Engines>(std::shared_ptr<ShmSegment>)> setup,
                 const std::function<double(Path)>& traffic, const std::string& copy_in_only = "",
                 std::size_t slot_bytes = 0, const EngineOptions& options = {});

}  // namespace mcb::allreduce::detail
