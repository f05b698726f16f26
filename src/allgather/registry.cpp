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
  X(sparbit)

#define MCB_DECLARE(name) MCB_DECLARE_ALGORITHM(name);
MCB_ALLGATHER_ALGORITHMS(MCB_DECLARE)
#undef MCB_DECLARE

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::allgather);
#define MCB_ADD(name) v.push_back(declare_##name());
    MCB_ALLGATHER_ALGORITHMS(MCB_ADD)
#undef MCB_ADD
    return v;
  }();
  return list;
}

}  // namespace mcb::allgather
