// --timeout SECONDS: a hang is a result, not a wait (issue 47). Every rank
// runs a watchdog thread over each step of the run (one size of one
// configuration in one phase mode): the step starts at the barrier before its
// setup, and setup, warm-up, timed iterations, statistics and validation
// together must end within SECONDS. When they do not, world rank 0 prints one
// line naming the algorithm, its parameters, the size and where the step was
// stuck, and every rank ends with exit status 3 (kTimeoutStatus), each by its
// own watchdog: a stuck rank cannot be told over MPI. The other ranks wait
// kGrace seconds longer than rank 0, so that its line is out before a
// launcher that ends the job on the first exit ends rank 0. Ranks outside a
// smaller --nodes count wait between steps, unwatched: the launcher ends them.
//
// The watchdog makes no MPI call (MPI_THREAD_FUNNELED) and ends the process
// with _exit after flushing stdout and stderr; the CSV, JSON and
// --save-iterations rows are flushed as they are written, so the rows of the
// steps that finished stay. In the timed loop it costs one relaxed atomic
// store per iteration (iteration()); the clock and the condition variable
// are touched only between the loop's parts.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mcb::bench {

/// The exit status of every rank of a run that timed out.
inline constexpr int kTimeoutStatus = 3;
/// Seconds the ranks other than world rank 0 wait beyond the limit.
inline constexpr double kGrace = 2.0;
/// Seconds rank 0 lives on after its line: a launcher that forwards a
/// rank's output through a daemon of its host (Open MPI 5's PRRTE on fake
/// hosts) lost the line when another rank's exit ended the job at once.
inline constexpr double kLinger = 0.5;

/// Where a step is: its stage and, in the timed loop, the iteration it
/// entered (-warmup .. -1 warm-up, 0 .. iterations-1 timed, `iterations`
/// the statistics after the loop, below -warmup the barrier before the first).
struct StepState {
  enum class Stage { start, setup, loop, validation } stage = Stage::start;
  int iterations = 0, warmup = 0, iteration = 0;
};

/// The line world rank 0 prints, without the newline:
/// "<binary>: timeout: <what> did not finish <where> within <seconds> s",
/// e.g. "mcb_alltoall: timeout: alltoall algorithm 'bruck' at 1024 B did not
/// finish timed iteration 3 of 10 (after 2 warm-up iterations) within 5 s".
std::string timeout_line(const std::string& binary, const std::string& what, const StepState& state, double seconds);

class Watchdog {
 public:
  /// `seconds` <= 0: no limit, no thread (the calls below do nothing but
  /// the counter). `reports`: this rank prints the line (world rank 0).
  Watchdog(std::string binary, double seconds, bool reports);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  /// A step begins: `what` names it for the line ("alltoall algorithm
  /// 'tra' (radix=4) at 1024 B"); the clock starts.
  void begin(std::string what);
  /// The step's ranks have met (the barrier before its setup): the clock
  /// starts again, at nearly the same moment on every rank.
  void started();
  /// The step enters `stage` (the loop with its iteration counts).
  void stage(StepState::Stage stage, int iterations = 0, int warmup = 0);
  /// The timed loop's counter: measure() stores the iteration it enters.
  std::atomic<int>& iteration() { return iteration_; }
  /// The step finished within the limit.
  void end();

 private:
  void arm();
  void watch();
  [[noreturn]] void fire();

  std::string binary_;
  double seconds_ = 0;
  bool reports_ = false;
  std::atomic<int> iteration_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool armed_ = false, quit_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::string what_;
  StepState state_;
  std::thread thread_;
};

}  // namespace mcb::bench
