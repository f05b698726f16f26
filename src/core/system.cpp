// system and system_persistent of every collective (mcb/system.hpp): the
// system MPI's own MPI_Alltoall, MPI_Allgather, MPI_Allreduce, MPI_Reduce,
// MPI_Bcast, MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Allgatherv,
// MPI_Gather(v) and MPI_Scatter(v), and the persistent MPI_*_init (MPI-4,
// and Open MPI 5, which has them while its MPI_VERSION still says 3) or
// MPIX_*_init (Open MPI 4.1's pcollreq extension) of every one.
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
      return {"reduce", "Reduce", true};
    case Collective::bcast:
      return {"bcast", "Bcast", true};
    case Collective::reduce_scatter_block:
      return {"reduce_scatter_block", "Reduce_scatter_block", true};
    case Collective::reduce_scatter:
      return {"reduce_scatter", "Reduce_scatter", true};
    case Collective::allgatherv:
      return {"allgatherv", "Allgatherv", true};
    case Collective::gather:
      return {"gather", "Gather", true};
    case Collective::gatherv:
      return {"gatherv", "Gatherv", true};
    case Collective::scatter:
      return {"scatter", "Scatter", true};
    case Collective::scatterv:
      return {"scatterv", "Scatterv", true};
  }
  throw Error("system: unknown collective");
}

bool rooted(Collective c) {
  return c == Collective::reduce || c == Collective::bcast || c == Collective::gather || c == Collective::gatherv ||
         c == Collective::scatter || c == Collective::scatterv;
}

// The buffers a rooted call passes, as mcb places the data in place
// (mcb/system.hpp, blocking()); out of place, the call's own.
struct Rooted {
  const void* send;
  void* recv;
};
Rooted rooted_buffers(Collective c, const CollArgs& a) {
  if (a.sendbuf != MPI_IN_PLACE) return {a.sendbuf, a.recvbuf};
  const bool root = a.rank() == 0;
  char* recv = static_cast<char*>(a.recvbuf);
  switch (c) {
    case Collective::gather:
    case Collective::gatherv:
      return {root ? MPI_IN_PLACE : recv + a.displ_of(a.rank()) * a.type_bytes(), recv};
    case Collective::scatter:
    case Collective::scatterv:
      return {recv, root ? MPI_IN_PLACE : recv};
    default:
      return {a.sendbuf, a.recvbuf};
  }
}

// Every rank's counts and displacements of a v-form.
const int* counts(const CollArgs& a) {
  if (!a.v) throw Error("system: a v-form needs every rank's counts");
  return a.v->counts.data();
}
const int* displs(const CollArgs& a) {
  if (!a.v) throw Error("system: a v-form needs every rank's counts");
  return a.v->displs.data();
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
    case Collective::reduce_scatter_block:
      plan.add("reduce_scatter_block",
               [a = args] { MPI_Reduce_scatter_block(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm); });
      break;
    case Collective::reduce_scatter:
      plan.add("reduce_scatter",
               [a = args, n = counts(args)] { MPI_Reduce_scatter(a.sendbuf, a.recvbuf, n, a.type, a.op, a.comm); });
      break;
    case Collective::allgatherv:
      plan.add("allgatherv", [a = args, n = counts(args), d = displs(args)] {
        MPI_Allgatherv(a.sendbuf, a.count, a.type, a.recvbuf, n, d, a.type, a.comm);
      });
      break;
    case Collective::gather:
      plan.add("gather", [a = args, b = rooted_buffers(c, args)] {
        MPI_Gather(b.send, a.count, a.type, b.recv, a.count, a.type, 0, a.comm);
      });
      break;
    case Collective::gatherv:
      plan.add("gatherv", [a = args, b = rooted_buffers(c, args), n = counts(args), d = displs(args)] {
        MPI_Gatherv(b.send, a.count, a.type, b.recv, n, d, a.type, 0, a.comm);
      });
      break;
    case Collective::scatter:
      plan.add("scatter", [a = args, b = rooted_buffers(c, args)] {
        MPI_Scatter(b.send, a.count, a.type, b.recv, a.count, a.type, 0, a.comm);
      });
      break;
    case Collective::scatterv:
      plan.add("scatterv", [a = args, b = rooted_buffers(c, args), n = counts(args), d = displs(args)] {
        MPI_Scatterv(b.send, n, d, a.type, b.recv, a.count, a.type, 0, a.comm);
      });
      break;
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
  if (c == Collective::bcast) {  // as blocking(): the root first copies its send buffer into the one it sends
    Plan plan;
    if (args.rank() == 0 && args.sendbuf != MPI_IN_PLACE)
      plan.add("bcast", [a = args] { a.memory().copy(a.recvbuf, a.sendbuf, a.block_bytes()); });
    plan.append(persistent_request_plan("bcast",
                                        [&args](MPI_Request* r) {
                                          MCB_INIT(Bcast)
                                          (args.recvbuf, args.count, args.type, 0, args.comm, MPI_INFO_NULL, r);
                                        }),
                "bcast");
    return plan;
  }
  // The counts live in `args.v`, which the plan keeps alive (MPI may read
  // them at every start).
  return persistent_request_plan(
      names(c).lower,
      [c, &args](MPI_Request* r) {
        const auto& a = args;
        const Rooted b = rooted_buffers(c, a);
        const MPI_Info info = MPI_INFO_NULL;
        switch (c) {
          case Collective::alltoall:
            MCB_INIT(Alltoall)(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm, info, r);
            break;
          case Collective::allgather:
            MCB_INIT(Allgather)(a.sendbuf, a.count, a.type, a.recvbuf, a.count, a.type, a.comm, info, r);
            break;
          case Collective::reduce:  // in place, as blocking(): only the root passes MPI_IN_PLACE
            MCB_INIT(Reduce)
            (a.sendbuf == MPI_IN_PLACE && a.rank() != 0 ? a.recvbuf : a.sendbuf, a.recvbuf, a.count, a.type, a.op, 0,
             a.comm, info, r);
            break;
          case Collective::reduce_scatter_block:
            MCB_INIT(Reduce_scatter_block)(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm, info, r);
            break;
          case Collective::reduce_scatter:
            MCB_INIT(Reduce_scatter)(a.sendbuf, a.recvbuf, counts(a), a.type, a.op, a.comm, info, r);
            break;
          case Collective::allgatherv:
            MCB_INIT(Allgatherv)(a.sendbuf, a.count, a.type, a.recvbuf, counts(a), displs(a), a.type, a.comm, info, r);
            break;
          case Collective::gather:
            MCB_INIT(Gather)(b.send, a.count, a.type, b.recv, a.count, a.type, 0, a.comm, info, r);
            break;
          case Collective::gatherv:
            MCB_INIT(Gatherv)(b.send, a.count, a.type, b.recv, counts(a), displs(a), a.type, 0, a.comm, info, r);
            break;
          case Collective::scatter:
            MCB_INIT(Scatter)(b.send, a.count, a.type, b.recv, a.count, a.type, 0, a.comm, info, r);
            break;
          case Collective::scatterv:
            MCB_INIT(Scatterv)(b.send, counts(a), displs(a), a.type, b.recv, a.count, a.type, 0, a.comm, info, r);
            break;
          default:
            MCB_INIT(Allreduce)(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm, info, r);
        }
      },
      args.v);
#else
  (void)args;
  throw Error("system_persistent: " + no_init(c));
#endif
}

std::vector<Algorithm> algorithms(Collective c, PlanFactory charged) {
  const Names n = names(c);
  const std::string what = !rooted(c) ? ""
                           : c == Collective::bcast || c == Collective::scatter || c == Collective::scatterv
                               ? " from rank 0"
                               : " to rank 0";
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
