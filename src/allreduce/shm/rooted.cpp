// The registries of mcb_reduce and mcb_bcast: the system's collective
// (mcb/system.hpp) and the shared-memory tree.
#include <cstring>

#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "shm.hpp"
#include "small_path.hpp"

namespace mcb::allreduce {

const std::vector<Algorithm>& reduce_algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::reduce);
    v.push_back(detail::shared_memory_algorithm(
        {"shm_tree",
         "shared-memory tree: reduce stages into local rank 0, leaders' MPI_Reduce across nodes",
         {detail::tree_factors_param(), detail::interface_param(), detail::copy_param(),
          detail::small_param(detail::SmallKind::reduce)},
         shm_tree_reduce}));
    return v;
  }();
  return list;
}

const std::vector<Algorithm>& bcast_algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::bcast);
    v.push_back(detail::shared_memory_algorithm(
        {"shm_tree",
         "shared-memory bcast: rank 0 copies in, leaders' MPI_Bcast across nodes, every rank copies out",
         {detail::interface_param(), detail::copy_param(), detail::small_param(detail::SmallKind::bcast)},
         shm_tree_bcast}));
    return v;
  }();
  return list;
}

}  // namespace mcb::allreduce
