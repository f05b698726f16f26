// Datatype and reduction checks of the preload (see checks.hpp). A type is
// taken as contiguous only when it provably is: a predefined type whose
// size equals its extent (MPI_DOUBLE_INT is not), or a chain of
// MPI_Type_contiguous / MPI_Type_dup over one, with lower bound 0 and
// extent = true extent = size. Anything else (vectors, structs, resized
// types, even dense ones) is packed, which is always right.
#include "checks.hpp"

#include <initializer_list>

namespace mcb::preload {

namespace {

int type_keyval = MPI_KEYVAL_INVALID;

int delete_type_info(MPI_Datatype, int, void* value, void*) {
  delete static_cast<TypeInfo*>(value);
  return MPI_SUCCESS;
}

bool is_named(MPI_Datatype type) {
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

// Whether elements of `type` are dense bytes from offset 0, by structure.
bool dense(MPI_Datatype type, int depth = 0) {
  int ni = 0, na = 0, nd = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
  MPI_Type_size(type, &size);
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  if (lb != 0 || true_lb != 0 || extent != size || true_extent != size) return false;
  if (combiner == MPI_COMBINER_NAMED) return true;
  if ((combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) || nd != 1 || ni > 1 || na != 0 ||
      depth > 64)
    return false;
  int ints[1] = {0};
  MPI_Aint addrs[1] = {0};
  MPI_Datatype old = MPI_DATATYPE_NULL;
  MPI_Type_get_contents(type, ni, na, nd, ints, addrs, &old);
  const bool ok = dense(old, depth + 1);
  if (!is_named(old)) MPI_Type_free(&old);
  return ok;
}

TypeInfo compute(MPI_Datatype type, bool named) {
  TypeInfo info;
  int size = 0;
  MPI_Type_size(type, &size);
  info.size = size;
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  info.extent = extent;
  info.named = named;
  info.contiguous = size > 0 && dense(type);
  return info;
}

bool one_of(MPI_Datatype t, std::initializer_list<MPI_Datatype> list) {
  for (MPI_Datatype x : list)
    if (x != MPI_DATATYPE_NULL && t == x) return true;
  return false;
}

bool c_integer(MPI_Datatype t) {
  return one_of(t, {MPI_INT,
                    MPI_LONG,
                    MPI_SHORT,
                    MPI_UNSIGNED_SHORT,
                    MPI_UNSIGNED,
                    MPI_UNSIGNED_LONG,
                    MPI_LONG_LONG_INT,
                    MPI_LONG_LONG,
                    MPI_UNSIGNED_LONG_LONG,
                    MPI_SIGNED_CHAR,
                    MPI_UNSIGNED_CHAR,
                    MPI_INT8_T,
                    MPI_INT16_T,
                    MPI_INT32_T,
                    MPI_INT64_T,
                    MPI_UINT8_T,
                    MPI_UINT16_T,
                    MPI_UINT32_T,
                    MPI_UINT64_T,
                    MPI_AINT,
                    MPI_OFFSET,
                    MPI_COUNT});
}
// Fortran's types, default and sized (CP2K reduces INTEGER8 and REAL8 as
// well as INTEGER and DOUBLE PRECISION). A size the MPI does not support is
// either not defined (Open MPI; an Open MPI 5 built without Fortran, as
// scripts/mpi/build-mpi.sh builds it, defines none of the sized ones) or
// MPI_DATATYPE_NULL (MPICH; one_of skips it).
#ifndef MPI_INTEGER1
#define MPI_INTEGER1 MPI_DATATYPE_NULL
#endif
#ifndef MPI_INTEGER2
#define MPI_INTEGER2 MPI_DATATYPE_NULL
#endif
#ifndef MPI_INTEGER4
#define MPI_INTEGER4 MPI_DATATYPE_NULL
#endif
#ifndef MPI_INTEGER8
#define MPI_INTEGER8 MPI_DATATYPE_NULL
#endif
#ifndef MPI_INTEGER16
#define MPI_INTEGER16 MPI_DATATYPE_NULL
#endif
#ifndef MPI_REAL4
#define MPI_REAL4 MPI_DATATYPE_NULL
#endif
#ifndef MPI_REAL8
#define MPI_REAL8 MPI_DATATYPE_NULL
#endif
#ifndef MPI_REAL16
#define MPI_REAL16 MPI_DATATYPE_NULL
#endif
#ifndef MPI_COMPLEX8
#define MPI_COMPLEX8 MPI_DATATYPE_NULL
#endif
#ifndef MPI_COMPLEX16
#define MPI_COMPLEX16 MPI_DATATYPE_NULL
#endif
#ifndef MPI_COMPLEX32
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
#endif
bool fortran_integer(MPI_Datatype t) {
  return one_of(t, {MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16});
}
bool floating(MPI_Datatype t) {
  return one_of(
      t, {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_REAL4, MPI_REAL8, MPI_REAL16});
}
bool logical(MPI_Datatype t) { return one_of(t, {MPI_C_BOOL, MPI_LOGICAL}); }
bool complex_type(MPI_Datatype t) {
  return one_of(t, {MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX,
                    MPI_DOUBLE_COMPLEX, MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32});
}
bool pair(MPI_Datatype t) {
  return one_of(t, {MPI_2INT, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
                    MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER});
}

}  // namespace

void init_type_cache() {
  if (type_keyval == MPI_KEYVAL_INVALID)
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_type_info, &type_keyval, nullptr);
}

void free_type_cache() {
  if (type_keyval != MPI_KEYVAL_INVALID) MPI_Type_free_keyval(&type_keyval);
}

TypeInfo type_info(MPI_Datatype type) {
  // The last few predefined types' answers, per thread: a predefined
  // handle is never freed, so it means the same type all run long (its
  // envelope, size and extents cost five MPI calls a call otherwise).
  struct Named {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    TypeInfo info;
  };
  // initial-exec, as guard.hpp: no __tls_get_addr call per read (1.3% of a
  // served 8 B allreduce's samples before).
  static thread_local Named named[4] __attribute__((tls_model("initial-exec")));
  static thread_local unsigned next __attribute__((tls_model("initial-exec"))) = 0;
  for (const Named& n : named)
    if (n.type == type && type != MPI_DATATYPE_NULL) return n.info;
  if (is_named(type)) {
    const TypeInfo info = compute(type, true);
    named[next++ % 4] = {type, info};
    return info;
  }
  void* value = nullptr;
  int found = 0;
  if (type_keyval != MPI_KEYVAL_INVALID) MPI_Type_get_attr(type, type_keyval, &value, &found);
  if (found) return *static_cast<TypeInfo*>(value);
  TypeInfo info = compute(type, false);
  if (type_keyval != MPI_KEYVAL_INVALID) MPI_Type_set_attr(type, type_keyval, new TypeInfo(info));
  return info;
}

namespace {
bool reducible_uncached(MPI_Op op, MPI_Datatype type, Reason* why, bool* cacheable);
}

bool reducible(MPI_Op op, MPI_Datatype type, Reason* why) {
  // The last few verdicts, per thread. A verdict on a predefined operation
  // depends on the two handles alone (the types it accepts are predefined,
  // never freed; a derived type is refused whatever handle it had); one on
  // a user's operation is not kept (a freed handle may come back as another).
  struct Verdict {
    MPI_Op op = MPI_OP_NULL;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    bool ok = false;
    Reason why = Reason::type;
  };
  static thread_local Verdict last[4] __attribute__((tls_model("initial-exec")));
  static thread_local unsigned next __attribute__((tls_model("initial-exec"))) = 0;
  for (const Verdict& v : last)
    if (v.op == op && v.type == type && op != MPI_OP_NULL) {
      if (!v.ok) *why = v.why;
      return v.ok;
    }
  bool cacheable = false;
  Reason r = Reason::type;
  const bool ok = reducible_uncached(op, type, &r, &cacheable);
  if (!ok) *why = r;
  if (cacheable) last[next++ % 4] = {op, type, ok, r};
  return ok;
}

namespace {

bool reducible_uncached(MPI_Op op, MPI_Datatype type, Reason* why, bool* cacheable) {
  *cacheable = true;
  bool ok = false;
  if (op == MPI_MAX || op == MPI_MIN)
    ok = c_integer(type) || fortran_integer(type) || floating(type);
  else if (op == MPI_SUM || op == MPI_PROD)
    ok = c_integer(type) || fortran_integer(type) || floating(type) || complex_type(type);
  else if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
    ok = c_integer(type) || logical(type);
  else if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
    ok = c_integer(type) || fortran_integer(type) || one_of(type, {MPI_BYTE});
  else if (op == MPI_MAXLOC || op == MPI_MINLOC)
    ok = pair(type);
  else if (op == MPI_REPLACE || op == MPI_NO_OP || op == MPI_OP_NULL) {
    *why = Reason::invalid;  // not an allreduce operation: the MPI says so
    return false;
  } else {
    int commute = 0;
    MPI_Op_commutative(op, &commute);
    *why = commute ? Reason::user_op : Reason::non_commutative_op;
    *cacheable = false;
    return false;
  }
  // The algorithms cut the vector into element chunks, as bytes of one size.
  if (ok) ok = type_info(type).contiguous;
  if (!ok) *why = Reason::type;
  return ok;
}

}  // namespace

}  // namespace mcb::preload
