// The scatter algorithms that mcb_scatter and mcb_scatterv offer, in --list
// order after the system's (mcb/system.hpp); each file declares its own
// entry in MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#include "mcb/scatter.hpp"

namespace mcb::scatter {

#define MCB_SCATTER_ALGORITHMS(X) \
  X(linear)                       \
  X(binomial)                     \
  X(shm_linear)

MCB_ALGORITHM_REGISTRY(scatter, MCB_SCATTER_ALGORITHMS)
MCB_ALGORITHM_REGISTRY_AS(v_algorithms, scatterv, MCB_SCATTER_ALGORITHMS)

}  // namespace mcb::scatter
