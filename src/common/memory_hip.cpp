// HIP memory backend, the twin of memory_cuda.cu for AMD GPUs. Built only
// with MCB_ENABLE_HIP.
#include <hip/hip_runtime_api.h>

#include <cstring>
#include <string>

#include "mcb/error.hpp"
#include "mcb/memory.hpp"

namespace mcb {
namespace {

void check(hipError_t err, const char* what) {
  if (err != hipSuccess) throw Error(std::string("--mem hip: ") + what + ": " + hipGetErrorString(err));
}

class HipMemory final : public Memory {
 public:
  HipMemory() {
    int n = 0;
    check(hipGetDeviceCount(&n), "no usable HIP device");
    if (n == 0) throw Error("--mem hip: no HIP device on this node");
    devices_ = n;
  }
  MemKind kind() const override { return MemKind::hip; }
  void select_device(int gpu) const override { check(hipSetDevice(gpu % devices_), "hipSetDevice"); }
  void* allocate(std::size_t bytes) const override {
    void* p = nullptr;
    check(hipMalloc(&p, bytes == 0 ? 1 : bytes), "hipMalloc");
    return p;
  }
  void release(void* ptr) const override { (void)hipFree(ptr); }
  std::string ipc_handle(void* ptr) const override {
    hipIpcMemHandle_t h{};
    check(hipIpcGetMemHandle(&h, ptr), "hipIpcGetMemHandle");
    return std::string(reinterpret_cast<const char*>(&h), sizeof h);
  }
  void* ipc_open(const std::string& handle) const override {
    hipIpcMemHandle_t h{};
    if (handle.size() != sizeof h) throw Error("--mem hip: an IPC handle of the wrong size");
    std::memcpy(&h, handle.data(), sizeof h);
    void* p = nullptr;
    check(hipIpcOpenMemHandle(&p, h, hipIpcMemLazyEnablePeerAccess), "hipIpcOpenMemHandle");
    return p;
  }
  void ipc_close(void* ptr) const override { (void)hipIpcCloseMemHandle(ptr); }
  void copy(void* dst, const void* src, std::size_t bytes) const override {
    if (bytes) check(hipMemcpy(dst, src, bytes, hipMemcpyDefault), "hipMemcpy");
  }
  void fill(void* dst, unsigned char byte, std::size_t bytes) const override {
    if (bytes) check(hipMemset(dst, byte, bytes), "hipMemset");
  }

 private:
  int devices_ = 0;
};

}  // namespace

const Memory& hip_memory() {
  static const HipMemory mem;
  return mem;
}

}  // namespace mcb
