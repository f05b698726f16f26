// Persistent and blocking plans over an algorithm's Engines (see engine.hpp).
#include "engine.hpp"

#include <mpi.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <list>
#include <map>

#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "vector.hpp"

namespace mcb::allreduce::detail {

namespace {

// The blocking engines of a communicator, most recently used first; beyond
// the limit the least recently used is dropped (its schedule and scratch:
// the segment is the arena's). Every rank of the communicator makes the
// same calls in the same order, so every rank drops the same engines in the
// same call, and a segment's last reference (MPI_Win_free, collective over
// the domain) goes in the same call everywhere.
// `generation` counts the changes of the list (an insertion, a drop, an
// entry moved to the front): while it stands still, the engines a plan used
// last are still cached and still first (see engine_plan's Hot).
struct Cache {
  std::list<std::pair<std::string, std::shared_ptr<Engines>>> order;
  std::map<std::string, decltype(order)::iterator> index;
  std::uint64_t generation = 0;
};
std::size_t engine_limit = 0;  // 0: unbounded (set_blocking_cache_limit)

std::shared_ptr<Engines> lookup(Cache& c, const std::string& key) {
  auto it = c.index.find(key);
  if (it == c.index.end()) return nullptr;
  if (it->second != c.order.begin()) {
    c.order.splice(c.order.begin(), c.order, it->second);
    ++c.generation;
  }
  return it->second->second;
}

// Room for one more: the least recently used dropped (its segment goes
// with its last reference), before the new one allocates its own.
void make_room(Cache& c) {
  while (engine_limit > 0 && c.order.size() >= engine_limit) {
    c.index.erase(c.order.back().first);
    c.order.pop_back();
    ++c.generation;
  }
}

void insert(Cache& c, const std::string& key, std::shared_ptr<Engines> e) {
  c.order.emplace_front(key, std::move(e));
  c.index[key] = c.order.begin();
  ++c.generation;
}

// Drops every engine built on `seg` (so that the segment goes when the arena
// lets it go too).
void drop_built_on(Cache& c, const ShmSegment* seg) {
  for (auto it = c.order.begin(); it != c.order.end();) {
    if (&it->second->seg() != seg) {
      ++it;
      continue;
    }
    c.index.erase(it->first);
    it = c.order.erase(it);
    ++c.generation;
  }
}

// What a domain communicator's blocking calls share, whatever their shape:
// the peers (found on the first call) and one segment, replaced by one
// twice as large (or as large as needed) when a call's vector does not fit.
struct Arena {
  Peers peers;
  std::shared_ptr<ShmSegment> seg;
};

// An object of type T attached to `comm` under `keyval` (made on first use),
// deleted with the communicator (MPI_Comm_free, or MPI_Finalize for
// MPI_COMM_WORLD).
template <class T>
int delete_attached(MPI_Comm, int, void* value, void*) {
  delete static_cast<T*>(value);
  return MPI_SUCCESS;
}
template <class T>
T& attached(MPI_Comm comm, int& keyval, bool& made) {
  if (keyval == MPI_KEYVAL_INVALID) MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_attached<T>, &keyval, nullptr);
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &value, &found);
  made = !found;
  if (!found) {
    value = new T;
    MPI_Comm_set_attr(comm, keyval, value);
  }
  return *static_cast<T*>(value);
}

// The set-up algorithms of a communicator.
Cache& cache_of(MPI_Comm comm) {
  static int keyval = MPI_KEYVAL_INVALID;
  bool made = false;
  return attached<Cache>(comm, keyval, made);
}

// The arena of a domain communicator; collective over it on first use.
Arena& arena_of(MPI_Comm dom) {
  static int keyval = MPI_KEYVAL_INVALID;
  bool made = false;
  Arena& a = attached<Arena>(dom, keyval, made);
  if (made) a.peers = discover_peers(dom);
  return a;
}

// A segment of at least `bytes` per rank and a small-path area of at least
// `slots` in the arena: the one there, or (every rank of the domain in the
// same call, as every one brings the same count) a new one in which what
// did not fit is max(needed, twice the old), after the old one is let go
// by the arena and by the engines of `cache` built on it.
const std::shared_ptr<ShmSegment>& segment_for(Arena& a, MPI_Comm dom, Cache& cache, std::size_t bytes,
                                               std::size_t slots) {
  if (a.seg && a.seg->bytes() >= bytes && a.seg->slot_bytes() >= slots) return a.seg;
  auto grown = [](std::size_t had, std::size_t need) { return had >= need ? had : std::max(need, 2 * had); };
  const std::size_t want = a.seg ? grown(a.seg->bytes(), bytes) : bytes;
  const std::size_t want_slots = a.seg ? grown(a.seg->slot_bytes(), slots) : slots;
  if (a.seg) drop_built_on(cache, a.seg.get());
  a.seg.reset();
  a.seg = std::make_shared<ShmSegment>(dom, want, a.peers, want_slots);
  return a.seg;
}

// What a blocking plan found in its last call: the cache and arena of its
// communicators and the engines it ran, with the cache's generation then.
// While that generation stands and the arena keeps its segment, the engines
// are still cached, still first and still on the arena's segment: a call of
// the same plan again skips the two attribute reads and the lookup by key
// (0.1-0.3 us a call before, issue 57).
// On the copy-in path (asked, or the only one: the small path) a call has
// nothing to decide either: `phases` and `call` are the last call's, and a
// call while `still()` runs them and nothing else (issue 57, item 2: with
// the general step's checks, path bookkeeping and report a blocking 8 B
// allreduce took 94 instructions of its own against the persistent plan's
// 42, and 1.05-1.06x its time back to back; now 61 and 1.01x).
struct Hot {
  Cache* cache = nullptr;
  Arena* arena = nullptr;
  std::uint64_t generation = 0;
  Engines* engines = nullptr;
  const std::vector<Engine::Phase>* phases = nullptr;  // copy-in only: the engine's phases
  Call call;
  bool still() const { return engines && cache->generation == generation && engines->segment() == arena->seg; }
};

// The engines of a blocking call: the last call's (hot), else found in the
// communicator's cache by `key`, else set up (timed into `report`).
Engines* engines_for(Hot& hot, MPI_Comm comm, MPI_Comm dom, const std::string& key,
                     const std::function<std::shared_ptr<Engines>(std::shared_ptr<ShmSegment>)>& setup,
                     std::size_t bytes, std::size_t slot_bytes, Plan::Report& report) {
  if (hot.still()) return hot.engines;
  Arena& arena = arena_of(dom);
  Cache& cache = cache_of(comm);
  std::shared_ptr<Engines> engines = lookup(cache, key);
  if (engines && engines->segment() != arena.seg) {  // built on a segment since outgrown
    drop_built_on(cache, &engines->seg());
    engines = nullptr;
  }
  if (!engines) {
    const auto t0 = std::chrono::steady_clock::now();
    make_room(cache);
    engines = setup(segment_for(arena, dom, cache, bytes, slot_bytes));
    insert(cache, key, engines);
    report.add_setup(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  hot = {&cache, &arena, cache.generation, engines.get()};
  return engines.get();
}

// The first step of a blocking call whose path may be another than
// copy-in (on the copy-in path, asked or the only one, no rank reads or
// writes another's buffers: nothing to publish, the call takes the steps
// of a persistent one). Each rank guesses the path from its own buffers
// (choose over its descriptor: the call's path unless its buffers are
// registered and another rank's are not), makes that path's first step
// but its handoff (Engine::enter: the wait for its region's readers, the
// copy-in), then publishes its buffers with one step and waits for every
// rank (ShmSegment::exchange).
// The path, into e.reach, is the one the descriptors give. Returns whether
// every rank guessed it: then the exchange was the call's entering step
// (Call::entered) and the call hands over as often as a persistent one;
// else the path starts from its own first step, the exchange one step more.
// Buffers that repeat cost no registry lookup (describe), no slot read
// (ShmSegment::exchange), no translation (reach) and no choice: 0.2-0.5 us
// a call at 4-8 KiB on 2 ranks before (issue 57). So a blocking call below
// 8 KiB no longer copies in without the exchange, as it did: on plain
// buffers the exchange is the copy-in's own handoff, and registered ones
// keep the registered path, as a persistent call does.
bool enter_call(Engines& e, const Call& c, std::size_t bytes, std::size_t send_bytes, const std::string& requested,
                double cma_ratio) {
  ShmSegment& seg = e.seg();
  const Peers& peers = seg.peers();
  const std::uint32_t start = seg.counter();
  const std::uint64_t registry = shm_registry_changes();
  if (!e.described || e.described->in != c.in() || e.described->out != c.recv || e.described->registry != registry) {
    const Descriptor mine =
        describe(c.in(), c.recv, c.send == MPI_IN_PLACE || send_bytes == 0 ? bytes : send_bytes, bytes, peers);
    e.described = Engines::Described{c.in(), c.recv, registry, mine, &e.get(choose(mine, peers, requested, cma_ratio))};
  }
  if (const Engine& guess = *e.described->guess; guess.enter) guess.enter(c, start);
  seg.exchange(e.described->mine);
  const std::pair<std::uint64_t, std::uint64_t> now{seg.known_changes(), registry};
  if (e.reach_for != now) {
    const std::vector<Descriptor>& all = seg.known();
    const Path path = choose(all, peers, requested, cma_ratio);
    reach(all, path, e.reach);
    e.reach_for = now;
    e.agreed = &e.get(path);
    e.guessed = e.agreed->enter && std::all_of(all.begin(), all.end(), [&](const Descriptor& d) {
                  return choose(d, peers, requested, cma_ratio) == path;
                });
  }
  return e.guessed;
}

// The persistent interface's path (engine_plan): every rank's descriptor
// of its buffers gathered over the domain into `all`, the path they allow,
// the lowest over the communicator, so that every rank runs the same
// phases; a path named in --copy that cannot run is an Error.
Path agree_path(const std::string& who, MPI_Comm comm, MPI_Comm dom, const Peers& peers, const Descriptor& mine,
                const std::string& requested, const std::string& copy_in_only, double cma_ratio,
                std::vector<Descriptor>& all) {
  int size = 0;
  MPI_Comm_size(dom, &size);
  all.resize(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, sizeof(Descriptor), MPI_BYTE, all.data(), sizeof(Descriptor), MPI_BYTE, dom);
  int lowest = copy_in_only.empty() ? static_cast<int>(choose(all, peers, requested, cma_ratio)) : 0;
  MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, comm);
  const Path path = static_cast<Path>(lowest);
  if (requested == "registered" && path != Path::registered)
    throw Error(who +
                ": --copy registered: not every rank's send and receive buffers are registered (allocate them "
                "with mcb::shm_allocate; in the benchmarks, --buffers registered)");
  if (requested == "cma" && path != Path::cma)
    throw Error(who + ": --copy cma: cross-memory attach is refused" +
                (peers.cma ? std::string(" on another node") : ": " + peers.cma_why));
  return path;
}

}  // namespace

std::size_t private_cache_bytes() {
  static const std::size_t bytes = [] {
    const long b = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return b > 0 ? static_cast<std::size_t>(b) : std::size_t{0};
  }();
  return bytes;
}

const Engine& Engines::get(Path p) {
  std::shared_ptr<Engine>& e = made_[static_cast<std::size_t>(p)];
  if (!e) e = make_(p);
  return *e;
}

Scratch::Scratch(int q, bool cma, const CollArgs& args)
    : reduce(args.type, args.op), srcs(static_cast<std::size_t>(q) + 1), to(static_cast<std::size_t>(q) + 1) {
  dsts.reserve(static_cast<std::size_t>(q) + 1);
  if (!cma || q < 2) return;
  // 256 KiB in all (half of a typical L2), at least a page per source.
  const std::size_t sources = static_cast<std::size_t>(q - 1);
  chunk_ = std::max<std::size_t>(4096, (256 * 1024) / sources / kCacheLine * kCacheLine);
  bytes_.resize(chunk_ * sources);
}

void cma_read_or_abort(pid_t pid, void* local, std::uintptr_t remote, std::size_t bytes) {
  if (const int rc = cma_read(pid, local, remote, bytes); rc != 0) {
    std::fprintf(stderr, "mcb: cross-memory attach from pid %d failed after the probe allowed it: %s\n",
                 static_cast<int>(pid), std::strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

void sum_to(Scratch& w, int k, std::size_t lo, std::size_t bytes) {
  const int nd = static_cast<int>(w.dsts.size());
  for (int d = 0; d < nd; ++d) w.to[static_cast<std::size_t>(d)] = w.dsts[static_cast<std::size_t>(d)] + lo;
  w.reduce(w.to.data(), nd, w.srcs.data(), k, static_cast<int>(bytes / w.reduce.element_bytes()));
}

void sum_inputs(const Call& c, int me, const std::vector<pid_t>& pids, const std::vector<int>& from, std::size_t lo,
                std::size_t hi, Scratch& w) {
  if (hi <= lo) return;
  const int k = static_cast<int>(from.size());
  if (c.reach->path == Path::registered) {
    for (int i = 0; i < k; ++i) {
      const int x = from[static_cast<std::size_t>(i)];
      w.srcs[static_cast<std::size_t>(i)] = (x == me ? c.in() : c.reach->in[static_cast<std::size_t>(x)]) + lo;
    }
    sum_to(w, k, lo, hi - lo);
    return;
  }
  // cma: chunk by chunk, the others' parts into the scratch, then one sum.
  for (std::size_t at = lo; at < hi; at += w.chunk()) {
    const std::size_t len = std::min(w.chunk(), hi - at);
    int slot = 0;
    for (int i = 0; i < k; ++i) {
      const int x = from[static_cast<std::size_t>(i)];
      if (x == me) {
        w.srcs[static_cast<std::size_t>(i)] = c.in() + at;
        continue;
      }
      char* buf = w.at(slot++);
      cma_read_or_abort(pids[static_cast<std::size_t>(x)], buf, c.reach->remote_in[static_cast<std::size_t>(x)] + at,
                        len);
      w.srcs[static_cast<std::size_t>(i)] = buf;
    }
    sum_to(w, k, at, len);
  }
}

ParamSpec interface_param() {
  return {"interface",
          "persistent (set up once, like MPI_Allreduce_init) or blocking (set up in the first call, cached per "
          "communicator and size)",
          "persistent",
          {"persistent", "blocking"}};
}

namespace {

// The -v note of a plan: the copy path taken, what the probe found of
// cross-memory attach, and (footprint > 0) that auto took it out of cache.
// What --copy auto does with cross-memory attach here, for -v.
std::string auto_rule(bool no_cma, std::size_t cma_min, double cma_ratio) {
  char text[96];
  if (no_cma)
    std::snprintf(text, sizeof text, "auto copies in below %zu KiB a peer", cma_min >> 10);
  else if (std::isinf(cma_ratio))
    std::snprintf(text, sizeof text, "auto takes it wherever it works");
  else
    std::snprintf(text, sizeof text, "auto takes it at up to %.2f times a memcpy's time", cma_ratio);
  return text;
}

std::function<std::string(const Peers&, Path)> path_note(const std::string& who, std::size_t footprint, std::size_t llc,
                                                         const std::string& auto_text) {
  const std::string cache_text = footprint > 0
                                     ? "; copy-in would touch " + std::to_string(footprint >> 10) +
                                           " KiB per call, the last-level cache is " + std::to_string(llc >> 10) +
                                           " KiB: auto takes cross-memory attach wherever it works"
                                     : "";
  return [who, cache_text, auto_text](const Peers& peers, Path path) {
    return who + ": copy path " + to_string(path) + "; cross-memory attach " +
           (!peers.cma       ? "refused: " + peers.cma_why
            : peers.cma_fast ? "as fast as a memcpy: " + peers.cma_speed
                             : "slower than a memcpy (" + auto_text + "): " + peers.cma_speed) +
           cache_text;
  };
}

}  // namespace

Plan engine_plan(const std::string& who, const CollArgs& args, const Params& params, const Resolved& resolved,
                 MPI_Comm dom, std::function<std::shared_ptr<Engines>(std::shared_ptr<ShmSegment>)> setup,
                 const std::function<double(Path)>& traffic, const std::string& copy_in_only, std::size_t slot_bytes,
                 const EngineOptions& options) {
  const std::string interface = params.get("interface", "persistent");
  std::string requested = params.get("copy", "auto");
  if (requested == "auto" && options.cma_piece < options.cma_min) requested = kAutoNoCma;
  // Out of cache, auto takes cma wherever it works (EngineOptions::copy_in_footprint).
  const std::size_t llc = last_level_cache_bytes();
  const bool out_of_cache =
      requested == "auto" && options.copy_in_footprint > 0 && llc > 0 && options.copy_in_footprint >= llc;
  const double cma_ratio = out_of_cache ? std::numeric_limits<double>::infinity() : options.cma_ratio;
  if (interface != "persistent" && interface != "blocking")
    throw Error("--interface " + interface + ": expected persistent or blocking");
  const void* send = args.sendbuf;
  void* recv = args.recvbuf;
  const std::size_t bytes = args.block_bytes();
  // Where registration is looked up: the receive buffer's bytes, and the
  // input's (the receive buffer in place, or options.send_bytes).
  const std::size_t out_bytes = options.recv_bytes > 0 ? options.recv_bytes : bytes, send_bytes = options.send_bytes;
  auto in_bytes = [out_bytes, send_bytes](const void* s) {
    return s == MPI_IN_PLACE || send_bytes == 0 ? out_bytes : send_bytes;
  };

  Plan plan;
  for (const auto& [name, value] : resolved) plan.set_param(name, value);
  plan.set_param("interface", interface);
  if (!copy_in_only.empty() && requested != "auto" && requested != kAutoNoCma && requested != "copy-in")
    throw Error(who + ": --copy " + requested + ": only copy-in here (" + copy_in_only + ")");
  const auto note = path_note(who, out_of_cache ? options.copy_in_footprint : 0, llc,
                              auto_rule(requested == kAutoNoCma, options.cma_min, cma_ratio));

  if (interface == "persistent") {
    // The path for these buffers: each domain agrees from its ranks'
    // descriptors, then the lowest over the communicator, so that every
    // rank runs the same phases.
    const Peers peers = discover_peers(dom);
    std::vector<Descriptor> all;
    const Path path =
        agree_path(who, args.comm, dom, peers, describe(Call{send, recv}.in(), recv, in_bytes(send), out_bytes, peers),
                   requested, copy_in_only, cma_ratio, all);
    std::shared_ptr<Engines> engines = setup(std::make_shared<ShmSegment>(dom, bytes, peers, slot_bytes));
    auto r = std::make_shared<const Reach>(reach(all, path));
    const Call call{send, recv, r.get()};
    for (const auto& phase : engines->get(path).phases)
      plan.add(phase.name, [engines, r, call, run = &phase.run] { (*run)(call); });
    plan.set_param("copy", to_string(path));
    plan.set_traffic(traffic(path));
    plan.add_note(note(peers, path));
    return plan;
  }

  // Blocking: nothing collective here (a rank may make this plan alone, as
  // the preload library does for new buffers); the first call sets up, and
  // every call agrees on its path from the buffers it brings. The report
  // says the path of the last call.
  char type_name[MPI_MAX_OBJECT_NAME] = {};
  int len = 0;
  MPI_Type_get_name(args.type, type_name, &len);
  std::string key = who + ";count=" + std::to_string(args.count) + ";type=" + type_name +
                    ";op=" + std::to_string(MPI_Op_c2f(args.op));
  for (const auto& [name, value] : resolved) key += ";" + name + "=" + value;
  key += ";copy=" + requested + options.shape;
  plan.set_param("copy", "per call");
  std::shared_ptr<Plan::Report> report = plan.report();
  auto last = std::make_shared<int>(-1);  // the path of the last call
  auto hot = std::make_shared<Hot>();
  // What each call asks for: copy-in where it is the only path.
  const bool small = requested == kAutoNoCma && options.cma_piece < options.blocking_copy_in_below;
  const std::string per_call = copy_in_only.empty() && !small ? requested : "copy-in";
  plan.add(options.phase,
           [comm = args.comm, dom, key, setup = std::move(setup), traffic, note, report, last, hot, send, recv, bytes,
            slot_bytes, per_call, copy_in = per_call == "copy-in", send_bytes, out_bytes, cma_ratio] {
             if (copy_in && hot->phases && hot->still()) {
               if (hot->engines->region()) hot->engines->seg().begin_call(hot->engines->id());
               for (const auto& phase : *hot->phases) phase.run(hot->call);
               return;
             }
             Engines* e = engines_for(*hot, comm, dom, key, setup, bytes, slot_bytes, *report);
             if (e->region()) e->seg().begin_call(e->id());
             Reach& r = e->reach;
             Call call{send, recv, &r};
             if (copy_in)
               r.path = Path::copy_in;
             else
               call.entered = enter_call(*e, call, out_bytes, send_bytes, per_call, cma_ratio);
             const auto& phases = (copy_in ? e->get(Path::copy_in) : *e->agreed).phases;
             if (copy_in) {  // the next call of these engines runs them directly (Hot)
               hot->phases = &phases;
               hot->call = call;
             }
             for (const auto& phase : phases) phase.run(call);
             if (*last != static_cast<int>(r.path)) {
               if (*last < 0) report->add_note(note(e->seg().peers(), r.path));
               *last = static_cast<int>(r.path);
               report->set_param("copy", to_string(r.path));
               report->set_traffic(traffic(r.path));
             }
           });
  return plan;
}

}  // namespace mcb::allreduce::detail

namespace mcb::allreduce {

void set_blocking_cache_limit(std::size_t shapes) { detail::engine_limit = shapes; }
long shm_segments_held() { return detail::ShmSegment::held(); }

}  // namespace mcb::allreduce
