// The small path: what shm_recursive_exchange, shm_cyclic_shift and
// shm_tree (allreduce, reduce, bcast) run for vectors up to --small bytes
// on one node (issue 57). The stages of those algorithms cost one flag
// handoff between the cores each (copy-in, reduce_scatter, allgather: three
// at 2 ranks, persistent 4 B 0.17 + 0.39 + 0.35 us), where the MPIs' own
// shared-memory collectives take one or two with several buffers in flight
// (Open MPI's coll/sm, MPICH's release_gather). Here every rank has two
// vector slots in the segment (ShmSegment::vector_slot: up to 16 bytes on
// the rank's flag line, where the rank that waited for the flag finds the
// vector in the line it read, else the two halves of its area, the same
// for every larger size), and call k on the segment uses slot k % 2, so
// that no rank waits for the readers of its last call. A call is one
// phase, named after the collective:
//   allreduce: my vector into my slot, then my flag (the one handoff); wait
//              for every rank's flag, sum the Q slots in rank order (every
//              rank the same sum, bit for bit) into my receive buffer (my
//              own operand read from my input)
//   reduce:    (not rank 0) wait until rank 0 entered my last call (it read
//              my slot of two calls ago), my vector into my slot, my flag;
//              (rank 0) my flag, wait for every rank, sum as the allreduce
//   bcast:     (rank 0) wait until every rank read the slot of two calls
//              ago, the vector into slot k % 2, my flag, then its own
//              receive buffer from its send buffer; (the others) wait for
//              rank 0's flag, copy out, my flag
// Why two slots are enough: a rank writes slot k % 2 in call k; its last
// writer's readers read it in call k - 2 before they set their flag of call
// k - 1, which every writer waited for in call k - 1 (allreduce), or waits
// for now (reduce, bcast). Each rank sets its flag once per call, as every
// engine on a segment does the same number of times, so the counters of a
// domain stay in step across shapes (shm.hpp). The slots lie apart from the
// data region, which the stages of another shape on the same (blocking)
// segment write.
// Per rank, vector of n bytes on Q ranks: the allreduce copies n in and
// reads Q n (traffic 2n + (Q+1) n); the reduce the same at rank 0 and 2n
// elsewhere; the bcast 2n at rank 0 (4n out of place) and 2n elsewhere.
// Only the copy-in path: reading the inputs in place (registered, cma)
// needs a second handoff (the owner may not return before its readers are
// done), which is what the small path removes.
#include "small_path.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/reduction.hpp"
#include "vector.hpp"

namespace mcb::allreduce::detail {

namespace {

// The default switches, bytes per rank, measured on 2 bound ranks
// (scripts/measure/small_path.py, docs/allreduce.md "The small path"): the
// allreduce and reduce read Q slots, so theirs is a budget of bytes read
// over Q. Open MPI 4.1.4, 5 runs, small over the stages' time: allreduce
// 0.64-0.98 persistent up to 2 KiB, 1.10 at 4 KiB (blocking 0.45-0.88 to 4
// KiB); reduce 0.59-0.91 persistent and 0.49-0.93 blocking up to 4 KiB,
// 1.03 and 0.93 at 8 KiB; bcast 0.96-1.02 persistent and 0.62-0.96
// blocking at every size to 64 KiB (one slot read: no growth with Q).
constexpr std::size_t kSmallAllreduce = 4096;
constexpr std::size_t kSmallReduce = 8192;
constexpr std::size_t kSmallBcast = 65536;

std::size_t rounded(std::size_t bytes) { return (bytes + kCacheLine - 1) / kCacheLine * kCacheLine; }

// What the calls of one engine share: my counter when the call began, the
// slot of this call, and the sources of the sum.
struct State {
  std::uint32_t base = 0;
  std::uint32_t parity = 0;
  std::vector<const void*> srcs;
};

struct Small {
  SmallKind kind;
  CollArgs args;
  std::shared_ptr<ShmSegment> seg;
  std::shared_ptr<State> st;
  std::size_t bytes;
  int q, me;
  Reducer reduce;  // args.type and args.op, resolved at setup

  char* slot_of(int r) const { return seg->vector_slot(r, st->parity, bytes); }
  void begin() const {
    st->base = seg->counter();
    st->parity = seg->next_small_call() % 2;
  }
  // recv = the slots of every rank in rank order, mine from my input.
  void sum(const Call& c) const {
    for (int r = 0; r < q; ++r) st->srcs[static_cast<std::size_t>(r)] = r == me ? c.in() : slot_of(r);
    void* dst = c.recv;
    reduce(&dst, 1, st->srcs.data(), q, args.count);
  }
};

// Each engine has one phase, named after the collective: the call's one
// handoff leaves nothing to break down, and a persistent plan of two phases
// would be timed with a clock read inside the call (the harness's, between
// phases), which on 2 bound ranks made it read 3-4% faster than the same
// call timed whole (8 B allreduce, 100 launches, issue 57 item 2): the
// blocking call, one step, was measured against that.
std::shared_ptr<Engine> one_phase(const char* name, std::function<void(const Call&)> run) {
  auto e = std::make_shared<Engine>();
  e->phases.push_back({name, std::move(run)});
  return e;
}

std::shared_ptr<Engine> allreduce_engine(const Small& x) {
  return one_phase("allreduce", [x](const Call& c) {
    x.begin();
    x.args.memory().copy(x.slot_of(x.me), c.in(), x.bytes);
    x.seg->set();
    for (int r = 0; r < x.q; ++r)
      if (r != x.me) x.seg->wait(r, x.st->base + 1);
    x.sum(c);
  });
}

std::shared_ptr<Engine> reduce_engine(const Small& x) {
  return one_phase("reduce", [x](const Call& c) {
    x.begin();
    if (x.me != 0) {
      x.seg->wait(0, x.st->base);  // rank 0 read my slot of two calls ago
      x.args.memory().copy(x.slot_of(x.me), c.in(), x.bytes);
      x.seg->set();
      return;
    }
    x.seg->set();
    for (int r = 1; r < x.q; ++r) x.seg->wait(r, x.st->base + 1);
    x.sum(c);
  });
}

std::shared_ptr<Engine> bcast_engine(const Small& x) {
  return one_phase("bcast", [x](const Call& c) {
    x.begin();
    if (x.me == 0) {
      // Every rank read the slot of two calls ago (its flag of the last call).
      for (int r = 1; r < x.q; ++r) x.seg->wait(r, x.st->base - 1);
      x.args.memory().copy(x.slot_of(0), c.in(), x.bytes);
      x.seg->set();
      if (c.send != MPI_IN_PLACE) x.args.memory().copy(c.recv, c.send, x.bytes);
      return;
    }
    x.seg->wait(0, x.st->base + 1);
    x.args.memory().copy(c.recv, x.slot_of(0), x.bytes);
    x.seg->set();
  });
}

double traffic(SmallKind kind, std::size_t bytes, int q, int me, bool in_place) {
  const double n = static_cast<double>(bytes);
  switch (kind) {
    case SmallKind::allreduce:
      return 2 * n + (q + 1) * n;
    case SmallKind::reduce:
      return me == 0 ? (q + 1) * n : 2 * n;
    default:
      return me == 0 && !in_place ? 4 * n : 2 * n;
  }
}

}  // namespace

ParamSpec small_param(SmallKind kind) {
  const std::string rule = kind == SmallKind::bcast    ? std::to_string(kSmallBcast)
                           : kind == SmallKind::reduce ? std::to_string(kSmallReduce) + " / ranks per node"
                                                       : std::to_string(kSmallAllreduce) + " / ranks per node";
  return {"small",
          "vectors of at most this many bytes per rank, on one node, take the small path: one flag handoff per call "
          "through two slots per rank, copy-in (--copy auto or copy-in); 0: never (default: " +
              rule + ", measured on 2 ranks)",
          ""};
}

std::size_t small_limit(const char* who, const Params& params, int q, SmallKind kind) {
  if (params.has("small")) {
    const std::string text = params.get("small");
    if (!Params::is_integer(text) || text.front() == '-' || text.front() == '+')
      throw Error(std::string(who) + ": --small " + text + ": expected a whole number of bytes (0: never)");
    return static_cast<std::size_t>(params.get_int("small", 0));
  }
  const std::size_t ranks = static_cast<std::size_t>(q > 0 ? q : 1);
  return kind == SmallKind::bcast ? kSmallBcast : (kind == SmallKind::reduce ? kSmallReduce : kSmallAllreduce) / ranks;
}

bool takes_small_path(const char* who, const CollArgs& args, const Domain& dom, const Params& params, SmallKind kind) {
  const std::size_t limit = small_limit(who, params, dom.size, kind);
  const std::string copy = params.get("copy", "auto");
  return dom.count == 1 && dom.size > 1 && args.block_bytes() <= limit && (copy == "auto" || copy == "copy-in");
}

Plan small_plan(SmallKind kind, const std::string& who, const CollArgs& args, const Params& params, Resolved resolved,
                const Domain& dom) {
  const std::size_t bytes = args.block_bytes(), slot = rounded(bytes);
  const int q = dom.size, me = dom.rank;
  resolved.emplace_back("small", std::to_string(small_limit(who.c_str(), params, q, kind)));
  resolved.emplace_back("path", "small");
  auto setup = [kind, args, bytes, q, me](std::shared_ptr<ShmSegment> seg) {
    auto make = [kind, args, seg, bytes, q, me](Path) {
      auto st = std::make_shared<State>();
      st->srcs.resize(static_cast<std::size_t>(q));
      const Small x{kind, args, seg, st, bytes, q, me, Reducer(args.type, args.op)};
      return kind == SmallKind::allreduce ? allreduce_engine(x)
             : kind == SmallKind::reduce  ? reduce_engine(x)
                                          : bcast_engine(x);
    };
    return std::make_shared<Engines>(seg, make, false);
  };
  const bool in_place = args.sendbuf == MPI_IN_PLACE;
  return engine_plan(
      who, args, params, resolved, dom.comm, setup,
      [kind, bytes, q, me, in_place](Path) { return traffic(kind, bytes, q, me, in_place); },
      "the small path copies in", 2 * slot);
}

}  // namespace mcb::allreduce::detail
