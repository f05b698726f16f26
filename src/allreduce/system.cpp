// system: the system MPI's own MPI_Allreduce, the reference every other
// allreduce algorithm is validated and measured against. Its message and
// byte counts are whatever the MPI's selector picks.
#include "mcb/allreduce.hpp"

namespace mcb::allreduce {

Plan system(const CollArgs& args) {
  Plan plan;
  plan.add("allreduce", [a = args] { MPI_Allreduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm); });
  return plan;
}

}  // namespace mcb::allreduce
