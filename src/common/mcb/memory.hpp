// Memory backends: where benchmark buffers live (host, CUDA or HIP device
// memory) and how algorithms copy inside them. Algorithms never call memcpy
// on user buffers directly: they go through the backend of the call.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mcb {

enum class MemKind { host, cuda, hip };

std::string to_string(MemKind kind);
/// "host", "cuda" or "hip"; throws Error otherwise.
MemKind parse_mem_kind(const std::string& name);

class Memory {
 public:
  virtual ~Memory() = default;
  virtual MemKind kind() const = 0;
  /// Picks the device of GPU index `gpu` on the node (Layout::gpu(): local
  /// rank / processes per GPU), modulo the devices present; no-op on host.
  virtual void select_device(int gpu) const = 0;
  virtual void* allocate(std::size_t bytes) const = 0;
  virtual void release(void* ptr) const = 0;
  /// Copies between any two buffers of this backend or the host.
  virtual void copy(void* dst, const void* src, std::size_t bytes) const = 0;
  virtual void fill(void* dst, unsigned char byte, std::size_t bytes) const = 0;
  /// Inter-process handles of device allocations (cudaIpcGetMemHandle,
  /// hipIpcGetMemHandle): the handle of `ptr`, the pointer it opens in
  /// another process of the node, and closing it. Host memory has none
  /// (shared_buffer() uses a shared window there).
  virtual std::string ipc_handle(void* ptr) const;
  virtual void* ipc_open(const std::string& handle) const;
  virtual void ipc_close(void* ptr) const;
};

/// The host backend (page-aligned allocations, as OSU's).
const Memory& host_memory();

/// Simulation build (SimGrid SMPI) only: host allocations of at least
/// `min_bytes` come from SMPI_SHARED_MALLOC, whose pages every simulated
/// rank shares, so that thousands of ranks' buffers fit in one machine's
/// memory; their contents are meaningless, so nothing can be validated.
/// 0 (the default) turns it off. Throws Error elsewhere for min_bytes > 0.
/// Per process, which under SMPI means per simulated rank.
void share_host_buffers(std::size_t min_bytes);
/// The backend of `kind`; throws Error when this build or machine lacks it.
const Memory& memory_for(MemKind kind);

/// The memory kinds this build has a backend for ("host", then "cuda" and
/// "hip" where compiled in), whether or not a device is present.
std::vector<std::string> compiled_backends();

/// A buffer owned through its backend.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Memory& mem, std::size_t bytes);
  /// A buffer whose release is `ptr`'s deleter.
  Buffer(std::shared_ptr<void> ptr, std::size_t bytes) : ptr_(std::move(ptr)), bytes_(bytes) {}
  void* data() const { return ptr_.get(); }
  std::size_t bytes() const { return bytes_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_.get());
  }

 private:
  std::shared_ptr<void> ptr_;
  std::size_t bytes_ = 0;
};

/// One buffer for the ranks of `group` (the processes of one GPU): its rank
/// 0 allocates it and the others map it. Device memory goes through the
/// backend's IPC handles, sent over MPI; host memory (the stand-in for a
/// GPU's memory where there is none) through MPI_Win_allocate_shared. The
/// ranks of `group` must share a node. Collective over `group`, and so is
/// the release (the last copy of the Buffer on each rank), which `group`
/// must outlive.
Buffer shared_buffer(const Memory& mem, MPI_Comm group, std::size_t bytes);

}  // namespace mcb
