// The allgather algorithms that mcb_allgather offers, in --list order: the
// system's (mcb/system.hpp), then one line per algorithm, each file
// declaring its own entry in MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#include "mcb/allgather.hpp"

namespace mcb::allgather {

#define MCB_ALLGATHER_ALGORITHMS(X) \
  X(ring)                           \
  X(neighbor_exchange)              \
  X(recursive_doubling)             \
  X(bruck)                          \
  X(sparbit)                        \
  X(shm_recursive_exchange)

MCB_ALGORITHM_REGISTRY_CHARGED(allgather, MCB_ALLGATHER_ALGORITHMS, mpich_system)
// mcb_allgatherv: the same algorithms on every rank's own count.
MCB_ALGORITHM_REGISTRY_AS(v_algorithms, allgatherv, MCB_ALLGATHER_ALGORITHMS)

}  // namespace mcb::allgather
