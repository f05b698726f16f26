// A PMPI interposer for the tests: between MPI_Pcontrol(1) and
// MPI_Pcontrol(0) it counts the point-to-point messages and bytes this rank
// sends, per destination rank of MPI_COMM_WORLD. Linked into a test
// executable, its MPI_Send, MPI_Isend, MPI_Sendrecv, ... replace the MPI
// library's (the profiling interface, MPI-4.0 chapter 15).
#include "count_messages.hpp"

#include <mpi.h>

#include <cstdarg>
#include <vector>

namespace {

bool counting = false;
std::vector<long> messages, bytes;

void record(int dest, int count, MPI_Datatype type, MPI_Comm comm) {
  if (!counting || dest == MPI_PROC_NULL) return;
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int world_dest = MPI_UNDEFINED;
  PMPI_Group_translate_ranks(group, 1, &dest, world, &world_dest);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  int size = 0;
  PMPI_Type_size(type, &size);
  if (world_dest == MPI_UNDEFINED) return;
  if (messages.empty()) {
    int n = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &n);
    messages.assign(static_cast<std::size_t>(n), 0);
    bytes.assign(static_cast<std::size_t>(n), 0);
  }
  ++messages[static_cast<std::size_t>(world_dest)];
  bytes[static_cast<std::size_t>(world_dest)] += static_cast<long>(count) * size;
}

}  // namespace

namespace mcb::test {

void reset_counts() {
  messages.assign(messages.size(), 0);
  bytes.assign(bytes.size(), 0);
}
void count_execution(const mcb::Plan& plan, MPI_Comm comm) {
  reset_counts();
  MPI_Barrier(comm);
  MPI_Pcontrol(1);
  plan.execute();
  MPI_Pcontrol(0);
}

long messages_to(int world_rank) { return messages.empty() ? 0 : messages[static_cast<std::size_t>(world_rank)]; }
long bytes_to(int world_rank) { return bytes.empty() ? 0 : bytes[static_cast<std::size_t>(world_rank)]; }

}  // namespace mcb::test

extern "C" {

int MPI_Pcontrol(const int level, ...) {
  counting = level != 0;
  return MPI_SUCCESS;
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  record(dest, count, type, comm);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  record(dest, count, type, comm);
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  record(dest, count, type, comm);
  return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  record(dest, count, type, comm);
  return PMPI_Issend(buf, count, type, dest, tag, comm, req);
}

int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf, int rcount,
                 MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  record(dest, scount, stype, comm);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
}

}  // extern "C"
