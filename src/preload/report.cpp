// The preload's counters and its report (see report.hpp for the fields,
// docs/preload.md for the format).
#include "report.hpp"

#include <cstdio>
#include <sstream>

#include "mcb/allreduce.hpp"

namespace mcb::preload {

const char* reason_name(Reason r) {
  static const char* names[kReasons] = {
      "intercomm", "in_place", "type_mismatch", "type",    "user_op",  "non_commutative_op", "overflow",
      "empty",     "layout",   "setup_error",   "invalid", "deferred", "displacements"};
  return names[static_cast<int>(r)];
}

Stats& stats() {
  static Stats* s = new Stats;  // never destroyed: calls may come during static destruction
  return *s;
}

std::string format_report(const Config& cfg, int world_size) {
  std::ostringstream out;
  char num[64];
  auto sec = [&](double s) {
    std::snprintf(num, sizeof num, "%.6e", s);
    return std::string(num);
  };
  out << "# mcb_preload report: rank 0 of MPI_COMM_WORLD (" << world_size
      << " ranks); its own calls, times in seconds summed over them\n";
  for (Coll c : kAllColls) {
    const Choice& ch = cfg[c];
    if (!ch.enabled) {
      out << "mcb_preload: " << mpi_name(c) << " unset (the MPI's own, not intercepted)\n";
      continue;
    }
    const CollStats s = stats().get(c);
    out << "mcb_preload: " << mpi_name(c) << " algorithm=" << ch.text << " calls=" << s.calls << " served=" << s.served
        << " fallback=" << s.fallback << " packed=" << s.packed << " time_served=" << sec(s.time_served)
        << " time_fallback=" << sec(s.time_fallback) << " time_setup=" << sec(s.time_setup) << " layouts=" << s.layouts
        << " shapes=" << s.shapes << " shapes_evicted=" << s.shapes_evicted << " plans=" << s.plans
        << " plans_evicted=" << s.plans_evicted << " agreements=" << s.agreements << " fortran=" << s.fortran
        << " single=" << s.single;
    if (c == Coll::allreduce) out << " shm_segments=" << mcb::allreduce::shm_segments_held();
    out << "\n";
    for (int r = 0; r < kReasons; ++r) {
      if (s.reasons[r] == 0) continue;
      out << "mcb_preload: " << mpi_name(c) << " fallback reason=" << reason_name(static_cast<Reason>(r))
          << " calls=" << s.reasons[r];
      if (!s.first_why[r].empty()) out << " first: " << s.first_why[r];
      out << "\n";
    }
  }
  // What the process holds at the report (the shared segments are also on
  // the allreduce line): a long-running program's flat line.
  long maps = -1;
  if (std::FILE* f = std::fopen("/proc/self/maps", "r")) {
    maps = 0;
    for (int c; (c = std::fgetc(f)) != EOF;) maps += c == '\n';
    std::fclose(f);
  }
  out << "mcb_preload: process mappings=" << maps << " shm_segments=" << mcb::allreduce::shm_segments_held() << "\n";
  out << "# end of mcb_preload report\n";
  return out.str();
}

void write_report(const Config& cfg, int world_size) {
  const std::string text = format_report(cfg, world_size);
  if (cfg.report == Config::Report::to_stdout) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  } else if (cfg.report == Config::Report::to_file) {
    if (std::FILE* f = std::fopen(cfg.report_path.c_str(), "w")) {
      std::fputs(text.c_str(), f);
      std::fclose(f);
    } else {
      std::fprintf(stderr, "mcb_preload: cannot write the report to %s\n", cfg.report_path.c_str());
    }
  } else {
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  }
}

}  // namespace mcb::preload
