// The allreduce algorithms that mcb_allreduce offers, in --list order.
#include "mcb/allreduce.hpp"

namespace mcb::allreduce {

// One line per algorithm, in --list order after the system's
// (mcb/system.hpp): each file declares its own entry in
// MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#define MCB_ALLREDUCE_ALGORITHMS(X) \
  X(recursive_doubling)             \
  X(rabenseifner)                   \
  X(ring)                           \
  X(lane)                           \
  X(ppg_standard)                   \
  X(ppg_lane)                       \
  X(shm_recursive_exchange)         \
  X(shm_cyclic_shift)               \
  X(shm_tree)

#define MCB_DECLARE(name) MCB_DECLARE_ALGORITHM(name);
MCB_ALLREDUCE_ALGORITHMS(MCB_DECLARE)
#undef MCB_DECLARE

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::allreduce);
#define MCB_ADD(name) v.push_back(declare_##name());
    MCB_ALLREDUCE_ALGORITHMS(MCB_ADD)
#undef MCB_ADD
    return v;
  }();
  return list;
}

}  // namespace mcb::allreduce
