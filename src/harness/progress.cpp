#include "harness/progress.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace mcb::bench {

std::string format_duration(double seconds) {
  const long long s = std::llround(std::max(0.0, seconds));
  char text[48];
  if (s < 60)
    std::snprintf(text, sizeof text, "%llds", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%lldm%02llds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  return text;
}

Progress::Progress(std::string binary, long total, double interval, bool enabled, std::FILE* out)
    : binary_(std::move(binary)), total_(total), interval_(interval), enabled_(enabled), out_(out) {
  if (enabled_) start_ = last_ = MPI_Wtime();
}

void Progress::step(const std::string& config, std::size_t bytes, int nodes) {
  if (!enabled_) return;
  ++done_;
  const double now = MPI_Wtime();
  if (now - last_ < interval_) return;
  last_ = now;
  const double elapsed = now - start_;
  // A linear estimate: the steps left take as long as the steps done took
  // on average (sizes grow, so early in a sweep it is optimistic).
  const double eta = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
  const long percent = total_ > 0 ? done_ * 100 / total_ : 100;
  // One call per line: stderr is unbuffered, and log lines interleave whole.
  std::fprintf(out_, "%s: progress %ld/%ld (%ld%%): %s, %zu B, %d node%s; elapsed %s, ETA %s\n", binary_.c_str(), done_,
               total_, percent, config.c_str(), bytes, nodes, nodes == 1 ? "" : "s", format_duration(elapsed).c_str(),
               format_duration(eta).c_str());
}

void Progress::skip(long steps) {
  if (enabled_) done_ = std::min(total_, done_ + steps);
}

void Progress::finish() {
  if (!enabled_) return;
  const double elapsed = MPI_Wtime() - start_;
  if (elapsed > interval_)
    std::fprintf(out_, "%s: done %ld/%ld steps in %s\n", binary_.c_str(), done_, total_,
                 format_duration(elapsed).c_str());
}

}  // namespace mcb::bench
