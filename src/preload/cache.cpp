// The per-communicator caches of the preload (see cache.hpp): an attribute
// on the application's communicator, a registry of the live ones so that
// MPI_Finalize can free those the application never freed, and the two
// bounded most-recently-used lists (shapes, plans).
#include "cache.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "guard.hpp"

namespace mcb::preload {

namespace {

int comm_keyval = MPI_KEYVAL_INVALID;
std::atomic<long> layout_counter{0};
std::atomic<std::uint64_t> generation{1};

void changed() { generation.fetch_add(1, std::memory_order_relaxed); }

// The caches attached now; guarded by the mutex (threads may free
// communicators concurrently under MPI_THREAD_MULTIPLE).
std::mutex& registry_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}
std::vector<CommCache*>& registry() {
  static auto* r = new std::vector<CommCache*>;
  return *r;
}

// Called by MPI when the communicator is freed (or its attribute deleted):
// the layout's communicators, the plans and their persistent requests and
// shared windows go with it. Collective like MPI_Comm_free itself.
int delete_comm_cache(MPI_Comm, int, void* value, void*) {
  Busy busy;
  auto* cache = static_cast<CommCache*>(value);
  changed();
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto& r = registry();
    r.erase(std::remove(r.begin(), r.end(), cache), r.end());
  }
  for (auto& list : cache->shapes) list.clear();  // plans before the layout whose communicators they use
  cache->layout.reset();
  for (auto& r : cache->rotated) MPI_Comm_free(&r.second);  // their caches go with them (this callback)
  delete cache;
  return MPI_SUCCESS;
}

}  // namespace

void init_comm_cache() {
  if (comm_keyval == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_comm_cache, &comm_keyval, nullptr);
}

long next_layout_order() { return ++layout_counter; }

CommCache& comm_cache(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, comm_keyval, &value, &found);
  if (found) return *static_cast<CommCache*>(value);
  auto* cache = new CommCache;
  cache->comm = comm;
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  cache->inter = inter != 0;
  if (!cache->inter) {
    MPI_Comm_size(comm, &cache->size);
    MPI_Comm_rank(comm, &cache->rank);
  }
  MPI_Comm_set_attr(comm, comm_keyval, cache);
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(cache);
  return *cache;
}

MPI_Comm rotated_comm(CommCache& cache, int root) {
  for (const auto& r : cache.rotated)
    if (r.first == root) return r.second;
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_split(cache.comm, 0, (cache.rank - root + cache.size) % cache.size, &c);
  cache.rotated.emplace_back(root, c);
  return c;
}

void free_comm_caches() {
  if (comm_keyval == MPI_KEYVAL_INVALID) return;
  // Freeing a layout is collective over its communicator (and a shared
  // window's free synchronizes): every rank goes in the order the layouts
  // were made, newest first, which the ranks of a communicator share. One
  // at a time from the registry: freeing a cache frees its rotated
  // communicators' caches too.
  for (;;) {
    CommCache* next = nullptr;
    {
      std::lock_guard<std::mutex> lock(registry_mutex());
      for (CommCache* c : registry())
        if (!next || c->layout_order > next->layout_order) next = c;
    }
    if (!next) break;
    MPI_Comm_delete_attr(next->comm, comm_keyval);
  }
  MPI_Comm_free_keyval(&comm_keyval);
}

namespace {

// The two most-recently-used lists (shapes, plans), front = most recent.

// The first element matching `hit`, moved to the front; or nullptr.
template <class T, class Pred>
T* move_to_front(std::vector<T>& v, Pred hit) {
  auto it = std::find_if(v.begin(), v.end(), hit);
  if (it == v.end()) return nullptr;
  if (it == v.begin()) return &v.front();
  changed();
  std::rotate(v.begin(), it, it + 1);
  return &v.front();
}

// `item` in front; drops from the back beyond `limit`, returns how many.
template <class T>
int push_front_bounded(std::vector<T>& v, T item, int limit) {
  changed();
  v.insert(v.begin(), std::move(item));
  const int dropped = std::max(0, static_cast<int>(v.size()) - limit);
  v.resize(v.size() - static_cast<std::size_t>(dropped));
  return dropped;
}

}  // namespace

Shape* find_shape(CommCache& cache, const ShapeKey& key) {
  auto* found = move_to_front(cache.shapes[index(key.coll)], [&](const auto& s) { return s->key == key; });
  return found ? found->get() : nullptr;
}

int insert_shape(CommCache& cache, std::unique_ptr<Shape> shape, int limit) {
  auto& v = cache.shapes[index(shape->key.coll)];
  return push_front_bounded(v, std::move(shape), limit);
}

PlanEntry* find_plan(Shape& shape, const void* send, const void* recv) {
  return move_to_front(shape.plans, [&](const PlanEntry& e) { return e.send == send && e.recv == recv; });
}

int insert_plan(Shape& shape, PlanEntry entry, int limit) {
  return push_front_bounded(shape.plans, std::move(entry), limit);
}

void clear_plans(Shape& shape) {
  changed();
  shape.plans.clear();
}

std::uint64_t cache_generation() { return generation.load(std::memory_order_relaxed); }

}  // namespace mcb::preload
