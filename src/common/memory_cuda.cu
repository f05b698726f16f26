// CUDA memory backend: device buffers from cudaMalloc, copies with
// cudaMemcpyDefault (unified addressing: any direction). Built only with
// MCB_ENABLE_CUDA; a machine without a usable GPU gets a clear Error.
#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "mcb/error.hpp"
#include "mcb/memory.hpp"

namespace mcb {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw Error(std::string("--mem cuda: ") + what + ": " + cudaGetErrorString(err));
}

__global__ void fill_kernel(unsigned char* dst, unsigned char byte, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    dst[i] = byte;
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
    if (bytes) check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
  }
  void fill(void* dst, unsigned char byte, std::size_t bytes) const override {
    if (!bytes) return;
    fill_kernel<<<256, 256>>>(static_cast<unsigned char*>(dst), byte, bytes);
    check(cudaGetLastError(), "fill kernel launch");
    check(cudaDeviceSynchronize(), "fill kernel");
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
