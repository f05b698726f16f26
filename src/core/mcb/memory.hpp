// Memory backends: where benchmark buffers live (host, CUDA or HIP device
// memory) and how algorithms copy inside them. Algorithms never call memcpy
// on user buffers directly: they go through the backend of the call.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcb {

enum class MemKind { host, cuda, hip };

std::string to_string(MemKind kind);
/// "host", "cuda" or "hip"; throws Error otherwise.
MemKind parse_mem_kind(const std::string& name);

/// Host buffers that device buffers are copied through (--staging): pinned
/// (page-locked, registered with the GPU's driver once per buffer, so that
/// its DMA engines read and write them directly) or pageable (plain host
/// memory, which the driver copies through a bounce buffer of its own).
enum class Staging { pinned, pageable };
std::string to_string(Staging staging);
/// "pinned" or "pageable"; throws Error otherwise.
Staging parse_staging(const std::string& name);

/// What a GPU is and how it is shared, for headers and run metadata; empty
/// strings where the backend cannot tell.
struct DeviceInfo {
  std::string name;          // "NVIDIA H100 80GB HBM3"
  std::string driver;        // the kernel driver's version, "580.65.06"
  std::string runtime;       // the runtime's version, "CUDA 13.0"
  std::string compute_mode;  // "default", "exclusive_process", "prohibited"
  std::string mps;           // "on" (an MPS control daemon runs on this node), "off"
  std::string pcie;          // "gen 5 x16 (max gen 5 x16)"
  std::string bus_id;        // "0000:17:00.0"
};

class Buffer;

class Memory {
 public:
  virtual ~Memory() = default;
  virtual MemKind kind() const = 0;
  /// Picks the device of GPU index `gpu` on the node (Layout::gpu(): local
  /// rank / processes per GPU), modulo the devices present; no-op on host.
  virtual void select_device(int gpu) const = 0;
  virtual void* allocate(std::size_t bytes) const = 0;
  virtual void release(void* ptr) const = 0;
  /// Copies between any two buffers of this backend or the host. Returns
  /// when every byte is at `dst`, so that another process may read it as
  /// soon as this one signals (the processes of a GPU share its buffers).
  virtual void copy(void* dst, const void* src, std::size_t bytes) const = 0;
  /// Returns when every byte is written, as copy().
  virtual void fill(void* dst, unsigned char byte, std::size_t bytes) const = 0;
  /// dsts[d][i] = srcs[0][i] op ... op srcs[k-1][i] on buffers of this
  /// backend, as mcb::reduce_many_to (mcb/reduction.hpp) on the host: the
  /// same operands in the same order, for mcb's types and operations (a
  /// device backend throws Error for others: there is no MPI_Reduce_local
  /// on device memory). Returns when the results are written, as copy().
  virtual void reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type,
                      MPI_Op op) const;
  /// inout[i] = in[i] op inout[i], as mcb::reduce_local.
  void reduce_local(const void* in, void* inout, int n, MPI_Datatype type, MPI_Op op) const;
  /// A host buffer that buffers of this backend are staged through:
  /// pinned or pageable (a device backend), plain host memory (the host).
  virtual Buffer staging_buffer(std::size_t bytes, Staging staging) const;
  /// The device this process selected, or nothing (the host).
  virtual std::optional<DeviceInfo> device_info() const { return std::nullopt; }
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
