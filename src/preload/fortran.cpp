// The preload's Fortran entry points: the ones that, on the MPI the library
// is built against, do not reach its C functions (preload.cpp), so that a
// Fortran program's MPI_INIT, MPI_FINALIZE and collectives are served like a
// C program's (docs/preload.md, Fortran). Which entry points bypass the C
// functions is the MPI's (nm -D of its Fortran libraries):
//
//   Open MPI 4.1, 5.0  libmpi_mpifh's mpi_allreduce_ (mpif.h, use mpi; and
//                      its manglings mpi_allreduce, mpi_allreduce__,
//                      MPI_ALLREDUCE) are aliases of ompi_allreduce_f, which
//                      use mpi_f08's mpi_allreduce_f08_ calls too; all of
//                      them call PMPI_Allreduce. Wrapped here: ompi_X_f and
//                      the four manglings, for init, init_thread, finalize
//                      and every collective the C side serves. Fortran's MPI_IN_PLACE
//                      and MPI_BOTTOM are the addresses of the common blocks
//                      mpi_fortran_in_place_ & co.
//   MPICH 4.0, 4.2     mpif.h, use mpi and use mpi_f08's collectives call the
//                      C MPI_Allreduce & co. after converting handles and
//                      MPI_IN_PLACE: already intercepted. use mpi_f08's
//                      mpi_init_f08_, mpi_init_thread_f08_, mpi_finalize_f08_
//                      call PMPI_*: wrapped here.
//
// A wrapper converts the handles (MPI_*_f2c) and buffers, then serve()s the
// call; a call the C path refuses goes, with the caller's own arguments, to
// the MPI's own Fortran entry point (the next definition after this
// library's, dlsym(RTLD_NEXT)), inside the re-entrancy guard: an MPI whose
// Fortran code calls the C function is not served or counted twice. ierror
// is MPI_SUCCESS for a served call and what the MPI sets otherwise.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "entry.hpp"
#include "serve.hpp"

namespace mcb::preload {

namespace {

// The MPI's own definition of `name`: the next one after this library's.
template <class F>
F mpi_own(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr, "mcb_preload: error: the MPI's own Fortran entry point %s is not loaded\n", name);
    std::fflush(stderr);
    std::abort();
  }
  return reinterpret_cast<F>(f);
}

// After the MPI's own init: the preload starts when MPI is up.
void start_if_initialized() {
  int initialized = 0;
  if (PMPI_Initialized(&initialized) == MPI_SUCCESS && initialized) start();
}

}  // namespace

}  // namespace mcb::preload

using namespace mcb::preload;

// Four names, one function: gfortran's mangling (lower case, one trailing
// underscore), and the other three an MPI exports for other compilers.
#define MCB_FORTRAN_NAMES(impl, lower, upper, params)  \
  void lower params __attribute__((alias(#impl)));     \
  void lower##_ params __attribute__((alias(#impl)));  \
  void lower##__ params __attribute__((alias(#impl))); \
  void upper params __attribute__((alias(#impl)));

#if defined(OPEN_MPI)

namespace mcb::preload {
namespace {

// Fortran's MPI_IN_PLACE and MPI_BOTTOM: a common block, one symbol per
// mangling; the program passes the address of the one its compiler names.
struct FortranConstants {
  const void* in_place[4] = {};
  const void* bottom[4] = {};
};

const FortranConstants& constants() {
  static const FortranConstants c = [] {
    FortranConstants k;
    const char* in_place[4] = {"mpi_fortran_in_place", "mpi_fortran_in_place_", "mpi_fortran_in_place__",
                               "MPI_FORTRAN_IN_PLACE"};
    const char* bottom[4] = {"mpi_fortran_bottom", "mpi_fortran_bottom_", "mpi_fortran_bottom__", "MPI_FORTRAN_BOTTOM"};
    for (int i = 0; i < 4; ++i) {
      k.in_place[i] = dlsym(RTLD_DEFAULT, in_place[i]);
      k.bottom[i] = dlsym(RTLD_DEFAULT, bottom[i]);
    }
    return k;
  }();
  return c;
}

// A Fortran buffer argument as the C functions take it.
void* c_buffer(char* f) {
  const FortranConstants& k = constants();
  for (const void* p : k.in_place)
    if (p && f == p) return MPI_IN_PLACE;
  for (const void* p : k.bottom)
    if (p && f == p) return MPI_BOTTOM;
  return f;
}

// Handles: Open MPI's f2c gives a null pointer (not MPI_COMM_NULL) for a
// Fortran index out of range; the call then goes to the MPI's own Fortran
// entry point as invalid, which reports the error as it would without us.
MPI_Comm c_comm(const MPI_Fint* f) {
  MPI_Comm c = PMPI_Comm_f2c(*f);
  return c ? c : MPI_COMM_NULL;
}
MPI_Datatype c_type(const MPI_Fint* f) {
  MPI_Datatype c = PMPI_Type_f2c(*f);
  return c ? c : MPI_DATATYPE_NULL;
}
MPI_Op c_op(const MPI_Fint* f) {
  MPI_Op c = PMPI_Op_f2c(*f);
  return c ? c : MPI_OP_NULL;
}

using InitF = void (*)(MPI_Fint*);
using InitThreadF = void (*)(MPI_Fint*, MPI_Fint*, MPI_Fint*);
using BlocksF = void (*)(char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
using AllreduceF = void (*)(char*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
using BcastF = void (*)(char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
using ReduceF = void (*)(char*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
using RootedF = void (*)(char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
using AllgathervF = void (*)(char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
using GathervF = void (*)(char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                          MPI_Fint*);
using ScattervF = void (*)(char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                           MPI_Fint*);
// Fortran's INTEGER arrays (counts, displacements) are the C ints the calls take.
static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not a C int");
const int* c_ints(const MPI_Fint* f) { return reinterpret_cast<const int*>(f); }

// A Fortran call's arguments as the C path takes them (Call, serve.hpp):
// handles converted, Fortran's MPI_IN_PLACE and MPI_BOTTOM made the C ones.
// A null pointer is an argument the collective does not have.
struct FortranArgs {
  char* send = nullptr;
  const MPI_Fint* scount = nullptr;
  const MPI_Fint* stype = nullptr;
  char* recv = nullptr;
  const MPI_Fint* rcount = nullptr;
  const MPI_Fint* rtype = nullptr;
  const MPI_Fint* op = nullptr;
  const MPI_Fint* comm = nullptr;
  const MPI_Fint* root = nullptr;
  const MPI_Fint* counts = nullptr;
  const MPI_Fint* displs = nullptr;
};

Call c_call(Coll coll, const FortranArgs& f) {
  Call q;
  q.coll = coll;
  q.send = f.send ? c_buffer(f.send) : nullptr;
  q.scount = f.scount ? *f.scount : 0;
  q.stype = f.stype ? c_type(f.stype) : MPI_DATATYPE_NULL;
  q.recv = f.recv ? c_buffer(f.recv) : nullptr;
  q.rcount = f.rcount ? *f.rcount : 0;
  q.rtype = f.rtype ? c_type(f.rtype) : MPI_DATATYPE_NULL;
  q.op = f.op ? c_op(f.op) : MPI_OP_NULL;
  q.comm = c_comm(f.comm);
  q.fortran = true;
  q.root = f.root ? *f.root : 0;
  q.counts = c_ints(f.counts);
  q.displs = c_ints(f.displs);
  return q;
}

// One Fortran collective: the MPI's own at once when not intercepted, else
// the C path on the converted call (made only then) with the MPI's own
// Fortran entry point as the fallback. own(ierr) calls the MPI's with the
// caller's arguments; ierror is set either way.
template <class MakeCall, class Own>
void collective(Coll coll, MakeCall make_call, Own own, MPI_Fint* ierr) {
  MPI_Fint rc = MPI_SUCCESS;
  if (const Config* cfg = active(coll)) {
    rc = serve(*cfg, make_call(), [&](const Call&) {
      MPI_Fint own_rc = MPI_SUCCESS;
      own(&own_rc);
      return static_cast<int>(own_rc);
    });
  } else {
    own(&rc);
  }
  if (ierr) *ierr = rc;
}

// Gather and scatter: the same arguments.
void rooted_blocks(Coll coll, RootedF own, char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                   MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  collective(
      coll,
      [&] {
        return c_call(coll, {.send = sendbuf,
                             .scount = sendcount,
                             .stype = sendtype,
                             .recv = recvbuf,
                             .rcount = recvcount,
                             .rtype = recvtype,
                             .comm = comm,
                             .root = root});
      },
      [&](MPI_Fint* rc) { own(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, rc); }, ierr);
}

// Alltoall and allgather: the same arguments.
void blocks(Coll coll, BlocksF own, char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
            MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr) {
  collective(
      coll,
      [&] {
        return Call{coll,       c_buffer(sendbuf), *sendcount,  c_type(sendtype), c_buffer(recvbuf),
                    *recvcount, c_type(recvtype),  MPI_OP_NULL, c_comm(comm),     true};
      },
      [&](MPI_Fint* rc) { own(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, rc); }, ierr);
}

}  // namespace
}  // namespace mcb::preload

extern "C" {

void ompi_init_f(MPI_Fint* ierr) {
  static const auto own = mpi_own<InitF>("ompi_init_f");
  own(ierr);
  start_if_initialized();
}

void ompi_init_thread_f(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  static const auto own = mpi_own<InitThreadF>("ompi_init_thread_f");
  own(required, provided, ierr);
  start_if_initialized();
}

void ompi_finalize_f(MPI_Fint* ierr) {
  static const auto own = mpi_own<InitF>("ompi_finalize_f");
  finish();
  own(ierr);
}

void ompi_alltoall_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                     MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<BlocksF>("ompi_alltoall_f");
  blocks(Coll::alltoall, own, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
}

void ompi_allgather_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                      MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<BlocksF>("ompi_allgather_f");
  blocks(Coll::allgather, own, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
}

void ompi_allreduce_f(char* sendbuf, char* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op, MPI_Fint* comm,
                      MPI_Fint* ierr) {
  static const auto own = mpi_own<AllreduceF>("ompi_allreduce_f");
  collective(
      Coll::allreduce,
      [&] {
        return Call{
            Coll::allreduce, c_buffer(sendbuf), *count, c_type(datatype), c_buffer(recvbuf), 0, MPI_DATATYPE_NULL,
            c_op(op),        c_comm(comm),      true};
      },
      [&](MPI_Fint* rc) { own(sendbuf, recvbuf, count, datatype, op, comm, rc); }, ierr);
}

void ompi_bcast_f(char* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<BcastF>("ompi_bcast_f");
  collective(
      Coll::bcast,
      [&] {
        return Call{Coll::bcast, MPI_IN_PLACE,     0,           MPI_DATATYPE_NULL, c_buffer(buffer),
                    *count,      c_type(datatype), MPI_OP_NULL, c_comm(comm),      true,
                    *root};
      },
      [&](MPI_Fint* rc) { own(buffer, count, datatype, root, comm, rc); }, ierr);
}

void ompi_reduce_f(char* sendbuf, char* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op, MPI_Fint* root,
                   MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<ReduceF>("ompi_reduce_f");
  collective(
      Coll::reduce,
      [&] {
        return c_call(Coll::reduce, {.send = sendbuf,
                                     .scount = count,
                                     .stype = datatype,
                                     .recv = recvbuf,
                                     .op = op,
                                     .comm = comm,
                                     .root = root});
      },
      [&](MPI_Fint* rc) { own(sendbuf, recvbuf, count, datatype, op, root, comm, rc); }, ierr);
}

void ompi_reduce_scatter_block_f(char* sendbuf, char* recvbuf, MPI_Fint* recvcount, MPI_Fint* datatype, MPI_Fint* op,
                                 MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<AllreduceF>("ompi_reduce_scatter_block_f");
  collective(
      Coll::reduce_scatter_block,
      [&] {
        return c_call(
            Coll::reduce_scatter_block,
            {.send = sendbuf, .scount = recvcount, .stype = datatype, .recv = recvbuf, .op = op, .comm = comm});
      },
      [&](MPI_Fint* rc) { own(sendbuf, recvbuf, recvcount, datatype, op, comm, rc); }, ierr);
}

void ompi_reduce_scatter_f(char* sendbuf, char* recvbuf, MPI_Fint* recvcounts, MPI_Fint* datatype, MPI_Fint* op,
                           MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<AllreduceF>("ompi_reduce_scatter_f");
  collective(
      Coll::reduce_scatter,
      [&] {
        return c_call(
            Coll::reduce_scatter,
            {.send = sendbuf, .stype = datatype, .recv = recvbuf, .op = op, .comm = comm, .counts = recvcounts});
      },
      [&](MPI_Fint* rc) { own(sendbuf, recvbuf, recvcounts, datatype, op, comm, rc); }, ierr);
}

void ompi_allgatherv_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcounts,
                       MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<AllgathervF>("ompi_allgatherv_f");
  collective(
      Coll::allgatherv,
      [&] {
        return c_call(Coll::allgatherv, {.send = sendbuf,
                                         .scount = sendcount,
                                         .stype = sendtype,
                                         .recv = recvbuf,
                                         .rtype = recvtype,
                                         .comm = comm,
                                         .counts = recvcounts,
                                         .displs = displs});
      },
      [&](MPI_Fint* rc) { own(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, rc); }, ierr);
}

void ompi_gather_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                   MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<RootedF>("ompi_gather_f");
  rooted_blocks(Coll::gather, own, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierr);
}

void ompi_scatter_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcount,
                    MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<RootedF>("ompi_scatter_f");
  rooted_blocks(Coll::scatter, own, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierr);
}

void ompi_gatherv_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf, MPI_Fint* recvcounts,
                    MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<GathervF>("ompi_gatherv_f");
  collective(
      Coll::gatherv,
      [&] {
        return c_call(Coll::gatherv, {.send = sendbuf,
                                      .scount = sendcount,
                                      .stype = sendtype,
                                      .recv = recvbuf,
                                      .rtype = recvtype,
                                      .comm = comm,
                                      .root = root,
                                      .counts = recvcounts,
                                      .displs = displs});
      },
      [&](MPI_Fint* rc) { own(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, rc); },
      ierr);
}

void ompi_scatterv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* displs, MPI_Fint* sendtype, char* recvbuf,
                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  static const auto own = mpi_own<ScattervF>("ompi_scatterv_f");
  collective(
      Coll::scatterv,
      [&] {
        return c_call(Coll::scatterv, {.send = sendbuf,
                                       .stype = sendtype,
                                       .recv = recvbuf,
                                       .rcount = recvcount,
                                       .rtype = recvtype,
                                       .comm = comm,
                                       .root = root,
                                       .counts = sendcounts,
                                       .displs = displs});
      },
      [&](MPI_Fint* rc) { own(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, rc); },
      ierr);
}

MCB_FORTRAN_NAMES(ompi_init_f, mpi_init, MPI_INIT, (MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_init_thread_f, mpi_init_thread, MPI_INIT_THREAD, (MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_finalize_f, mpi_finalize, MPI_FINALIZE, (MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_alltoall_f, mpi_alltoall, MPI_ALLTOALL,
                  (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_allgather_f, mpi_allgather, MPI_ALLGATHER,
                  (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_allreduce_f, mpi_allreduce, MPI_ALLREDUCE,
                  (char*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_bcast_f, mpi_bcast, MPI_BCAST, (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_reduce_f, mpi_reduce, MPI_REDUCE,
                  (char*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_reduce_scatter_block_f, mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK,
                  (char*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_reduce_scatter_f, mpi_reduce_scatter, MPI_REDUCE_SCATTER,
                  (char*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_allgatherv_f, mpi_allgatherv, MPI_ALLGATHERV,
                  (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_gather_f, mpi_gather, MPI_GATHER,
                  (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_scatter_f, mpi_scatter, MPI_SCATTER,
                  (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_gatherv_f, mpi_gatherv, MPI_GATHERV,
                  (char*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                   MPI_Fint*))
MCB_FORTRAN_NAMES(ompi_scatterv_f, mpi_scatterv, MPI_SCATTERV,
                  (char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, char*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                   MPI_Fint*))

}  // extern "C"

#elif defined(MPICH)

namespace mcb::preload {
namespace {
using InitF = void (*)(MPI_Fint*);
using InitThreadF = void (*)(MPI_Fint*, MPI_Fint*, MPI_Fint*);
}  // namespace
}  // namespace mcb::preload

extern "C" {

// use mpi_f08's MPI_Init & co. (ierror optional: a null pointer when absent).
void mpi_init_f08_(MPI_Fint* ierror) {
  static const auto own = mpi_own<InitF>("mpi_init_f08_");
  own(ierror);
  start_if_initialized();
}

void mpi_init_thread_f08_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {
  static const auto own = mpi_own<InitThreadF>("mpi_init_thread_f08_");
  own(required, provided, ierror);
  start_if_initialized();
}

void mpi_finalize_f08_(MPI_Fint* ierror) {
  static const auto own = mpi_own<InitF>("mpi_finalize_f08_");
  finish();
  own(ierror);
}

}  // extern "C"

#endif
