// What the preload keeps per communicator, so that an application's repeated
// calls pay the setup once: an MPI attribute (freed by its delete callback
// when the communicator is freed, or at MPI_Finalize) holding the layout
// (private communicators: the algorithms never touch the application's),
// each algorithm's verdict on that layout, and per collective a
// least-recently-used list of call shapes; per shape, a least-recently-used
// list of plans by buffers.
//
// Shapes are keyed by what is the same on every rank (bytes per block, or
// count, type and op of a reduction, MPI_IN_PLACE where every rank passes it
// alike, the v-forms' counts), so every rank misses
// a shape on the same call and sets it up collectively. Buffers differ per
// rank: a plan for new buffers is made by that rank alone (the algorithms'
// setup is local once the layout and shape exist), except for the
// algorithms whose every setup is collective (Choice::agreed).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "report.hpp"

namespace mcb::preload {

struct ShapeKey {
  Coll coll = Coll::alltoall;
  /// Bytes per block (alltoall, allgather, gather, scatter) or of the bcast,
  /// elements of the reductions (reduce_scatter_block: of a rank's part),
  /// the total of the v-forms (bytes; reduce_scatter: elements).
  long long count = 0;
  MPI_Datatype type = MPI_BYTE;
  MPI_Op op = MPI_OP_NULL;
  bool in_place = false;  // not for the rooted collectives: the root's alone
  /// allgatherv, reduce_scatter: every rank's block (bytes; elements).
  std::vector<int> counts;
  /// gatherv, scatterv: only the root knows the counts; it broadcasts their
  /// digest on every call, and the counts on a new one (serve.cpp).
  std::uint64_t digest = 0;
  bool operator==(const ShapeKey& o) const {
    return coll == o.coll && count == o.count && type == o.type && op == o.op && in_place == o.in_place &&
           digest == o.digest && counts == o.counts;
  }
};

struct PlanEntry {
  const void* send = nullptr;  // the buffers the plan runs on: the call's, or the shape's staging buffers
  void* recv = nullptr;
  Plan plan;
};

struct Shape {
  ShapeKey key;
  bool ok = true;  // false: every call of this shape goes to the MPI (reason, why)
  Reason reason = Reason::setup_error;
  std::string why;
  std::vector<PlanEntry> plans;  // most recently used first
  /// The v-forms' and reduce-scatters' per-rank counts, as the plans take
  /// them (CollArgs::v), in the order of the communicator they run on.
  std::shared_ptr<const VCounts> vcounts;
  /// Staging buffers for datatypes that are packed, made on first use.
  std::vector<char> stage_send, stage_recv;
  char* staging(std::vector<char>& buf, std::size_t bytes) {
    if (buf.size() != bytes) buf.assign(bytes, 0);
    return buf.data();
  }
};

struct CommCache {
  MPI_Comm comm = MPI_COMM_NULL;  // the application's communicator it hangs on
  bool inter = false;
  int size = 0;
  int rank = 0;
  std::unique_ptr<Layout> layout;  // made on the Config::setup_after-th call that an algorithm may serve
  long calls_before_layout = 0;    // such calls seen while there is no layout
  long layout_order = 0;           // when it was made (MPI_Finalize frees in reverse)
  bool verdict_known[kColls] = {};
  std::string unsupported[kColls];                     // Algorithm::unsupported on the layout
  std::vector<std::unique_ptr<Shape>> shapes[kColls];  // per collective, most recently used first
  /// Bcast from root r > 0: the algorithms broadcast from rank 0, so such a
  /// call runs on a private copy of this communicator rotated to start at r
  /// (made on the first call from r, freed with this cache), with a cache of
  /// its own.
  std::vector<std::pair<int, MPI_Comm>> rotated;
};

/// Creates the communicator keyval (MPI_Init).
void init_comm_cache();
/// The cache of `comm`, made empty on the first call.
CommCache& comm_cache(MPI_Comm comm);
/// `cache`'s communicator rotated so that `root` is its rank 0 (made on the
/// first call with this root: collective over the communicator).
MPI_Comm rotated_comm(CommCache& cache, int root);
/// Numbers layouts in the order they are made.
long next_layout_order();
/// Frees every cache still attached (MPI_Finalize, before PMPI_Finalize),
/// in reverse order of their layouts, and the keyval.
void free_comm_caches();

/// The shape `key` moved to the front, or nullptr.
Shape* find_shape(CommCache& cache, const ShapeKey& key);
/// Puts a new shape in front; returns how many were dropped beyond `limit`.
int insert_shape(CommCache& cache, std::unique_ptr<Shape> shape, int limit);
/// The plan for (send, recv) moved to the front, or nullptr.
PlanEntry* find_plan(Shape& shape, const void* send, const void* recv);
/// Puts a plan in front; returns how many were dropped beyond `limit`.
int insert_plan(Shape& shape, PlanEntry entry, int limit);
/// Drops every plan of `shape`.
void clear_plans(Shape& shape);

/// Changes whenever a Shape or PlanEntry of any cache may have moved or gone
/// (a shape or plan put in, moved to the front, dropped; a cache freed): a
/// pointer taken into the caches stays valid while this is unchanged (the
/// last-call memo of serve.cpp). Never 0.
std::uint64_t cache_generation();

}  // namespace mcb::preload
