#include "harness/options.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include "harness/cli.hpp"
#include "harness/metadata.hpp"

#include "mcb/error.hpp"

namespace mcb::bench {

namespace {

constexpr std::size_t kDefaultMax = std::size_t{1} << 20;
constexpr std::size_t kLargeMessage = 8192;

std::size_t parse_size(const std::string& text, const std::string& whole) {
  const bool digits = !text.empty() && text.size() <= 19 &&
                      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits) throw Error("--message-size " + whole + ": '" + text + "' is not a size in bytes");
  const auto v = static_cast<std::size_t>(std::stoull(text));
  if (v == 0) throw Error("--message-size " + whole + ": sizes must be >= 1 byte");
  return v;
}

}  // namespace

std::string to_string(PhaseMode mode) { return mode == PhaseMode::embedded ? "embedded" : "isolated"; }

std::vector<std::size_t> parse_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  if (text.find(',') != std::string::npos) {
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) sizes.push_back(parse_size(item, text));
    if (text.back() == ',') throw Error("--message-size " + text + ": empty item in the list");
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
  }
  std::size_t lo = 1, hi = kDefaultMax;
  auto colon = text.find(':');
  if (colon == std::string::npos) {
    hi = parse_size(text, text);
  } else {
    std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    if (!a.empty()) lo = parse_size(a, text);
    if (!b.empty()) hi = parse_size(b, text);
  }
  if (lo > hi)
    throw Error("--message-size " + text + ": empty size range (MIN " + std::to_string(lo) + " > MAX " +
                std::to_string(hi) + ")");
  for (std::size_t s = lo; s <= hi; s *= 2) {
    sizes.push_back(s);
    if (s > hi / 2) break;
  }
  return sizes;
}

std::vector<int> parse_int_list(const std::string& option, const std::string& text) {
  auto one = [&](const std::string& item) {
    const bool digits = !item.empty() && item.size() <= 9 &&
                        std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!digits || std::stoi(item) < 1) throw Error(option + " " + text + ": '" + item + "' is not a positive integer");
    return std::stoi(item);
  };
  std::vector<int> out;
  const auto colon = text.find(':');
  if (colon != std::string::npos && text.find(',') == std::string::npos) {
    const int lo = one(text.substr(0, colon)), hi = one(text.substr(colon + 1));
    if (lo > hi)
      throw Error(option + " " + text + ": empty range (MIN " + std::to_string(lo) + " > MAX " + std::to_string(hi) +
                  ")");
    for (long v = lo; v <= hi; v *= 2) out.push_back(static_cast<int>(v));
    if (out.back() != hi) out.push_back(hi);
    return out;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(one(item));
  if (text.empty() || text.back() == ',') out.push_back(one(""));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int default_iterations(std::size_t bytes) { return bytes <= kLargeMessage ? 1000 : 100; }
int default_warmup(std::size_t bytes) { return bytes <= kLargeMessage ? 100 : 10; }

std::string list_algorithms(const std::string& binary, const std::vector<Algorithm>& algorithms) {
  std::ostringstream out;
  out << "# " << binary << " algorithms (use --algorithm a,b,c or all)\n";
  for (const auto& a : algorithms) {
    out << "  " << a.name;
    for (std::size_t i = a.name.size(); i < 24; ++i) out << ' ';
    out << a.summary;
    if (!a.available) out << " [unavailable: " << a.unavailable_why << "]";
    out << '\n';
    for (const auto& p : a.params)
      out << "      --" << p.name << "  " << p.help
          << (p.default_value.empty() ? "" : " (default " + p.default_value + ")") << '\n';
  }
  return out.str();
}

std::string to_string(GpuAware g) { return g == GpuAware::yes ? "yes" : g == GpuAware::no ? "no" : "auto"; }

namespace {

/// What the command line gives as text, before it is checked and turned
/// into Options.
struct Given {
  bool breakdown = false;
  std::string sizes = "1:" + std::to_string(kDefaultMax), mem = "host", staging = "pinned", gpu_aware = "auto";
  std::string type, type_list, op, op_list;
  std::string algos, order = "block", region = "none", phase_mode, nodes, log_level;
  std::string sim_local_work = "on";
  std::string counts = "equal";
  long long shared_malloc = 0;  // signed, so that a negative value is refused rather than wrapped
  int verbose = 0;
  bool list = false;
  std::map<std::string, std::string> params;  // --<parameter> of every algorithm
};

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& t : items) out += (out.empty() ? "" : ", ") + t;
  return out;
}

// The options, in the order --help lists them, by group.

// OSU's: sizes, iterations, statistics, validation, in place, memory.
void add_osu_options(CLI::App& app, Options& o, Given& g, const Offer& offer) {
  app.add_option("-m,--message-size", g.sizes, "bytes per block: MIN:MAX doubling from MIN, [MIN:]MAX, or a list a,b,c")
      ->capture_default_str();
  app.add_option("-i,--iterations", o.iterations, "timed iterations per size (default 1000, 100 above 8 KiB)");
  app.add_option("-x,--warmup", o.warmup, "untimed warm-up iterations per size (default 100, 10 above 8 KiB)");
  app.add_option("--timeout", o.timeout,
                 "SECONDS one size of one algorithm may take (setup, warm-up, iterations, validation); over it, rank 0 "
                 "names where it was stuck and every rank exits with status 3; 0: no limit")
      ->capture_default_str();
  app.add_flag("-f,--full", o.full, "print median, min, max, stddev and iteration columns");
  app.add_flag("-c,--validate", o.validate,
               "check every element against the result mcb computes from the fill pattern (no MPI collective asked)");
  if (offer.in_place)
    app.add_flag("-l,--in-place", o.in_place,
                 "MPI_IN_PLACE: each rank's data starts in its receive buffer (OSU's -l); the receive count is used");
  app.add_option("-d,--mem", g.mem, "buffer memory: host, cuda or hip")->capture_default_str();
  app.add_flag("--fresh-send", o.fresh_send,
               "before each iteration (untimed) every rank writes its input buffer, one byte per cache line, values "
               "unchanged, as an application that computes its vector before the call: the lines start in the owner's "
               "cache, not in the readers' from the call before; host memory");
}

// GPUs and buffers: staging, GPUs per node, processes per GPU, registered buffers.
void add_gpu_options(CLI::App& app, Options& o, Given& g, const Offer& offer) {
  app.add_option("--staging", g.staging,
                 "host copies of device buffers through pinned (page-locked, registered once per buffer) or "
                 "pageable host memory")
      ->capture_default_str();
  if (offer.gpus) {
    app.add_option("--gpus-per-node", o.layout.gpus_per_node,
                   "G GPUs per node (default: ranks per node / --procs-per-gpu); local rank l drives GPU l / PPG");
    app.add_option("--procs-per-gpu", o.layout.procs_per_gpu,
                   "PPG processes per GPU sharing its buffers, each working on its slice")
        ->capture_default_str();
    app.add_option("--gpu-aware", g.gpu_aware,
                   "auto, yes (MPI on device pointers) or no (MPI on host copies of the device buffers)")
        ->capture_default_str();
  }
  if (offer.buffers)
    app.add_option("--buffers", o.buffers,
                   "plain, registered (node-shared memory from mcb::shm_allocate: the shared-memory algorithms read "
                   "and write them in place) or mixed (registered on even ranks only)")
        ->capture_default_str();
}

// The data: element type, reduction and the v-forms' counts.
void add_data_options(CLI::App& app, Given& g, const Offer& offer) {
  app.add_option("-T,--type", g.type, "element type: " + g.type_list)->capture_default_str();
  if (offer.counts)
    app.add_option("--counts", g.counts,
                   "how the elements spread over the ranks: equal (OSU's), linear (rank r's share proportional to "
                   "r+1), heavy (the last rank half of them) or zeros (the odd ranks none); the same total")
        ->capture_default_str();
  if (!offer.ops.empty())
    app.add_option("--op", g.op, "reduction: " + g.op_list + " (the bitwise ones on integer types)")
        ->capture_default_str();
}

// Output and the algorithms: rows to files, which algorithms, --list.
void add_output_options(CLI::App& app, Options& o, Given& g) {
  app.add_option("--csv", o.csv, "write one CSV row per (algorithm, size, phase) to FILE");
  app.add_option("--json", o.json, "write the same rows as JSON Lines to FILE");
  app.add_option("--save-iterations", o.save_iterations,
                 "write every iteration's time on every rank, and which rank was the slowest, to FILE (CSV)");
  if (g.breakdown)
    app.add_option("--algorithm", g.algos, "the algorithm to break down into phases (see --list)")->required();
  else
    app.add_option("--algorithm", g.algos, "comma-separated algorithms, or all (see --list)")->capture_default_str();
  app.add_flag("--list", g.list, "list the algorithms and their parameters, then exit");
}

// The layout: virtual nodes, order, regions, phases, node counts; progress.
void add_layout_options(CLI::App& app, Options& o, Given& g) {
  app.add_option("--ranks-per-node", o.layout.ranks_per_node,
                 "virtual nodes of K consecutive ranks (default: MPI_COMM_TYPE_SHARED)");
  app.add_option("--rank-order", g.order, "block or cyclic placement of ranks across nodes")->capture_default_str();
  app.add_option("--region", g.region, "regions inside a node: none, numa, package, l3 or size:K")
      ->capture_default_str();
  app.add_option("--phase-mode", g.phase_mode,
                 "embedded (phases timed inside the run), isolated (each alone, between barriers) or both")
      ->capture_default_str();
  app.add_option("--nodes", g.nodes, "run on the first K nodes for each K of a list a,b,c or MIN:MAX (doubling)");
  app.add_option("--progress", o.progress,
                 "SECONDS between progress lines (done/total, ETA) on rank 0's stderr; 0: after every step")
      ->capture_default_str();
}

// The simulation build's: shared host buffers, local work in simulated time.
void add_simulation_options([[maybe_unused]] CLI::App& app, [[maybe_unused]] Given& g) {
#ifdef MCB_SIMULATE
  app.add_option("--sim-shared-malloc", g.shared_malloc,
                 "BYTES: host buffers of at least BYTES come from SMPI_SHARED_MALLOC, shared by every simulated rank "
                 "(memory for thousands of ranks; contents meaningless, so no -c); 0: off")
      ->capture_default_str();
  app.add_option("--sim-local-work", g.sim_local_work,
                 "on: copies, packs, fills and reductions cost simulated time at the platform's per-core rates; off: "
                 "they are free (the model before local work was charged)")
      ->capture_default_str();
#endif
}

// Logging, and every parameter of every algorithm as an option --<name>.
void add_log_and_parameters(CLI::App& app, Given& g, const std::vector<Algorithm>& algorithms) {
  app.add_flag("-v,--verbose", g.verbose, "more log output (-v info, -vv debug, -vvv trace)");
  app.add_option("--log-level", g.log_level, "log level: trace, debug, info, warn, error, critical, off");
  std::set<std::string> seen;
  for (const auto& a : algorithms)
    for (const auto& p : a.params)
      if (seen.insert(p.name).second) app.add_option("--" + p.name, g.params[p.name], p.help);
}

// The checks, in the order a bad command line is refused (the first wins).

// -T and --op: a type the binary does not take is named as such, before
// whether this MPI has it (parse_datatype's own message).
void check_data(Options& o, const Given& g, const std::string& binary, const Offer& offer) {
  auto offered = [&](const std::string& n) {
    return std::find(offer.types.begin(), offer.types.end(), n) != offer.types.end();
  };
  if (!offered(g.type.rfind("mpi_", 0) == 0 ? g.type.substr(4) : g.type)) {
    std::string canonical;
    try {
      canonical = parse_datatype(g.type).name;
    } catch (const Error&) {
    }
    if (!offered(canonical)) throw Error("--type " + g.type + ": " + binary + " takes " + g.type_list);
  }
  o.type = parse_datatype(g.type);
  o.counts = parse_counts(g.counts);
  if (offer.ops.empty()) return;
  if (std::find(offer.ops.begin(), offer.ops.end(), g.op) == offer.ops.end())
    throw Error("--op " + g.op + ": " + binary + " takes " + g.op_list);
  o.op = op_named(g.op);
  if (!o.type.elem || !op_allowed(*o.op, *o.type.elem))
    throw Error("--op " + g.op + ": MPI defines " + g.op + " on integer types only, not on " + o.type.name);
}

// An option in seconds (--progress, --timeout): >= 0, NaN refused.
void check_seconds(const std::string& option, double seconds) {
  if (seconds >= 0) return;
  std::ostringstream text;
  text << seconds;
  throw Error(option + " " + text.str() + ": must be >= 0 seconds");
}

// -m (from the element size when only MAX or nothing is given), -i, -x, --timeout, --ranks-per-node.
void check_sizes_and_counts(Options& o, Given& g, const CLI::App& app) {
  if (!app.count("--message-size"))
    g.sizes = std::to_string(o.type.bytes) + ":" + std::to_string(kDefaultMax);
  else if (g.sizes.find_first_of(":,") == std::string::npos)  // MAX alone: from the element size, like the default
    g.sizes = std::to_string(o.type.bytes) + ":" + g.sizes;
  o.sizes = parse_sizes(g.sizes);
  for (std::size_t s : o.sizes)
    if (s % o.type.bytes != 0)
      throw Error("--message-size " + g.sizes + ": " + std::to_string(s) + " bytes is not a multiple of the " +
                  o.type.name + " size (" + std::to_string(o.type.bytes) + " bytes)");
  if (app.count("--iterations") && o.iterations < 1)
    throw Error("--iterations " + std::to_string(o.iterations) + ": must be >= 1");
  if (app.count("--warmup") && o.warmup < 0) throw Error("--warmup " + std::to_string(o.warmup) + ": must be >= 0");
  check_seconds("--timeout", o.timeout);
#ifdef MCB_SIMULATE
  if (o.timeout > 0)
    throw Error("--timeout: the simulation build has no watchdog (SMPI reports a deadlock itself, in simulated time)");
#endif
  if (app.count("--ranks-per-node") && o.layout.ranks_per_node < 1)
    throw Error("--ranks-per-node " + std::to_string(o.layout.ranks_per_node) + ": must be >= 1");
}

// -d, --staging, the GPU options, the simulation's buffers, --buffers.
void check_memory(Options& o, const Given& g, const Offer& offer, const CLI::App& app) {
  o.mem = parse_mem_kind(g.mem);
  o.staging = parse_staging(g.staging);
  if (g.gpu_aware == "auto")
    o.gpu_aware = GpuAware::automatic;
  else if (g.gpu_aware == "yes")
    o.gpu_aware = GpuAware::yes;
  else if (g.gpu_aware == "no")
    o.gpu_aware = GpuAware::no;
  else
    throw Error("--gpu-aware " + g.gpu_aware + ": expected auto, yes or no");
  o.gpu_run = offer.gpus && (app.count("--gpus-per-node") || app.count("--procs-per-gpu") || app.count("--gpu-aware"));
  if (offer.gpus && app.count("--gpus-per-node") && o.layout.gpus_per_node < 1)
    throw Error("--gpus-per-node " + std::to_string(o.layout.gpus_per_node) + ": must be >= 1");
  if (o.layout.procs_per_gpu < 1)
    throw Error("--procs-per-gpu " + std::to_string(o.layout.procs_per_gpu) + ": must be >= 1");
#ifdef MCB_SIMULATE
  if (o.layout.procs_per_gpu > 1)
    throw Error("--procs-per-gpu " + std::to_string(o.layout.procs_per_gpu) +
                ": the processes of a GPU share its buffers, and SMPI shares no memory between simulated ranks");
#endif
  if (g.sim_local_work != "on" && g.sim_local_work != "off")
    throw Error("--sim-local-work " + g.sim_local_work + ": expected on or off");
  o.sim_local_work = g.sim_local_work == "on";
  if (g.shared_malloc < 0)
    throw Error("--sim-shared-malloc " + std::to_string(g.shared_malloc) + ": must be >= 0 bytes");
  o.sim_shared_malloc = static_cast<std::size_t>(g.shared_malloc);
  if (o.sim_shared_malloc > 0 && o.validate)
    throw Error("--validate: buffers shared by --sim-shared-malloc hold no data of their own to check; drop one");
  if (o.sim_shared_malloc > 0 && o.mem != MemKind::host)
    throw Error("--sim-shared-malloc: shares host memory only (--mem " + g.mem + ")");
  if (o.buffers != "plain" && o.buffers != "registered" && o.buffers != "mixed")
    throw Error("--buffers " + o.buffers + ": expected plain, registered or mixed");
  if (o.fresh_send && o.mem != MemKind::host) throw Error("--fresh-send: writes host memory (--mem " + g.mem + ")");
  if (o.buffers != "plain" && o.mem != MemKind::host)
    throw Error("--buffers " + o.buffers + ": registered buffers are host memory (--mem " + g.mem + ")");
  if (o.buffers != "plain" && o.layout.procs_per_gpu > 1)
    throw Error("--buffers " + o.buffers + ": with --procs-per-gpu the processes of a GPU share its buffers already");
#ifdef MCB_SIMULATE
  if (o.buffers != "plain") throw Error("--buffers " + o.buffers + ": SMPI shares no memory between simulated ranks");
#endif
}

// --rank-order, --region, --phase-mode, --nodes, --progress, -v and --log-level.
void check_layout_and_logging(Options& o, const Given& g) {
  o.layout.order = parse_rank_order(g.order);
  o.layout.region = RegionSpec::parse(g.region);
  if (g.phase_mode == "embedded")
    o.phase_modes = {PhaseMode::embedded};
  else if (g.phase_mode == "isolated")
    o.phase_modes = {PhaseMode::isolated};
  else if (g.phase_mode == "both")
    o.phase_modes = {PhaseMode::embedded, PhaseMode::isolated};
  else
    throw Error("--phase-mode " + g.phase_mode + ": expected embedded, isolated or both");
  if (!g.nodes.empty()) o.nodes = parse_int_list("--nodes", g.nodes);
  check_seconds("--progress", o.progress);
  static const char* levels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
  o.log_level = std::max(0, 3 - g.verbose);
  if (!g.log_level.empty()) {
    auto it = std::find(std::begin(levels), std::end(levels), g.log_level);
    if (it == std::end(levels))
      throw Error("--log-level " + g.log_level + ": expected trace, debug, info, warn, error, critical or off");
    o.log_level = static_cast<int>(it - std::begin(levels));
  }
}

// --algorithm: a list, or all (every algorithm this build and MPI can run);
// each once, the first mention wins; then the parameters and configurations.
void check_algorithms(Options& o, const Given& g, const std::string& binary, const std::vector<Algorithm>& algorithms,
                      const CLI::App& app) {
  if (g.breakdown && (g.algos == "all" || g.algos.find(',') != std::string::npos))
    throw Error("--algorithm " + g.algos + ": " + binary + " breaks down one algorithm; name one (see --list)");
  std::vector<std::string> named;
  std::stringstream ss(g.algos);
  std::string name;
  while (std::getline(ss, name, ',')) {
    if (name == "all") {
      for (const auto& a : algorithms)
        if (a.available) o.algorithms.push_back(a.name);
      continue;
    }
    auto it = std::find_if(algorithms.begin(), algorithms.end(), [&](const Algorithm& a) { return a.name == name; });
    if (it == algorithms.end()) {
      std::vector<std::string> known;
      for (const auto& a : algorithms) known.push_back(a.name);
      throw Error("--algorithm: unknown algorithm '" + name + "' (known: " + joined(known) + ", all)");
    }
    if (!it->available) throw Error("--algorithm " + name + ": unavailable: " + it->unavailable_why);
    o.algorithms.push_back(name);
    named.push_back(name);
  }
  for (std::size_t i = 0; i < o.algorithms.size(); ++i)
    o.algorithms.erase(
        std::remove(o.algorithms.begin() + static_cast<long>(i) + 1, o.algorithms.end(), o.algorithms[i]),
        o.algorithms.end());
  if (o.algorithms.empty()) throw Error("--algorithm " + g.algos + ": no algorithm selected");
  for (const auto& [n, v] : g.params)
    if (app.count("--" + n)) o.params.set(n, v);
  o.configs = expand_configs(algorithms, o.algorithms, named, o.params);
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv, const std::string& binary,
                          const std::vector<Algorithm>& algorithms, Tool tool, const Offer& offer) {
  ParseResult result;
  Options& o = result.options;
  Given g;
  g.breakdown = tool == Tool::breakdown;
  g.type = offer.types.front();
  g.type_list = joined(offer.types);
  g.op = offer.ops.empty() ? "" : offer.ops.front();
  g.op_list = joined(offer.ops);
  g.algos = g.breakdown ? "" : "all";
  g.phase_mode = g.breakdown ? "both" : "embedded";
  CLI::App app{binary + ": OSU-style benchmark of collective algorithms (mcb " MCB_VERSION ")", binary};
  app.set_version_flag("--version", std::string(MCB_VERSION));
  add_osu_options(app, o, g, offer);
  add_gpu_options(app, o, g, offer);
  add_data_options(app, g, offer);
  add_output_options(app, o, g);
  add_layout_options(app, o, g);
  add_simulation_options(app, g);
  add_log_and_parameters(app, g, algorithms);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    result.exit_code = 0;
    result.output = app.help();
    return result;
  } catch (const CLI::CallForVersion&) {
    result.exit_code = 0;
    result.output = version_text(binary);
    return result;
  } catch (const CLI::ParseError& e) {
    throw Error(std::string(e.what()) + " (see --help)");
  }
  if (g.list) {
    result.exit_code = 0;
    result.output = list_algorithms(binary, algorithms);
    return result;
  }
  check_data(o, g, binary, offer);
  check_sizes_and_counts(o, g, app);
  check_memory(o, g, offer, app);
  check_layout_and_logging(o, g);
  check_algorithms(o, g, binary, algorithms, app);
  return result;
}

}  // namespace mcb::bench
