// HIP memory backend, the twin of memory_cuda.cu for AMD GPUs. Built only
// with MCB_ENABLE_HIP, by the host compiler; its reduction kernels are
// device_reduction.hpp compiled by hipcc (reduction_hip.hip). Copies, fills
// and reductions return when their bytes are in place, as memory_cuda.cu's
// (the processes of a GPU signal each other right after).
#include <hip/hip_runtime_api.h>

#include <cstring>
#include <memory>
#include <string>

#include "mcb/error.hpp"
#include "mcb/memory.hpp"

namespace mcb {

void hip_reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type,
                MPI_Op op);  // reduction_hip.hip

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
    if (!bytes) return;
    check(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, nullptr), "hipMemcpyAsync");
    check(hipStreamSynchronize(nullptr), "hipMemcpyAsync");
  }
  void fill(void* dst, unsigned char byte, std::size_t bytes) const override {
    if (!bytes) return;
    check(hipMemsetAsync(dst, byte, bytes, nullptr), "hipMemsetAsync");
    check(hipStreamSynchronize(nullptr), "hipMemsetAsync");
  }
  void reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type,
              MPI_Op op) const override {
    if (n <= 0 || k <= 0 || nd <= 0) return;
    hip_reduce(dsts, nd, srcs, k, n, type, op);
    check(hipGetLastError(), "reduction kernel launch");
    check(hipStreamSynchronize(nullptr), "reduction kernel");
  }
  Buffer staging_buffer(std::size_t bytes, Staging staging) const override {
    if (staging == Staging::pageable) return Buffer(host_memory(), bytes);
    void* p = nullptr;
    check(hipHostMalloc(&p, bytes == 0 ? 1 : bytes, hipHostMallocDefault), "hipHostMalloc (pinned staging)");
    return Buffer(std::shared_ptr<void>(p, [](void* q) { (void)hipHostFree(q); }), bytes);
  }
  std::optional<DeviceInfo> device_info() const override {
    int dev = 0;
    check(hipGetDevice(&dev), "hipGetDevice");
    hipDeviceProp_t prop{};
    check(hipGetDeviceProperties(&prop, dev), "hipGetDeviceProperties");
    DeviceInfo info;
    info.name = prop.name;
    return info;
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
