// Output for people (an OSU-like console table) and for programs (CSV and
// JSON Lines, one self-describing row per (configuration, size, phase),
// flushed row by row). The column list is the documented schema.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "harness/stats.hpp"

namespace mcb::bench {

/// The columns of every CSV/JSON row, in order (docs/schema.md).
const std::vector<std::string>& schema_columns();
constexpr int kSchemaVersion = 1;

using Value = std::variant<std::string, long long, double>;

/// One row: a value for every schema column, in schema order.
class Row {
 public:
  Row();
  Row& set(const std::string& column, Value value);  // throws std::logic_error for unknown columns
  const std::vector<Value>& values() const { return values_; }

 private:
  std::vector<Value> values_;
};

/// RFC 4180 quoting: fields with a comma, quote or newline are quoted.
std::string csv_field(const std::string& text);
/// A JSON string literal with escapes.
std::string json_string(const std::string& text);

std::string csv_header();
std::string csv_line(const Row& row);
std::string json_line(const Row& row);

/// Writes rows to an optional CSV and an optional JSON Lines file.
class RowWriter {
 public:
  /// Throws Error when a file cannot be opened.
  RowWriter(const std::string& csv_path, const std::string& json_path);
  void write(const Row& row);

 private:
  std::ofstream csv_, json_;
};

/// The console table of one algorithm: OSU's columns, plus per-phase averages.
class ConsoleTable {
 public:
  /// bandwidth: a Bandwidth(MB/s) column, size / average time. traffic:
  /// with -f, Traffic(B) and MemBW(GB/s) columns (the schedule's memory
  /// traffic per rank, and the node's ranks' traffic over the slowest
  /// rank's mean time).
  ConsoleTable(std::FILE* out, bool full, bool validate, std::string params, std::vector<std::string> phases,
               bool bandwidth = false, bool traffic = false);
  void header() const;
  /// The parameters and phase names of the next row's plan. A plan may decide
  /// per size (`copy=auto` measures at every setup, a blocking plan in its
  /// first call): where they differ from the last printed, a "# parameters:"
  /// line and the column header again, so that every column means what its
  /// header says. True when the parameters changed.
  bool follow(const std::string& params, const std::vector<std::string>& phases);
  /// total: the whole operation; phases: one Stats per phase name of the last header.
  /// setup_us: the plan's setup; algbw, busbw: nccl-tests' bandwidths in
  /// GB/s (all three shown with -f).
  void row(std::size_t size, const Stats& total, const std::vector<Stats>& phases, const std::string& validation,
           double setup_us = 0, double algbw = 0, double busbw = 0, double traffic = 0, double mem_gbps = 0) const;
  /// With -f and host copies (phases d2h and h2d): the bytes one GPU's
  /// copies move in each, shown as d2h(GB/s) and h2d(GB/s) over the slowest
  /// rank's mean time of the phase.
  void set_copy_bytes(double d2h, double h2d) {
    d2h_bytes_ = d2h;
    h2d_bytes_ = h2d;
  }

 private:
  static int phase_width(const std::string& phase);
  bool has_phase(const std::string& name) const;
  std::FILE* out_;
  bool full_, validate_;
  std::string params_;
  std::vector<std::string> phases_;
  bool bandwidth_, traffic_;
  double d2h_bytes_ = 0, h2d_bytes_ = 0;
};

/// mcb_breakdown's table: one row per (nodes, parameters, phase mode, size)
/// with the median of every phase, the total and the phase that dominates.
class BreakdownTable {
 public:
  BreakdownTable(std::FILE* out, bool validate) : out_(out), validate_(validate) {}
  /// Prints the column header when `phases` differ from the last header's.
  void columns(const std::vector<std::string>& phases);
  void row(int nodes, int ranks, const std::string& mode, std::size_t size, const std::vector<Stats>& phases,
           const Stats& total, const std::string& validation, const std::string& params) const;

 private:
  std::FILE* out_;
  bool validate_;
  std::vector<std::string> phases_;
  bool printed_ = false;
};

}  // namespace mcb::bench
