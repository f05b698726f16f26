// The two interfaces of the shared-memory allreduces
// (allreduce-shared-memory-multiradix, Section 4). An Engine is an
// allreduce set up once for a communicator, a count and a type: its phases
// run on whatever send and receive buffers a call brings.
//   persistent: the plan owns an engine set up in the factory (the setup is
//               the plan's setup, timed by the harness as setup_us), like
//               MPI_Allreduce_init + MPI_Start/MPI_Wait;
//   blocking:   the plan's one phase "allreduce" looks the engine up in a
//               cache attached to the communicator, keyed by algorithm,
//               count, type, operation and parameters, and sets it up on
//               the first call (lazily, inside that call); the cache goes
//               with the communicator.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mcb/collective.hpp"
#include "mcb/plan.hpp"

namespace mcb::allreduce::detail {

struct Engine {
  struct Phase {
    std::string name;
    std::function<void(const void* send, void* recv)> run;
  };
  std::vector<Phase> phases;
};

/// The --interface parameter: persistent (default) or blocking.
ParamSpec interface_param();

using Resolved = std::vector<std::pair<std::string, std::string>>;

/// A plan on args' buffers from an engine made by `make` now (persistent)
/// or on the first execution and cached per (args.comm, `who`, count,
/// type, op, `resolved`) (blocking, per params' --interface). `resolved`: the
/// parameters as the algorithm resolved them (checked before, so that
/// `make` cannot fail on bad input), for the report and the cache key.
Plan engine_plan(const std::string& who, const CollArgs& args, const Params& params, const Resolved& resolved,
                 std::function<std::shared_ptr<Engine>()> make);

}  // namespace mcb::allreduce::detail
