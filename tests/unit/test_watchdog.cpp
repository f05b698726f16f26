// --timeout's line (harness/watchdog.hpp) for every place a step can be
// stuck, and a watchdog whose steps end in time never fires. The firing
// itself ends the process: tests/timeout.cmake runs it under MPI.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "harness/watchdog.hpp"

namespace mcb::bench {
namespace {

using Stage = StepState::Stage;

std::string line(Stage stage, int iteration, int iterations = 10, int warmup = 2, double seconds = 5) {
  StepState s;
  s.stage = stage;
  s.iteration = iteration;
  s.iterations = iterations;
  s.warmup = warmup;
  return timeout_line("mcb_alltoall", "alltoall algorithm 'bruck' at 1024 B", s, seconds);
}

TEST(TimeoutLine, NamesTheIterationItWasStuckIn) {
  EXPECT_EQ(line(Stage::loop, 2),
            "mcb_alltoall: timeout: alltoall algorithm 'bruck' at 1024 B did not finish timed iteration 3 of 10 "
            "(after 2 warm-up iterations) within 5 s");
  EXPECT_EQ(line(Stage::loop, 0, 1, 1, 0.5),
            "mcb_alltoall: timeout: alltoall algorithm 'bruck' at 1024 B did not finish timed iteration 1 of 1 "
            "(after 1 warm-up iteration) within 0.5 s");
  EXPECT_NE(line(Stage::loop, 9, 10, 0).find("timed iteration 10 of 10 (no warm-up) within"), std::string::npos);
}

TEST(TimeoutLine, WarmUpIterationsCountFromOne) {
  EXPECT_NE(line(Stage::loop, -2).find("did not finish warm-up iteration 1 of 2 within"), std::string::npos);
  EXPECT_NE(line(Stage::loop, -1).find("did not finish warm-up iteration 2 of 2 within"), std::string::npos);
}

TEST(TimeoutLine, AroundTheLoop) {
  EXPECT_NE(line(Stage::loop, -3).find("did not finish the barrier before its first iteration"), std::string::npos);
  EXPECT_NE(line(Stage::loop, 10).find("did not finish gathering its statistics after 10 timed iterations"),
            std::string::npos);
  EXPECT_NE(line(Stage::start, 0).find("did not finish the barrier before its setup within 5 s"), std::string::npos);
  EXPECT_NE(line(Stage::setup, 0).find("did not finish its setup within 5 s"), std::string::npos);
  EXPECT_NE(line(Stage::validation, 0).find("did not finish its validation within 5 s"), std::string::npos);
}

TEST(Watchdog, StepsWithinTheLimitNeverFire) {
  Watchdog watchdog("unit", 0.05, true);
  for (int step = 0; step < 20; ++step) {
    watchdog.begin("step " + std::to_string(step));
    watchdog.started();
    watchdog.stage(Stage::loop, 3, 1);
    for (int it = -1; it < 3; ++it) watchdog.iteration().store(it, std::memory_order_relaxed);
    watchdog.stage(Stage::validation);
    watchdog.end();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // past the last deadline, disarmed
  SUCCEED();
}

TEST(Watchdog, NoLimitNeverFires) {
  Watchdog off("unit", 0, true);
  off.begin("never armed");
  off.started();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  off.end();
  SUCCEED();
}

// A step stuck in its second timed iteration: the reporting rank prints the
// line and exits 3; another rank exits 3 after the grace, saying nothing.
void stuck(bool reports) {
  Watchdog watchdog("unit", 0.2, reports);
  watchdog.begin("alltoall algorithm 'hang' at 16 B");
  watchdog.started();
  watchdog.stage(Stage::loop, 3, 1);
  watchdog.iteration().store(1, std::memory_order_relaxed);
  std::this_thread::sleep_for(std::chrono::seconds(30));
}

TEST(WatchdogDeathTest, StuckStepEndsTheProcessWithStatus3) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(stuck(true), testing::ExitedWithCode(kTimeoutStatus),
              "^unit: timeout: alltoall algorithm 'hang' at 16 B did not finish timed iteration 2 of 3 \\(after 1 "
              "warm-up iteration\\) within 0.2 s\n$");
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EXIT(stuck(false), testing::ExitedWithCode(kTimeoutStatus), "^$");
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), kGrace);
}

}  // namespace
}  // namespace mcb::bench
