// The reduce-scatter algorithms that mcb_reduce_scatter_block and
// mcb_reduce_scatter offer, in --list order after the system's
// (mcb/system.hpp); each file declares its own entry in
// MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#include "mcb/reduce_scatter.hpp"

namespace mcb::reduce_scatter {

#define MCB_REDUCE_SCATTER_ALGORITHMS(X) \
  X(ring)                                \
  X(recursive_halving)                   \
  X(pairwise)                            \
  X(shm_recursive_exchange)

MCB_ALGORITHM_REGISTRY(reduce_scatter, MCB_REDUCE_SCATTER_ALGORITHMS)
MCB_ALGORITHM_REGISTRY_AS(block_algorithms, reduce_scatter_block, MCB_REDUCE_SCATTER_ALGORITHMS)

}  // namespace mcb::reduce_scatter
