// A plan is an algorithm set up once (communicators, schedules, scratch
// buffers) and executed many times. It is an ordered list of named phases
// (gather, inter_node, intra_node, scatter, exchange, ...), each a list of
// steps; the harness times the whole plan or each phase.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mcb {

class Plan {
 public:
  using Step = std::function<void()>;
  struct Phase {
    std::string name;
    std::vector<Step> steps;
  };

  /// Appends a step; consecutive steps with the same phase name form one phase.
  void add(const std::string& phase, Step step);
  /// Appends every step of `inner` under one phase of this plan (an inner
  /// exchange rolls up into its parent's phase); its parameters become
  /// "<phase>.<name>".
  void append(const Plan& inner, const std::string& phase);
  /// Appends `inner` keeping its own phase names.
  void append(const Plan& inner);

  /// Runs every phase in order.
  void execute() const;
  /// Runs phase `i` alone; running 0..n-1 in order equals execute().
  void run_phase(std::size_t i) const;

  const std::vector<Phase>& phases() const { return phases_; }
  std::vector<std::string> phase_names() const;

  /// Parameters as resolved by the algorithm (for headers and reports).
  void set_param(const std::string& name, const std::string& value);
  const std::vector<std::pair<std::string, std::string>>& params() const { return params_; }
  /// "name=value;name=value", or "" when the algorithm has none.
  std::string params_string() const;

  /// The bytes of memory this rank reads and writes per execution, counted
  /// from the algorithm's schedule (the roofline of the shared-memory
  /// allreduces); negative when the algorithm does not count them.
  void set_traffic(double bytes) { traffic_ = bytes; }
  double traffic() const { return traffic_; }

  /// What the algorithm decided and why, for the user (the benchmarks log
  /// these at -v: a copy path that fell back, and the kernel's refusal).
  void add_note(const std::string& note) { notes_.push_back(note); }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::vector<Phase> phases_;
  std::vector<std::pair<std::string, std::string>> params_;
  double traffic_ = -1;
  std::vector<std::string> notes_;
};

}  // namespace mcb
