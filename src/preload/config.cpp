// Reads the preload's environment (see config.hpp) and checks what can be
// checked without a communicator: the algorithm exists and this build can
// run it, every parameter is one of the algorithm's, given once, with one
// value of the right form (one of its choices, an integer, or a factor list)
// that applies given the others. Ranges that depend on a communicator (a
// radix above its size, factors that do not multiply to its ranks per node)
// are the algorithm's to refuse when a plan is made: that call goes to the
// MPI's own collective, counted as setup_error (see preload.cpp).
#include "config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>
#include <vector>

#include "mcb/allgather.hpp"
#include "mcb/allreduce.hpp"
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "mcb/gather.hpp"
#include "mcb/reduce_scatter.hpp"
#include "mcb/scatter.hpp"

namespace mcb::preload {

const char* mpi_name(Coll c) {
  static const char* names[kColls] = {
      "MPI_Alltoall",       "MPI_Allgather",  "MPI_Allreduce", "MPI_Bcast",   "MPI_Reduce",  "MPI_Reduce_scatter_block",
      "MPI_Reduce_scatter", "MPI_Allgatherv", "MPI_Gather",    "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv"};
  return names[index(c)];
}

const char* env_name(Coll c) {
  static const char* names[kColls] = {
      "MCB_ALLTOALL",       "MCB_ALLGATHER",  "MCB_ALLREDUCE", "MCB_BCAST",   "MCB_REDUCE",  "MCB_REDUCE_SCATTER_BLOCK",
      "MCB_REDUCE_SCATTER", "MCB_ALLGATHERV", "MCB_GATHER",    "MCB_GATHERV", "MCB_SCATTER", "MCB_SCATTERV"};
  return names[index(c)];
}

namespace {

// The registry each variable names from: the benchmark of the same name's
// --list (mcb_reduce_scatter_block's for MCB_REDUCE_SCATTER_BLOCK, ...).
const std::vector<Algorithm>& registry(Coll c) {
  switch (c) {
    case Coll::alltoall:
      return alltoall::algorithms();
    case Coll::allgather:
      return allgather::algorithms();
    case Coll::allreduce:
      return allreduce::algorithms();
    case Coll::bcast:
      return allreduce::bcast_algorithms();
    case Coll::reduce:
      return allreduce::reduce_algorithms();
    case Coll::reduce_scatter_block:
      return reduce_scatter::block_algorithms();
    case Coll::reduce_scatter:
      return reduce_scatter::algorithms();
    case Coll::allgatherv:
      return allgather::v_algorithms();
    case Coll::gather:
      return gather::algorithms();
    case Coll::gatherv:
      return gather::v_algorithms();
    case Coll::scatter:
      return scatter::algorithms();
    case Coll::scatterv:
      return scatter::v_algorithms();
  }
  throw Error("unknown collective");
}

// The collective's word in messages: the benchmark's name without mcb_.
const char* collective_word(Coll c) {
  static const char* words[kColls] = {
      "alltoall",       "allgather",  "allreduce", "bcast",   "reduce",  "reduce_scatter_block",
      "reduce_scatter", "allgatherv", "gather",    "gatherv", "scatter", "scatterv"};
  return words[index(c)];
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::stringstream ss(text);
  while (std::getline(ss, item, sep)) out.push_back(item);
  if (!text.empty() && text.back() == sep) out.emplace_back();
  return out;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// One parameter's value, in the forms the registry's parameters take.
void check_value(const Algorithm& a, const ParamSpec& p, const std::string& value) {
  const std::string head = a.name + ": " + p.name + "=" + value + ": ";
  if (value.empty()) throw Error(head + "empty value");
  if (!p.choices.empty()) {
    if (std::find(p.choices.begin(), p.choices.end(), value) == p.choices.end())
      throw Error(head + "expected one of " + join_names(p.choices));
    return;
  }
  if (p.list) {  // the benchmarks' lists of integers: one integer here
    if (value.find(',') != std::string::npos)
      throw Error(head + "one value per parameter (the benchmarks' lists do not apply here)");
    // The radices of tra and tra2 start at 2 whatever the communicator; the
    // small path's switch (small=0: never) at 0.
    const long least = p.name.rfind("radix", 0) == 0 ? 2 : p.name == "small" ? 0 : 1;
    if (!Params::is_integer(value) || std::atol(value.c_str()) < least)
      throw Error(head + (least == 2   ? "expected an integer >= 2"
                          : least == 0 ? "expected a whole number of bytes"
                                       : "expected a positive integer"));
    return;
  }
  // A list that is one value (--factors=-4,-2,2,4); the benchmarks'
  // alternatives a/b do not apply.
  if (value.find('/') != std::string::npos)
    throw Error(head + "one value per parameter (the benchmarks' alternatives a/b do not apply here)");
  if (value == "none") return;  // --node-factors none
  for (const auto& item : split(value, ','))
    if (item.empty() || !Params::is_integer(item)) throw Error(head + "'" + item + "' is not an integer");
}

int parse_positive(const char* name, const std::string& text) {
  if (!Params::is_integer(text) || std::atol(text.c_str()) < 1)
    throw Error(std::string(name) + "=" + text + ": expected a positive integer");
  return std::atoi(text.c_str());
}

}  // namespace

Choice parse_choice(Coll coll, const std::string& text) {
  Choice c;
  c.text = text;
  if (text.empty()) return c;
  c.enabled = true;
  const std::vector<std::string> parts = split(text, ':');
  const std::string& name = parts[0];
  const auto& algos = registry(coll);
  auto it = std::find_if(algos.begin(), algos.end(), [&](const Algorithm& a) { return a.name == name; });
  if (it == algos.end()) {
    std::vector<std::string> known;
    for (const auto& a : algos) known.push_back(a.name);
    throw Error("unknown " + std::string(collective_word(coll)) + " algorithm '" + name +
                "' (known: " + join_names(known) + ")");
  }
  const Algorithm& a = *it;
  if (!a.available) throw Error(a.name + ": unavailable in this build: " + a.unavailable_why);
  c.algorithm = &a;
  std::set<std::string> seen;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& item = parts[i];
    const auto eq = item.find('=');
    if (item.empty()) throw Error("empty item between ':' (expected NAME[:PARAM=VALUE...])");
    if (eq == std::string::npos || eq == 0)
      throw Error("'" + item + "' is not PARAM=VALUE (expected NAME[:PARAM=VALUE...])");
    const std::string pname = item.substr(0, eq), value = item.substr(eq + 1);
    auto spec = std::find_if(a.params.begin(), a.params.end(), [&](const ParamSpec& p) { return p.name == pname; });
    if (spec == a.params.end()) {
      std::vector<std::string> known;
      for (const auto& p : a.params) known.push_back(p.name);
      throw Error(a.name + " has no parameter '" + pname + "'" +
                  (known.empty() ? " (it takes none)" : " (it takes " + join_names(known) + ")"));
    }
    if (!seen.insert(pname).second) throw Error(a.name + ": " + pname + " given twice");
    check_value(a, *spec, value);
    c.params.set(pname, value);
  }
  for (const auto& p : a.params)
    if (c.params.has(p.name) && p.applies && !p.applies(c.params))
      throw Error(a.name + ": " + p.name + " does not apply with the other parameters given (see --list)");
  // The shared-memory allreduces: by default their blocking interface, whose
  // engines mcb caches per communicator, count, type and op; a plan for new
  // buffers is then made by one rank alone. interface=persistent sets up a
  // shared window per plan, so the ranks must agree on every rebuild.
  const bool has_interface =
      std::any_of(a.params.begin(), a.params.end(), [](const ParamSpec& p) { return p.name == "interface"; });
  if (has_interface && !c.params.has("interface")) c.params.set("interface", "blocking");
  c.agreed = a.name == "system_persistent" || (has_interface && c.params.get("interface") == "persistent");
  return c;
}

Config read_config() {
  Config cfg;
  auto env = [](const char* name) -> const char* { return std::getenv(name); };
  for (Coll coll : kAllColls) {
    const char* v = env(env_name(coll));
    if (!v) continue;
    try {
      cfg.choice[index(coll)] = parse_choice(coll, v);
    } catch (const Error& e) {
      if (cfg.error.empty()) cfg.error = std::string(env_name(coll)) + "=" + v + ": " + e.what();
    }
  }
  auto guarded = [&](const char* name, auto&& f) {
    const char* v = env(name);
    if (!v || !*v) return;
    try {
      f(std::string(v));
    } catch (const Error& e) {
      if (cfg.error.empty()) cfg.error = e.what();
    }
  };
  guarded("MCB_RANKS_PER_NODE",
          [&](const std::string& v) { cfg.ranks_per_node = parse_positive("MCB_RANKS_PER_NODE", v); });
  guarded("MCB_PRELOAD_CACHE", [&](const std::string& v) {
    const auto parts = split(v, ',');
    if (parts.size() != 2)
      throw Error("MCB_PRELOAD_CACHE=" + v + ": expected SHAPES,PLANS (call shapes per communicator, plans per shape)");
    cfg.shapes = parse_positive("MCB_PRELOAD_CACHE", parts[0]);
    cfg.plans = parse_positive("MCB_PRELOAD_CACHE", parts[1]);
  });
  guarded("MCB_PRELOAD_SETUP", [&](const std::string& v) { cfg.setup_after = parse_positive("MCB_PRELOAD_SETUP", v); });
  guarded("MCB_PRELOAD_REPORT", [&](const std::string& v) {
    if (v == "0") return;
    if (v == "1" || v == "stderr")
      cfg.report = Config::Report::to_stderr;
    else if (v == "stdout")
      cfg.report = Config::Report::to_stdout;
    else if (v.find('/') != std::string::npos) {
      cfg.report = Config::Report::to_file;
      cfg.report_path = v;
    } else {
      throw Error("MCB_PRELOAD_REPORT=" + v + ": expected 0, 1 (stderr), stderr, stdout or a file path with a '/'");
    }
  });
  return cfg;
}

}  // namespace mcb::preload
