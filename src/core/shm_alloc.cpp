// Registered host buffers (see mcb/shm_alloc.hpp): one POSIX shared-memory
// object per process and allocation, mapped by every process of the node.
#include "mcb/shm_alloc.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "mcb/error.hpp"

namespace mcb {

namespace {

struct Allocation {
  std::uint64_t id = 0;
  std::uint32_t member = 0;          // mine
  std::size_t length = 0;            // my memory's mapped bytes (whole pages)
  std::vector<pid_t> sorted;         // the members' process ids, sorted
  std::vector<char*> bases;          // per member, its memory in my address space
  std::vector<std::size_t> lengths;  // per member, its mapped bytes (members may ask for different sizes)
};

struct Registry {
  std::mutex lock;
  std::map<const char*, std::shared_ptr<Allocation>> by_base;  // my own memory
  std::map<std::uint64_t, std::shared_ptr<Allocation>> by_id;
  std::uint32_t serial = 0;
  std::atomic<std::uint64_t> changes{0};
};

Registry& registry() {
  static Registry r;
  return r;
}

std::string object_name(long pid, long serial) { return "/mcb." + std::to_string(pid) + "." + std::to_string(serial); }

void unmap_all(const std::vector<char*>& bases, const std::vector<std::size_t>& lengths) {
  for (std::size_t q = 0; q < bases.size(); ++q)
    if (bases[q]) munmap(bases[q], lengths[q]);
}

}  // namespace

Buffer shm_allocate(MPI_Comm comm, std::size_t bytes) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int me = 0, size = 0;
  MPI_Comm_rank(node, &me);
  MPI_Comm_size(node, &size);
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t length = std::max<std::size_t>(1, (bytes + page - 1) / page) * page;
  std::uint32_t serial = 0;
  {
    std::lock_guard<std::mutex> g(registry().lock);
    serial = registry().serial++;
  }
  std::optional<std::string> err;
  const std::string mine_name = object_name(getpid(), serial);
  auto failed = [&](const std::string& what, const std::string& name) {
    if (!err)
      err = "shm_allocate: " + what + " " + name + " (" + std::to_string(length) + " B): " + std::strerror(errno);
  };
  std::vector<char*> bases(static_cast<std::size_t>(size), nullptr);
  const int fd = shm_open(mine_name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    failed("shm_open", mine_name);
  } else if (ftruncate(fd, static_cast<off_t>(length)) != 0) {
    failed("ftruncate", mine_name);
  } else {
    void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
      failed("mmap", mine_name);
    else
      bases[static_cast<std::size_t>(me)] = static_cast<char*>(p);
  }
  // Every member's process id, serial, success and length (members may
  // ask for different sizes: an allgatherv's blocks).
  long long info[4] = {static_cast<long long>(getpid()), static_cast<long long>(serial), err ? 0 : 1,
                       static_cast<long long>(length)};
  std::vector<long long> all(4 * static_cast<std::size_t>(size));
  MPI_Allgather(info, 4, MPI_LONG_LONG, all.data(), 4, MPI_LONG_LONG, node);
  std::vector<std::size_t> lengths(static_cast<std::size_t>(size));
  bool everyone = true;
  for (int q = 0; q < size; ++q) {
    everyone = everyone && all[4 * static_cast<std::size_t>(q) + 2] == 1;
    lengths[static_cast<std::size_t>(q)] = static_cast<std::size_t>(all[4 * static_cast<std::size_t>(q) + 3]);
  }
  for (int q = 0; q < size && everyone && !err; ++q) {
    if (q == me) continue;
    const std::string name = object_name(static_cast<long>(all[4 * q]), static_cast<long>(all[4 * q + 1]));
    const int peer = shm_open(name.c_str(), O_RDWR, 0);
    if (peer < 0) {
      failed("shm_open (a peer's)", name);
      break;
    }
    void* p = mmap(nullptr, lengths[static_cast<std::size_t>(q)], PROT_READ | PROT_WRITE, MAP_SHARED, peer, 0);
    close(peer);
    if (p == MAP_FAILED) {
      failed("mmap (a peer's)", name);
      break;
    }
    bases[static_cast<std::size_t>(q)] = static_cast<char*>(p);
  }
  MPI_Barrier(node);  // every member has opened every object: the names can go
  if (fd >= 0) {
    shm_unlink(mine_name.c_str());
    close(fd);
  }
  auto alloc = std::make_shared<Allocation>();
  alloc->id = (static_cast<std::uint64_t>(all[0]) << 32) | static_cast<std::uint64_t>(all[1]);
  alloc->member = static_cast<std::uint32_t>(me);
  alloc->length = length;
  alloc->lengths = lengths;
  for (int q = 0; q < size; ++q) alloc->sorted.push_back(static_cast<pid_t>(all[4 * static_cast<std::size_t>(q)]));
  std::sort(alloc->sorted.begin(), alloc->sorted.end());
  alloc->bases = bases;
  MPI_Comm_free(&node);
  try {
    agree(comm, err);
  } catch (const Error&) {
    unmap_all(bases, lengths);
    throw;
  }
  char* base = bases[static_cast<std::size_t>(me)];
  {
    std::lock_guard<std::mutex> g(registry().lock);
    registry().by_base[base] = alloc;
    registry().by_id[alloc->id] = alloc;
    ++registry().changes;
  }
  return Buffer(std::shared_ptr<void>(base,
                                      [alloc](void* p) {
                                        {
                                          std::lock_guard<std::mutex> g(registry().lock);
                                          registry().by_base.erase(static_cast<const char*>(p));
                                          registry().by_id.erase(alloc->id);
                                          ++registry().changes;
                                        }
                                        unmap_all(alloc->bases, alloc->lengths);
                                      }),
                bytes);
}

std::optional<ShmLocation> shm_lookup(const void* p, std::size_t bytes, const std::vector<pid_t>& reach) {
  std::lock_guard<std::mutex> g(registry().lock);
  const auto& map = registry().by_base;
  const auto* c = static_cast<const char*>(p);
  auto it = map.upper_bound(c);
  if (it == map.begin()) return std::nullopt;
  --it;
  const Allocation& a = *it->second;
  if (c + bytes > it->first + a.length) return std::nullopt;
  if (!std::includes(a.sorted.begin(), a.sorted.end(), reach.begin(), reach.end())) return std::nullopt;
  return ShmLocation{a.id, a.member, static_cast<std::uint64_t>(c - it->first)};
}

char* shm_translate(const ShmLocation& at) {
  std::lock_guard<std::mutex> g(registry().lock);
  auto it = registry().by_id.find(at.id);
  if (it == registry().by_id.end() || at.member >= it->second->bases.size()) return nullptr;
  return it->second->bases[at.member] + at.offset;
}

std::uint64_t shm_registry_changes() { return registry().changes.load(std::memory_order_relaxed); }

std::size_t shm_allocations() {
  std::lock_guard<std::mutex> g(registry().lock);
  return registry().by_base.size();
}

}  // namespace mcb
