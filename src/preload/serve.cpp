// The path of one intercepted call (see serve.hpp):
//   1. checks that need no setup, in an order every rank follows alike:
//      invalid arguments, intercommunicator, MPI_IN_PLACE, send and receive
//      bytes, zero bytes, int overflow, the reduction's op and type;
//   2. the call's shape on this communicator; the first call of a shape
//      (on every rank at once) makes the layout if there is none yet, asks
//      the algorithm whether it runs on that layout, and makes the plan for
//      this rank's buffers inside agree() so that a refusal is everyone's;
//   3. the plan for this rank's buffers (made alone when they are new);
//   4. pack a non-contiguous send type into the shape's staging buffer,
//      run the plan, unpack a non-contiguous receive type.
// The same call again (same arguments, predefined types, no cache changed
// since) skips steps 1-3: the last call's plan is kept per thread (LastCall).
// Alltoall, allgather and bcast move bytes (MPI_BYTE, count x type size):
// their datatypes only need the same bytes on both sides. Allreduce keeps its
// type, which must be one the algorithms reduce. MPI_Bcast is the
// algorithms' in-place bcast from rank 0 (rank 0's receive buffer is the
// source); from another root, on a private copy of the communicator rotated
// to start there (cache.hpp). On a communicator of one rank a
// call of contiguous types is a copy (or nothing), served without a layout.
#include "serve.hpp"

#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "cache.hpp"
#include "checks.hpp"
#include "entry.hpp"
#include "guard.hpp"
#include "mcb/error.hpp"
#include "report.hpp"

namespace mcb::preload {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// What one call adds to the report.
struct Record {
  bool served = false;
  bool single = false;  // served as a copy on a one-rank communicator
  Reason reason = Reason::invalid;
  std::string why;
  bool packed = false;
  double setup = 0;
  int layouts = 0, shapes = 0, shapes_evicted = 0, plans = 0, plans_evicted = 0, agreements = 0;
};

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "mcb_preload: error: %s\n", message.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

// A refusal by the algorithm (its layout or its setup) is said once per
// process, collective and reason, by the communicator's rank 0: the report
// counts them, but without the report the user should still learn that the
// algorithm asked for does not run.
void warn_once(const Config& cfg, const Call& q, Reason reason, const std::string& why, int comm_size) {
  static std::mutex m;
  static std::set<std::pair<int, int>> said;
  int rank = 0;
  MPI_Comm_rank(q.comm, &rank);
  if (rank != 0) return;
  {
    std::lock_guard<std::mutex> lock(m);
    if (!said.insert({index(q.coll), static_cast<int>(reason)}).second) return;
  }
  std::fprintf(stderr,
               "mcb_preload: warning: %s=%s on a communicator of %d ranks: %s; such calls go to the MPI's own "
               "%s (reason %s, said once)\n",
               env_name(q.coll), cfg[q.coll].text.c_str(), comm_size, why.c_str(), mpi_name(q.coll),
               reason_name(reason));
}

Plan make_plan(const Choice& choice, const Layout& layout, const ShapeKey& key, const void* send, void* recv) {
  CollArgs a;
  a.sendbuf = send;
  a.recvbuf = recv;
  a.count = static_cast<int>(key.count);
  a.type = key.type;
  a.op = key.op;
  a.comm = layout.comm();
  return choice.algorithm->make(a, layout, choice.params);
}

// This rank's view of a call: the buffers the plan runs on and what to
// (un)pack around it.
struct View {
  ShapeKey key;
  const void* send = nullptr;
  void* recv = nullptr;
  bool pack_send = false;    // the send type through stage_send
  bool stage_recv = false;   // the receive type through stage_recv (unpack after)
  bool pack_recv = false;    // in-place allgather, the bcast's root: the receive buffer packed before, too
  bool unpack_recv = false;  // the staged receive buffer unpacked after (not at the bcast's root)
  long long send_bytes = 0;  // of the whole send (or staged receive) buffer
  long long recv_bytes = 0;
  int send_elems = 0, recv_elems = 0;  // elements of the call's types in those buffers
  bool named = false;                  // every type the call uses is predefined (its handle is never reused)
};

// Step 1: the checks; false with rec.reason when the MPI's own must serve.
bool check(const Call& q, const CommCache& cache, View& v, Record& rec) {
  const int p = cache.size;
  auto refuse = [&](Reason r) {
    rec.reason = r;
    return false;
  };
  v.key.coll = q.coll;
  if (q.coll == Coll::allreduce) {
    Reason why = Reason::type;
    if (!reducible(q.op, q.stype, &why)) return refuse(why);
    const long long size = type_info(q.stype).size;
    if (q.scount == 0 || size == 0) return refuse(Reason::empty);
    if (q.scount * size > INT_MAX) return refuse(Reason::overflow);
    v.key.count = q.scount;
    v.key.type = q.stype;
    v.key.op = q.op;
    v.key.in_place = q.send == MPI_IN_PLACE;
    v.send = q.send;
    v.recv = q.recv;
    v.named = true;  // reducible: a predefined operation on a predefined type
    return true;
  }
  if (q.coll == Coll::bcast) {
    if (q.root != 0) return refuse(Reason::invalid);  // attempt() rotated a valid root to 0
    const TypeInfo rt = type_info(q.rtype);
    const long long bytes = q.rcount * rt.size;
    if (bytes == 0) return refuse(Reason::empty);
    if (bytes > INT_MAX) return refuse(Reason::overflow);
    v.key.count = bytes;
    v.key.in_place = true;
    v.recv_bytes = bytes;
    v.recv_elems = q.rcount;
    v.stage_recv = !rt.contiguous;
    v.pack_recv = v.stage_recv && cache.rank == q.root;
    v.unpack_recv = v.stage_recv && cache.rank != q.root;
    v.named = rt.named;
    return true;
  }
  const bool in_place = q.send == MPI_IN_PLACE;
  if (in_place && q.coll == Coll::alltoall) return refuse(Reason::in_place);
  const TypeInfo rt = type_info(q.rtype);
  const long long block = q.rcount * rt.size;
  TypeInfo st;
  if (!in_place) {
    st = type_info(q.stype);
    if (q.scount * st.size != block) return refuse(Reason::type_mismatch);
  }
  if (block == 0) return refuse(Reason::empty);
  if (block * p > INT_MAX) return refuse(Reason::overflow);
  v.key.count = block;
  v.key.in_place = in_place;
  v.recv_bytes = block * p;
  v.recv_elems = q.rcount * p;
  v.stage_recv = !rt.contiguous;
  v.unpack_recv = v.stage_recv;
  v.pack_recv = in_place && !rt.contiguous;
  if (!in_place) {
    const int blocks = q.coll == Coll::alltoall ? p : 1;
    v.send_bytes = block * blocks;
    v.send_elems = q.scount * blocks;
    v.pack_send = !st.contiguous;
  }
  v.named = rt.named && (in_place || st.named);
  return true;
}

// The buffers the plan runs on, staging ones where types are packed.
void place(const Call& q, Shape& shape, View& v) {
  v.send = v.key.in_place
               ? MPI_IN_PLACE
               : (v.pack_send ? shape.staging(shape.stage_send, static_cast<std::size_t>(v.send_bytes)) : q.send);
  v.recv = v.stage_recv ? shape.staging(shape.stage_recv, static_cast<std::size_t>(v.recv_bytes)) : q.recv;
  if (q.coll == Coll::allreduce) {
    v.send = q.send;
    v.recv = q.recv;
  }
}

// A call shape new on this communicator, set up (layout, the algorithm's
// verdict on it, the first plan) or marked refused with its reason; every
// rank of the communicator is here, in the same call.
Shape* set_up_shape(const Config& cfg, int world_rank, const Call& q, CommCache& cache, View& v, Record& rec) {
  const Choice& choice = cfg[q.coll];
  const int plan_limit = choice.agreed ? 1 : cfg.plans;
  const auto t0 = Clock::now();
  auto s = std::make_unique<Shape>();
  s->key = v.key;
  if (!cache.layout) {
    LayoutOptions options;
    if (cfg.ranks_per_node > 0) options.node_color = world_rank / cfg.ranks_per_node;
    try {
      cache.layout = std::make_unique<Layout>(Layout::create(q.comm, options));
      cache.layout_order = next_layout_order();
      ++rec.layouts;
    } catch (const std::exception& e) {
      s->ok = false;
      s->reason = Reason::setup_error;
      s->why = e.what();
    }
  }
  const Layout* layout = cache.layout.get();
  const int c = index(q.coll);
  if (layout && !cache.verdict_known[c]) {
    const Algorithm& a = *choice.algorithm;
    std::string why = a.unsupported ? a.unsupported(*layout) : "";
    if (why.empty() && a.unsupported_config) why = a.unsupported_config(*layout, choice.params);
    cache.unsupported[c] = why.empty() ? "" : a.name + " " + why + " (" + layout->describe() + ")";
    cache.verdict_known[c] = true;
  }
  if (layout && !cache.unsupported[c].empty()) {
    s->ok = false;
    s->reason = Reason::layout;
    s->why = cache.unsupported[c];
  } else if (layout) {
    place(q, *s, v);
    try {
      Plan plan = agree_on(layout->comm(), [&] { return make_plan(choice, *layout, v.key, v.send, v.recv); });
      insert_plan(*s, {v.send, v.recv, std::move(plan)}, plan_limit);
      ++rec.plans;
    } catch (const std::exception& e) {
      s->ok = false;
      s->reason = Reason::setup_error;
      s->why = e.what();
    }
  }
  ++rec.shapes;
  rec.shapes_evicted += insert_shape(cache, std::move(s), cfg.shapes);
  Shape* shape = cache.shapes[index(q.coll)].front().get();
  rec.setup += since(t0);
  if (!shape->ok) warn_once(cfg, q, shape->reason, shape->why, cache.size);
  return shape;
}

// Packs the caller's data into the staging buffer of a packed type.
void pack_in(const Call& q, const View& v, Record& rec) {
  int pos = 0;
  if (v.pack_send)
    MPI_Pack(q.send, v.send_elems, q.stype, const_cast<void*>(v.send), static_cast<int>(v.send_bytes), &pos, q.comm);
  else
    MPI_Pack(q.recv, v.recv_elems, q.rtype, v.recv, static_cast<int>(v.recv_bytes), &pos, q.comm);
  if (pos != (v.pack_send ? v.send_bytes : v.recv_bytes))
    die(std::string(mpi_name(q.coll)) + ": MPI_Pack made " + std::to_string(pos) + " bytes of " +
        std::to_string(v.pack_send ? v.send_bytes : v.recv_bytes) + " (not raw bytes)");
  rec.packed = true;
}

// Step 3: the plan for this rank's buffers, made if they are new (with the
// others, for an algorithm whose every setup is collective); nullptr with
// rec.reason when the MPI's own must serve.
PlanEntry* plan_for(const Config& cfg, const Call& q, const Layout& layout, Shape& shape, bool fresh, const View& v,
                    Record& rec) {
  const Choice& choice = cfg[q.coll];
  const int plan_limit = choice.agreed ? 1 : cfg.plans;
  PlanEntry* entry = find_plan(shape, v.send, v.recv);
  if (choice.agreed && !fresh) {
    // Every setup is collective: rebuild on every rank if one needs it.
    int need = entry ? 0 : 1;
    PMPI_Allreduce(MPI_IN_PLACE, &need, 1, MPI_INT, MPI_MAX, layout.comm());
    ++rec.agreements;
    if (need) {
      const auto t0 = Clock::now();
      clear_plans(shape);
      try {
        Plan plan = agree_on(layout.comm(), [&] { return make_plan(choice, layout, v.key, v.send, v.recv); });
        insert_plan(shape, {v.send, v.recv, std::move(plan)}, plan_limit);
        ++rec.plans;
      } catch (const std::exception& e) {
        shape.ok = false;
        shape.why = e.what();
        rec.reason = Reason::setup_error;
        rec.why = shape.why;
        rec.setup += since(t0);
        return nullptr;
      }
      entry = &shape.plans.front();
      rec.setup += since(t0);
    }
  } else if (!entry) {
    // New buffers on this rank: the shape's collective setup is done, the
    // plan is this rank's alone. A refusal now cannot be agreed on.
    const auto t0 = Clock::now();
    try {
      rec.plans_evicted +=
          insert_plan(shape, {v.send, v.recv, make_plan(choice, layout, v.key, v.send, v.recv)}, plan_limit);
    } catch (const std::exception& e) {
      die(std::string(mpi_name(q.coll)) + ": " + choice.text +
          " refused new buffers after serving this call shape: " + e.what());
    }
    ++rec.plans;
    entry = &shape.plans.front();
    rec.setup += since(t0);
  }
  return entry;
}

// What a call runs: the call as served (a bcast from another root on its
// rotated communicator), this rank's view of it and the plan.
struct Ready {
  Call q;
  View v;
  PlanEntry* entry = nullptr;  // nullptr: served without a plan (one rank)
};

// Steps 1-3; false with rec.reason when the MPI's own must serve.
bool prepare(const Config& cfg, int world_rank, const Call& q, Record& rec, Ready& ready) {
  // In place, the send count and type are ignored (any value is right).
  const bool send_used = q.coll == Coll::allreduce || q.send != MPI_IN_PLACE;
  if (q.comm == MPI_COMM_NULL || (send_used && (q.scount < 0 || q.stype == MPI_DATATYPE_NULL)) ||
      (q.coll != Coll::allreduce && (q.rcount < 0 || q.rtype == MPI_DATATYPE_NULL))) {
    rec.reason = Reason::invalid;
    return false;
  }
  CommCache& cache = comm_cache(q.comm);
  if (cache.inter) {
    rec.reason = Reason::intercomm;
    return false;
  }
  if (q.coll == Coll::bcast && q.root > 0 && q.root < cache.size) {
    // The algorithms broadcast from rank 0: the same call on this
    // communicator rotated to start at the root (every rank is here).
    Call rotated = q;
    rotated.comm = rotated_comm(cache, q.root);
    rotated.root = 0;
    return prepare(cfg, world_rank, rotated, rec, ready);
  }
  View& v = ready.v;
  ready.q = q;
  if (!check(q, cache, v, rec)) return false;
  if (cache.size == 1 && (q.coll == Coll::bcast || v.key.in_place || (!v.pack_send && !v.stage_recv))) {
    // One rank: the result is the input (a copy of contiguous bytes, or
    // nothing to do). No layout, shape or plan.
    if (q.coll != Coll::bcast && !v.key.in_place) {
      const long long bytes = q.coll == Coll::allreduce ? v.key.count * type_info(q.stype).size : v.key.count;
      if (q.send != q.recv) std::memcpy(q.recv, q.send, static_cast<std::size_t>(bytes));
    }
    rec.served = rec.single = true;
    return true;
  }

  // A communicator's set-up waits for its setup_after-th servable call (the
  // same call on every rank: every rank makes the same calls on it and the
  // checks above read only what is alike on every rank).
  if (!cache.layout && ++cache.calls_before_layout < cfg.setup_after) {
    rec.reason = Reason::deferred;
    return false;
  }
  Shape* shape = find_shape(cache, v.key);
  const bool fresh = shape == nullptr;
  if (fresh) shape = set_up_shape(cfg, world_rank, q, cache, v, rec);  // every rank is here, in the same call
  if (!shape->ok) {
    rec.reason = shape->reason;
    rec.why = shape->why;
    return false;
  }
  place(q, *shape, v);
  ready.entry = plan_for(cfg, q, *cache.layout, *shape, fresh, v, rec);
  return ready.entry != nullptr;
}

// Step 4.
void run(const Ready& r, Record& rec) {
  const Call& q = r.q;
  const View& v = r.v;
  if (v.pack_send || v.pack_recv) pack_in(q, v, rec);
  // A blocking shared-memory allreduce sets a new shape up inside its first
  // call: that part of the call is setup too.
  const Plan& plan = r.entry->plan;
  const double lazy = plan.report()->setup();
  plan.execute();
  rec.setup += plan.report()->setup() - lazy;
  if (v.unpack_recv) {
    int pos = 0;
    MPI_Unpack(v.recv, static_cast<int>(v.recv_bytes), &pos, q.recv, v.recv_elems, q.rtype, q.comm);
    rec.packed = true;
  }
  rec.served = true;
}

// The last call this thread served with a plan, to serve the same call
// again without steps 1-3 (issue 57: at 4-16 B they were most of the
// preload's own time: the communicator's attribute, the type checks, the
// shape and plan lookups). Valid while the caches are unchanged
// (cache_generation(): a new, moved or dropped shape or plan, a freed
// communicator, whose handle a new one may reuse) and the call has the
// same arguments, of predefined types only (a derived type's handle may
// come back as another type). Not for an algorithm whose plans are agreed
// on every call (Choice::agreed): that agreement is collective.
struct LastCall {
  std::uint64_t generation = 0;  // 0: none
  Call q;                        // as the caller made it
  Ready ready;
};
thread_local LastCall t_last __attribute__((tls_model("initial-exec")));

bool same_call(const Call& a, const Call& b) {
  return a.coll == b.coll && a.send == b.send && a.scount == b.scount && a.stype == b.stype && a.recv == b.recv &&
         a.rcount == b.rcount && a.rtype == b.rtype && a.op == b.op && a.comm == b.comm && a.root == b.root;
}

// Steps 1-4; false with rec.reason when the MPI's own must serve.
bool attempt(const Config& cfg, int world_rank, const Call& q, Record& rec) {
  LastCall& last = t_last;
  if (last.generation == cache_generation() && same_call(last.q, q)) {
    run(last.ready, rec);
    return true;
  }
  Ready ready;
  if (!prepare(cfg, world_rank, q, rec, ready)) return false;
  if (!ready.entry) return true;  // one rank: done
  if (ready.v.named && !cfg[q.coll].agreed) last = {cache_generation(), q, ready};
  run(ready, rec);
  return true;
}

}  // namespace

int serve(const Config& cfg, const Call& q, Fallback fallback) {
  Busy busy;
  const bool timing = cfg.report != Config::Report::off;
  const auto t0 = timing ? Clock::now() : Clock::time_point{};
  Record rec;
  bool served = false;
  try {
    served = attempt(cfg, world_rank(), q, rec);
  } catch (const std::exception& e) {
    // Not a refusal agreed on (those are caught inside): nothing safe remains.
    die(std::string(mpi_name(q.coll)) + ": " + cfg[q.coll].text + ": " + e.what());
  }
  const auto t1 = timing ? Clock::now() : Clock::time_point{};
  const int rc = served ? MPI_SUCCESS : fallback(q);
  if (!timing) return rc;
  const double mcb_time = std::chrono::duration<double>(t1 - t0).count();
  const double total = since(t0);
  stats().update(q.coll, [&](CollStats& s) {
    ++s.calls;
    s.fortran += q.fortran ? 1 : 0;
    s.single += rec.single ? 1 : 0;
    if (served) {
      ++s.served;
      s.time_served += mcb_time;
    } else {
      ++s.fallback;
      const int r = static_cast<int>(rec.reason);
      ++s.reasons[r];
      if (s.first_why[r].empty()) s.first_why[r] = rec.why;
      s.time_fallback += total;
    }
    s.packed += rec.packed ? 1 : 0;
    s.time_setup += rec.setup;
    s.layouts += rec.layouts;
    s.shapes += rec.shapes;
    s.shapes_evicted += rec.shapes_evicted;
    s.plans += rec.plans;
    s.plans_evicted += rec.plans_evicted;
    s.agreements += rec.agreements;
  });
  return rc;
}

}  // namespace mcb::preload
