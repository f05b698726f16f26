// How a shared-memory allreduce reaches its peers' buffers (issue 21):
//   registered: every rank's send and receive buffers are registered
//               (mcb::shm_allocate), so peers read the inputs and write the
//               results in place: no copy-in, no copy-out;
//   cma:        Linux cross-memory attach (process_vm_readv) reads a peer's
//               input straight from its buffer, in cache-sized chunks, one
//               kernel copy (as Open MPI's shared-memory transport does);
//   copy-in:    every rank copies its input into its region of the node's
//               segment first (works everywhere).
// --copy auto picks the first that every rank of the communicator can use;
// a named path that cannot run is an error (persistent interface) or falls
// back in that order (blocking interface, whose buffers change per call).
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mcb/collective.hpp"
#include "mcb/shm_alloc.hpp"

namespace mcb::allreduce::detail {

enum class Path { copy_in = 0, cma = 1, registered = 2 };
std::string to_string(Path p);

/// --copy: auto, registered, cma or copy-in.
ParamSpec copy_param();
/// What auto asks for where cross-memory attach would read pieces too
/// small to pay for its system call per peer (EngineOptions::cma_min):
/// registered where every buffer is, else copy-in.
inline constexpr const char* kAutoNoCma = "auto (no cma)";

/// What the ranks of a domain know about each other once: process ids (by
/// domain rank, and sorted), whether cross-memory attach works between
/// every pair (and if not, the first refusal), and whether it is fast
/// enough to replace the copy-in (--copy auto).
struct Peers {
  std::vector<pid_t> pids, sorted;
  bool cma = false;       // every rank can read every other rank's memory
  bool cma_fast = false;  // and a kernel copy took no longer than a memcpy, on every rank
  double cma_ratio = 0;   // a kernel copy's time over a memcpy's, the worst rank's (0: not measured)
  std::string cma_why;    // why not, for -v
  std::string cma_speed;  // the measurement ("... GB/s against memcpy's ... GB/s")
};
/// Collective over `dom`: exchanges process ids, tries a small
/// process_vm_readv from every peer, and (where allowed) times one of
/// kCmaSample bytes from the next rank against a memcpy of as many. The
/// verdict is kept per set of processes: a domain of the same processes
/// again (a communicator made again) only exchanges the ids and agrees.
Peers discover_peers(MPI_Comm dom);
constexpr std::size_t kCmaSample = 256 * 1024;

/// process_vm_readv of `bytes` at `remote` in process `pid` into `local`
/// (partial transfers continued). Returns 0 or the errno of the refusal.
int cma_read(pid_t pid, void* local, std::uintptr_t remote, std::size_t bytes);

/// One rank's buffers for one call, as its peers need them: the input (the
/// send buffer, or the receive buffer in place) and the receive buffer,
/// each with its registered location (if any) and raw address; a blocking
/// call publishes it in its slot of the segment (two cache lines).
struct Side {
  ShmLocation at;
  std::uint32_t registered = 0;
  std::uint64_t addr = 0;
  friend bool operator==(const Side&, const Side&) = default;
};
struct Descriptor {
  Side in, out;
  friend bool operator==(const Descriptor&, const Descriptor&) = default;
};
Descriptor describe(const void* in, const void* out, std::size_t bytes, const Peers& peers);
/// The same where the input has `in_bytes` and the output `out_bytes` (an
/// allgather's block and vector).
Descriptor describe(const void* in, const void* out, std::size_t in_bytes, std::size_t out_bytes, const Peers& peers);

/// The path every rank of the domain takes for these descriptors: the one
/// requested; auto: registered where every buffer is, else cma where
/// allowed and fast, else copy-in. A requested path that cannot run falls
/// back in the same order.
/// `cma_ratio`: auto also takes cross-memory attach where a kernel copy
/// takes at most this many times a memcpy (Peers::cma_ratio: an allgather's
/// cma replaces two copies through the segment with one).
Path choose(const std::vector<Descriptor>& all, const Peers& peers, const std::string& requested,
            double cma_ratio = 1.0);
/// The path for one rank's buffers as if every rank's were like them: the
/// path of the call when they are not registered (one such rank decides
/// it), else the path when every rank's are.
Path choose(const Descriptor& mine, const Peers& peers, const std::string& requested, double cma_ratio = 1.0);

/// Every domain rank's buffers as this rank reaches them on `path`:
/// registered: pointers in my address space; cma: addresses in the peer's.
struct Reach {
  Path path = Path::copy_in;
  std::vector<const char*> in;
  std::vector<char*> out;
  std::vector<std::uintptr_t> remote_in;
};
Reach reach(const std::vector<Descriptor>& all, Path path);
/// The same into `r`, reusing its storage (a blocking call's).
void reach(const std::vector<Descriptor>& all, Path path, Reach& r);

}  // namespace mcb::allreduce::detail
