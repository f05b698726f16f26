// mcb's reductions as HIP kernels: device_reduction.hpp compiled by hipcc
// (src/CMakeLists.txt runs it: CMake 3.25's HIP language does not find
// Debian's hip-lang package), called by memory_hip.cpp's Memory::reduce.
#include <hip/hip_runtime.h>

#include "device_reduction.hpp"

namespace mcb {

void hip_reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type, MPI_Op op) {
  device::reduce(dsts, nd, srcs, k, n, type, op);
}

}  // namespace mcb
