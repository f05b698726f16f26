// Local work in simulated time (simulation build only; mcb/local_work.hpp
// says what is charged). The pending charge of a rank is spent before each
// of its MPI calls by the wrappers below: SMPI declares every MPI_ function
// weak, so these definitions take the calls of mcb's own code, charge, and
// go on through the profiling interface (PMPI_). Calls that move no data
// and wait for nothing (communicator queries, datatypes) are not wrapped:
// the next one that does charges what is pending.
#include "mcb/local_work.hpp"

#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/host.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace mcb::local_work {

namespace {

struct Meter {
  bool loaded = false;
  bool on = true;
  double copy_bw = 0, reduce_bw = 0, call = 0;  // bytes/s, bytes/s, seconds (0: not charged)
  double pending = 0;                           // seconds not yet charged
};

// How many ranks have a charge pending: the MPI wrappers look up their
// rank's meter only when one has (every MPI call goes through charge(), and
// on platforms without rates nothing is ever pending).
std::size_t pending_ranks = 0;

// One per simulated rank, indexed by its actor's pid: simulate.py runs
// without privatization (smpi/privatization:no), so every rank shares this
// process's globals.
Meter& meter() {
  static std::vector<Meter> meters;
  const auto pid = static_cast<std::size_t>(sg_actor_self_get_pid());
  if (pid >= meters.size()) meters.resize(pid + 1);
  return meters[pid];
}

double property(const char* name) {
  const char* value = sg_host_get_property_value(sg_host_self(), name);
  return value ? std::strtod(value, nullptr) : 0.0;
}

Meter& loaded() {
  Meter& m = meter();
  if (!m.loaded) {
    m.loaded = true;
    m.copy_bw = property("mcb/copy-bw");
    m.reduce_bw = property("mcb/reduce-bw");
    m.call = property("mcb/call-overhead");
  }
  return m;
}

void add(std::size_t bytes, double rate) {
  Meter& m = loaded();
  if (!m.on || rate <= 0 || bytes == 0) return;
  if (m.pending <= 0) ++pending_ranks;
  m.pending += m.call + static_cast<double>(bytes) / rate;
}

}  // namespace

void copy(std::size_t bytes) { add(bytes, loaded().copy_bw); }
void reduce(std::size_t bytes) { add(bytes, loaded().reduce_bw); }

void charge() {
  if (pending_ranks == 0) return;
  Meter& m = meter();
  if (m.pending <= 0) return;
  const double seconds = m.pending;
  m.pending = 0;
  --pending_ranks;
  smpi_execute_benched(seconds);
}

void enable(bool on) { meter().on = on; }

bool charged() {
  const Meter& m = loaded();
  return m.on && (m.copy_bw > 0 || m.reduce_bw > 0);
}

std::string describe() {
  const Meter& m = loaded();
  if (!m.on) return "not charged (--sim-local-work off)";
  if (m.copy_bw <= 0 && m.reduce_bw <= 0) return "not charged (the platform gives no per-core rates)";
  char text[200];
  std::snprintf(text, sizeof text, "charged per rank: copy %.3g GB/s, reduce %.3g GB/s, %.3g us per call",
                m.copy_bw / 1e9, m.reduce_bw / 1e9, m.call * 1e6);
  return text;
}

}  // namespace mcb::local_work

// The wrappers: charge, then the MPI call.
using mcb::local_work::charge;

extern "C" {

double MPI_Wtime() {
  charge();
  return PMPI_Wtime();
}
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm) {
  charge();
  return PMPI_Send(buf, count, type, dst, tag, comm);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Status* status) {
  charge();
  return PMPI_Recv(buf, count, type, src, tag, comm, status);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request* req) {
  charge();
  return PMPI_Isend(buf, count, type, dst, tag, comm, req);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* req) {
  charge();
  return PMPI_Irecv(buf, count, type, src, tag, comm, req);
}
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dst, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int src, int recvtag, MPI_Comm comm, MPI_Status* status) {
  charge();
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dst, sendtag, recvbuf, recvcount, recvtype, src, recvtag, comm,
                       status);
}
int MPI_Wait(MPI_Request* req, MPI_Status* status) {
  charge();
  return PMPI_Wait(req, status);
}
int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]) {
  charge();
  return PMPI_Waitall(count, reqs, statuses);
}
int MPI_Start(MPI_Request* req) {
  charge();
  return PMPI_Start(req);
}
int MPI_Startall(int count, MPI_Request* reqs) {
  charge();
  return PMPI_Startall(count, reqs);
}
int MPI_Barrier(MPI_Comm comm) {
  charge();
  return PMPI_Barrier(comm);
}
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  charge();
  return PMPI_Bcast(buf, count, type, root, comm);
}
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  charge();
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  charge();
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  charge();
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                   const int* displs, MPI_Datatype recvtype, MPI_Comm comm) {
  charge();
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  charge();
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  charge();
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  charge();
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}
int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  charge();
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
}
// Local work itself: a reduction of two operands of count elements.
int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype type, MPI_Op op) {
  int size = 0;
  PMPI_Type_size(type, &size);
  mcb::local_work::reduce(2 * static_cast<std::size_t>(count) * static_cast<std::size_t>(size));
  return PMPI_Reduce_local(inbuf, inoutbuf, count, type, op);
}

}  // extern "C"
