#include "mcb/plan.hpp"

namespace mcb {

void Plan::add(const std::string& phase, Step step) {
  if (phases_.empty() || phases_.back().name != phase) phases_.push_back({phase, {}});
  phases_.back().steps.push_back(std::move(step));
}

void Plan::append(const Plan& inner, const std::string& phase) {
  for (const auto& p : inner.phases_)
    for (const auto& s : p.steps) add(phase, s);
  for (const auto& [name, value] : inner.params()) set_param(phase + "." + name, value);
}

void Plan::append(const Plan& inner) {
  for (const auto& p : inner.phases_)
    for (const auto& s : p.steps) add(p.name, s);
}

void Plan::execute() const {
  for (const auto& p : phases_)
    for (const auto& s : p.steps) s();
}

void Plan::run_phase(std::size_t i) const {
  for (const auto& s : phases_.at(i).steps) s();
}

std::vector<std::string> Plan::phase_names() const {
  std::vector<std::string> names;
  for (const auto& p : phases_) names.push_back(p.name);
  return names;
}

void Plan::Report::set_param(const std::string& name, const std::string& value) {
  for (auto& [n, v] : params_)
    if (n == name) {
      v = value;
      return;
    }
  params_.emplace_back(name, value);
}

std::string Plan::params_string() const {
  std::string out;
  for (const auto& [n, v] : params()) {
    if (!out.empty()) out += ';';
    out += n + '=' + v;
  }
  return out;
}

}  // namespace mcb
