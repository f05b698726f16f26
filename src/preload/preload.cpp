// libmcb_preload.so: runs an unmodified MPI application's MPI_Alltoall,
// MPI_Allgather(v), MPI_Allreduce, MPI_Bcast, MPI_Reduce,
// MPI_Reduce_scatter(_block), MPI_Gather(v) and MPI_Scatter(v) on the mcb
// algorithms that MCB_ALLTOALL, MCB_ALLGATHER(V), ... name
// (docs/preload.md), through the MPI
// profiling interface: these functions replace the MPI's and call PMPI_*
// for the MPI's own. This file holds the C entry points and what every
// entry point shares (entry.hpp):
//   MPI_Init, MPI_Init_thread  read and check the environment; a bad value
//                              is one line from rank 0 and exit status 2 on
//                              every rank (after PMPI_Finalize: no hang)
//   MPI_Alltoall, ...          a variable unset, or a call made from inside
//                              the preload (guard.hpp): PMPI at once; else
//                              serve() (serve.cpp)
//   MPI_Finalize               the report (MCB_PRELOAD_REPORT), then frees
//                              the caches before PMPI_Finalize
//   mcb_preload_counts         the report's counters so far (a soak test's
//                              progress lines)
// The Fortran entry points that do not reach these C functions on the MPI
// the library is built against are in fortran.cpp.
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "cache.hpp"
#include "checks.hpp"
#include "config.hpp"
#include "entry.hpp"
#include "guard.hpp"
#include "mcb/allreduce.hpp"
#include "report.hpp"
#include "serve.hpp"

namespace mcb::preload {

std::atomic<const Config*> g_config{nullptr};

namespace {

std::atomic<bool> g_finalized{false};
int g_world_rank = 0, g_world_size = 1;
std::once_flag g_once;

}  // namespace

void start() {
  std::call_once(g_once, [] {
    Busy busy;
    auto* cfg = new Config(read_config());
    PMPI_Comm_rank(MPI_COMM_WORLD, &g_world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &g_world_size);
    if (!cfg->error.empty()) {
      if (g_world_rank == 0) {
        std::fprintf(stderr, "mcb_preload: error: %s\n", cfg->error.c_str());
        std::fflush(stderr);
      }
      PMPI_Finalize();
      std::exit(2);
    }
    init_comm_cache();
    init_type_cache();
    // The shared-memory allreduces' engines (and shared segments) bounded
    // like the call shapes.
    mcb::allreduce::set_blocking_cache_limit(static_cast<std::size_t>(cfg->shapes));
    g_config.store(cfg, std::memory_order_release);
  });
}

int world_rank() { return g_world_rank; }

const Config* active_slow(Coll c) {
  int initialized = 0;
  if (g_finalized.load() || PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized) return nullptr;
  start();
  const Config* cfg = g_config.load(std::memory_order_acquire);
  return cfg && (*cfg)[c].enabled ? cfg : nullptr;
}

void finish() {
  if (const Config* cfg = g_config.exchange(nullptr)) {
    Busy busy;
    g_finalized = true;
    if (cfg->report != Config::Report::off && g_world_rank == 0) write_report(*cfg, g_world_size);
    free_comm_caches();
    free_type_cache();
  }
  g_finalized = true;
}

}  // namespace mcb::preload

using namespace mcb::preload;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) start();
  return rc;
}

int MPI_Finalize(void) {
  finish();
  return PMPI_Finalize();
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  const Config* cfg = active(Coll::alltoall);
  if (!cfg) return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return serve(
      *cfg, {Coll::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, comm},
      [](const Call& q) { return PMPI_Alltoall(q.send, q.scount, q.stype, q.recv, q.rcount, q.rtype, q.comm); });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const Config* cfg = active(Coll::allgather);
  if (!cfg) return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return serve(
      *cfg, {Coll::allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, comm},
      [](const Call& q) { return PMPI_Allgather(q.send, q.scount, q.stype, q.recv, q.rcount, q.rtype, q.comm); });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const Config* cfg = active(Coll::allreduce);
  if (!cfg) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return serve(*cfg, {Coll::allreduce, sendbuf, count, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, comm},
               [](const Call& q) { return PMPI_Allreduce(q.send, q.recv, q.scount, q.stype, q.op, q.comm); });
}
int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const Config* cfg = active(Coll::bcast);
  if (!cfg) return PMPI_Bcast(buffer, count, datatype, root, comm);
  return serve(
      *cfg, {Coll::bcast, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, count, datatype, MPI_OP_NULL, comm, false, root},
      [](const Call& q) { return PMPI_Bcast(q.recv, q.rcount, q.rtype, q.root, q.comm); });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  const Config* cfg = active(Coll::reduce);
  if (!cfg) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  return serve(*cfg, {Coll::reduce, sendbuf, count, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, comm, false, root},
               [](const Call& q) { return PMPI_Reduce(q.send, q.recv, q.scount, q.stype, q.op, q.root, q.comm); });
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  const Config* cfg = active(Coll::reduce_scatter_block);
  if (!cfg) return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  return serve(
      *cfg, {Coll::reduce_scatter_block, sendbuf, recvcount, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, comm},
      [](const Call& q) { return PMPI_Reduce_scatter_block(q.send, q.recv, q.scount, q.stype, q.op, q.comm); });
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  const Config* cfg = active(Coll::reduce_scatter);
  if (!cfg) return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  return serve(
      *cfg, {Coll::reduce_scatter, sendbuf, 0, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, comm, false, 0, recvcounts},
      [](const Call& q) { return PMPI_Reduce_scatter(q.send, q.recv, q.counts, q.stype, q.op, q.comm); });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const Config* cfg = active(Coll::allgatherv);
  if (!cfg) return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  return serve(*cfg,
               {Coll::allgatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, MPI_OP_NULL, comm, false, 0,
                recvcounts, displs},
               [](const Call& q) {
                 return PMPI_Allgatherv(q.send, q.scount, q.stype, q.recv, q.counts, q.displs, q.rtype, q.comm);
               });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const Config* cfg = active(Coll::gather);
  if (!cfg) return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return serve(
      *cfg, {Coll::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, comm, false, root},
      [](const Call& q) { return PMPI_Gather(q.send, q.scount, q.stype, q.recv, q.rcount, q.rtype, q.root, q.comm); });
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const Config* cfg = active(Coll::gatherv);
  if (!cfg) return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  return serve(*cfg,
               {Coll::gatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, MPI_OP_NULL, comm, false, root,
                recvcounts, displs},
               [](const Call& q) {
                 return PMPI_Gatherv(q.send, q.scount, q.stype, q.recv, q.counts, q.displs, q.rtype, q.root, q.comm);
               });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const Config* cfg = active(Coll::scatter);
  if (!cfg) return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return serve(
      *cfg, {Coll::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, comm, false, root},
      [](const Call& q) { return PMPI_Scatter(q.send, q.scount, q.stype, q.recv, q.rcount, q.rtype, q.root, q.comm); });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const Config* cfg = active(Coll::scatterv);
  if (!cfg) return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return serve(*cfg,
               {Coll::scatterv, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, comm, false, root,
                sendcounts, displs},
               [](const Call& q) {
                 return PMPI_Scatterv(q.send, q.counts, q.displs, q.stype, q.recv, q.rcount, q.rtype, q.root, q.comm);
               });
}

/// This process's calls, served and fallen back over the four collectives
/// so far, as the report counts them (for a long-running test to follow;
/// found with dlsym, not declared in a header): -1 each when the report is
/// off (MCB_PRELOAD_REPORT unset: nothing is counted) or before MPI_Init.
void mcb_preload_counts(long* calls, long* served, long* fallback) {
  *calls = *served = *fallback = -1;
  const Config* cfg = g_config.load(std::memory_order_acquire);
  if (!cfg || cfg->report == Config::Report::off) return;
  *calls = *served = *fallback = 0;
  for (Coll c : kAllColls) {
    const CollStats s = stats().get(c);
    *calls += s.calls;
    *served += s.served;
    *fallback += s.fallback;
  }
}

}  // extern "C"
