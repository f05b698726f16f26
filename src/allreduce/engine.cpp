// Persistent and blocking plans over an Engine (see engine.hpp).
#include "engine.hpp"

#include <mpi.h>

#include <map>

#include "mcb/error.hpp"

namespace mcb::allreduce::detail {

namespace {

using Cache = std::map<std::string, std::shared_ptr<Engine>>;

int delete_cache(MPI_Comm, int, void* cache, void*) {
  delete static_cast<Cache*>(cache);
  return MPI_SUCCESS;
}

// The engines of a communicator, freed with it (MPI_Comm_free, or
// MPI_Finalize for MPI_COMM_WORLD).
Cache& cache_of(MPI_Comm comm) {
  static int keyval = MPI_KEYVAL_INVALID;
  if (keyval == MPI_KEYVAL_INVALID) MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cache, &keyval, nullptr);
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &value, &found);
  if (!found) {
    value = new Cache;
    MPI_Comm_set_attr(comm, keyval, value);
  }
  return *static_cast<Cache*>(value);
}

}  // namespace

ParamSpec interface_param() {
  return {"interface",
          "persistent (set up once, like MPI_Allreduce_init) or blocking (set up in the first call, cached per "
          "communicator and size)",
          "persistent",
          {"persistent", "blocking"}};
}

Plan engine_plan(const std::string& who, const CollArgs& args, const Params& params, const Resolved& resolved,
                 std::function<std::shared_ptr<Engine>()> make) {
  const std::string interface = params.get("interface", "persistent");
  Plan plan;
  const void* send = args.sendbuf;
  void* recv = args.recvbuf;
  if (interface == "persistent") {
    std::shared_ptr<Engine> engine = make();
    for (const auto& phase : engine->phases)
      plan.add(phase.name, [engine, run = &phase.run, send, recv] { (*run)(send, recv); });
  } else if (interface == "blocking") {
    char type_name[MPI_MAX_OBJECT_NAME] = {};
    int len = 0;
    MPI_Type_get_name(args.type, type_name, &len);
    std::string key = who + ";count=" + std::to_string(args.count) + ";type=" + type_name +
                      ";op=" + std::to_string(MPI_Op_c2f(args.op));
    for (const auto& [name, value] : resolved) key += ";" + name + "=" + value;
    plan.add("allreduce", [comm = args.comm, key, make = std::move(make), send, recv] {
      std::shared_ptr<Engine>& engine = cache_of(comm)[key];
      if (!engine) engine = make();
      for (const auto& phase : engine->phases) phase.run(send, recv);
    });
  } else {
    throw Error("--interface " + interface + ": expected persistent or blocking");
  }
  for (const auto& [name, value] : resolved) plan.set_param(name, value);
  plan.set_param("interface", interface);
  return plan;
}

}  // namespace mcb::allreduce::detail
