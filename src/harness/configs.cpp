// The configurations of a run (harness/options.hpp, expand_configs): per
// algorithm, every combination of its parameters' values, checked as a
// whole before anything runs.
#include <algorithm>
#include <sstream>

#include "harness/options.hpp"
#include "mcb/error.hpp"

namespace mcb::bench {

namespace {

// The parameters without a fixed set of values take integers: a list of
// them (--leaders-per-node 1,2,4; "all" where the algorithm expands it) or,
// for the factor lists, alternatives a/b of comma-separated integers (or
// none). Checked as a whole before anything runs: a bad item anywhere in
// the list stops the run before its first configuration.
void check_integers(const ParamSpec& p, const std::string& text, const std::vector<std::string>& values) {
  for (const auto& v : values) {
    if (p.list) {
      if (v != "all" && !Params::is_integer(v))
        throw Error("--" + p.name + " " + text +
                    (text == v ? ": expected an integer" : ": '" + v + "' is not an integer"));
      continue;
    }
    if (v == "none") continue;
    std::stringstream items(v);
    std::string item;
    while (std::getline(items, item, ','))
      if (!Params::is_integer(item)) throw Error("--" + p.name + " " + text + ": '" + item + "' is not an integer");
    if (v.back() == ',') throw Error("--" + p.name + " " + text + ": empty item in the list");
  }
}

}  // namespace

std::vector<Config> expand_configs(const std::vector<Algorithm>& algorithms, const std::vector<std::string>& names,
                                   const std::vector<std::string>& named, const Params& given) {
  std::vector<Config> configs;
  for (const auto& name : names) {
    const Algorithm& a =
        *std::find_if(algorithms.begin(), algorithms.end(), [&](const auto& x) { return x.name == name; });
    std::vector<Params> combos(1);
    for (const auto& p : a.params) {
      const std::string text = given.has(p.name) ? given.get(p.name) : p.default_value;
      if (text.empty()) continue;
      std::vector<std::string> values;
      std::stringstream ss(text);
      std::string item;
      const char separator = p.list ? ',' : '/';
      while (std::getline(ss, item, separator)) {
        if (item.empty()) throw Error("--" + p.name + " " + text + ": empty item in the list");
        if (item == "all" && !p.choices.empty()) {
          values.insert(values.end(), p.choices.begin(), p.choices.end());
          continue;
        }
        if (!p.choices.empty() && std::find(p.choices.begin(), p.choices.end(), item) == p.choices.end()) {
          std::string known;
          for (const auto& c : p.choices) known += c + ", ";
          throw Error("--" + p.name + " " + item + ": expected one of " + known + "a list of them, or all");
        }
        values.push_back(item);
      }
      if (values.empty() || text.back() == separator)
        throw Error("--" + p.name + " " + text + ": empty item in the list");
      if (given.has(p.name) && p.choices.empty()) check_integers(p, text, values);
      for (std::size_t i = 0; i < values.size(); ++i)  // each value once, first mention wins
        values.erase(std::remove(values.begin() + static_cast<long>(i) + 1, values.end(), values[i]), values.end());
      std::vector<Params> next;
      for (const auto& c : combos) {
        if (p.applies && !p.applies(c)) {
          next.push_back(c);
          continue;
        }
        for (const auto& v : values) {
          next.push_back(c);
          next.back().set(p.name, v);
        }
      }
      combos = std::move(next);
    }
    const bool is_named = std::find(named.begin(), named.end(), name) != named.end();
    for (auto& c : combos) configs.push_back({name, std::move(c), is_named});
  }
  return configs;
}

}  // namespace mcb::bench
