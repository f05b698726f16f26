// mcb's reductions on device memory (Memory::reduce of a GPU backend) against
// its host kernels (mcb::reduce_many_to), byte for byte: every element type
// and operation the host kernels have, 1 to 5 sources, one and two
// destinations, a destination that is also a source, a length that is no
// multiple of a block. Host and device combine the same operands in the same
// order with the same operation functors, so even floating-point sums agree
// exactly. Skipped, not passed, without a GPU backend or a GPU.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/memory.hpp"
#include "mcb/reduction.hpp"

namespace {

struct TypeCase {
  const char* name;
  MPI_Datatype type;
};

std::vector<TypeCase> types() {
  std::vector<TypeCase> t = {{"int8", MPI_INT8_T},     {"uint8", MPI_UINT8_T},   {"int16", MPI_INT16_T},
                             {"uint16", MPI_UINT16_T}, {"int32", MPI_INT32_T},   {"uint32", MPI_UINT32_T},
                             {"int64", MPI_INT64_T},   {"uint64", MPI_UINT64_T}, {"float", MPI_FLOAT},
                             {"double", MPI_DOUBLE}};
#ifdef MPIX_C_FLOAT16
  t.push_back({"float16", MPIX_C_FLOAT16});
#endif
  return t;
}

// Source j's element i, as a small integer of the element type: products of
// five stay exact in every type, and signed types get negative values.
template <class T>
void pattern(void* out, int j, int n, bool is_signed) {
  auto* p = static_cast<T*>(out);
  for (int i = 0; i < n; ++i) {
    const int v = (i * 7 + j * 13) % 5 + 1;
    p[i] = static_cast<T>(is_signed && (i + j) % 3 == 0 ? -v : v);
  }
}

// Fills `out` with source j's pattern in element type e.
void fill_pattern(mcb::Elem e, void* out, int j, int n) {
  mcb::visit_elem(e, [&](auto t) {
    pattern<decltype(t)>(out, j, n, !mcb::is_unsigned(e));
    return 0;
  });
}

const mcb::Memory* gpu_or_skip(std::string& why) {
  for (const auto& kind : mcb::compiled_backends()) {
    if (kind == "host") continue;
    try {
      const mcb::Memory& mem = mcb::memory_for(mcb::parse_mem_kind(kind));
      mem.select_device(0);
      return &mem;
    } catch (const mcb::Error& e) {
      why += std::string(e.what()) + "; ";
    }
  }
  if (why.empty()) why = "this build has no GPU backend";
  return nullptr;
}

TEST(DeviceReduction, EqualsTheHostKernelsForEveryTypeAndOperation) {
  std::string why;
  const mcb::Memory* gpu = gpu_or_skip(why);
  if (!gpu) GTEST_SKIP() << why;
  const mcb::ReduceOp ops[] = {mcb::ReduceOp::sum,  mcb::ReduceOp::prod, mcb::ReduceOp::min, mcb::ReduceOp::max,
                               mcb::ReduceOp::band, mcb::ReduceOp::bor,  mcb::ReduceOp::bxor};
  const int n = 100003;  // no multiple of a block, more than one block per thread of the grid
  int cases = 0;
  for (const auto& tc : types()) {
    const mcb::Elem e = *mcb::elem_of(tc.type);
    const std::size_t bytes = static_cast<std::size_t>(n) * mcb::elem_bytes(e);
    for (mcb::ReduceOp op : ops) {
      if (!mcb::op_allowed(op, e)) continue;
      for (int k = 1; k <= 5; ++k)
        for (int nd = 1; nd <= 2; ++nd)
          for (bool aliased : {false, true}) {
            SCOPED_TRACE(std::string(tc.name) + " " + mcb::to_string(op) + " k=" + std::to_string(k) +
                         " nd=" + std::to_string(nd) + (aliased ? " dst=src[k-1]" : ""));
            // Host: k sources, nd destinations (the first may be the last source).
            std::vector<std::vector<unsigned char>> hs(static_cast<std::size_t>(k), std::vector<unsigned char>(bytes));
            for (int j = 0; j < k; ++j) fill_pattern(e, hs[static_cast<std::size_t>(j)].data(), j, n);
            std::vector<std::vector<unsigned char>> hd(static_cast<std::size_t>(nd),
                                                       std::vector<unsigned char>(bytes, 0xA5));
            std::vector<const void*> hsrc;
            for (auto& s : hs) hsrc.push_back(s.data());
            std::vector<void*> hdst;
            for (auto& d : hd) hdst.push_back(d.data());
            if (aliased) hdst[0] = hs.back().data();
            // Device: the same, copied over before the host overwrites an aliased source.
            std::vector<mcb::Buffer> ds, dd;
            std::vector<const void*> dsrc;
            std::vector<void*> ddst;
            for (auto& s : hs) {
              ds.emplace_back(*gpu, bytes);
              gpu->copy(ds.back().data(), s.data(), bytes);
              dsrc.push_back(ds.back().data());
            }
            for (auto& d : hd) {
              dd.emplace_back(*gpu, bytes);
              gpu->copy(dd.back().data(), d.data(), bytes);
              ddst.push_back(dd.back().data());
            }
            if (aliased) ddst[0] = ds.back().data();
            mcb::reduce_many_to(hdst.data(), nd, hsrc.data(), k, n, tc.type, mcb::mpi_op(op));
            gpu->reduce(ddst.data(), nd, dsrc.data(), k, n, tc.type, mcb::mpi_op(op));
            for (int d = 0; d < nd; ++d) {
              std::vector<unsigned char> got(bytes);
              gpu->copy(got.data(), ddst[static_cast<std::size_t>(d)], bytes);
              ASSERT_EQ(0, std::memcmp(got.data(), hdst[static_cast<std::size_t>(d)], bytes)) << "destination " << d;
            }
            ++cases;
          }
    }
  }
  EXPECT_GT(cases, 300);
}

TEST(DeviceReduction, RefusesWhatHasNoKernel) {
  std::string why;
  const mcb::Memory* gpu = gpu_or_skip(why);
  if (!gpu) GTEST_SKIP() << why;
  mcb::Buffer a(*gpu, 64), b(*gpu, 64);
  const void* srcs[2] = {a.data(), b.data()};
  void* dst[1] = {b.data()};
  EXPECT_THROW(gpu->reduce(dst, 1, srcs, 2, 4, MPI_DOUBLE_INT, MPI_MAXLOC), mcb::Error);
  EXPECT_THROW(gpu->reduce(dst, 1, srcs, 2, 8, MPI_FLOAT, MPI_BXOR), mcb::Error);
}

// The host backend's reduce is mcb's host kernel, and its staging buffers are
// plain host memory: what every CPU run goes through.
TEST(HostMemory, ReduceIsTheHostKernel) {
  const mcb::Memory& host = mcb::host_memory();
  std::vector<int> a{1, 2, 3}, b{10, 20, 30};
  host.reduce_local(a.data(), b.data(), 3, MPI_INT, MPI_SUM);
  EXPECT_EQ(b, (std::vector<int>{11, 22, 33}));
  const mcb::Buffer s = host.staging_buffer(12, mcb::Staging::pinned);
  std::memcpy(s.data(), a.data(), 12);
  EXPECT_EQ(0, std::memcmp(s.data(), a.data(), 12));
  EXPECT_EQ(mcb::parse_staging("pageable"), mcb::Staging::pageable);
  EXPECT_THROW(mcb::parse_staging("locked"), mcb::Error);
}

}  // namespace
