#include "mcb/memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>

#include "mcb/error.hpp"
#include "mcb/local_work.hpp"
#include "mcb/reduction.hpp"

#ifdef MCB_SIMULATE
#include <xbt/config.hpp>  // SMPI's shared-malloc block size
#endif

namespace mcb {

#if MCB_HAVE_CUDA
const Memory& cuda_memory();  // memory_cuda.cu
#endif
#if MCB_HAVE_HIP
const Memory& hip_memory();  // memory_hip.cpp
#endif

namespace {

// Host buffers start on a page (4 KiB), as OSU's (posix_memalign to the
// page size). With 64-byte alignment, Open MPI 4.1 on 2 bound ranks ran
// the system's alltoall 12% and allreduce 11% slower than OSU over a sweep
// (geometric means, scripts/measure/osu_parity.py), and its pairwise 7% slower than
// the one forced inside Open MPI; page-aligned, both within noise.
constexpr std::size_t kHostAlign = 4096;

class HostMemory final : public Memory {
 public:
  MemKind kind() const override { return MemKind::host; }
  void select_device(int) const override {}
  void* allocate(std::size_t bytes) const override {
#ifdef MCB_SIMULATE
    // Pages that every simulated rank shares (see memory.hpp). SMPI maps its
    // shared file once per whole block of smpi/shared-malloc-blocksize and
    // gives private pages for the rest, so the size is rounded up to whole
    // blocks: nothing private, and one mapping per block (the kernel allows
    // 65530 per process by default).
    if (shared_min_ > 0 && bytes >= shared_min_) {
      const auto block = static_cast<std::size_t>(simgrid::config::get_value<double>("smpi/shared-malloc-blocksize"));
      const std::size_t size = (bytes + block - 1) / block * block;
      void* p = SMPI_SHARED_MALLOC(size);
      shared_[static_cast<const char*>(p)] = size;
      return p;
    }
#endif
    std::size_t rounded = (bytes + kHostAlign - 1) / kHostAlign * kHostAlign;
    void* p = std::aligned_alloc(kHostAlign, rounded == 0 ? kHostAlign : rounded);
    if (!p) throw std::bad_alloc();
    return p;
  }
#ifdef MCB_SIMULATE
  void release(void* ptr) const override {
    shared_.erase(static_cast<const char*>(ptr));
    SMPI_SHARED_FREE(ptr);  // frees private pointers too
  }
#else
  void release(void* ptr) const override { std::free(ptr); }
#endif
  // Copies and fills inside shared buffers are skipped: their contents mean
  // nothing, and at 3584 ranks they were most of the wall time (tens of GB
  // of memmove per size into file-backed pages). The simulation build
  // charges their simulated time all the same (mcb/local_work.hpp).
  void copy(void* dst, const void* src, std::size_t bytes) const override {
    local_work::copy(bytes);
    if (bytes && !(shared(dst, bytes) && shared(src, bytes))) std::memcpy(dst, src, bytes);
  }
  void fill(void* dst, unsigned char byte, std::size_t bytes) const override {
    local_work::copy(bytes);
    if (bytes && !shared(dst, bytes)) std::memset(dst, byte, bytes);
  }
  std::size_t shared_min_ = 0;  // simulation build: share allocations of at least this many bytes (0: none)

 private:
  // Whether [p, p + bytes) lies in one shared allocation.
  bool shared(const void* p, std::size_t bytes) const {
    if (shared_.empty()) return false;
    const auto* c = static_cast<const char*>(p);
    auto it = shared_.upper_bound(c);
    if (it == shared_.begin()) return false;
    --it;
    return c + bytes <= it->first + it->second;
  }
  mutable std::map<const char*, std::size_t> shared_;  // simulation build: shared allocations and their sizes
};

HostMemory& host() {
  static HostMemory mem;
  return mem;
}

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

std::string to_string(Staging staging) { return staging == Staging::pinned ? "pinned" : "pageable"; }

Staging parse_staging(const std::string& name) {
  if (name == "pinned") return Staging::pinned;
  if (name == "pageable") return Staging::pageable;
  throw Error("--staging " + name + ": expected pinned or pageable");
}

const Memory& host_memory() { return host(); }

void share_host_buffers(std::size_t min_bytes) {
#ifndef MCB_SIMULATE
  if (min_bytes > 0) throw Error("--sim-shared-malloc: only the simulation build (-DMCB_SIMULATE=ON) shares buffers");
#endif
  host().shared_min_ = min_bytes;
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

std::vector<std::string> compiled_backends() {
  std::vector<std::string> kinds{"host"};
#if MCB_HAVE_CUDA
  kinds.push_back("cuda");
#endif
#if MCB_HAVE_HIP
  kinds.push_back("hip");
#endif
  return kinds;
}

Buffer::Buffer(const Memory& mem, std::size_t bytes)
    : ptr_(mem.allocate(bytes), [m = &mem](void* p) { m->release(p); }), bytes_(bytes) {}

std::string Memory::ipc_handle(void*) const {
  throw Error("--mem " + to_string(kind()) + ": no inter-process handles for this memory");
}
void* Memory::ipc_open(const std::string&) const {
  throw Error("--mem " + to_string(kind()) + ": no inter-process handles for this memory");
}
void Memory::ipc_close(void*) const {}

void Memory::reduce(void* const* dsts, int nd, const void* const* srcs, int k, int n, MPI_Datatype type,
                    MPI_Op op) const {
  reduce_many_to(dsts, nd, srcs, k, n, type, op);
}

void Memory::reduce_local(const void* in, void* inout, int n, MPI_Datatype type, MPI_Op op) const {
  const void* srcs[2] = {in, inout};
  void* dsts[1] = {inout};
  reduce(dsts, 1, srcs, 2, n, type, op);
}

Buffer Memory::staging_buffer(std::size_t bytes, Staging) const { return Buffer(host_memory(), bytes); }

Buffer shared_buffer(const Memory& mem, MPI_Comm group, std::size_t bytes) {
  int rank = 0, size = 0;
  MPI_Comm_rank(group, &rank);
  MPI_Comm_size(group, &size);
  if (size == 1) return Buffer(mem, bytes);
  if (mem.kind() == MemKind::host) {
    // Rank 0's segment of a shared window, page-aligned like host buffers.
    char* base = nullptr;
    MPI_Win win = MPI_WIN_NULL;
    const MPI_Aint mine = rank == 0 ? static_cast<MPI_Aint>(bytes + kHostAlign) : 0;
    if (MPI_Win_allocate_shared(mine, 1, MPI_INFO_NULL, group, &base, &win) != MPI_SUCCESS)
      throw Error("shared buffer: MPI_Win_allocate_shared of " + std::to_string(bytes) + " bytes failed");
    MPI_Aint got = 0;
    int unit = 0;
    MPI_Win_shared_query(win, 0, &got, &unit, &base);
    auto* aligned =
        reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(base) + kHostAlign - 1) / kHostAlign * kHostAlign);
    return Buffer(std::shared_ptr<void>(aligned,
                                        [win](void*) mutable {
                                          int finalized = 0;
                                          MPI_Finalized(&finalized);
                                          if (!finalized) MPI_Win_free(&win);
                                        }),
                  bytes);
  }
  void* ptr = nullptr;
  std::string handle;
  if (rank == 0) {
    ptr = mem.allocate(bytes);
    handle = mem.ipc_handle(ptr);
  }
  int len = static_cast<int>(handle.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, group);
  handle.resize(static_cast<std::size_t>(len));
  MPI_Bcast(handle.data(), len, MPI_BYTE, 0, group);
  if (rank != 0) ptr = mem.ipc_open(handle);
  return Buffer(std::shared_ptr<void>(ptr,
                                      [m = &mem, group, rank](void* p) {
                                        int finalized = 0;
                                        MPI_Finalized(&finalized);
                                        if (rank != 0) m->ipc_close(p);
                                        if (!finalized) MPI_Barrier(group);  // every mapping closed
                                        if (rank == 0) m->release(p);
                                      }),
                bytes);
}

}  // namespace mcb
