// The watchdog of --timeout (harness/watchdog.hpp).
#include "harness/watchdog.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

namespace mcb::bench {

namespace {

std::string count_of(int n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// Where the step was stuck: "timed iteration 3 of 10 (after 2 warm-up iterations)".
std::string where(const StepState& s) {
  switch (s.stage) {
    case StepState::Stage::start:
      return "the barrier before its setup";
    case StepState::Stage::setup:
      return "its setup";
    case StepState::Stage::validation:
      return "its validation";
    case StepState::Stage::loop:
      break;
  }
  const int it = s.iteration;
  if (it < -s.warmup) return "the barrier before its first iteration";
  if (it < 0) return "warm-up iteration " + std::to_string(it + s.warmup + 1) + " of " + std::to_string(s.warmup);
  if (it < s.iterations)
    return "timed iteration " + std::to_string(it + 1) + " of " + std::to_string(s.iterations) +
           (s.warmup > 0 ? " (after " + count_of(s.warmup, "warm-up iteration") + ")" : " (no warm-up)");
  return "gathering its statistics after " + count_of(s.iterations, "timed iteration");
}

}  // namespace

std::string timeout_line(const std::string& binary, const std::string& what, const StepState& state, double seconds) {
  std::ostringstream limit;
  limit << seconds;
  return binary + ": timeout: " + what + " did not finish " + where(state) + " within " + limit.str() + " s";
}

Watchdog::Watchdog(std::string binary, double seconds, bool reports)
    : binary_(std::move(binary)), seconds_(seconds), reports_(reports) {
  if (seconds_ > 0) thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Watchdog::begin(std::string what) {
  if (seconds_ <= 0) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    what_ = std::move(what);
    state_ = StepState{};
    arm();
  }
  wake_.notify_one();  // the thread may be waiting with no deadline
}

void Watchdog::started() {
  if (seconds_ <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  state_.stage = StepState::Stage::setup;
  arm();  // later than the thread's deadline: it wakes then and waits again
}

void Watchdog::stage(StepState::Stage stage, int iterations, int warmup) {
  if (seconds_ <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  state_.stage = stage;
  state_.iterations = iterations;
  state_.warmup = warmup;
}

void Watchdog::end() {
  if (seconds_ <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = false;  // the thread finds it at its deadline and waits again
}

// With mutex_ held. Far beyond any run (1e9 s) is no limit: the clock's
// arithmetic must not overflow for --timeout 1e300 or inf.
void Watchdog::arm() {
  const double limit = std::min(seconds_ + (reports_ ? 0.0 : kGrace), 1e9);
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(limit));
  armed_ = true;
}

void Watchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!quit_) {
    if (!armed_) {
      wake_.wait(lock);
      continue;
    }
    const auto deadline = deadline_;
    if (!wake_.wait_until(lock, deadline, [&] { return quit_ || !armed_ || deadline_ != deadline; })) fire();
  }
}

// With mutex_ held (the main thread, if it is not stuck, waits at its next
// stage): the line from rank 0, everything written so far out, and the
// process ends here. No MPI call: the main thread may be inside one, and a
// stuck rank could not be reached over MPI anyway.
void Watchdog::fire() {
  StepState state = state_;
  state.iteration = iteration_.load(std::memory_order_relaxed);
  const std::string line = timeout_line(binary_, what_, state, seconds_) + "\n";
  std::fflush(stdout);
  if (reports_ && ::write(STDERR_FILENO, line.data(), line.size()) < 0) {
    // nothing more to do: the exit status still says it
  }
  std::fflush(stderr);
  if (reports_) std::this_thread::sleep_for(std::chrono::duration<double>(kLinger));
  ::_exit(kTimeoutStatus);
}

}  // namespace mcb::bench
