// The arguments of one collective call, and the algorithm registry entry
// that turns them into a Plan.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mcb/layout.hpp"
#include "mcb/memory.hpp"
#include "mcb/plan.hpp"

namespace mcb {

/// The per-rank element counts of the v-forms (allgatherv, gatherv and
/// scatterv: each rank's block; reduce_scatter: each rank's part of the
/// vector), packed in rank order: displs[r] = counts[0] + ... + counts[r-1],
/// for r = 0 .. P (displs[P], past the P that MPI reads, the total).
struct VCounts {
  std::vector<int> counts, displs;
  /// counts packed in rank order.
  static std::shared_ptr<const VCounts> packed(std::vector<int> counts);
  /// Every rank `count`: the block forms run by the v-forms' algorithms.
  static std::shared_ptr<const VCounts> equal(int count, int p);
  long long total() const { return displs.back(); }
};

/// One collective call. `count` is the number of elements per block: per
/// peer for alltoall and allgather, the whole vector for allreduce, reduce
/// and bcast, this rank's block for reduce_scatter_block, gather and
/// scatter; in the v-forms this rank's own count (`v` has every rank's).
/// Rooted collectives are rooted at rank 0. The datatype must be
/// contiguous (size == extent).
struct CollArgs {
  const void* sendbuf = nullptr;
  void* recvbuf = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Op op = MPI_OP_NULL;
  const Memory* mem = nullptr;  // nullptr: host memory
  /// Whether MPI may be handed pointers of `mem` (--gpu-aware). Algorithms
  /// marked Algorithm::per_gpu stage through host copies themselves when
  /// not; the harness stages the others.
  bool gpu_aware = true;
  /// The host buffers that device buffers are staged through when not
  /// gpu_aware (--staging): pinned or pageable.
  Staging staging = Staging::pinned;
  /// The v-forms' and reduce-scatters' per-rank counts (nullptr elsewhere).
  std::shared_ptr<const VCounts> v;

  const Memory& memory() const { return mem ? *mem : host_memory(); }
  int rank() const;
  int size() const;
  /// Bytes of one element / one block; throws Error for non-contiguous types.
  std::size_t type_bytes() const;
  std::size_t block_bytes() const { return type_bytes() * static_cast<std::size_t>(count); }
  /// Rank r's block (`v`'s count, else `count`) and where it starts, in
  /// elements, among the blocks packed in rank order (r = P: the total).
  int count_of(int r) const { return v ? v->counts[static_cast<std::size_t>(r)] : count; }
  std::size_t displ_of(int r) const {
    return v ? static_cast<std::size_t>(v->displs[static_cast<std::size_t>(r)])
             : static_cast<std::size_t>(count) * static_cast<std::size_t>(r);
  }
  /// The same call on another communicator or buffers.
  CollArgs on(MPI_Comm c) const {
    CollArgs a = *this;
    a.comm = c;
    return a;
  }
  /// The same type and memory on another communicator, buffers and count
  /// (an inner exchange on a sub-communicator).
  CollArgs on(MPI_Comm c, const void* send, void* recv, int n) const {
    CollArgs a = on(c);
    a.sendbuf = send;
    a.recvbuf = recv;
    a.count = n;
    return a;
  }
};

/// Algorithm parameters as given on the command line (name -> value).
class Params {
 public:
  void set(const std::string& name, const std::string& value) { values_[name] = value; }
  bool has(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback = "") const;
  /// Integer value; throws Error naming the parameter if it is not one.
  long get_int(const std::string& name, long fallback) const;
  /// Whether `text` is a decimal integer that fits a long: an optional sign
  /// and 1 to 10 characters in all (the benchmarks' and the preload's
  /// parameter values).
  static bool is_integer(const std::string& text);
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

struct ParamSpec {
  std::string name;  // the option is --<name>
  std::string help;
  std::string default_value;  // as shown by --list; "" = decided by the algorithm
  /// The values the parameter takes, when it is one of a fixed set; the
  /// benchmarks then accept "all" for every one of them.
  std::vector<std::string> choices;
  /// Whether the parameter means anything for a configuration (given the
  /// values of the parameters before it); empty: always. A list of values
  /// multiplies only the configurations it applies to.
  std::function<bool(const Params&)> applies;
  /// Whether "a,b" is a list of values to run one after the other. A value
  /// that holds commas itself (--factors=-4,-2,2,4) sets this false; its
  /// alternatives are then separated by '/'.
  bool list = true;
};

using PlanFactory = std::function<Plan(const CollArgs&, const Layout&, const Params&)>;

/// A registry factory from a factory that needs no layout and no parameters
/// (the system's collectives and the classic algorithms).
PlanFactory layout_free(Plan (*f)(const CollArgs&));

/// A plan of one phase that starts and waits a persistent request, which
/// `init` creates (MPI_Alltoall_init, ...) and the last copy of the plan
/// frees (unless MPI is finalized by then); it keeps `keep` (what the
/// request reads, a v-form's counts) alive as long.
Plan persistent_request_plan(const std::string& phase, const std::function<void(MPI_Request*)>& init,
                             std::shared_ptr<const void> keep = nullptr);

/// An algorithm file declares its registry entry (name, summary,
/// parameters, checks, the layouts it needs) next to its factory:
///   MCB_DECLARE_ALGORITHM(pairwise) { return {"pairwise", "...", {}, layout_free(pairwise)}; }
/// and its collective's registry names it once, in --list order.
#define MCB_DECLARE_ALGORITHM(name) ::mcb::Algorithm declare_##name()

struct Algorithm {
  std::string name;
  std::string summary;  // one line for --list
  std::vector<ParamSpec> params;
  PlanFactory make;
  bool available = true;        // false: this MPI/build cannot run it
  std::string unavailable_why;  // shown by --list and as the error
  /// Why the algorithm cannot run on a layout ("" when it can); --algorithm
  /// all skips it with a note, naming it explicitly is an error.
  std::function<std::string(const Layout&)> unsupported;
  /// The same for one configuration: why these parameter values cannot run
  /// on a layout (mcb_pingpong's --active beyond the processes per GPU).
  /// Under "all" such a configuration is left out silently.
  std::function<std::string(const Layout&, const Params&)> unsupported_config;
  /// Checks one configuration's parameter values against a layout without
  /// running anything, with make()'s own messages: throws Error when make()
  /// would refuse them (a radix outside [2, P], leaders that do not divide
  /// the ranks per node). The benchmarks call it for every configuration
  /// before the first measurement, so that a bad value in a list stops the
  /// run before it starts.
  std::function<void(const Layout&, const Params&)> check;
  /// Works on buffers shared by the processes of a GPU (--procs-per-gpu),
  /// each process its slice, and stages through host copies itself when
  /// !CollArgs::gpu_aware. The others run on one process per GPU, and the
  /// harness stages them.
  bool per_gpu = false;
  /// Works on host memory only (the shared-memory allreduces read their
  /// peers' buffers in place): device buffers reach it through the
  /// harness's host copies even where MPI could take them.
  bool host_only = false;
};

}  // namespace mcb
