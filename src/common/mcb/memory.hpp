// Memory backends: where benchmark buffers live (host, CUDA or HIP device
// memory) and how algorithms copy inside them. Algorithms never call memcpy
// on user buffers directly: they go through the backend of the call.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace mcb {

enum class MemKind { host, cuda, hip };

std::string to_string(MemKind kind);
/// "host", "cuda" or "hip"; throws Error otherwise.
MemKind parse_mem_kind(const std::string& name);

class Memory {
 public:
  virtual ~Memory() = default;
  virtual MemKind kind() const = 0;
  /// Picks the device of a rank (device = local_rank % devices); no-op on host.
  virtual void select_device(int local_rank) const = 0;
  virtual void* allocate(std::size_t bytes) const = 0;
  virtual void release(void* ptr) const = 0;
  /// Copies between any two buffers of this backend or the host.
  virtual void copy(void* dst, const void* src, std::size_t bytes) const = 0;
  virtual void fill(void* dst, unsigned char byte, std::size_t bytes) const = 0;
};

/// The host backend (64-byte aligned allocations).
const Memory& host_memory();
/// The backend of `kind`; throws Error when this build or machine lacks it.
const Memory& memory_for(MemKind kind);

/// A buffer owned through its backend.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Memory& mem, std::size_t bytes);
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

}  // namespace mcb
