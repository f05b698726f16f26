// The small-vector path of the shared-memory allreduces, reduce and bcast
// (issue 57): below a switch (--small), on one node, a call takes one flag
// handoff between the cores instead of one per stage. See small_path.cpp.
#pragma once

#include <cstddef>
#include <string>

#include "engine.hpp"
#include "mcb/collective.hpp"
#include "mcb/plan.hpp"
#include "shm.hpp"

namespace mcb::allreduce::detail {

/// What a small-path plan computes.
enum class SmallKind { allreduce, reduce, bcast };

/// --small=BYTES: the switch (every shared-memory allreduce, reduce and bcast).
ParamSpec small_param(SmallKind kind);

/// The largest vector, in bytes per rank, that takes the small path on a
/// domain of `q` ranks: --small when given (0: never), else the default of
/// `kind` (small_path.cpp: measured). Throws Error naming `who` for a value
/// that is not a whole number of bytes.
std::size_t small_limit(const char* who, const Params& params, int q, SmallKind kind);

/// Whether this call takes the small path: one domain (one node, no
/// --region) of more than one rank, a vector of at most small_limit()
/// bytes, and --copy auto or copy-in (a path named registered or cma keeps
/// its stages: it reads the inputs in place, which the small path never
/// does). Throws Error as small_limit.
bool takes_small_path(const char* who, const CollArgs& args, const Domain& dom, const Params& params, SmallKind kind);

/// The small path's plan on `dom` (--interface persistent or blocking, as
/// engine_plan), with `resolved` reported and the parameters small=<switch>
/// and path=small added. One phase, named after the collective
/// (allreduce, reduce, bcast): a call is one handoff.
Plan small_plan(SmallKind kind, const std::string& who, const CollArgs& args, const Params& params, Resolved resolved,
                const Domain& dom);

}  // namespace mcb::allreduce::detail
