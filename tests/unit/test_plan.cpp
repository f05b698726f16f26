// Plan: phases built from named steps, executed whole or one phase at a time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcb/plan.hpp"

namespace mcb {
namespace {

using Names = std::vector<std::string>;

// A step that appends `tag` to `log` when run.
Plan::Step record(std::vector<std::string>& log, const std::string& tag) {
  return [&log, tag] { log.push_back(tag); };
}

TEST(Plan, EmptyPlan) {
  Plan p;
  EXPECT_TRUE(p.phases().empty());
  EXPECT_TRUE(p.phase_names().empty());
  EXPECT_EQ(p.params_string(), "");
  EXPECT_NO_THROW(p.execute());
  EXPECT_THROW(p.run_phase(0), std::out_of_range);
}

TEST(Plan, ConsecutiveSameNameStepsMergeIntoOnePhase) {
  std::vector<std::string> log;
  Plan p;
  p.add("gather", record(log, "g1"));
  p.add("gather", record(log, "g2"));
  p.add("gather", record(log, "g3"));
  ASSERT_EQ(p.phases().size(), 1u);
  EXPECT_EQ(p.phases()[0].name, "gather");
  EXPECT_EQ(p.phases()[0].steps.size(), 3u);
}

TEST(Plan, DifferentNamesMakeNewPhases) {
  std::vector<std::string> log;
  Plan p;
  p.add("gather", record(log, "g"));
  p.add("inter_node", record(log, "i"));
  p.add("scatter", record(log, "s"));
  EXPECT_EQ(p.phase_names(), (Names{"gather", "inter_node", "scatter"}));
  for (const auto& ph : p.phases()) EXPECT_EQ(ph.steps.size(), 1u);
}

TEST(Plan, RepeatedNonConsecutiveNameMakesASeparatePhase) {
  std::vector<std::string> log;
  Plan p;
  p.add("a", record(log, "a1"));
  p.add("b", record(log, "b1"));
  p.add("a", record(log, "a2"));
  EXPECT_EQ(p.phase_names(), (Names{"a", "b", "a"}));
}

TEST(Plan, AppendUnderOnePhaseRollsInnerStepsUp) {
  std::vector<std::string> log;
  Plan inner;
  inner.add("p", record(log, "i1"));
  inner.add("q", record(log, "i2"));
  inner.add("q", record(log, "i3"));
  Plan outer;
  outer.add("x", record(log, "o1"));
  outer.append(inner, "x");  // merges with the preceding "x" phase
  outer.add("y", record(log, "o2"));
  ASSERT_EQ(outer.phase_names(), (Names{"x", "y"}));
  EXPECT_EQ(outer.phases()[0].steps.size(), 4u);
  outer.execute();
  EXPECT_EQ(log, (Names{"o1", "i1", "i2", "i3", "o2"}));
}

TEST(Plan, AppendUnderANewPhase) {
  std::vector<std::string> log;
  Plan inner;
  inner.add("p", record(log, "i1"));
  inner.add("q", record(log, "i2"));
  Plan outer;
  outer.add("w", record(log, "o1"));
  outer.append(inner, "x");
  EXPECT_EQ(outer.phase_names(), (Names{"w", "x"}));
  EXPECT_EQ(outer.phases()[1].steps.size(), 2u);
}

TEST(Plan, AppendKeepingPhaseNames) {
  std::vector<std::string> log;
  Plan inner;
  inner.add("p", record(log, "i1"));
  inner.add("q", record(log, "i2"));
  Plan outer;
  outer.add("p", record(log, "o1"));
  outer.append(inner);
  EXPECT_EQ(outer.phase_names(), (Names{"p", "q"}));
  EXPECT_EQ(outer.phases()[0].steps.size(), 2u);
  outer.execute();
  EXPECT_EQ(log, (Names{"o1", "i1", "i2"}));
}

TEST(Plan, AppendLeavesTheInnerPlanUnchanged) {
  std::vector<std::string> log;
  Plan inner;
  inner.add("p", record(log, "i1"));
  Plan outer;
  outer.append(inner, "x");
  outer.append(inner, "x");
  EXPECT_EQ(inner.phase_names(), (Names{"p"}));
  EXPECT_EQ(inner.phases()[0].steps.size(), 1u);
  ASSERT_EQ(outer.phases().size(), 1u);
  EXPECT_EQ(outer.phases()[0].steps.size(), 2u);
}

TEST(Plan, ExecuteRunsEveryStepInOrder) {
  std::vector<std::string> log;
  Plan p;
  p.add("a", record(log, "1"));
  p.add("a", record(log, "2"));
  p.add("b", record(log, "3"));
  p.add("c", record(log, "4"));
  p.add("a", record(log, "5"));
  p.execute();
  EXPECT_EQ(log, (Names{"1", "2", "3", "4", "5"}));
  p.execute();
  EXPECT_EQ(log.size(), 10u);
}

TEST(Plan, RunPhaseRunsOnlyThatPhase) {
  std::vector<std::string> log;
  Plan p;
  p.add("a", record(log, "a1"));
  p.add("a", record(log, "a2"));
  p.add("b", record(log, "b1"));
  p.add("c", record(log, "c1"));
  p.run_phase(1);
  EXPECT_EQ(log, (Names{"b1"}));
  log.clear();
  p.run_phase(0);
  EXPECT_EQ(log, (Names{"a1", "a2"}));
  EXPECT_THROW(p.run_phase(3), std::out_of_range);
}

TEST(Plan, RunningEveryPhaseEqualsExecute) {
  std::vector<std::string> whole, phased;
  auto build = [](std::vector<std::string>& log) {
    Plan p;
    p.add("a", record(log, "1"));
    p.add("b", record(log, "2"));
    p.add("b", record(log, "3"));
    p.add("a", record(log, "4"));
    return p;
  };
  Plan p1 = build(whole), p2 = build(phased);
  p1.execute();
  for (std::size_t i = 0; i < p2.phases().size(); ++i) p2.run_phase(i);
  EXPECT_EQ(whole, phased);
  EXPECT_EQ(whole.size(), 4u);
}

TEST(Plan, Params) {
  Plan p;
  p.set_param("a", "1");
  p.set_param("b", "2");
  EXPECT_EQ(p.params_string(), "a=1;b=2");
  ASSERT_EQ(p.params().size(), 2u);
  EXPECT_EQ(p.params()[0].first, "a");
  EXPECT_EQ(p.params()[1].second, "2");
}

TEST(Plan, SetParamOverwritesInPlace) {
  Plan p;
  p.set_param("a", "1");
  p.set_param("b", "2");
  p.set_param("a", "3");
  EXPECT_EQ(p.params_string(), "a=3;b=2");
  EXPECT_EQ(p.params().size(), 2u);
}

}  // namespace
}  // namespace mcb
