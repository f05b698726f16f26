// A plan is an algorithm set up once (communicators, schedules, scratch
// buffers) and executed many times. It is an ordered list of named phases
// (gather, inter_node, intra_node, scatter, exchange, ...), each a list of
// steps; the harness times the whole plan or each phase.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
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

  /// What the algorithm resolved and decided, for headers and reports:
  /// parameters, the bytes of memory this rank reads and writes per
  /// execution (counted from the algorithm's schedule: the roofline of the
  /// shared-memory allreduces; negative when not counted) and notes for the
  /// user (logged at -v: a copy path that fell back, and why). Copies of a
  /// plan share it, and so may its steps: an algorithm that sets up lazily
  /// in its first execution (the blocking interface) records there what it
  /// decided.
  class Report {
   public:
    void set_param(const std::string& name, const std::string& value);
    const std::vector<std::pair<std::string, std::string>>& params() const { return params_; }
    void set_traffic(double bytes) { traffic_ = bytes; }
    double traffic() const { return traffic_; }
    void add_note(const std::string& note) { notes_.push_back(note); }
    const std::vector<std::string>& notes() const { return notes_; }
    /// Seconds of setup done inside executions so far (a blocking
    /// interface's first call of a shape), which the caller's own setup
    /// timer cannot see: the preload adds them to its report's time_setup.
    void add_setup(double seconds) { setup_ += seconds; }
    double setup() const { return setup_; }

   private:
    std::vector<std::pair<std::string, std::string>> params_;
    double traffic_ = -1;
    std::vector<std::string> notes_;
    double setup_ = 0;
  };
  const std::shared_ptr<Report>& report() const { return report_; }

  /// Parameters as resolved by the algorithm (for headers and reports).
  void set_param(const std::string& name, const std::string& value) { report_->set_param(name, value); }
  const std::vector<std::pair<std::string, std::string>>& params() const { return report_->params(); }
  /// "name=value;name=value", or "" when the algorithm has none.
  std::string params_string() const;
  void set_traffic(double bytes) { report_->set_traffic(bytes); }
  double traffic() const { return report_->traffic(); }
  void add_note(const std::string& note) { report_->add_note(note); }
  const std::vector<std::string>& notes() const { return report_->notes(); }

 private:
  std::vector<Phase> phases_;
  std::shared_ptr<Report> report_ = std::make_shared<Report>();
};

}  // namespace mcb
