// system: the system MPI's own MPI_Alltoall, the reference every other
// algorithm is validated and measured against. Its message and byte counts
// are whatever the MPI's selector picks.
#include "mcb/alltoall.hpp"

namespace mcb::alltoall {

Plan system(const CollArgs& args) {
  Plan plan;
  plan.add("alltoall", [a = args] { MPI_Alltoall(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm); });
  return plan;
}

}  // namespace mcb::alltoall
