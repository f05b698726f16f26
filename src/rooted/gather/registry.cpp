// The gather algorithms that mcb_gather and mcb_gatherv offer, in --list
// order after the system's (mcb/system.hpp); each file declares its own
// entry in MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#include "mcb/gather.hpp"

namespace mcb::gather {

#define MCB_GATHER_ALGORITHMS(X) \
  X(linear)                      \
  X(binomial)                    \
  X(shm_linear)

MCB_ALGORITHM_REGISTRY(gather, MCB_GATHER_ALGORITHMS)
MCB_ALGORITHM_REGISTRY_AS(v_algorithms, gatherv, MCB_GATHER_ALGORITHMS)

}  // namespace mcb::gather
