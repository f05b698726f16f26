// The environment of libmcb_preload.so: which mcb algorithm serves each
// intercepted collective (MCB_ALLTOALL, MCB_ALLGATHER, MCB_ALLREDUCE,
// MCB_BCAST, MCB_REDUCE, MCB_REDUCE_SCATTER_BLOCK, MCB_REDUCE_SCATTER,
// MCB_ALLGATHERV, MCB_GATHER(V), MCB_SCATTER(V), each
// NAME[:PARAM=VALUE[:PARAM=VALUE...]] with the names of mcb_alltoall --list
// and friends), the virtual nodes (MCB_RANKS_PER_NODE), the cache bounds
// (MCB_PRELOAD_CACHE) and the report (MCB_PRELOAD_REPORT). Parsed and
// checked without MPI, so that MPI_Init can refuse a bad value with one line
// before anything runs.
#pragma once

#include <string>

#include "mcb/collective.hpp"

namespace mcb::preload {

enum class Coll {
  alltoall,
  allgather,
  allreduce,
  bcast,
  reduce,
  reduce_scatter_block,
  reduce_scatter,
  allgatherv,
  gather,
  gatherv,
  scatter,
  scatterv
};
constexpr int kColls = 12;
constexpr Coll kAllColls[kColls] = {
    Coll::alltoall,       Coll::allgather,  Coll::allreduce, Coll::bcast,   Coll::reduce,  Coll::reduce_scatter_block,
    Coll::reduce_scatter, Coll::allgatherv, Coll::gather,    Coll::gatherv, Coll::scatter, Coll::scatterv};
inline int index(Coll c) { return static_cast<int>(c); }
/// The collectives that reduce (a type and an op: allreduce, reduce, the
/// reduce-scatters) and those rooted (reduce, bcast, gather(v), scatter(v)).
inline bool reducing(Coll c) {
  return c == Coll::allreduce || c == Coll::reduce || c == Coll::reduce_scatter_block || c == Coll::reduce_scatter;
}
inline bool rooted(Coll c) {
  return c == Coll::reduce || c == Coll::bcast || c == Coll::gather || c == Coll::gatherv || c == Coll::scatter ||
         c == Coll::scatterv;
}
const char* mpi_name(Coll c);  // "MPI_Alltoall"
const char* env_name(Coll c);  // "MCB_ALLTOALL"

/// What one variable selects.
struct Choice {
  bool enabled = false;  // set and not empty; otherwise the MPI's own, not intercepted
  std::string text;      // the value as given
  const Algorithm* algorithm = nullptr;
  Params params;  // as given, plus interface=blocking for the shared-memory allreduces
  /// The algorithm's setup is collective for every buffer pair (a persistent
  /// request or shared-memory window per plan): the ranks agree on every call
  /// whether one of them needs a new plan (one small MPI_Allreduce). Else a
  /// rank builds plans for new buffers alone.
  bool agreed = false;
};

struct Config {
  Choice choice[kColls];
  /// Virtual nodes of K consecutive MPI_COMM_WORLD ranks on every
  /// communicator (0: nodes from MPI_COMM_TYPE_SHARED).
  int ranks_per_node = 0;
  /// Call shapes (count, type, op) cached per communicator and collective,
  /// and plans (buffer pairs) per shape; least recently used first out
  /// (MCB_PRELOAD_CACHE=SHAPES,PLANS).
  int shapes = 16;
  int plans = 4;
  /// A communicator is set up (its layout: private communicators, the
  /// algorithms' verdicts) at its N-th call that an algorithm could serve;
  /// the calls before go to the MPI (reason deferred). 1: at the first call.
  /// For programs that make communicators for a call or two and free them
  /// (MCB_PRELOAD_SETUP=N; docs/preload.md, what a new communicator costs).
  int setup_after = 1;
  enum class Report { off, to_stderr, to_stdout, to_file };
  Report report = Report::off;
  std::string report_path;
  /// The first bad value, as the one line MPI_Init prints: "MCB_ALLTOALL=x: why".
  std::string error;

  const Choice& operator[](Coll c) const { return choice[index(c)]; }
  bool any() const {
    for (const Choice& c : choice)
      if (c.enabled) return true;
    return false;
  }
};

/// Reads and checks the environment; a bad value leaves Config::error set.
Config read_config();

/// One variable's value (NAME[:PARAM=VALUE...]); throws Error saying why not.
Choice parse_choice(Coll coll, const std::string& text);

}  // namespace mcb::preload
