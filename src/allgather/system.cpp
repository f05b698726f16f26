// system: the system MPI's own MPI_Allgather, the reference every other
// allgather algorithm is validated and measured against. Its message and
// byte counts are whatever the MPI's selector picks.
#include "mcb/allgather.hpp"

namespace mcb::allgather {

Plan system(const CollArgs& args) {
  Plan plan;
  plan.add("allgather", [a = args] { MPI_Allgather(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm); });
  return plan;
}

}  // namespace mcb::allgather
