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

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
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

Plan make_plan(const Choice& choice, const Layout& layout, const Shape& shape, const void* send, void* recv) {
  CollArgs a;
  a.sendbuf = send;
  a.recvbuf = recv;
  a.v = shape.vcounts;
  a.count = a.v ? a.v->counts[static_cast<std::size_t>(layout.rank())] : static_cast<int>(shape.key.count);
  a.type = shape.key.type;
  a.op = shape.key.op;
  a.comm = layout.comm();
  return choice.algorithm->make(a, layout, choice.params);
}

// Elements of the caller's buffer copied to or from a staging buffer of
// packed bytes: `total` elements from element `first` on, then (a rotated
// root's buffer of every rank's blocks) the `first` before it. Contiguous
// types are copied, others MPI_Pack'ed.
struct Move {
  bool on = false;
  void* user = nullptr;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  TypeInfo info;
  long long total = 0, first = 0;
  bool to_recv_stage = false;  // which staging buffer: the receive one, else the send one
};

enum class Where { call, stage_send, stage_recv };

// This rank's view of a call: the buffers the plan runs on and what to
// (un)pack around it.
struct View {
  ShapeKey key;
  const void* send = nullptr;  // the call's buffers as the plan takes them (before staging)
  void* recv = nullptr;
  Where send_at = Where::call, recv_at = Where::call;  // staged instead
  long long send_bytes = 0;                            // of a staged send, receive buffer
  long long recv_bytes = 0;
  Move before, after;       // packed into a staging buffer before the plan runs; unpacked from the receive one after
  std::vector<int> counts;  // the v-forms' (and reduce_scatter's) blocks, in the order of the call's communicator
  int own = 0;              // this rank's block in bytes (gather(v), scatter(v))
  bool in_place = false;    // this rank passed MPI_IN_PLACE (rooted: the root alone, not in the key)
  bool named = false;       // every type the call uses is predefined (its handle is never reused)
  char* stage[2] = {};      // the staging buffers in use (place()): send, receive
  long long stage_bytes[2] = {};
  bool staged() const { return send_at != Where::call || recv_at != Where::call || before.on || after.on; }
};

bool vform(Coll c) {
  return c == Coll::allgatherv || c == Coll::reduce_scatter || c == Coll::gatherv || c == Coll::scatterv;
}

// 64-bit FNV-1a over the counts (the v-forms' digest).
std::uint64_t digest_of(const std::vector<int>& counts) {
  std::uint64_t h = 1469598103934665603ull;
  for (int c : counts) {
    std::uint32_t x = static_cast<std::uint32_t>(c);
    for (int i = 0; i < 4; ++i) {
      h ^= (x >> (8 * i)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

// Counts in the caller's rank order, made every rank's block in bytes (or
// elements) in the order of the communicator the call runs on (rotated by
// `rotation`); false if one is negative.
bool blocks_of(const int* counts, int p, int rotation, long long unit, std::vector<int>& out, long long& total) {
  out.assign(static_cast<std::size_t>(p), 0);
  total = 0;
  for (int i = 0; i < p; ++i) {
    const int c = counts[(i + rotation) % p];
    if (c < 0) return false;
    total += c * unit;
    if (total > INT_MAX) return false;
    out[static_cast<std::size_t>(i)] = static_cast<int>(c * unit);
  }
  return true;
}

// Whether displacements are the blocks packed in rank order (an empty
// block's displacement, which addresses nothing, may be anything).
bool packed_displs(const int* counts, const int* displs, int p) {
  long long at = 0;
  for (int r = 0; r < p; ++r) {
    if (counts[r] != 0 && displs[r] != at) return false;
    at += counts[r];
  }
  return true;
}

// Step 1: the checks; false with rec.reason when the MPI's own must serve.
// Rooted calls arrive here on a communicator whose rank 0 is the root. One
// function per family: the reductions, bcast, the blocks of every rank to
// every rank (alltoall, allgather(v)), gather(v) and scatter(v).
bool check_reduction(const Call& q, const CommCache& cache, View& v, Record& rec) {
  const int p = cache.size;
  const bool root = cache.rank == 0;
  auto refuse = [&](Reason r) {
    rec.reason = r;
    return false;
  };
  Reason why = Reason::type;
  if (!reducible(q.op, q.stype, &why)) return refuse(why);
  const long long size = type_info(q.stype).size;
  long long count = q.scount;  // the reduction's elements (reduce_scatter_block: of a part)
  long long vector = q.scount;
  if (q.coll == Coll::reduce_scatter_block) vector = count * p;
  if (q.coll == Coll::reduce_scatter) {
    if (!blocks_of(q.counts, p, 0, 1, v.counts, vector))
      return refuse(vector > INT_MAX ? Reason::overflow : Reason::invalid);
    count = vector;
    v.key.counts = v.counts;
  }
  if (vector == 0 || size == 0) return refuse(Reason::empty);
  if (vector * size > INT_MAX) return refuse(Reason::overflow);
  v.key.count = count;
  v.key.type = q.stype;
  v.key.op = q.op;
  v.in_place = q.send == MPI_IN_PLACE;
  v.key.in_place = q.coll != Coll::reduce && v.in_place;
  if (q.coll == Coll::reduce && !root) {
    // The receive buffer means nothing here (it may be null, or the send
    // buffer): the plan gets the shape's own.
    v.recv_at = Where::stage_recv;
    v.recv_bytes = vector * size;
  }
  v.named = true;  // reducible: a predefined operation on a predefined type
  return true;
}

bool check_bcast(const Call& q, const CommCache& cache, View& v, Record& rec) {
  const bool root = cache.rank == 0;
  auto refuse = [&](Reason r) {
    rec.reason = r;
    return false;
  };
  const TypeInfo rt = type_info(q.rtype);
  const long long bytes = q.rcount * rt.size;
  if (bytes == 0) return refuse(Reason::empty);
  if (bytes > INT_MAX) return refuse(Reason::overflow);
  v.key.count = bytes;
  v.key.in_place = v.in_place = true;
  v.send = MPI_IN_PLACE;
  if (!rt.contiguous) {
    v.recv_at = Where::stage_recv;
    v.recv_bytes = bytes;
    Move m{true, q.recv, q.rtype, rt, q.rcount, 0, true};
    (root ? v.before : v.after) = m;
  }
  v.named = rt.named;
  return true;
}

bool check_blocks(const Call& q, const CommCache& cache, View& v, Record& rec) {
  const int p = cache.size, me = cache.rank;
  auto refuse = [&](Reason r) {
    rec.reason = r;
    return false;
  };
  const bool in_place = q.send == MPI_IN_PLACE;
  if (in_place && q.coll == Coll::alltoall) return refuse(Reason::in_place);
  const TypeInfo rt = type_info(q.rtype);
  long long block = q.rcount * rt.size, total = block * p, recv_elems = static_cast<long long>(q.rcount) * p;
  if (q.coll == Coll::allgatherv) {
    if (!blocks_of(q.counts, p, 0, rt.size, v.counts, total))
      return refuse(total > INT_MAX ? Reason::overflow : Reason::invalid);
    if (!packed_displs(q.counts, q.displs, p)) return refuse(Reason::displacements);
    block = v.counts[static_cast<std::size_t>(me)];
    recv_elems = rt.size ? total / rt.size : 0;
    v.key.counts = v.counts;
  }
  TypeInfo st;
  if (!in_place) {
    st = type_info(q.stype);
    if (q.scount * st.size != block) return refuse(Reason::type_mismatch);
  }
  if (total == 0) return refuse(Reason::empty);
  if (q.coll != Coll::allgatherv && block * p > INT_MAX) return refuse(Reason::overflow);
  v.key.count = q.coll == Coll::allgatherv ? total : block;
  v.key.in_place = v.in_place = in_place;
  if (!rt.contiguous) {
    v.recv_at = Where::stage_recv;
    v.recv_bytes = total;
    v.after = {true, q.recv, q.rtype, rt, recv_elems, 0, true};
    if (in_place) v.before = v.after;  // my block where the others' will land: pack it all
  }
  if (!in_place && !st.contiguous) {
    const long long blocks = q.coll == Coll::alltoall ? p : 1;
    v.send_at = Where::stage_send;
    v.send_bytes = block * blocks;
    v.before = {true, const_cast<void*>(q.send), q.stype, st, q.scount * blocks, 0, false};
  }
  v.named = rt.named && (in_place || st.named);
  return true;
}

// gather(v), scatter(v) from rank 0: the root's side is its receive
// (gather) or send (scatter) buffer of every rank's block, rotated by
// q.rotation; the other side one rank's block.
struct Sides {
  bool gathers = false, v_form = false, in_place = false;
  void* all_buf = nullptr;  // the root's blocks
  MPI_Datatype all_type = MPI_DATATYPE_NULL;
  int all_count = 0;
  TypeInfo at;
  void* one_buf = nullptr;  // this rank's block
  MPI_Datatype one_type = MPI_DATATYPE_NULL;
  int one_count = 0;
  TypeInfo ot;
  long long block = 0, total = 0;  // bytes of the root's own block, of all
};

Sides sides_of(const Call& q, bool root) {
  Sides x;
  x.gathers = q.coll == Coll::gather || q.coll == Coll::gatherv;
  x.v_form = q.coll == Coll::gatherv || q.coll == Coll::scatterv;
  x.all_buf = x.gathers ? q.recv : const_cast<void*>(q.send);
  x.all_type = x.gathers ? q.rtype : q.stype;
  x.all_count = x.gathers ? q.rcount : q.scount;
  x.in_place = root && (x.gathers ? q.send == MPI_IN_PLACE : q.recv == MPI_IN_PLACE);
  x.one_buf = x.gathers ? const_cast<void*>(q.send) : q.recv;
  x.one_type = x.gathers ? q.stype : q.rtype;
  x.one_count = x.gathers ? q.scount : q.rcount;
  if (root) x.at = type_info(x.all_type);
  if (!x.in_place) x.ot = type_info(x.one_type);
  return x;
}

// The sizes and the shape's key; the v-forms' root says on every call
// whether it serves and the counts' digest (a new digest: the counts,
// set_up_shape), since only it knows them. A refusal's reason, or none.
std::optional<Reason> rooted_sizes(const Call& q, const CommCache& cache, Sides& x, View& v) {
  const int p = cache.size;
  const bool root = cache.rank == 0;
  if (!x.in_place) v.own = static_cast<int>(std::min<long long>(x.one_count * x.ot.size, INT_MAX));
  if (x.v_form) {
    long long msg[3] = {-1, 0, 0};  // refusal reason (-1: none), digest, total bytes
    if (root) {
      long long total = 0;
      if (!blocks_of(q.counts, p, q.rotation, x.at.size, v.counts, total))
        msg[0] = static_cast<long long>(total > INT_MAX ? Reason::overflow : Reason::invalid);
      else if (!packed_displs(q.counts, q.displs, p))
        msg[0] = static_cast<long long>(Reason::displacements);
      else if (total == 0)
        msg[0] = static_cast<long long>(Reason::empty);
      else if (!x.in_place && v.own != v.counts[0])
        msg[0] = static_cast<long long>(Reason::type_mismatch);
      msg[1] = static_cast<long long>(digest_of(v.counts));
      msg[2] = total;
    }
    PMPI_Bcast(msg, 3, MPI_LONG_LONG, 0, q.comm);
    if (msg[0] >= 0) return static_cast<Reason>(msg[0]);
    v.key.digest = static_cast<std::uint64_t>(msg[1]);
    x.total = v.key.count = msg[2];
    if (root) x.block = v.counts[0];
    return std::nullopt;
  }
  x.block = root ? x.all_count * x.at.size : v.own;
  if (root && !x.in_place && v.own != x.block) return Reason::type_mismatch;
  if (x.block == 0) return Reason::empty;
  if (x.block * p > INT_MAX) return Reason::overflow;
  x.total = x.block * p;
  v.key.count = x.block;
  return std::nullopt;
}

// The root's buffer of all blocks, staged when not contiguous or rotated
// (the blocks from the original root's on first, then those before it).
void stage_root(const Call& q, const Sides& x, View& v) {
  const long long all_elems = x.at.size ? x.total / x.at.size : 0;
  long long first = 0;  // elements before the original root's block
  for (int r = 0; r < q.rotation; ++r) first += x.v_form ? q.counts[r] : x.all_count;
  const bool stage_all = !x.at.contiguous || q.rotation != 0;
  if (x.gathers) {
    // mcb's in-place gather: my block at its place in the receive buffer.
    v.send = x.in_place ? MPI_IN_PLACE : q.send;
    if (stage_all) {
      v.recv_at = Where::stage_recv;
      v.recv_bytes = x.total;
      v.after = {true, x.all_buf, x.all_type, x.at, all_elems, first, true};
      if (x.in_place)
        v.before = {true,
                    static_cast<char*>(x.all_buf) + first * x.at.extent,
                    x.all_type,
                    x.at,
                    x.at.size ? x.block / x.at.size : 0,
                    0,
                    true};
    }
    if (!x.in_place && !x.ot.contiguous) {
      v.send_at = Where::stage_send;
      v.send_bytes = v.own;
      v.before = {true, x.one_buf, x.one_type, x.ot, x.one_count, 0, false};
    }
    return;
  }
  // mcb's in-place scatter: the blocks in the receive buffer, mine stays.
  if (stage_all) {
    v.send_at = Where::stage_send;
    v.send_bytes = x.total;
    v.before = {true, x.all_buf, x.all_type, x.at, all_elems, first, false};
  }
  if (x.in_place) {
    v.send = MPI_IN_PLACE;
    v.recv = x.all_buf;
    if (stage_all) {
      v.send_at = Where::call;
      v.recv_at = Where::stage_send;
      v.recv_bytes = x.total;
    }
  } else if (!x.ot.contiguous) {
    v.recv_at = Where::stage_recv;
    v.recv_bytes = v.own;
    v.after = {true, x.one_buf, x.one_type, x.ot, x.one_count, 0, true};
  }
}

bool check_rooted(const Call& q, const CommCache& cache, View& v, Record& rec) {
  const bool root = cache.rank == 0;
  Sides x = sides_of(q, root);
  v.in_place = x.in_place;
  if (const auto why = rooted_sizes(q, cache, x, v)) {
    rec.reason = *why;
    return false;
  }
  if (root) {
    stage_root(q, x, v);
    v.named = x.at.named && (x.in_place || x.ot.named);
    return true;
  }
  // My block, from or to the call's buffer (packed when not contiguous).
  if (x.gathers) {
    v.recv = nullptr;  // not significant here
    if (!x.ot.contiguous) {
      v.send_at = Where::stage_send;
      v.send_bytes = v.own;
      v.before = {true, x.one_buf, x.one_type, x.ot, x.one_count, 0, false};
    }
  } else {
    v.send = nullptr;
    if (!x.ot.contiguous) {
      v.recv_at = Where::stage_recv;
      v.recv_bytes = v.own;
      v.after = {true, x.one_buf, x.one_type, x.ot, x.one_count, 0, true};
    }
  }
  v.named = x.ot.named;
  return true;
}

bool check(const Call& q, const CommCache& cache, View& v, Record& rec) {
  v.key.coll = q.coll;
  v.send = q.send;
  v.recv = q.recv;
  if (reducing(q.coll)) return check_reduction(q, cache, v, rec);
  if (q.coll == Coll::bcast) return check_bcast(q, cache, v, rec);
  if (q.coll == Coll::alltoall || q.coll == Coll::allgather || q.coll == Coll::allgatherv)
    return check_blocks(q, cache, v, rec);
  return check_rooted(q, cache, v, rec);
}

// The buffers the plan runs on, staging ones where types are packed.
void place(Shape& shape, View& v) {
  auto staged = [&](Where w, long long bytes) -> char* {
    return shape.staging(w == Where::stage_send ? shape.stage_send : shape.stage_recv, static_cast<std::size_t>(bytes));
  };
  auto which = [](Where w) { return w == Where::stage_send ? 0 : 1; };
  if (v.send_at != Where::call) {
    v.send = v.stage[which(v.send_at)] = staged(v.send_at, v.send_bytes);
    v.stage_bytes[which(v.send_at)] = v.send_bytes;
  }
  if (v.recv_at != Where::call) {
    v.recv = v.stage[which(v.recv_at)] = staged(v.recv_at, v.recv_bytes);
    v.stage_bytes[which(v.recv_at)] = v.recv_bytes;
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
  if (q.coll == Coll::gatherv || q.coll == Coll::scatterv) {
    // The root's counts (a digest none of the ranks had seen).
    v.counts.resize(static_cast<std::size_t>(cache.size));
    PMPI_Bcast(v.counts.data(), cache.size, MPI_INT, 0, q.comm);
  }
  if (vform(q.coll)) s->vcounts = VCounts::packed(v.counts);
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
    place(*s, v);
    try {
      Plan plan = agree_on(layout->comm(), [&] { return make_plan(choice, *layout, *s, v.send, v.recv); });
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

// A Move between the caller's buffer and the staging buffer `staged` of
// `bytes` (pack: into it).
void move(const Call& q, const Move& m, bool pack, char* staged, long long bytes, Record& rec) {
  long long pos = 0;
  int mpi_pos = 0;
  auto piece = [&](long long from, long long n) {
    if (n == 0) return;
    char* user = static_cast<char*>(m.user) + from * m.info.extent;
    if (m.info.contiguous) {
      const auto len = static_cast<std::size_t>(n * m.info.size);
      if (pack)
        std::memcpy(staged + pos, user, len);
      else
        std::memcpy(user, staged + pos, len);
      pos += n * m.info.size;
      return;
    }
    if (pack)
      MPI_Pack(user, static_cast<int>(n), m.type, staged, static_cast<int>(bytes), &mpi_pos, q.comm);
    else
      MPI_Unpack(staged, static_cast<int>(bytes), &mpi_pos, user, static_cast<int>(n), m.type, q.comm);
    pos = mpi_pos;
    rec.packed = true;
  };
  piece(m.first, m.total - m.first);
  piece(0, m.first);
  if (pack && pos != m.total * m.info.size)
    die(std::string(mpi_name(q.coll)) + ": MPI_Pack made " + std::to_string(pos) + " bytes of " +
        std::to_string(m.total * m.info.size) + " (not raw bytes)");
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
        Plan plan = agree_on(layout.comm(), [&] { return make_plan(choice, layout, shape, v.send, v.recv); });
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
          insert_plan(shape, {v.send, v.recv, make_plan(choice, layout, shape, v.send, v.recv)}, plan_limit);
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

// Whether an argument that counts on this rank is malformed (the MPI's own
// then reports it): a negative count, a null type or array. In place, the
// send count and type are ignored (any value is right); a rooted
// collective's root-side arguments count at the root only.
bool malformed(const Call& q, int rank) {
  const bool root = rank == q.root;
  auto bad = [](int count, MPI_Datatype type) { return count < 0 || type == MPI_DATATYPE_NULL; };
  switch (q.coll) {
    case Coll::allreduce:
    case Coll::reduce:
    case Coll::reduce_scatter_block:
      return bad(q.scount, q.stype);
    case Coll::reduce_scatter:
      return q.stype == MPI_DATATYPE_NULL || !q.counts;
    case Coll::bcast:
      return bad(q.rcount, q.rtype);
    case Coll::allgatherv:
      return (q.send != MPI_IN_PLACE && bad(q.scount, q.stype)) || q.rtype == MPI_DATATYPE_NULL || !q.counts ||
             !q.displs;
    case Coll::gather:
    case Coll::gatherv:
      return (!(root && q.send == MPI_IN_PLACE) && bad(q.scount, q.stype)) ||
             (root &&
              (q.rtype == MPI_DATATYPE_NULL || (q.coll == Coll::gather ? q.rcount < 0 : !q.counts || !q.displs)));
    case Coll::scatter:
    case Coll::scatterv:
      return (!(root && q.recv == MPI_IN_PLACE) && bad(q.rcount, q.rtype)) ||
             (root &&
              (q.stype == MPI_DATATYPE_NULL || (q.coll == Coll::scatter ? q.scount < 0 : !q.counts || !q.displs)));
    default:  // alltoall, allgather
      return (q.send != MPI_IN_PLACE && bad(q.scount, q.stype)) || bad(q.rcount, q.rtype);
  }
}

// Steps 1-3; false with rec.reason when the MPI's own must serve.
bool prepare(const Config& cfg, int world_rank, const Call& q, Record& rec, Ready& ready) {
  if (q.comm == MPI_COMM_NULL) {
    rec.reason = Reason::invalid;
    return false;
  }
  CommCache& cache = comm_cache(q.comm);
  if (cache.inter) {
    rec.reason = Reason::intercomm;
    return false;
  }
  if ((rooted(q.coll) && (q.root < 0 || q.root >= cache.size)) || malformed(q, cache.rank)) {
    rec.reason = Reason::invalid;
    return false;
  }
  if (rooted(q.coll) && q.root > 0) {
    // The algorithms are rooted at rank 0: the same call on this
    // communicator rotated to start at the root (every rank is here); the
    // root's buffer of every rank's block is then rotated too (check()).
    Call rotated = q;
    rotated.comm = rotated_comm(cache, q.root);
    rotated.root = 0;
    rotated.rotation = q.root;
    return prepare(cfg, world_rank, rotated, rec, ready);
  }
  View& v = ready.v;
  ready.q = q;
  if (!check(q, cache, v, rec)) return false;
  if (cache.size == 1 && (v.in_place || q.coll == Coll::bcast || !v.staged())) {
    // One rank: the result is the input (a copy of contiguous bytes, or
    // nothing to do). No layout, shape or plan.
    if (q.coll != Coll::bcast && !v.in_place) {
      const long long bytes = v.key.count * (reducing(q.coll) ? type_info(q.stype).size : 1);
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
  if ((q.coll == Coll::gatherv || q.coll == Coll::scatterv) && !v.in_place &&
      v.own != shape->vcounts->counts[static_cast<std::size_t>(cache.rank)])
    die(std::string(mpi_name(q.coll)) + ": rank " + std::to_string(cache.rank) + " of the root-first order " +
        (q.coll == Coll::gatherv ? "sends " : "receives ") + std::to_string(v.own) + " bytes, the root's counts say " +
        std::to_string(shape->vcounts->counts[static_cast<std::size_t>(cache.rank)]) + " (an erroneous call)");
  place(*shape, v);
  ready.entry = plan_for(cfg, q, *cache.layout, *shape, fresh, v, rec);
  return ready.entry != nullptr;
}

// Step 4.
void run(const Ready& r, Record& rec) {
  const Call& q = r.q;
  const View& v = r.v;
  if (v.before.on) {
    const int i = v.before.to_recv_stage ? 1 : 0;
    move(q, v.before, true, v.stage[i], v.stage_bytes[i], rec);
  }
  // A blocking shared-memory allreduce sets a new shape up inside its first
  // call: that part of the call is setup too.
  const Plan& plan = r.entry->plan;
  const double lazy = plan.report()->setup();
  plan.execute();
  rec.setup += plan.report()->setup() - lazy;
  if (v.after.on) move(q, v.after, false, v.stage[1], v.stage_bytes[1], rec);
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
  // Not the v-forms: their counts are in the caller's memory (and gatherv's
  // and scatterv's digest is broadcast on every call).
  if (ready.v.named && !cfg[q.coll].agreed && !vform(q.coll)) last = {cache_generation(), q, ready};
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
