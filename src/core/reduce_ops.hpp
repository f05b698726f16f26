// The operations of mcb's reductions, one functor each, shared by the host
// kernels (reduction.cpp) and the device kernels (device_reduction.hpp):
// one definition of what sum, prod, min, max and the bitwise operations
// compute. Each result is cast back to T: the integer promotions widen
// int8/int16, and the narrowing back is modular (C++20), as MPI's C
// reductions wrap.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MCB_HOST_DEVICE __host__ __device__
#else
#define MCB_HOST_DEVICE
#endif

namespace mcb::kernel_ops {

struct Sum {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return static_cast<T>(a + b);
  }
};
struct Prod {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return static_cast<T>(a * b);
  }
};
struct Min {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return b < a ? b : a;
  }
};
struct Max {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return a < b ? b : a;
  }
};
struct Band {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return static_cast<T>(a & b);
  }
};
struct Bor {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return static_cast<T>(a | b);
  }
};
struct Bxor {
  template <class T>
  MCB_HOST_DEVICE static T apply(T a, T b) {
    return static_cast<T>(a ^ b);
  }
};

}  // namespace mcb::kernel_ops
