// What the preload asks of a call's datatypes and reduction operation
// before it hands the call to an mcb algorithm: the bytes of a datatype and
// whether they lie contiguous from the buffer's start (else the call packs
// them through a staging buffer), and whether the allreduce algorithms can
// reduce a (type, op) pair (predefined operations on the predefined types
// the MPI standard allows them on).
#pragma once

#include <mpi.h>

#include "report.hpp"

namespace mcb::preload {

struct TypeInfo {
  long long size = 0;       // bytes of one element (MPI_Type_size)
  long long extent = 0;     // where the next element starts (MPI_Type_get_extent)
  bool contiguous = false;  // n elements are the n * size bytes from the buffer's start
  bool named = false;       // a predefined datatype
};

/// Cached on derived datatypes (an attribute freed with the type); needs
/// init_type_cache() first.
TypeInfo type_info(MPI_Datatype type);
void init_type_cache();
void free_type_cache();

/// Whether the allreduce algorithms can reduce `type` with `op`; else the
/// reason (type, user_op, non_commutative_op, invalid).
bool reducible(MPI_Op op, MPI_Datatype type, Reason* why);

}  // namespace mcb::preload
