// The run's metadata record (see metadata.hpp; the fields in docs/running.md, Run
// metadata). Rank 0 writes it; every rank sends its host and CPU binding.
#include "harness/metadata.hpp"

#ifdef MCB_HAVE_HWLOC
#include <hwloc.h>
#endif
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "harness/report.hpp"
#include "mcb/memory.hpp"

extern char** environ;

namespace mcb::bench {

namespace {

// The CPUs this process may run on, as ranges ("0-3,8"), from the kernel.
std::string cpu_binding() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "unknown";
  std::ostringstream out;
  bool first = true;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
    out << (first ? "" : ",") << c;
    if (last > c) out << '-' << last;
    first = false;
    c = last;
  }
  return out.str();
}

std::string quote(const std::string& s) { return json_string(s); }

// Rank 0's node from hwloc: CPU model, counts, and the first cache of each
// level (bytes).
std::string hardware_json() {
#ifndef MCB_HAVE_HWLOC
  return "null";  // built without hwloc (-DMCB_WITH_HWLOC=OFF)
#else
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return "null";
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return "null";
  }
  auto count = [&](hwloc_obj_type_t t) { return std::max(0, hwloc_get_nbobjs_by_type(topo, t)); };
  const char* model = nullptr;
  if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0))
    model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
  if (!model) model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "CPUModel");
  std::ostringstream o;
  o << "{\"cpu_model\": " << quote(model ? model : "unknown") << ", \"packages\": " << count(HWLOC_OBJ_PACKAGE)
    << ", \"numa_nodes\": " << count(HWLOC_OBJ_NUMANODE) << ", \"cores\": " << count(HWLOC_OBJ_CORE)
    << ", \"pus\": " << count(HWLOC_OBJ_PU) << ", \"caches\": {";
  const std::pair<const char*, hwloc_obj_type_t> levels[] = {
      {"l1d", HWLOC_OBJ_L1CACHE}, {"l2", HWLOC_OBJ_L2CACHE}, {"l3", HWLOC_OBJ_L3CACHE}};
  bool first = true;
  for (const auto& [name, type] : levels) {
    hwloc_obj_t c = hwloc_get_obj_by_type(topo, type, 0);
    if (!c || !c->attr) continue;
    o << (first ? "" : ", ") << quote(name) << ": " << c->attr->cache.size;
    first = false;
  }
  o << "}}";
  hwloc_topology_destroy(topo);
  return o.str();
#endif
}

// What Open MPI's launcher sets per launch or per rank (job ids, URIs,
// session directories, ranks): different on every run, not settings.
bool launcher_internal(const std::string& name) {
  static const char* internal[] = {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
                                   "OMPI_MCA_shmem_RUNTIME_QUERY_hint"};
  for (const char* prefix : internal)
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

// The recorded environment variables, sorted by name.
std::map<std::string, std::string> recorded_env() {
  std::map<std::string, std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = kv.substr(0, eq);
    if (launcher_internal(name)) continue;
    for (const auto& prefix : recorded_env_prefixes())
      if (name.rfind(prefix, 0) == 0) {
        out[name] = kv.substr(eq + 1);
        break;
      }
  }
  return out;
}

// Rank 0's GPU for device buffers (mcb::DeviceInfo), null for host memory.
std::string gpu_json(const std::string& mem) {
  const MemKind kind = parse_mem_kind(mem);
  if (kind == MemKind::host) return "null";
  const auto info = memory_for(kind).device_info();
  if (!info) return "null";
  std::ostringstream o;
  o << "{\"name\": " << quote(info->name) << ", \"bus_id\": " << quote(info->bus_id)
    << ", \"driver\": " << quote(info->driver) << ", \"runtime\": " << quote(info->runtime)
    << ", \"compute_mode\": " << quote(info->compute_mode) << ", \"mps\": " << quote(info->mps)
    << ", \"pcie\": " << quote(info->pcie) << "}";
  return o.str();
}

}  // namespace

const std::vector<std::string>& recorded_env_prefixes() {
  static const std::vector<std::string> prefixes = {"OMPI_MCA_",
                                                    "PMIX_MCA_",
                                                    "MPIR_CVAR_",
                                                    "UCX_",
                                                    "FI_",
                                                    "I_MPI_",
                                                    "MPICH_",
                                                    "HYDRA_",
                                                    "PSM2_",
                                                    "MV2_",
                                                    "SLURM_JOB_",
                                                    "SLURM_NTASKS",
                                                    "SLURM_NNODES",
                                                    "SLURM_CPUS_",
                                                    "MCB_",
                                                    "OMP_NUM_THREADS",
                                                    "CUDA_VISIBLE_DEVICES",
                                                    "CUDA_MPS_",
                                                    "CUDA_LAUNCH_BLOCKING",
                                                    "HIP_VISIBLE_DEVICES",
                                                    "ROCR_VISIBLE_DEVICES"};
  return prefixes;
}

std::string metadata_path(const std::string& output) { return output + ".meta.json"; }

std::string version_text(const std::string& binary) {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(library, &len);  // allowed before MPI_Init
  std::string mpi(library);                // up to the first NUL: len may count one
  mpi = mpi.substr(0, mpi.find('\n'));
  std::string backends;
  for (const auto& b : compiled_backends()) backends += (backends.empty() ? "" : ", ") + b;
  std::ostringstream o;
  o << binary << " (mcb " << MCB_VERSION << ")\n"
    << "commit: " << MCB_GIT_COMMIT << "\n"
    << "MPI: " << mpi << "\n"
    << "memory backends: " << backends << "\n"
    << "hwloc: " << (have_hwloc() ? "yes" : "no (--region none or size:K only)") << "\n"
#ifdef MCB_SIMULATE
    << "simulation: SimGrid SMPI\n"
#endif
    << "compiler: " << MCB_COMPILER << ", " << MCB_BUILD_TYPE << "\n";
  return o.str();
}

std::string run_metadata(const std::string& binary, const std::vector<std::string>& command_line,
                         const std::string& mpi_library_string, const std::string& start_time, const std::string& mem,
                         const Layout& layout) {
  MPI_Comm comm = layout.comm();
  // Every rank's host and binding, gathered as fixed-size strings.
  constexpr int kField = 256;
  char mine[2 * kField] = {};
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  std::snprintf(mine, kField, "%s", host);
  std::snprintf(mine + kField, kField, "%s", cpu_binding().c_str());
  const int p = layout.size(), rank = layout.rank();
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(p) * 2 * kField : 0);
  MPI_Gather(mine, 2 * kField, MPI_CHAR, all.data(), 2 * kField, MPI_CHAR, 0, comm);
  if (rank != 0) return "";

  std::ostringstream o;
  o << "{\n  \"record\": \"mcb run metadata\",\n  \"version\": 1,\n";
  o << "  \"benchmark\": " << quote(binary) << ",\n";
  o << "  \"command_line\": [";
  for (std::size_t i = 0; i < command_line.size(); ++i) o << (i ? ", " : "") << quote(command_line[i]);
  o << "],\n";
  o << "  \"start_time\": " << quote(start_time) << ",\n";
  o << "  \"mcb_version\": " << quote(MCB_VERSION) << ",\n";
  o << "  \"git_commit\": " << quote(MCB_GIT_COMMIT) << ",\n";
  o << "  \"compiler\": " << quote(MCB_COMPILER) << ",\n";
  o << "  \"build_type\": " << quote(MCB_BUILD_TYPE) << ",\n";
  o << "  \"compile_flags\": " << quote(MCB_CXX_FLAGS) << ",\n";
  o << "  \"mpi_library_string\": " << quote(mpi_library_string) << ",\n";
  o << "  \"environment\": {";
  bool first = true;
  for (const auto& [name, value] : recorded_env()) {
    o << (first ? "\n    " : ",\n    ") << quote(name) << ": " << quote(value);
    first = false;
  }
  o << (first ? "},\n" : "\n  },\n");
  o << "  \"placement\": {\"ranks\": " << p << ", \"nodes\": " << layout.num_nodes()
    << ", \"ranks_per_node\": " << (layout.uniform() ? layout.ranks_per_node() : 0)
    << ", \"virtual_nodes\": " << (layout.options().ranks_per_node > 0 ? "true" : "false")
    << ", \"rank_order\": " << quote(to_string(layout.options().order)) << ", \"mem\": " << quote(mem)
    << ",\n    \"per_rank\": [";
  for (int r = 0; r < p; ++r) {
    const char* rec = all.data() + static_cast<std::size_t>(r) * 2 * kField;
    o << (r ? ",\n      " : "\n      ") << "{\"rank\": " << r << ", \"host\": " << quote(std::string(rec))
      << ", \"cpus\": " << quote(std::string(rec + kField)) << "}";
  }
  o << "\n    ]},\n";
  o << "  \"hardware\": " << hardware_json() << ",\n";
  o << "  \"gpu\": " << gpu_json(mem) << "\n}\n";
  return o.str();
}

}  // namespace mcb::bench
