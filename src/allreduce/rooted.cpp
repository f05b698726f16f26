// The system's MPI_Reduce and MPI_Bcast, and the registries of mcb_reduce
// and mcb_bcast: the system's collective and the shared-memory tree.
#include <cstring>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "shm.hpp"

namespace mcb::allreduce {

Plan system_reduce(const CollArgs& args) {
  // In place, only the root passes MPI_IN_PLACE; the others' data is in
  // their receive buffers.
  const void* send = args.sendbuf == MPI_IN_PLACE && args.rank() != 0 ? args.recvbuf : args.sendbuf;
  Plan plan;
  plan.add("reduce", [a = args, send] { MPI_Reduce(send, a.recvbuf, a.count, a.type, a.op, 0, a.comm); });
  return plan;
}

Plan system_bcast(const CollArgs& args) {
  const bool copy = args.rank() == 0 && args.sendbuf != MPI_IN_PLACE;
  Plan plan;
  plan.add("bcast", [a = args, copy] {
    if (copy) a.memory().copy(a.recvbuf, a.sendbuf, a.block_bytes());
    MPI_Bcast(a.recvbuf, a.count, a.type, 0, a.comm);
  });
  return plan;
}

const std::vector<Algorithm>& reduce_algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v;
    v.push_back({"system", "the system MPI's MPI_Reduce to rank 0", {}, layout_free(system_reduce)});
    Algorithm tree{"shm_tree",
                   "shared-memory tree: reduce stages into local rank 0, leaders' MPI_Reduce across nodes",
                   {detail::tree_factors_param(), detail::interface_param(), detail::copy_param()},
                   shm_tree_reduce};
    tree.unsupported = detail::shm_unsupported;
    detail::needs_shared_memory(tree);
    v.push_back(tree);
    return v;
  }();
  return list;
}

const std::vector<Algorithm>& bcast_algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v;
    v.push_back({"system", "the system MPI's MPI_Bcast from rank 0", {}, layout_free(system_bcast)});
    Algorithm tree{"shm_tree",
                   "shared-memory bcast: rank 0 copies in, leaders' MPI_Bcast across nodes, every rank copies out",
                   {detail::interface_param(), detail::copy_param()},
                   shm_tree_bcast};
    tree.unsupported = detail::shm_unsupported;
    detail::needs_shared_memory(tree);
    v.push_back(tree);
    return v;
  }();
  return list;
}

}  // namespace mcb::allreduce
