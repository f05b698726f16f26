// RegionSpec and region_map() on hwloc synthetic topologies (HWLOC_SYNTHETIC),
// so the expected maps do not depend on the machine running the tests.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "mcb/error.hpp"
#include "mcb/layout.hpp"

namespace mcb {
namespace {

using Map = std::vector<int>;

// Sets or clears an environment variable for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// The region map of `spec` for `ranks` local ranks on the synthetic topology `synthetic`.
Map map_on(const char* synthetic, const std::string& spec, int ranks) {
  ScopedEnv xml("HWLOC_XMLFILE", nullptr);  // would take precedence
  ScopedEnv syn("HWLOC_SYNTHETIC", synthetic);
  return region_map(RegionSpec::parse(spec), ranks);
}

// Region i of every rank for `regions` regions of `per` consecutive ranks.
Map blocks(int regions, int per) {
  Map m;
  for (int r = 0; r < regions; ++r) m.insert(m.end(), per, r);
  return m;
}

constexpr const char* kTwoSockets = "pack:2 numa:4 core:14 pu:1";  // 8 NUMA nodes, 112 cores

TEST(RegionSpec, Parse) {
  EXPECT_EQ(RegionSpec::parse("none").kind, RegionSpec::Kind::none);
  EXPECT_EQ(RegionSpec::parse("").kind, RegionSpec::Kind::none);
  EXPECT_EQ(RegionSpec::parse("numa").kind, RegionSpec::Kind::numa);
  EXPECT_EQ(RegionSpec::parse("package").kind, RegionSpec::Kind::package);
  EXPECT_EQ(RegionSpec::parse("l3").kind, RegionSpec::Kind::l3);
  RegionSpec s = RegionSpec::parse("size:12");
  EXPECT_EQ(s.kind, RegionSpec::Kind::size);
  EXPECT_EQ(s.size, 12);
}

TEST(RegionSpec, ParseRejectsBadInput) {
  for (const char* text : {"foo", "size:0", "size:-2", "size:", "size:x", "size:3x", "NUMA", "size"})
    EXPECT_THROW(RegionSpec::parse(text), Error) << "'" << text << "'";
}

TEST(RegionSpec, StrRoundTrips) {
  for (const char* text : {"none", "numa", "package", "l3", "size:1", "size:7", "size:128"}) {
    EXPECT_EQ(RegionSpec::parse(text).str(), text);
    RegionSpec again = RegionSpec::parse(RegionSpec::parse(text).str());
    EXPECT_EQ(again.kind, RegionSpec::parse(text).kind);
    EXPECT_EQ(again.size, RegionSpec::parse(text).size);
  }
}

TEST(RegionMap, NoneIsOneRegion) {
  EXPECT_EQ(region_map(RegionSpec::parse("none"), 5), Map(5, 0));
  EXPECT_TRUE(region_map(RegionSpec::parse("none"), 0).empty());
}

TEST(RegionMap, FixedSize) {
  EXPECT_EQ(region_map(RegionSpec::parse("size:3"), 8), (Map{0, 0, 0, 1, 1, 1, 2, 2}));
  EXPECT_EQ(region_map(RegionSpec::parse("size:1"), 4), (Map{0, 1, 2, 3}));
  EXPECT_EQ(region_map(RegionSpec::parse("size:16"), 4), Map(4, 0));
}

TEST(RegionMap, SyntheticTopologyIsHonoured) {
  // If HWLOC_SYNTHETIC were ignored, this would be the topology of the test machine.
  EXPECT_EQ(map_on("pack:3 core:2 pu:1", "package", 6), (Map{0, 0, 1, 1, 2, 2}));
}

TEST(RegionMap, NumaOnTwoSockets) { EXPECT_EQ(map_on(kTwoSockets, "numa", 112), blocks(8, 14)); }

TEST(RegionMap, PackageOnTwoSockets) { EXPECT_EQ(map_on(kTwoSockets, "package", 112), blocks(2, 56)); }

TEST(RegionMap, FewerRanksThanCoresFillTheFirstCores) {
  EXPECT_EQ(map_on(kTwoSockets, "numa", 8), Map(8, 0));
  EXPECT_EQ(map_on(kTwoSockets, "numa", 16), (Map{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(map_on(kTwoSockets, "package", 57).back(), 1);
}

TEST(RegionMap, MoreRanksThanCoresWrapAround) {
  EXPECT_EQ(map_on("pack:1 numa:2 core:2 pu:1", "numa", 6), (Map{0, 0, 1, 1, 0, 0}));
}

TEST(RegionMap, CoresWithSeveralPUs) {
  // Ranks go to cores, not hardware threads.
  EXPECT_EQ(map_on("pack:2 core:2 pu:2", "package", 4), (Map{0, 0, 1, 1}));
}

TEST(RegionMap, L3Cache) {
  EXPECT_EQ(map_on("pack:2 l3:2 core:4 pu:1", "l3", 16), blocks(4, 4));
  EXPECT_EQ(map_on("pack:2 l3:2 core:4 pu:1", "package", 16), blocks(2, 8));
}

TEST(RegionMap, MissingLevelThrows) {
  ScopedEnv xml("HWLOC_XMLFILE", nullptr);
  ScopedEnv syn("HWLOC_SYNTHETIC", "pack:2 core:4 pu:1");
  EXPECT_THROW(region_map(RegionSpec::parse("l3"), 8), Error);
  try {
    region_map(RegionSpec::parse("l3"), 8);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("l3"), std::string::npos) << e.what();
  }
}

TEST(RegionMap, NoNumaLevelIsOneNumaRegion) {
  // hwloc always has at least one NUMA node.
  EXPECT_EQ(map_on("pack:2 core:4 pu:1", "numa", 8), Map(8, 0));
}

}  // namespace
}  // namespace mcb
