#include "mcb/memory.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "mcb/error.hpp"

namespace mcb {

#if MCB_HAVE_CUDA
const Memory& cuda_memory();  // memory_cuda.cu
#endif
#if MCB_HAVE_HIP
const Memory& hip_memory();  // memory_hip.cpp
#endif

namespace {

class HostMemory final : public Memory {
 public:
  MemKind kind() const override { return MemKind::host; }
  void select_device(int) const override {}
  void* allocate(std::size_t bytes) const override {
    constexpr std::size_t align = 64;
    std::size_t rounded = (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void release(void* ptr) const override { std::free(ptr); }
  void copy(void* dst, const void* src, std::size_t bytes) const override {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  void fill(void* dst, unsigned char byte, std::size_t bytes) const override {
    if (bytes) std::memset(dst, byte, bytes);
  }
};

}  // namespace

std::string to_string(MemKind kind) {
  switch (kind) {
    case MemKind::host:
      return "host";
    case MemKind::cuda:
      return "cuda";
    case MemKind::hip:
      return "hip";
  }
  return "?";
}

MemKind parse_mem_kind(const std::string& name) {
  if (name == "host") return MemKind::host;
  if (name == "cuda") return MemKind::cuda;
  if (name == "hip") return MemKind::hip;
  throw Error("--mem " + name + ": expected host, cuda or hip");
}

const Memory& host_memory() {
  static const HostMemory mem;
  return mem;
}

const Memory& memory_for(MemKind kind) {
  switch (kind) {
    case MemKind::host:
      return host_memory();
    case MemKind::cuda:
#if MCB_HAVE_CUDA
      return cuda_memory();
#else
      throw Error("--mem cuda: this build has no CUDA backend (reconfigure with -DMCB_ENABLE_CUDA=ON)");
#endif
    case MemKind::hip:
#if MCB_HAVE_HIP
      return hip_memory();
#else
      throw Error("--mem hip: this build has no HIP backend (reconfigure with -DMCB_ENABLE_HIP=ON)");
#endif
  }
  throw Error("unknown memory kind");
}

Buffer::Buffer(const Memory& mem, std::size_t bytes)
    : ptr_(mem.allocate(bytes), [m = &mem](void* p) { m->release(p); }), bytes_(bytes) {}

}  // namespace mcb
