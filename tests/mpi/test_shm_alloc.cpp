// Registered buffers through the library API (issue 21): mcb::shm_allocate
// on every rank, each rank's memory seen by its node's peers through
// shm_lookup and shm_translate; then one blocking shm_recursive_exchange
// and shm_tree each over calls whose buffers change (registered, plain,
// registered on even ranks only, registered again), every call validated
// against MPI_Allreduce with the send buffer unchanged, and the path the
// plan reports checked (registered exactly when every buffer is), and the
// setup counted in the shape's first call only; shapes of half and four
// times the count keep one segment per communicator; a persistent plan on
// registered buffers reports registered. Freed
// allocations leave the registry empty. Argument: ranks per node (0: the
// shared-memory nodes). Exits non-zero on any mismatch.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mcb/allreduce.hpp"
#include "mcb/layout.hpp"
#include "mcb/shm_alloc.hpp"

namespace {

int errors = 0;
int world = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "rank %d: %s\n", world, what.c_str());
  ++errors;
}

std::string param(const mcb::Plan& plan, const std::string& name) {
  for (const auto& [n, v] : plan.params())
    if (n == name) return v;
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  mcb::LayoutOptions options;
  options.ranks_per_node = argc > 1 ? std::atoi(argv[1]) : 0;
  {
    mcb::Layout layout = mcb::Layout::create(MPI_COMM_WORLD, options);
    MPI_Comm comm = layout.comm();
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_size = 0;
    MPI_Comm_size(node, &node_size);
    std::vector<pid_t> pids(static_cast<std::size_t>(node_size));
    const pid_t me = getpid();
    MPI_Allgather(&me, sizeof me, MPI_BYTE, pids.data(), sizeof me, MPI_BYTE, node);
    std::sort(pids.begin(), pids.end());

    // Every peer of the node reads my bytes where I wrote them.
    {
      mcb::Buffer mine = mcb::shm_allocate(comm, 4096);
      if (mcb::shm_allocations() != 1) fail("one allocation, registry says " + std::to_string(mcb::shm_allocations()));
      std::memset(mine.data(), world % 251, 4096);
      auto at = mcb::shm_lookup(static_cast<char*>(mine.data()) + 100, 50, pids);
      if (!at || at->offset != 100 || mcb::shm_translate(*at) != static_cast<char*>(mine.data()) + 100)
        fail("shm_lookup/shm_translate of my own buffer");
      if (mcb::shm_lookup(static_cast<char*>(mine.data()) + 4000, 4096, pids))
        fail("shm_lookup accepted a range past the allocation");
      std::vector<char> heap(64);
      if (mcb::shm_lookup(heap.data(), heap.size(), pids)) fail("shm_lookup accepted a heap buffer");
      mcb::ShmLocation loc = at ? *at : mcb::ShmLocation{};
      std::vector<mcb::ShmLocation> all(static_cast<std::size_t>(node_size));
      MPI_Allgather(&loc, sizeof loc, MPI_BYTE, all.data(), sizeof loc, MPI_BYTE, node);
      std::vector<int> ranks(static_cast<std::size_t>(node_size));
      MPI_Allgather(&world, 1, MPI_INT, ranks.data(), 1, MPI_INT, node);
      MPI_Barrier(node);
      for (int q = 0; q < node_size; ++q) {
        const char* peer = mcb::shm_translate(all[static_cast<std::size_t>(q)]);
        if (!peer || peer[0] != static_cast<char>(ranks[static_cast<std::size_t>(q)] % 251))
          fail("peer " + std::to_string(q) + "'s registered buffer not readable in place");
      }
      MPI_Barrier(node);
    }
    if (mcb::shm_allocations() != 0) fail("freed allocation still registered");

    // Blocking plans over buffers that change from call to call.
    const int count = 10000;
    const std::size_t bytes = count * sizeof(float);
    mcb::Buffer rs = mcb::shm_allocate(comm, bytes), rr = mcb::shm_allocate(comm, bytes);
    std::vector<float> ps(count), pr(count), ref(count);
    struct Case {
      const char* name;
      void* send;
      void* recv;
      bool registered;
    };
    const bool even = world % 2 == 0;
    int size = 0;
    MPI_Comm_size(comm, &size);
    const bool everyone = size == 1;  // one rank: the mixed case is all registered
    const Case cases[] = {
        {"registered", rs.data(), rr.data(), true},
        {"plain", ps.data(), pr.data(), false},
        {"even ranks registered", even ? rs.data() : ps.data(), even ? rr.data() : pr.data(), everyone},
        {"registered again", rs.data(), rr.data(), true}};
    for (const char* algorithm : {"shm_recursive_exchange", "shm_tree"}) {
      const auto& list = mcb::allreduce::algorithms();
      const auto& a =
          *std::find_if(list.begin(), list.end(), [&](const mcb::Algorithm& x) { return x.name == algorithm; });
      mcb::Params params;
      params.set("interface", "blocking");
      bool first = true;
      for (const Case& c : cases) {
        auto* send = static_cast<float*>(c.send);
        for (int i = 0; i < count; ++i) send[i] = static_cast<float>((world * 7 + i) % 13);
        std::vector<float> pristine(send, send + count);
        std::fill_n(static_cast<float*>(c.recv), count, -1.0f);
        mcb::CollArgs args{c.send, c.recv, count, MPI_FLOAT, comm, MPI_SUM};
        mcb::Plan plan = a.make(args, layout, params);
        if (param(plan, "copy") != "per call") fail(std::string(algorithm) + ": blocking plan decided before a call");
        // The shape's setup happens in its first call on the communicator,
        // and the plan's report counts it: the first case's plan only.
        plan.execute();
        const double setup = plan.report()->setup();
        plan.execute();
        if (first != (setup > 0) || plan.report()->setup() != setup)
          fail(std::string(algorithm) + ", " + c.name + ": setup counted " + std::to_string(setup) + " s" +
               (first ? " in the shape's first call" : " in a call of a shape set up before"));
        first = false;
        MPI_Allreduce(pristine.data(), ref.data(), count, MPI_FLOAT, MPI_SUM, comm);
        if (!std::equal(ref.begin(), ref.end(), static_cast<float*>(c.recv)))
          fail(std::string(algorithm) + ", " + c.name + ": wrong sum");
        if (!std::equal(pristine.begin(), pristine.end(), send))
          fail(std::string(algorithm) + ", " + c.name + ": send buffer modified");
        const std::string path = param(plan, "copy");
        if ((path == "registered") != c.registered) fail(std::string(algorithm) + ", " + c.name + ": path " + path);
      }
      // Other shapes share the communicator's segment: a smaller vector
      // fits it, a larger one replaces it (twice the size), never one more.
      const long held = mcb::allreduce::shm_segments_held();
      for (int n : {count / 2, 4 * count}) {
        std::vector<float> in(static_cast<std::size_t>(n), 1.0f), out(static_cast<std::size_t>(n), 0.0f);
        mcb::CollArgs args{in.data(), out.data(), n, MPI_FLOAT, comm, MPI_SUM};
        mcb::Plan plan = a.make(args, layout, params);
        plan.execute();
        if (std::any_of(out.begin(), out.end(), [&](float x) { return x != static_cast<float>(size); }))
          fail(std::string(algorithm) + ": wrong sum of " + std::to_string(n) + " ones");
        if (mcb::allreduce::shm_segments_held() != held)
          fail(std::string(algorithm) + ": " + std::to_string(mcb::allreduce::shm_segments_held()) +
               " shared segments after a shape of " + std::to_string(n) + " elements, " + std::to_string(held) +
               " before");
      }
      mcb::Params persistent;
      mcb::CollArgs args{rs.data(), rr.data(), count, MPI_FLOAT, comm, MPI_SUM};
      mcb::Plan plan = a.make(args, layout, persistent);
      plan.execute();
      if (size > 1 && param(plan, "copy") != "registered")
        fail(std::string(algorithm) + ": persistent plan on registered buffers took " + param(plan, "copy"));
    }
    MPI_Comm_free(&node);
  }
  int any = 0;
  MPI_Allreduce(&errors, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (world == 0) std::printf("test_shm_alloc: %s\n", any ? "FAILED" : "ok");
  MPI_Finalize();
  return any ? 1 : 0;
}
