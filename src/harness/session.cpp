// Around the measurements (harness/session.hpp).
#include "harness/session.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <regex>

#include "harness/metadata.hpp"
#include "mcb/error.hpp"

#ifdef MCB_SIMULATE
#include <simgrid/zone.h>  // the simulated platform's name
#endif
#if !defined(MPICH_VERSION) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: MPIX_Query_cuda_support, MPIX_Query_rocm_support
#endif

namespace mcb::bench {

Identity identify(MPI_Comm comm) {
  Identity id;
  char buf[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(buf, &len);
  std::string text(buf, static_cast<std::size_t>(len));
  std::string first = text.substr(0, text.find('\n'));
  if (first.find("SMPI") != std::string::npos)
    id.mpi_library = "SimGrid SMPI";
  else if (first.find("CRAY MPICH") != std::string::npos)
    id.mpi_library = "Cray MPICH";
  else if (first.find("MVAPICH") != std::string::npos)
    id.mpi_library = "MVAPICH";
  else if (first.find("Intel") != std::string::npos)
    id.mpi_library = "Intel MPI";
  else if (first.find("Open MPI") != std::string::npos)
    id.mpi_library = "Open MPI";
  else if (first.find("MPICH") != std::string::npos)
    id.mpi_library = "MPICH";
  else
    id.mpi_library = first.substr(0, first.find_first_of(",:"));
  std::smatch m;
  if (std::regex_search(first, m, std::regex(R"((\d+\.\d+(\.\d+)?[A-Za-z0-9]*))"))) id.mpi_version = m[1];
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  MPI_Get_processor_name(name, &len);
  id.host = name;
#ifdef MCB_SIMULATE
  // The simulated machine: the platform file's root zone (scripts/sim/platforms/
  // names it after the file).
  id.platform = sg_zone_get_name(sg_zone_get_root());
#endif
  // Rank 0's clock names the run.
  char stamp[32] = {};
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  MPI_Bcast(stamp, sizeof stamp, MPI_CHAR, 0, comm);
  id.start_time = stamp;
  return id;
}

// Whether this MPI takes pointers of `kind` (--gpu-aware auto): host
// always; device memory as the MPI's own query says, no when it has none.
bool mpi_takes(MemKind kind) {
  if (kind == MemKind::host) return true;
#if defined(MPICH_VERSION)
  int yes = 0;
  MPIX_GPU_query_support(kind == MemKind::cuda ? MPIX_GPU_SUPPORT_CUDA : MPIX_GPU_SUPPORT_HIP, &yes);
  return yes != 0;
#else
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (kind == MemKind::cuda) return MPIX_Query_cuda_support() == 1;
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  if (kind == MemKind::hip) return MPIX_Query_rocm_support() == 1;
#endif
  return false;
#endif
}

std::string mpi_refuses(MemKind kind) {
  if (mpi_takes(kind)) return "";
  char buf[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(buf, &len);
  std::string mpi(buf, static_cast<std::size_t>(len));
  mpi = std::regex_replace(mpi.substr(0, mpi.find_first_of(",\n")), std::regex(R"(\s+)"), " ");
#if defined(MPICH_VERSION)
  const std::string query = "MPIX_GPU_query_support()";
#else
  const std::string query = kind == MemKind::hip ? "MPIX_Query_rocm_support()" : "MPIX_Query_cuda_support()";
#endif
  return "this MPI (" + mpi + ") cannot read " + to_string(kind) + " device memory (" + query + " says no)";
}

// One process per GPU (the first of each): the layout that
// the algorithms that do not split a GPU's buffers run on. Collective over
// layout.comm(); the other processes get nullopt.
std::optional<Layout> gpu_leaders(const Layout& layout) {
  MPI_Comm sub = MPI_COMM_NULL;
  const int block_position = layout.node() * layout.ranks_per_node() + layout.local_rank();
  MPI_Comm_split(layout.comm(), layout.gpu_rank() == 0 ? 0 : MPI_UNDEFINED, block_position, &sub);
  if (sub == MPI_COMM_NULL) return std::nullopt;
  LayoutOptions o = layout.options();
  o.procs_per_gpu = 1;
  o.gpus_per_node = 0;
  o.region = {};
  if (o.ranks_per_node > 0) o.ranks_per_node = layout.gpus_per_node();
  std::optional<Layout> leaders = Layout::create(sub, o);
  MPI_Comm_free(&sub);
  return leaders;
}

namespace {

#ifdef MCB_SIMULATE
// The simulated ranks share one process's globals (simulate.py runs SMPI
// without privatization), so one logger serves them all and says which
// rank logs: the pattern flag %* writes the calling rank.
class RankFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const std::string text = std::to_string(rank);
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<RankFlag>(); }
};
#endif

}  // namespace

void setup_logging([[maybe_unused]] int rank, int level) {
#ifdef MCB_SIMULATE
  if (spdlog::get("mcb")) return;  // another simulated rank made it
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<RankFlag>('*').set_pattern("[%H:%M:%S.%e] [%^%l%$] rank %*: %v");
  auto logger = spdlog::stderr_color_mt("mcb");
  logger->set_formatter(std::move(formatter));
#else
  auto logger = spdlog::stderr_color_mt("mcb");
  logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] rank " + std::to_string(rank) + ": %v");
#endif
  logger->set_level(static_cast<spdlog::level::level_enum>(level));
  spdlog::set_default_logger(logger);
}

// The ranks of the first `nodes` nodes of `full` as a layout of their own
// (collective over full.comm(); the other ranks get nullopt).
std::optional<Layout> first_nodes(const Layout& full, int nodes, const LayoutOptions& options) {
  MPI_Comm sub = MPI_COMM_NULL;
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_split(MPI_COMM_WORLD, full.node() < nodes ? 0 : MPI_UNDEFINED, world_rank, &sub);
  if (sub == MPI_COMM_NULL) return std::nullopt;
  std::optional<Layout> layout = Layout::create(sub, options);
  MPI_Comm_free(&sub);
  return layout;
}

// A configuration as progress lines name it: "node_aware inner=pairwise",
// and the phase mode when the run has both.
std::string progress_label(const Config& config, PhaseMode mode, const Options& opt) {
  std::string label = config.algorithm;
  for (const auto& [name, value] : config.params.values()) label += " " + name + "=" + value;
  if (opt.phase_modes.size() > 1) label += ", " + to_string(mode);
  return label;
}

// The run's metadata record beside each output file (FILE.meta.json), once
// per run, before the first measurement.
void write_metadata(const CollectiveSpec& spec, const Options& opt, const Layout& layout, const std::string& start,
                    const std::vector<std::string>& command_line) {
  if (opt.csv.empty() && opt.json.empty()) return;
  char buf[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(buf, &len);
  std::string library(buf, static_cast<std::size_t>(len));
  while (!library.empty() && (library.back() == '\0' || std::isspace(static_cast<unsigned char>(library.back()))))
    library.pop_back();
  const std::string record = run_metadata(spec.binary, command_line, library, start, to_string(opt.mem), layout);
  agree_on(layout.comm(), [&] {
    if (layout.rank() != 0) return;
    for (const std::string& out : {opt.csv, opt.json}) {
      if (out.empty()) continue;
      std::ofstream f(metadata_path(out), std::ios::trunc);
      if (!(f << record)) throw Error("cannot write the run metadata to " + metadata_path(out));
    }
  });
}

// Before the first measurement: every configuration's parameter values
// against the layout (Algorithm::check, make()'s own messages; a bad value
// anywhere in a list is an error now, not after the configurations before
// it ran), and one warning line per parameter given that no selected
// configuration uses (--radix with --algorithm pairwise), from rank 0.
// Node counts below the layout's (--nodes) are checked when they run.
void preflight(const CollectiveSpec& spec, const Options& opt, const Layout& layout, int world_rank) {
  for (const Config& config : opt.configs) {
    const Algorithm& a = *std::find_if(spec.algorithms->begin(), spec.algorithms->end(),
                                       [&](const Algorithm& x) { return x.name == config.algorithm; });
    if (!a.check || (a.unsupported && !a.unsupported(layout).empty())) continue;
    const bool given = std::any_of(a.params.begin(), a.params.end(), [&](const ParamSpec& p) {
      return opt.params.has(p.name) && opt.params.get(p.name) != "all";
    });
    if (given) a.check(layout, config.params);
  }
  if (world_rank != 0) return;
  std::string selected;
  for (const auto& name : opt.algorithms) selected += (selected.empty() ? "" : ", ") + name;
  for (const auto& [name, value] : opt.params.values()) {
    const bool used =
        std::any_of(opt.configs.begin(), opt.configs.end(), [&, n = name](const Config& c) { return c.params.has(n); });
    if (!used)
      std::fprintf(stderr, "%s: warning: --%s %s applies to none of the selected configurations (%s); ignored\n",
                   spec.binary.c_str(), name.c_str(), value.c_str(), selected.c_str());
  }
}

}  // namespace mcb::bench
