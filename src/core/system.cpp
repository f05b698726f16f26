// system and system_persistent of every collective (mcb/system.hpp): the
// system MPI's own MPI_Alltoall, MPI_Allgather, MPI_Allreduce, MPI_Reduce,
// MPI_Bcast, and the persistent MPI_*_init (MPI-4, and Open MPI 5, which
// has them while its MPI_VERSION still says 3) or MPIX_*_init (Open MPI
// 4.1's pcollreq extension) of the first three.
#include "mcb/system.hpp"

#include <string>

#include "mcb/error.hpp"
#include "mcb/local_work.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define MCB_HAVE_INIT 1
#define MCB_INIT(name) MPI_##name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MCB_HAVE_INIT 1
#define MCB_INIT(name) MPIX_##name##_init
#else
#define MCB_HAVE_INIT 0
#endif

namespace mcb::system_mpi {

namespace {

struct Names {
  const char* lower;  // the phase and the collective's name: "alltoall"
  const char* mpi;    // "Alltoall"
  bool persistent;    // the registry offers system_persistent
};

Names names(Collective c) {
  switch (c) {
    case Collective::alltoall:
      return {"alltoall", "Alltoall", true};
    case Collective::allgather:
      return {"allgather", "Allgather", true};
    case Collective::allreduce:
      return {"allreduce", "Allreduce", true};
    case Collective::reduce:
      return {"reduce", "Reduce", false};
    case Collective::bcast:
      return {"bcast", "Bcast", false};
  }
  throw Error("system: unknown collective");
}

std::string no_init(Collective c) {
  const std::string mpi = names(c).mpi;
  return "this MPI has neither MPI_" + mpi + "_init nor MPIX_" + mpi + "_init";
}

}  // namespace

Plan blocking(Collective c, const CollArgs& args) {
  Plan plan;
  switch (c) {
    case Collective::alltoall:
      plan.add("alltoall",
               [a = args] { MPI_Alltoall(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm); });
      break;
    case Collective::allgather:
      plan.add("allgather",
               [a = args] { MPI_Allgather(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm); });
      break;
    case Collective::allreduce:
      plan.add("allreduce", [a = args] { MPI_Allreduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm); });
      break;
    case Collective::reduce: {
      // In place, only the root passes MPI_IN_PLACE; the others' data is in
      // their receive buffers.
      const void* send = args.sendbuf == MPI_IN_PLACE && args.rank() != 0 ? args.recvbuf : args.sendbuf;
      plan.add("reduce", [a = args, send] { MPI_Reduce(send, a.recvbuf, a.count, a.type, a.op, 0, a.comm); });
      break;
    }
    case Collective::bcast: {
      const bool copy = args.rank() == 0 && args.sendbuf != MPI_IN_PLACE;
      plan.add("bcast", [a = args, copy] {
        if (copy) a.memory().copy(a.recvbuf, a.sendbuf, a.block_bytes());
        MPI_Bcast(a.recvbuf, a.count, a.type, 0, a.comm);
      });
      break;
    }
  }
  return plan;
}

Plan charged_plan(Collective c, const Plan& inner, const std::string& rule) {
  Plan plan;
  plan.append(inner, names(c).lower);
  plan.add_note("system: MPICH's selection as SMPI makes it (" + rule +
                "), run by mcb's implementations, paying their local work");
  return plan;
}

bool have_persistent(Collective c) { return MCB_HAVE_INIT && names(c).persistent; }

Plan persistent(Collective c, const CollArgs& args) {
  if (!have_persistent(c)) throw Error("system_persistent: " + no_init(c));
#if MCB_HAVE_INIT
  return persistent_request_plan(names(c).lower, [c, &args](MPI_Request* r) {
    const auto& a = args;
    switch (c) {
      case Collective::alltoall:
        MCB_INIT(Alltoall)(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm, MPI_INFO_NULL, r);
        break;
      case Collective::allgather:
        MCB_INIT(Allgather)(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm, MPI_INFO_NULL, r);
        break;
      default:
        MCB_INIT(Allreduce)(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, r);
    }
  });
#else
  (void)args;
  throw Error("system_persistent: " + no_init(c));
#endif
}

std::vector<Algorithm> algorithms(Collective c, PlanFactory charged) {
  const Names n = names(c);
  const std::string what = c == Collective::reduce ? " to rank 0" : c == Collective::bcast ? " from rank 0" : "";
  std::vector<Algorithm> v;
  v.push_back({"system",
               "the system MPI's MPI_" + std::string(n.mpi) + what,
               {},
               [c, charged](const CollArgs& a, const Layout& layout, const Params& params) {
                 if (charged && local_work::charged()) return charged(a, layout, params);
                 return blocking(c, a);
               }});
  if (!n.persistent) return v;
  Algorithm p{"system_persistent",
              "the system MPI's persistent " + std::string(n.lower) + " (MPI_" + n.mpi + "_init)",
              {},
              [c](const CollArgs& a, const Layout&, const Params&) { return persistent(c, a); }};
  if (!have_persistent(c)) {
    p.available = false;
    p.unavailable_why = no_init(c);
  }
  v.push_back(std::move(p));
  return v;
}

}  // namespace mcb::system_mpi
