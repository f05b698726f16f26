// What rank 0 prints and writes of a run: the description above each
// configuration's table (or once above the breakdown), the console rows,
// the CSV/JSON rows of docs/schema.md and --save-iterations. The formats
// themselves are harness/report.hpp's; this part knows what goes in them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <fstream>
#include <memory>
#include <string>

#include "harness/measure.hpp"
#include "harness/options.hpp"
#include "harness/report.hpp"
#include "harness/session.hpp"
#include "harness/spec.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"

namespace mcb::bench {

/// One size's outcome besides its measurement.
struct SizeResult {
  std::size_t size, count;
  int iterations, warmup;
  std::string validation;  // pass, fail or off
  double setup_us;
};

class Reporter {
 public:
  /// Collective over `world`: its rank 0 opens the files (a failure there
  /// stops every rank) and is the only one to print and write.
  Reporter(const CollectiveSpec& spec, const Options& opt, MPI_Comm world);

  const Identity& identity() const { return id_; }
  /// Before a configuration's first size, on every rank.
  /// `host_copies`: the harness stages this algorithm's buffers through the host.
  void start_configuration(const Layout& layout, bool gpu_aware, bool groups, bool host_copies);
  /// Rank 0, after each size's plan ran: the header and the table with the
  /// configuration's first plan; a later size's plan that decided otherwise
  /// (other parameters or phases) has its notes logged. `traffic`: the
  /// plan's Plan::traffic(), max over ranks.
  void plan_ready(const Algorithm& algorithm, const Plan& plan, PhaseMode mode, double traffic);
  /// Rank 0: the console row and the CSV/JSON rows of one size.
  void row(const Algorithm& algorithm, const Plan& plan, PhaseMode mode, const SizeResult& r, const Measurement& m);

 private:
  void print_header(const Algorithm& algorithm, const Plan& plan, const ConsoleTable* table, PhaseMode mode) const;
  void print_gpus() const;
  void print_device() const;
  std::string buffers_text() const;
  std::string in_place_text() const;
  void save_iterations(const Algorithm& algorithm, const std::string& params, PhaseMode mode, std::size_t size,
                       int iterations, const Measurement& m);

  const CollectiveSpec& spec_;
  const Options& opt_;
  Identity id_;
  const Layout* layout_ = nullptr;
  bool gpu_aware_ = true, groups_ = false, host_copies_ = false;
  std::unique_ptr<RowWriter> writer_;
  std::ofstream iterations_;  // --save-iterations
  std::unique_ptr<BreakdownTable> breakdown_;
  std::unique_ptr<ConsoleTable> table_;  // the configuration's (Tool::benchmark)
  bool header_printed_ = false;          // the breakdown's, once
  bool started_ = false;                 // the configuration's header is out
  double traffic_ = 0;                   // the current plan's Plan::traffic(), max over ranks
};

}  // namespace mcb::bench
