// Registered (node-shared) host buffers: memory that every process of a
// node can read and write in place, the zero-copy path of the
// shared-memory allreduces (allreduce-shared-memory-multiradix reads its
// peers' buffers through XPMEM; this is the portable counterpart, like
// MPI_Win_allocate_shared or NCCL's ncclMemAlloc).
//
// shm_allocate() is collective over a communicator: each process creates a
// POSIX shared-memory object of its own (/dev/shm), every process of the
// same node maps the others', and the names are unlinked at once, so that
// nothing outlives the processes. The memory is recorded in a process-wide
// registry; a collective looks a buffer up (shm_lookup) to learn whether
// its peers can reach it, and translates a peer's location into its own
// address space (shm_translate). Freeing is local (the last Buffer copy
// unmaps this process's mappings), like free().
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "mcb/memory.hpp"

namespace mcb {

/// `bytes` of page-aligned host memory that the processes of `comm` on the
/// same node can address (through shm_translate). Collective over `comm`;
/// throws Error on every rank when any rank's allocation or mapping fails.
Buffer shm_allocate(MPI_Comm comm, std::size_t bytes);

/// Where a registered buffer lies: allocation `id` (unique on the node),
/// made by its member `member`, at `offset`.
struct ShmLocation {
  std::uint64_t id = 0;
  std::uint32_t member = 0;
  std::uint64_t offset = 0;
  friend bool operator==(const ShmLocation&, const ShmLocation&) = default;
};

/// The location of [p, p + bytes) if it lies inside one allocation of this
/// process, and every process of `reach` (sorted process ids of the node)
/// mapped that allocation.
std::optional<ShmLocation> shm_lookup(const void* p, std::size_t bytes, const std::vector<pid_t>& reach);

/// `at` in this process's address space; nullptr when this process did not
/// map that allocation.
char* shm_translate(const ShmLocation& at);

/// Registered allocations alive in this process (tests and -v output).
std::size_t shm_allocations();

/// How often this process's registry changed (an allocation made or
/// freed): while it stands still, shm_lookup and shm_translate answer as
/// they did (a blocking collective keeps their answers between calls).
std::uint64_t shm_registry_changes();

}  // namespace mcb
