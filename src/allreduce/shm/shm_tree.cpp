// shm_tree: the shared-memory tree allreduce, reduce then broadcast
// (allreduce-shared-memory-multiradix, Section 2.3, Figure 6), with the
// counter barriers of Section 3.1, on one of three copy paths
// (copy_path.hpp; --copy).
//   copy_in:    (copy-in) my vector, but for the part I sum myself in the
//               first stage, into my region of the node's shared segment
//   reduce:     stage j (fan-in f_j, --factors=-4,-2): the ranks still in
//               the tree form groups of f_j; each member sums its f_j-th of
//               the vector over the group's regions into the root's region
//               (one pass), the root waits for its members; local rank 0
//               ends with the node's sum
//   inter_node: (several nodes) local rank 0 allreduces it in place with
//               the other nodes' local ranks 0 (--inner; one leader per
//               node, or per region with --region: shm.hpp's Domain)
//   bcast:      every rank copies the sum out of local rank 0's region
//   complete:   (registered, cma) wait until the ranks that read my input
//               or wrote my receive buffer are done with them
// registered and cma read the inputs of the first stage in place or
// through process_vm_readv (no copy-in); with registered buffers on one
// node, the last stage writes its parts straight into every receive
// buffer (no bcast). Per rank, vector of n bytes on Q ranks: at most n
// copied in, about n/f reduced per stage it takes part in, n copied out
// (copy-in; traffic() counts each from the schedule). Flags: two per
// stage, so that a root's flag says its whole subtree is summed.
// The same tree is the shared-memory reduce (to rank 0, which must be local
// rank 0 of node 0: leaders MPI_Reduce across nodes, rank 0 copies out;
// phases copy_in, reduce, inter_node, copy_out) and bcast (from rank 0: it
// copies in, leaders MPI_Bcast across nodes, every rank copies out; phases
// copy_in, inter_node, bcast) of mcb_reduce and mcb_bcast. The reduce with
// registered buffers on one node writes rank 0's receive buffer from its
// last stage; on the other paths on one node rank 0 sums its own part of
// the last stage into its receive buffer and copies out only the others'
// (Q = 2: half the copy-out); the bcast on one node reads rank 0's input in place
// (registered) or through process_vm_readv (cma).
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "shm.hpp"
#include "shm_schedule.hpp"
#include "small_path.hpp"
#include "vector.hpp"

namespace mcb::allreduce {

namespace {

enum class Kind { allreduce, reduce, bcast };

// The bcast's pipeline piece (copy-in, one node). At 2 bound ranks (AMD
// EPYC VM, MPICH 4.2.1's release_gather as the reference, issue 48) the
// whole-vector copy in then out took 1.9-2.0x release_gather's time from
// 1 MiB to 16 MiB; 256 KiB pieces fixed that. Issue 57, one size per
// launch against coll/sm, 10 launches (Open MPI 4.1.4) and 8 (5.0.7),
// median mcb time with 256 -> 64 KiB pieces: 256 KiB 47.3 -> 44.8 us
// (5.0.7: 46.2 -> 43.7), 512 KiB 78.4 -> 75.7 (65.0 -> 62.4), 1 MiB 98.4
// -> 89.0 (103.1 -> 88.8), 4 and 16 MiB level (465 -> 451, 3524 -> 3460).
constexpr std::size_t kBcastPiece = 64 * 1024;

// The bytes one rank reads and writes per call on `path`.
double traffic(Kind kind, const detail::TreeSchedule& t, detail::Path path, int q, bool nodes, bool root,
               std::size_t bytes) {
  const double n = static_cast<double>(bytes);
  const bool direct = path != detail::Path::copy_in;
  if (kind == Kind::bcast) return 2 * n + (direct ? 0 : root ? 2 * n : 0);
  const bool push = path == detail::Path::registered && !nodes;
  double total = direct ? 0 : 2 * (n - static_cast<double>(t.own_first.size()));
  for (std::size_t j = 0; j < t.stages.size(); ++j) {
    const detail::TreeStage& st = t.stages[j];
    if (!st.active) continue;
    const bool last = j + 1 == t.stages.size();
    const double writes = last && push ? (kind == Kind::allreduce ? q : 1) : 1;
    total += static_cast<double>(st.part.size()) * (static_cast<double>(st.members.size() + 1) + writes);
  }
  if (!push && kind == Kind::allreduce) total += 2 * n;  // bcast
  if (!push && kind == Kind::reduce && root)             // the root's copy_out, but its own part of the last stage
    total += 2 * (n - (nodes || t.stages.empty() ? 0.0 : static_cast<double>(t.stages.back().part.size())));
  return total;
}

// What every phase of one path's engine shares.
struct Shared {
  Kind kind;
  CollArgs args;
  std::shared_ptr<detail::ShmSegment> seg;
  std::shared_ptr<const detail::TreeSchedule> t;
  std::shared_ptr<std::uint32_t> base;  // my counter when the call began
  int q, me;
  std::size_t bytes;
  bool nodes, root;
  bool direct;  // the first stage reads the inputs where they are
  bool push;    // the last stage writes the receive buffers (registered, one node)
  // The reduce on one node without push: rank 0 sums its part of the last
  // stage straight into its receive buffer, and copies out only the rest.
  detail::Range own_last;

  bool sums_to_recv() const { return kind == Kind::reduce && !nodes && !push && me == 0 && !t->stages.empty(); }
  // The bcast on one node, copy-in: rank 0 copies its vector in by pieces of
  // kBcastPiece and marks each (every rank makes as many marks, so that the
  // counters stay in step), and the others copy each piece out as soon as it
  // is marked: the two copies overlap instead of following each other.
  std::size_t pieces = 1;

  // Every path starts by waiting until the ranks that read or write my
  // region are done with my last call (their flags at `start`).
  void wait_readers(std::uint32_t start) const {
    for (int m : t->readers) seg->wait(m, start);
  }
};

// The first step but its handoff (Engine::enter): on a direct path the
// wait for my region's readers; on the copy-in path then my input to my
// region (bcast: only the root's vector, to local rank 0's region). None
// for the copy-in bcast by pieces.
detail::Engine::Enter enter_of(const Shared& x) {
  if (x.pieces > 1) return nullptr;
  return [x](const detail::Call& c, std::uint32_t start) {
    x.wait_readers(start);
    if (x.direct) return;
    char* mine = x.seg->data(x.seg->rank());
    if (x.kind != Kind::bcast) {
      x.args.memory().copy(mine, c.in(), x.t->own_first.lo);
      x.args.memory().copy(mine + x.t->own_first.hi, c.in() + x.t->own_first.hi, x.bytes - x.t->own_first.hi);
    } else if (x.root) {
      x.args.memory().copy(mine, c.in(), x.bytes);
    }
  };
}

// copy-in: the first step, the mark that my input is in my region; the
// copy-in bcast by pieces marks each piece as rank 0 copies it.
detail::Engine::Phase copy_in_phase(const Shared& x, detail::Engine::Enter enter) {
  return {"copy_in", [x, enter](const detail::Call& c) {
            if (enter) {
              detail::first_step(*x.seg, enter, c, *x.base);
              return;
            }
            *x.base = x.seg->counter();
            x.wait_readers(*x.base);
            char* mine = x.seg->data(x.seg->rank());
            for (std::size_t p = 0; p < x.pieces; ++p) {
              const std::size_t lo = p * kBcastPiece;
              if (x.root) x.args.memory().copy(mine + lo, c.in() + lo, std::min(kBcastPiece, x.bytes - lo));
              x.seg->set();
            }
          }};
}

// The bcast (or the reduce's copy_out at rank 0): every rank copies the
// result out of local rank 0's region once it is marked `summed`, piece by
// piece where rank 0 copies in by pieces (Shared::pieces).
detail::Engine::Phase out_phase(const Shared& x, std::uint32_t summed) {
  return {x.kind == Kind::reduce ? "copy_out" : "bcast", [x, summed](const detail::Call& c) {
            if (x.pieces > 1 && !x.root) {  // each piece once rank 0 marked it
              for (std::size_t p = 0; p < x.pieces; ++p) {
                const std::size_t lo = p * kBcastPiece;
                x.seg->wait(0, *x.base + static_cast<std::uint32_t>(p) + 1);
                x.args.memory().copy(static_cast<char*>(c.recv) + lo, x.seg->data(0) + lo,
                                     std::min(kBcastPiece, x.bytes - lo));
              }
            } else if (x.kind != Kind::reduce || x.root) {
              x.seg->wait(0, *x.base + summed + static_cast<std::uint32_t>(x.pieces - 1));
              const detail::Range own = x.own_last;  // (reduce, one node) already in my receive buffer
              char* out = static_cast<char*>(c.recv);
              x.args.memory().copy(out, x.seg->data(0), own.lo);
              x.args.memory().copy(out + own.hi, x.seg->data(0) + own.hi, x.bytes - own.hi);
            }
            x.seg->set();
          }};
}

// The bcast on one node with the inputs where they are: every rank reads
// rank 0's input into its receive buffer; rank 0 waits until all have.
void add_one_node_bcast(detail::Engine& engine, const Shared& x) {
  engine.phases.push_back({"bcast", [x, enter = engine.enter](const detail::Call& c) {
                             detail::first_step(*x.seg, enter, c, *x.base);  // entered: (rank 0) my input is ready
                             if (!x.root) {
                               x.seg->wait(0, *x.base + 1);
                               if (c.reach->path == detail::Path::registered)
                                 x.args.memory().copy(c.recv, c.reach->in[0], x.bytes);
                               else
                                 detail::cma_read_or_abort(x.seg->peers().pids[0], c.recv, c.reach->remote_in[0],
                                                           x.bytes);
                             } else if (c.send != MPI_IN_PLACE) {
                               x.args.memory().copy(c.recv, c.send, x.bytes);
                             }
                             x.seg->set();
                           }});
  engine.phases.push_back({"complete", [x](const detail::Call&) {
                             if (x.root)  // everyone has read my input
                               for (int r = 1; r < x.q; ++r) x.seg->wait(r, *x.base + 2);
                           }});
}

// The reduce stages: in stage j the root of my group sums its part from the
// root's, mine and the others' (stage 0 from the inputs where they are on a
// direct path); with push the last stage writes the receive buffers.
detail::Engine::Phase reduce_phase(const Shared& x, std::shared_ptr<detail::Scratch> w, detail::Engine::Enter enter) {
  std::vector<std::vector<int>> first;  // per stage, whose data I sum: the root first, then me, then the others
  for (const detail::TreeStage& st : x.t->stages) {
    std::vector<int> from{st.root};
    if (x.me != st.root) from.push_back(x.me);
    for (int m : st.members)
      if (m != st.root) from.push_back(m);
    first.push_back(std::move(from));
  }
  return {
      "reduce", [x, w, first, enter](const detail::Call& c) {
        const auto& t = *x.t;
        auto& seg = *x.seg;
        if (x.direct) detail::first_step(seg, enter, c, *x.base);  // entered: my input and receive buffer are ready
        for (std::size_t j = 0; j < t.stages.size(); ++j) {
          const detail::TreeStage& st = t.stages[j];
          const std::uint32_t ready = *x.base + 1 + 2 * static_cast<std::uint32_t>(j);
          const bool last = j + 1 == t.stages.size();
          if (st.active) {
            for (int m : st.members) seg.wait(m, ready);
            w->dsts.clear();
            if (last && x.push) {
              // The node's sum goes straight to the receive buffers,
              // which their ranks must have handed over.
              for (int r = 0; r < (x.kind == Kind::allreduce ? x.q : 1); ++r) {
                seg.wait(r, *x.base + 1);
                w->dsts.push_back(r == x.me ? static_cast<char*>(c.recv) : c.reach->out[static_cast<std::size_t>(r)]);
              }
            } else {
              w->dsts.push_back(last && x.sums_to_recv() ? static_cast<char*>(c.recv) : seg.data(st.root));
            }
            const std::vector<int>& from = first[j];
            if (j == 0 && x.direct) {
              detail::sum_inputs(c, x.me, seg.peers().pids, from, st.part.lo, st.part.hi, *w);
            } else {
              int k = 0;
              for (int r : from)
                w->srcs[static_cast<std::size_t>(k++)] = (r == x.me && j == 0 ? c.in() : seg.data(r)) + st.part.lo;
              detail::sum_to(*w, k, st.part.lo, st.part.size());
            }
          }
          seg.set();  // my part is summed
          // (A root of the last stage that pushed waits in complete instead.)
          if (st.active && x.me == st.root && !(x.push && last))
            for (int m : st.members) seg.wait(m, ready + 1);
          seg.set();  // (root) my subtree is summed
        }
      }};
}

Plan tree(Kind kind, const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = kind == Kind::allreduce ? "shm_tree"
                    : kind == Kind::reduce  ? "shm_tree (reduce)"
                                            : "shm_tree (bcast)";
  const detail::Domain dom = detail::shm_domain(who, args, layout);
  const int q = dom.size, me = dom.rank;
  const bool nodes = dom.count > 1;
  detail::Factors factors;
  if (kind != Kind::bcast)
    factors =
        params.has("factors") ? detail::parse_factors(who, params.get("factors"), q, true) : detail::default_factors(q);
  factors.allgather.clear();
  const detail::Inner inner = detail::parse_inner(who, params, dom);
  detail::Resolved resolved;
  if (kind != Kind::bcast) resolved.emplace_back("factors", detail::to_string(factors));
  if (kind == Kind::allreduce) detail::add_inner(resolved, inner, dom.count);
  if (layout.rank() == 0 && me != 0)
    throw Error(std::string(who) + ": rank 0 must be the first rank of its " + dom.name);
  const detail::SmallKind small = kind == Kind::allreduce ? detail::SmallKind::allreduce
                                  : kind == Kind::reduce  ? detail::SmallKind::reduce
                                                          : detail::SmallKind::bcast;
  if (detail::takes_small_path(who, args, dom, params, small))
    return detail::small_plan(small, who, args, params, resolved, dom);
  const std::size_t bytes = args.block_bytes(), elem = args.type_bytes();
  const bool root = layout.rank() == 0;
  auto t = std::make_shared<const detail::TreeSchedule>(detail::tree_schedule(q, me, factors, bytes));
  const std::string copy_in_only = q == 1                         ? "one rank per " + dom.name + ": no peers to reach"
                                   : kind == Kind::bcast && nodes ? "the bcast across nodes starts from the segment"
                                                                  : "";

  auto setup = [kind, args, dom, inner, t, q, me, bytes, elem, nodes, root](std::shared_ptr<detail::ShmSegment> seg) {
    std::function<void()> across;  // one leader per node (or region): its rank 0, on its lane (rank 0's is rank 0)
    if (nodes && me == 0) {
      const CollArgs lane = args.on(dom.lane, nullptr, seg->data(0), static_cast<int>(bytes / elem));
      if (kind == Kind::allreduce) {
        auto plan = std::make_shared<Plan>(detail::inter_node_plan(inner, args, dom.lane, seg->data(0), lane.count));
        across = [plan] { plan->execute(); };
      } else if (kind == Kind::reduce) {
        across = [lane, root] {
          MPI_Reduce(root ? MPI_IN_PLACE : lane.recvbuf, lane.recvbuf, lane.count, lane.type, lane.op, 0, lane.comm);
        };
      } else {
        across = [lane] { MPI_Bcast(lane.recvbuf, lane.count, lane.type, 0, lane.comm); };
      }
    }
    auto make = [kind, args, seg, t, q, me, bytes, nodes, root, across](detail::Path path) {
      const bool direct = path != detail::Path::copy_in;
      const bool push = path == detail::Path::registered && !nodes && kind != Kind::bcast;
      Shared x{kind, args, seg, t, std::make_shared<std::uint32_t>(0), q, me, bytes, nodes, root, direct, push};
      if (kind == Kind::bcast && !direct && !nodes)
        x.pieces = std::max<std::size_t>(1, (bytes + kBcastPiece - 1) / kBcastPiece);
      if (x.sums_to_recv()) x.own_last = t->stages.back().part;
      auto base = x.base;
      auto w = std::make_shared<detail::Scratch>(q, path == detail::Path::cma, args);
      const auto stages = static_cast<std::uint32_t>(t->stages.size());
      auto engine = std::make_shared<detail::Engine>();
      engine->enter = enter_of(x);
      if (!direct) engine->phases.push_back(copy_in_phase(x, engine->enter));
      if (kind == Kind::bcast && direct) {
        add_one_node_bcast(*engine, x);
        return engine;
      }
      if (kind != Kind::bcast) engine->phases.push_back(reduce_phase(x, w, engine->enter));
      if (nodes)
        engine->phases.push_back({"inter_node", [seg, across](const detail::Call&) {
                                    if (across) across();
                                    seg->set();
                                  }});
      const std::uint32_t summed = 1 + 2 * (kind == Kind::bcast ? 0 : stages) + (nodes ? 1 : 0);
      if (!push) engine->phases.push_back(out_phase(x, summed));
      if (direct) {
        // push: the last stage wrote my receive buffer (allreduce; reduce:
        // rank 0's); else my first-stage group read my input in stage 0.
        std::vector<int> wait_for;
        std::uint32_t done = 2;
        if (push && (kind == Kind::allreduce || root)) {
          done = 1 + 2 * stages;
          for (int r = 0; r < q; ++r)
            if (r != me) wait_for.push_back(r);
        } else if (!t->stages.empty()) {
          wait_for = t->stages[0].members;
        }
        engine->phases.push_back({"complete", [seg, base, done, wait_for](const detail::Call&) {
                                    for (int r : wait_for) seg->wait(r, *base + done);
                                  }});
      }
      return engine;
    };
    return std::make_shared<detail::Engines>(seg, make);
  };
  return detail::engine_plan(
      who, args, params, resolved, dom.comm, setup,
      [kind, t, q, nodes, root, bytes](detail::Path p) { return traffic(kind, *t, p, q, nodes, root, bytes); },
      copy_in_only);
}

}  // namespace

Plan shm_tree(const CollArgs& args, const Layout& layout, const Params& params) {
  return tree(Kind::allreduce, args, layout, params);
}
Plan shm_tree_reduce(const CollArgs& args, const Layout& layout, const Params& params) {
  return tree(Kind::reduce, args, layout, params);
}
Plan shm_tree_bcast(const CollArgs& args, const Layout& layout, const Params& params) {
  return tree(Kind::bcast, args, layout, params);
}

MCB_DECLARE_ALGORITHM(shm_tree) {
  return detail::shared_memory_algorithm(
      {"shm_tree",
       "shared-memory tree: reduce stages into local rank 0, one leader per node (or region) across nodes, copy out",
       {detail::tree_factors_param(), detail::inner_node_param(), detail::node_factors_param(),
        detail::interface_param(), detail::copy_param(), detail::small_param(detail::SmallKind::allreduce)},
       shm_tree});
}

}  // namespace mcb::allreduce
