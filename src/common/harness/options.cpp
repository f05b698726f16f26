#include "harness/options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

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

int default_iterations(std::size_t bytes) { return bytes <= kLargeMessage ? 1000 : 100; }
int default_warmup(std::size_t bytes) { return bytes <= kLargeMessage ? 100 : 10; }

std::string list_algorithms(const std::string& binary, const std::vector<Algorithm>& algorithms) {
  std::ostringstream out;
  out << "# " << binary << " algorithms (use --algorithm a,b,c or all)\n";
  for (const auto& a : algorithms) {
    out << "  " << a.name;
    for (std::size_t i = a.name.size(); i < 20; ++i) out << ' ';
    out << a.summary;
    if (!a.available) out << " [unavailable: " << a.unavailable_why << "]";
    out << '\n';
    for (const auto& p : a.params)
      out << "      --" << p.name << "  " << p.help
          << (p.default_value.empty() ? "" : " (default " + p.default_value + ")") << '\n';
  }
  return out.str();
}

ParseResult parse_options(int argc, const char* const* argv, const std::string& binary,
                          const std::vector<Algorithm>& algorithms) {
  ParseResult result;
  Options& o = result.options;
  CLI::App app{binary + ": OSU-style benchmark of collective algorithms (mcb " MCB_VERSION ")", binary};
  app.set_version_flag("--version", std::string(MCB_VERSION));

  std::string sizes = "1:" + std::to_string(kDefaultMax), mem = "host", type = "char";
  std::string algos = "all", order = "block", region = "none", phase_mode = "embedded", log_level;
  int verbose = 0;
  bool list = false;
  app.add_option("-m,--message-size", sizes, "bytes per block: MIN:MAX doubling from MIN, [MIN:]MAX, or a list a,b,c")
      ->capture_default_str();
  app.add_option("-i,--iterations", o.iterations, "timed iterations per size (default 1000, 100 above 8 KiB)");
  app.add_option("-x,--warmup", o.warmup, "untimed warm-up iterations per size (default 100, 10 above 8 KiB)");
  app.add_flag("-f,--full", o.full, "print median, min, max, stddev and iteration columns");
  app.add_flag("-c,--validate", o.validate, "check every element against the system MPI's collective");
  app.add_option("-d,--mem", mem, "buffer memory: host, cuda or hip")->capture_default_str();
  app.add_option("-T,--type", type, "element type: char, int, float or double")->capture_default_str();
  app.add_option("--csv", o.csv, "write one CSV row per (algorithm, size, phase) to FILE");
  app.add_option("--json", o.json, "write the same rows as JSON Lines to FILE");
  app.add_option("--algorithm", algos, "comma-separated algorithms, or all (see --list)")->capture_default_str();
  app.add_flag("--list", list, "list the algorithms and their parameters, then exit");
  app.add_option("--ranks-per-node", o.layout.ranks_per_node,
                 "virtual nodes of K consecutive ranks (default: MPI_COMM_TYPE_SHARED)");
  app.add_option("--rank-order", order, "block or cyclic placement of ranks across nodes")->capture_default_str();
  app.add_option("--region", region, "regions inside a node: none, numa, package, l3 or size:K")->capture_default_str();
  app.add_option("--phase-mode", phase_mode, "embedded (phases timed inside the run) or isolated (alone)")
      ->capture_default_str();
  app.add_flag("-v,--verbose", verbose, "more log output (-v info, -vv debug, -vvv trace)");
  app.add_option("--log-level", log_level, "log level: trace, debug, info, warn, error, critical, off");

  // Every parameter of every algorithm becomes an option --<name>.
  std::map<std::string, std::string> param_values;
  std::set<std::string> seen;
  for (const auto& a : algorithms)
    for (const auto& p : a.params)
      if (seen.insert(p.name).second) app.add_option("--" + p.name, param_values[p.name], p.help);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    result.exit_code = 0;
    result.output = app.help();
    return result;
  } catch (const CLI::CallForVersion&) {
    result.exit_code = 0;
    result.output = binary + " " MCB_VERSION "\n";
    return result;
  } catch (const CLI::ParseError& e) {
    throw Error(std::string(e.what()) + " (see --help)");
  }
  if (list) {
    result.exit_code = 0;
    result.output = list_algorithms(binary, algorithms);
    return result;
  }

  o.type = parse_datatype(type);
  if (!app.count("--message-size")) sizes = std::to_string(o.type.bytes) + ":" + std::to_string(kDefaultMax);
  o.sizes = parse_sizes(sizes);
  for (std::size_t s : o.sizes)
    if (s % o.type.bytes != 0)
      throw Error("--message-size " + sizes + ": " + std::to_string(s) + " bytes is not a multiple of the " +
                  o.type.name + " size (" + std::to_string(o.type.bytes) + " bytes)");
  if (app.count("--iterations") && o.iterations < 1)
    throw Error("--iterations " + std::to_string(o.iterations) + ": must be >= 1");
  if (app.count("--warmup") && o.warmup < 0) throw Error("--warmup " + std::to_string(o.warmup) + ": must be >= 0");
  if (app.count("--ranks-per-node") && o.layout.ranks_per_node < 1)
    throw Error("--ranks-per-node " + std::to_string(o.layout.ranks_per_node) + ": must be >= 1");
  o.mem = parse_mem_kind(mem);
  o.layout.order = parse_rank_order(order);
  o.layout.region = RegionSpec::parse(region);
  if (phase_mode == "embedded")
    o.phase_mode = PhaseMode::embedded;
  else if (phase_mode == "isolated")
    o.phase_mode = PhaseMode::isolated;
  else
    throw Error("--phase-mode " + phase_mode + ": expected embedded or isolated");

  static const char* levels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
  o.log_level = std::max(0, 3 - verbose);
  if (!log_level.empty()) {
    auto it = std::find(std::begin(levels), std::end(levels), log_level);
    if (it == std::end(levels))
      throw Error("--log-level " + log_level + ": expected trace, debug, info, warn, error, critical or off");
    o.log_level = static_cast<int>(it - std::begin(levels));
  }

  // --algorithm: a list, or all (every algorithm this build and MPI can run).
  std::stringstream ss(algos);
  std::string name;
  while (std::getline(ss, name, ',')) {
    if (name == "all") {
      for (const auto& a : algorithms)
        if (a.available) o.algorithms.push_back(a.name);
      continue;
    }
    auto it = std::find_if(algorithms.begin(), algorithms.end(), [&](const Algorithm& a) { return a.name == name; });
    if (it == algorithms.end()) {
      std::string known;
      for (const auto& a : algorithms) known += (known.empty() ? "" : ", ") + a.name;
      throw Error("--algorithm: unknown algorithm '" + name + "' (known: " + known + ", all)");
    }
    if (!it->available) throw Error("--algorithm " + name + ": unavailable: " + it->unavailable_why);
    o.algorithms.push_back(name);
  }
  for (std::size_t i = 0; i < o.algorithms.size(); ++i)  // each algorithm once, first mention wins
    o.algorithms.erase(
        std::remove(o.algorithms.begin() + static_cast<long>(i) + 1, o.algorithms.end(), o.algorithms[i]),
        o.algorithms.end());
  if (o.algorithms.empty()) throw Error("--algorithm " + algos + ": no algorithm selected");
  for (const auto& [n, v] : param_values)
    if (app.count("--" + n)) o.params.set(n, v);
  return result;
}

}  // namespace mcb::bench
