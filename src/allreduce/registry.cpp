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

MCB_ALGORITHM_REGISTRY(allreduce, MCB_ALLREDUCE_ALGORITHMS)

}  // namespace mcb::allreduce
