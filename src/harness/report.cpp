#include "harness/report.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "mcb/error.hpp"

namespace mcb::bench {

const std::vector<std::string>& schema_columns() {
  static const std::vector<std::string> cols = {"schema_version", "benchmark",  "mcb_version",    "collective",
                                                "algorithm",      "params",     "mpi_library",    "mpi_version",
                                                "ranks",          "nodes",      "ranks_per_node", "rank_order",
                                                "region",         "mem",        "datatype",       "phase_mode",
                                                "size_bytes",     "count",      "phase",          "iterations",
                                                "warmup",         "avg_us",     "median_us",      "min_us",
                                                "max_us",         "stddev_us",  "validation",     "host",
                                                "start_time",     "in_place",   "setup_us",       "gpus_per_node",
                                                "procs_per_gpu",  "gpu_aware",  "platform",       "osu_avg_us",
                                                "osu_min_us",     "osu_max_us", "p90_us",         "p99_us",
                                                "algbw_gbps",     "busbw_gbps", "buffers",        "mem_traffic_bytes",
                                                "fresh_send",     "counts"};
  return cols;
}

Row::Row() : values_(schema_columns().size(), std::string()) { set("schema_version", kSchemaVersion); }

Row& Row::set(const std::string& column, Value value) {
  const auto& cols = schema_columns();
  auto it = std::find(cols.begin(), cols.end(), column);
  if (it == cols.end()) throw std::logic_error("no column " + column + " in the mcb schema");
  values_[static_cast<std::size_t>(it - cols.begin())] = std::move(value);
  return *this;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + '"';
}

namespace {

std::string number(const Value& v) {
  if (const auto* i = std::get_if<long long>(&v)) return std::to_string(*i);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::get<double>(v));
  return buf;
}

}  // namespace

std::string csv_header() {
  std::string out;
  for (const auto& c : schema_columns()) out += (out.empty() ? "" : ",") + c;
  return out;
}

std::string csv_line(const Row& row) {
  std::string out;
  bool first = true;
  for (const auto& v : row.values()) {
    if (!first) out += ',';
    first = false;
    out += std::holds_alternative<std::string>(v) ? csv_field(std::get<std::string>(v)) : number(v);
  }
  return out;
}

std::string json_line(const Row& row) {
  std::string out = "{";
  const auto& cols = schema_columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const auto& v = row.values()[i];
    if (i) out += ", ";
    out += json_string(cols[i]) + ": ";
    out += std::holds_alternative<std::string>(v) ? json_string(std::get<std::string>(v)) : number(v);
  }
  return out + "}";
}

RowWriter::RowWriter(const std::string& csv_path, const std::string& json_path) {
  if (!csv_path.empty()) {
    csv_.open(csv_path, std::ios::trunc);
    if (!csv_) throw Error("--csv " + csv_path + ": cannot open for writing");
    csv_ << csv_header() << '\n' << std::flush;
  }
  if (!json_path.empty()) {
    json_.open(json_path, std::ios::trunc);
    if (!json_) throw Error("--json " + json_path + ": cannot open for writing");
  }
}

void RowWriter::write(const Row& row) {
  if (csv_.is_open()) csv_ << csv_line(row) << '\n' << std::flush;
  if (json_.is_open()) json_ << json_line(row) << '\n' << std::flush;
}

ConsoleTable::ConsoleTable(std::FILE* out, bool full, bool validate, std::string params,
                           std::vector<std::string> phases, bool bandwidth, bool traffic)
    : out_(out),
      full_(full),
      validate_(validate),
      params_(std::move(params)),
      phases_(std::move(phases)),
      bandwidth_(bandwidth),
      traffic_(full && traffic) {}

// 18 characters, or the name and "(us)" with two spaces before.
int ConsoleTable::phase_width(const std::string& phase) { return std::max(18, static_cast<int>(phase.size()) + 6); }

void ConsoleTable::header() const {
  std::fprintf(out_, "%-10s%18s", "# Size", "Avg Latency(us)");
  if (bandwidth_) std::fprintf(out_, "%18s", "Bandwidth(MB/s)");
  if (full_)
    std::fprintf(out_, "%18s%18s%12s%18s%18s%18s%14s", "Min Latency(us)", "Max Latency(us)", "Iterations",
                 "Slowest Avg(us)", "Slowest Med(us)", "Stddev(us)", "Setup(us)");
  if (full_) std::fprintf(out_, "%14s%14s", "algbw(GB/s)", "busbw(GB/s)");
  if (traffic_) std::fprintf(out_, "%14s%14s", "Traffic(B)", "MemBW(GB/s)");
  for (const char* copy : {"d2h", "h2d"})
    if (full_ && has_phase(copy)) std::fprintf(out_, "%14s", (std::string(copy) + "(GB/s)").c_str());
  if (validate_) std::fprintf(out_, "%12s", "Validation");
  if (phases_.size() > 1)
    for (const auto& p : phases_) std::fprintf(out_, "%*s", phase_width(p), (p + "(us)").c_str());
  std::fprintf(out_, "\n");
  std::fflush(out_);
}

bool ConsoleTable::follow(const std::string& params, const std::vector<std::string>& phases) {
  const bool changed = params != params_, columns = phases != phases_;
  if (changed) std::fprintf(out_, "# parameters: %s\n", params.c_str());
  params_ = params;
  phases_ = phases;
  if (columns) header();
  std::fflush(out_);
  return changed;
}

void ConsoleTable::row(std::size_t size, const Stats& total, const std::vector<Stats>& phases,
                       const std::string& validation, double setup_us, double algbw, double busbw, double traffic,
                       double mem_gbps) const {
  std::fprintf(out_, "%-10zu%18.2f", size, total.rank_avg);
  if (bandwidth_) std::fprintf(out_, "%18.2f", total.rank_avg > 0 ? static_cast<double>(size) / total.rank_avg : 0.0);
  if (full_)
    std::fprintf(out_, "%18.2f%18.2f%12zu%18.2f%18.2f%18.2f%14.2f", total.rank_min, total.rank_max, total.n, total.avg,
                 total.median, total.stddev, setup_us);
  if (full_) std::fprintf(out_, "%14.3f%14.3f", algbw, busbw);
  if (traffic_) std::fprintf(out_, "%14.0f%14.3f", traffic, mem_gbps);
  for (const auto& [copy, bytes] : {std::pair{"d2h", d2h_bytes_}, std::pair{"h2d", h2d_bytes_}}) {
    if (!full_ || !has_phase(copy)) continue;
    const auto at = static_cast<std::size_t>(std::find(phases_.begin(), phases_.end(), copy) - phases_.begin());
    const double us = at < phases.size() ? phases[at].rank_max : 0.0;
    std::fprintf(out_, "%14.3f", us > 0 ? bytes / us * 1e-3 : 0.0);
  }
  if (validate_) std::fprintf(out_, "%12s", validation.c_str());
  if (phases_.size() > 1)
    for (std::size_t i = 0; i < phases_.size(); ++i)  // follow() made the header's phases the plan's
      std::fprintf(out_, "%*.2f", phase_width(phases_[i]), i < phases.size() ? phases[i].rank_avg : 0.0);
  std::fprintf(out_, "\n");
  std::fflush(out_);
}

bool ConsoleTable::has_phase(const std::string& name) const {
  return std::find(phases_.begin(), phases_.end(), name) != phases_.end();
}

void BreakdownTable::columns(const std::vector<std::string>& phases) {
  if (printed_ && phases == phases_) return;
  phases_ = phases;
  printed_ = true;
  std::fprintf(out_, "%-7s%7s%10s%10s", "# Nodes", "Ranks", "Mode", "Size");
  for (const auto& p : phases_) std::fprintf(out_, "%16s", (p + "(us)").c_str());
  std::fprintf(out_, "%14s%18s", "Total(us)", "Largest");
  if (validate_) std::fprintf(out_, "%12s", "Validation");
  std::fprintf(out_, "  %s\n", "Parameters");
  std::fflush(out_);
}

void BreakdownTable::row(int nodes, int ranks, const std::string& mode, std::size_t size,
                         const std::vector<Stats>& phases, const Stats& total, const std::string& validation,
                         const std::string& params) const {
  std::fprintf(out_, "%-7d%7d%10s%10zu", nodes, ranks, mode.c_str(), size);
  double sum = 0, largest = -1;
  std::size_t which = 0;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    std::fprintf(out_, "%16.2f", phases[i].median);
    sum += phases[i].median;
    if (phases[i].median > largest) largest = phases[i].median, which = i;
  }
  char share[64] = "-";
  if (!phases.empty() && sum > 0)
    std::snprintf(share, sizeof share, "%s %.0f%%", phases_[which].c_str(), 100.0 * largest / sum);
  std::fprintf(out_, "%14.2f%18s", total.median, share);
  if (validate_) std::fprintf(out_, "%12s", validation.c_str());
  std::fprintf(out_, "  %s\n", params.c_str());
  std::fflush(out_);
}

}  // namespace mcb::bench
