// CUDA memory backend: device buffers from cudaMalloc, copies with
// cudaMemcpyDefault (unified addressing: any direction), mcb's reductions as
// kernels (device_reduction.hpp), pinned staging buffers from cudaMallocHost.
// Built only with MCB_ENABLE_CUDA; a machine without a usable GPU gets a
// clear Error.
//
// Every copy, fill and reduction returns only when its bytes are in place:
// the processes of a GPU share its buffers and signal each other through MPI
// right after, and cudaMemcpy alone does not wait for a pageable host-to-
// device copy to land (it returns once the driver has the bytes in its
// bounce buffer) nor for a device-to-device copy at all. So each is issued
// on the default stream and followed by cudaStreamSynchronize: for a pinned
// or device buffer the synchronization is the copy's own end, for a
// pageable one the end of the driver's last DMA.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "device_reduction.hpp"
#include "gpu_info.hpp"
#include "mcb/error.hpp"
#include "mcb/memory.hpp"

namespace mcb {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw Error(std::string("--mem cuda: ") + what + ": " + cudaGetErrorString(err));
}

// The default stream of the calling thread's device, waited for.
void finish(const char* what) { check(cudaStreamSynchronize(0), what); }

__global__ void fill_kernel(unsigned char* dst, unsigned char byte, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    dst[i] = byte;
}

std::string compute_mode(int mode) {
  switch (mode) {
    case cudaComputeModeDefault:
      return "default";
    case cudaComputeModeExclusiveProcess:
      return "exclusive_process";
    case cudaComputeModeProhibited:
      return "prohibited";
    default:
      return "mode " + std::to_string(mode);
  }
}

class CudaMemory final : public Memory {
 public:
  CudaMemory() {
    int n = 0;
    // "CUDA driver version is insufficient" is how a GPU-less machine answers.
    check(cudaGetDeviceCount(&n), "no usable CUDA device");
    if (n == 0) throw Error("--mem cuda: no CUDA device on this node");
    devices_ = n;
  }
  MemKind kind() const override { return MemKind::cuda; }
  void select_device(int gpu) const override { check(cudaSetDevice(gpu % devices_), "cudaSetDevice"); }
  void* allocate(std::size_t bytes) const override {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes == 0 ? 1 : bytes), "cudaMalloc");
    return p;
  }
  void release(void* ptr) const override { cudaFree(ptr); }
  std::string ipc_handle(void* ptr) const override {
    cudaIpcMemHandle_t h{};
    check(cudaIpcGetMemHandle(&h, ptr), "cudaIpcGetMemHandle");
    return std::string(reinterpret_cast<const char*>(&h), sizeof h);
  }
  void* ipc_open(const std::string& handle) const override {
    cudaIpcMemHandle_t h{};
    if (handle.size() != sizeof h) throw Error("--mem cuda: an IPC handle of the wrong size");
    std::memcpy(&h, handle.data(), sizeof h);
    void* p = nullptr;
    check(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess), "cudaIpcOpenMemHandle");
    return p;
  }
  void ipc_close(void* ptr) const override { (void)cudaIpcCloseMemHandle(ptr); }
  void copy(void* dst, const void* src, std::size_t bytes) const override {
    if (!bytes) return;
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, 0), "cudaMemcpyAsync");
    finish("cudaMemcpyAsync");
  }
  void fill(void* dst, unsigned char byte, std::size_t bytes) const override {
    if (!bytes) return;
    fill_kernel<<<256, 256>>>(static_cast<unsigned char*>(dst), byte, bytes);
    check(cudaGetLastError(), "fill kernel launch");
    finish("fill kernel");
  }
  void reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type,
              MPI_Op op) const override {
    if (n <= 0 || k <= 0 || nd <= 0) return;
    device::reduce(dsts, nd, srcs, k, n, type, op);
    check(cudaGetLastError(), "reduction kernel launch");
    finish("reduction kernel");
  }
  Buffer staging_buffer(std::size_t bytes, Staging staging) const override {
    if (staging == Staging::pageable) return Buffer(host_memory(), bytes);
    void* p = nullptr;
    check(cudaMallocHost(&p, bytes == 0 ? 1 : bytes), "cudaMallocHost (pinned staging; --staging pageable avoids it)");
    return Buffer(std::shared_ptr<void>(p, [](void* q) { cudaFreeHost(q); }), bytes);
  }
  std::optional<DeviceInfo> device_info() const override {
    int dev = 0, mode = 0, runtime = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    check(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev), "cudaDeviceGetAttribute");
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    char bus[32] = {};
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
    DeviceInfo info;
    info.name = prop.name;
    info.bus_id = bus;
    info.driver = gpu_info::nvidia_driver();
    info.runtime = "CUDA " + std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    info.compute_mode = compute_mode(mode);
    info.mps = gpu_info::nvidia_mps();
    info.pcie = gpu_info::pcie_link(bus);
    return info;
  }

 private:
  int devices_ = 0;
};

}  // namespace

const Memory& cuda_memory() {
  static const CudaMemory mem;  // throws Error on first use without a GPU
  return mem;
}

}  // namespace mcb
