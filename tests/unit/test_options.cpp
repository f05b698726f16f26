// parse_sizes, parse_options and OSU's per-size defaults. No MPI_Init needed.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "harness/options.hpp"
#include "mcb/error.hpp"

namespace mcb::bench {
namespace {

using Sizes = std::vector<std::size_t>;

using test::error_of;

// ---------------------------------------------------------------- parse_sizes

TEST(ParseSizes, RangeDoublesFromMinAndIncludesMaxWhenReached) {
  EXPECT_EQ(parse_sizes("3:96"), (Sizes{3, 6, 12, 24, 48, 96}));
}

TEST(ParseSizes, SingleElementRange) { EXPECT_EQ(parse_sizes("1:1"), (Sizes{1})); }

TEST(ParseSizes, RangeStopsBelowMaxWhenNotReached) { EXPECT_EQ(parse_sizes("5:17"), (Sizes{5, 10})); }

TEST(ParseSizes, MaxAloneDoublesFromOne) {
  EXPECT_EQ(parse_sizes("1024"), (Sizes{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(parse_sizes("1"), (Sizes{1}));
}

TEST(ParseSizes, MinAloneGoesUpToOneMebibyte) {
  Sizes s = parse_sizes("4:");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), 4u);
  EXPECT_EQ(s.back(), 1048576u);
  EXPECT_EQ(s.size(), 19u);  // 2^2 .. 2^20
  for (std::size_t i = 1; i < s.size(); ++i) EXPECT_EQ(s[i], 2 * s[i - 1]);
}

TEST(ParseSizes, ListIsSortedAndUnique) {
  EXPECT_EQ(parse_sizes("1,3,8,1000"), (Sizes{1, 3, 8, 1000}));
  EXPECT_EQ(parse_sizes("1000,8,3,8,1"), (Sizes{1, 3, 8, 1000}));
}

TEST(ParseSizes, EmptyRangeNamesMinAndMax) {
  std::string msg = error_of([] { parse_sizes("96:3"); });
  EXPECT_NE(msg.find("empty size range"), std::string::npos) << msg;
  EXPECT_NE(msg.find("MIN"), std::string::npos) << msg;
  EXPECT_NE(msg.find("MAX"), std::string::npos) << msg;
  EXPECT_NE(msg.find("96"), std::string::npos) << msg;
}

TEST(ParseSizes, ZeroIsRejected) {
  EXPECT_THROW(parse_sizes("0:8"), Error);
  EXPECT_THROW(parse_sizes("0"), Error);
  EXPECT_THROW(parse_sizes("0,4"), Error);
}

TEST(ParseSizes, GarbageIsRejected) {
  for (const char* text : {"abc", "-4", "1:2:3", "", "1,,3", "1,3,", ",1", "4k", "1:-8", "12abc"})
    EXPECT_THROW(parse_sizes(text), Error) << "'" << text << "'";
}

// std::stoull skips leading whitespace and accepts a minus sign: " -4" must
// not wrap to 2^64-4.
TEST(ParseSizes, NegativeAfterWhitespaceIsRejectedNotWrapped) {
  for (const char* text : {" -4", "1: -1", "1,\t-1", "+4", " 4"})
    EXPECT_THROW(parse_sizes(text), Error) << "'" << text << "'";
}

TEST(ParseSizes, TooLargeIsRejectedNotWrapped) { EXPECT_THROW(parse_sizes("99999999999999999999999"), Error); }

TEST(ParseSizes, HugeRangeTerminates) {
  Sizes s = parse_sizes("1:9999999999999999999");
  ASSERT_EQ(s.size(), 64u);
  EXPECT_EQ(s.back(), std::size_t{1} << 63);
}

// -------------------------------------------------------------- OSU defaults

TEST(Defaults, OsuIterationsAndWarmupSwitchAbove8KiB) {
  EXPECT_EQ(default_iterations(1), 1000);
  EXPECT_EQ(default_iterations(8192), 1000);
  EXPECT_EQ(default_iterations(8193), 100);
  EXPECT_EQ(default_warmup(1), 100);
  EXPECT_EQ(default_warmup(8192), 100);
  EXPECT_EQ(default_warmup(8193), 10);
}

// ------------------------------------------------------------- parse_options

class ParseOptions : public ::testing::Test {
 protected:
  ParseOptions() {
    Algorithm a;
    a.name = "a";
    a.summary = "the first one";
    Algorithm b;
    b.name = "b";
    b.summary = "the second one";
    b.params.push_back(ParamSpec{"radix", "help", ""});
    Algorithm c;
    c.name = "c";
    c.summary = "the third one";
    c.available = false;
    c.unavailable_why = "needs MPI 5";
    algorithms_ = {a, b, c};
  }

  ParseResult parse(std::initializer_list<const char*> args) const {
    std::vector<const char*> argv{"mcb_test"};
    argv.insert(argv.end(), args.begin(), args.end());
    return parse_options(static_cast<int>(argv.size()), argv.data(), "mcb_test", algorithms_);
  }

  std::string error(std::initializer_list<const char*> args) const {
    return error_of([&] { parse(args); });
  }

  std::vector<Algorithm> algorithms_;
};

TEST_F(ParseOptions, Defaults) {
  ParseResult r = parse({});
  EXPECT_FALSE(r.exit_code.has_value());
  const Options& o = r.options;
  EXPECT_EQ(o.sizes, parse_sizes("1:1048576"));
  EXPECT_EQ(o.sizes.front(), 1u);
  EXPECT_EQ(o.sizes.back(), 1048576u);
  EXPECT_EQ(o.iterations, 0);
  EXPECT_EQ(o.warmup, -1);
  EXPECT_FALSE(o.full);
  EXPECT_FALSE(o.validate);
  EXPECT_EQ(o.mem, MemKind::host);
  EXPECT_EQ(o.type.name, "char");
  EXPECT_EQ(o.type.bytes, 1u);
  EXPECT_EQ(o.algorithms, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(o.layout.ranks_per_node, 0);
  EXPECT_EQ(o.layout.order, RankOrder::block);
  EXPECT_EQ(o.layout.region.kind, RegionSpec::Kind::none);
  EXPECT_EQ(o.phase_modes, std::vector<PhaseMode>{PhaseMode::embedded});
  EXPECT_EQ(o.log_level, 3);
  EXPECT_EQ(o.progress, 30.0);
  EXPECT_TRUE(o.csv.empty());
  EXPECT_TRUE(o.json.empty());
  EXPECT_FALSE(o.params.has("radix"));
}

TEST_F(ParseOptions, GpuOptionsOnlyWhereOffered) {
  EXPECT_NE(error({"--procs-per-gpu", "2"}).find("--procs-per-gpu"), std::string::npos);  // not offered
  auto with = [&](std::initializer_list<const char*> args) {
    std::vector<const char*> argv{"mcb_test"};
    argv.insert(argv.end(), args.begin(), args.end());
    Offer offer;
    offer.gpus = true;
    return parse_options(static_cast<int>(argv.size()), argv.data(), "mcb_test", algorithms_, Tool::benchmark, offer);
  };
  const Options o = with({"--gpus-per-node", "2", "--procs-per-gpu", "4", "--gpu-aware", "no"}).options;
  EXPECT_EQ(o.layout.gpus_per_node, 2);
  EXPECT_EQ(o.layout.procs_per_gpu, 4);
  EXPECT_EQ(o.gpu_aware, GpuAware::no);
  EXPECT_EQ(with({}).options.layout.procs_per_gpu, 1);
  EXPECT_EQ(with({}).options.gpu_aware, GpuAware::automatic);
  auto with_error = [&](std::initializer_list<const char*> args) {
    try {
      with(args);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(with_error({"--gpu-aware", "maybe"}), "--gpu-aware maybe: expected auto, yes or no");
  EXPECT_EQ(with_error({"--procs-per-gpu", "0"}), "--procs-per-gpu 0: must be >= 1");
  EXPECT_EQ(with_error({"--gpus-per-node", "0"}), "--gpus-per-node 0: must be >= 1");
}

TEST_F(ParseOptions, InPlaceOnlyWhereTheCollectiveHasIt) {
  EXPECT_FALSE(parse({}).options.in_place);
  EXPECT_NE(error({"--in-place"}).find("--in-place"), std::string::npos);  // not offered: CLI11 rejects it
  auto with = [&](std::initializer_list<const char*> args) {
    std::vector<const char*> argv{"mcb_test"};
    argv.insert(argv.end(), args.begin(), args.end());
    return parse_options(static_cast<int>(argv.size()), argv.data(), "mcb_test", algorithms_, Tool::benchmark,
                         {true, {"float", "int"}});
  };
  EXPECT_TRUE(with({"--in-place"}).options.in_place);
  EXPECT_TRUE(with({"-l"}).options.in_place);
  EXPECT_FALSE(with({}).options.in_place);
  EXPECT_NE(with({"--help"}).output.find("--in-place"), std::string::npos);
  // The offered types: the first is the default, the others are refused.
  EXPECT_EQ(with({}).options.type.name, "float");
  EXPECT_EQ(with({}).options.sizes.front(), 4u);
  EXPECT_EQ(with({"-T", "int"}).options.type.name, "int");
  EXPECT_EQ(with({"-m", "64"}).options.sizes, parse_sizes("4:64"));  // MAX alone starts at the element size
  EXPECT_EQ(error_of([&] { with({"-T", "char"}); }), "--type char: mcb_test takes float, int");
}

TEST_F(ParseOptions, DefaultSizesStartAtTheElementSize) {
  EXPECT_EQ(parse({"-T", "int"}).options.sizes, parse_sizes("4:1048576"));
  EXPECT_EQ(parse({"-T", "double"}).options.sizes.front(), 8u);
}

TEST_F(ParseOptions, RepeatedAlgorithmsRunOnce) {
  EXPECT_EQ(parse({"--algorithm", "b,a,b"}).options.algorithms, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(parse({"--algorithm", "all,a"}).options.algorithms, (std::vector<std::string>{"a", "b"}));
}

TEST_F(ParseOptions, AlgorithmOrderIsKept) {
  EXPECT_EQ(parse({"--algorithm", "b,a"}).options.algorithms, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(parse({"--algorithm", "b"}).options.algorithms, (std::vector<std::string>{"b"}));
  EXPECT_EQ(parse({"--algorithm", "all"}).options.algorithms, (std::vector<std::string>{"a", "b"}));
}

TEST_F(ParseOptions, UnknownAlgorithmNamesItAndTheKnownOnes) {
  std::string msg = error({"--algorithm", "zzz"});
  EXPECT_NE(msg.find("zzz"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a, b, c"), std::string::npos) << msg;
}

TEST_F(ParseOptions, UnavailableAlgorithmSaysWhy) {
  std::string msg = error({"--algorithm", "c"});
  EXPECT_NE(msg.find("unavailable"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs MPI 5"), std::string::npos) << msg;
  EXPECT_THROW(parse({"--algorithm", "a,c"}), Error);
}

TEST_F(ParseOptions, EmptyAlgorithmListIsRejected) {
  EXPECT_THROW(parse({"--algorithm", ""}), Error);
  EXPECT_THROW(parse({"--algorithm", "a,,b"}), Error);
}

TEST_F(ParseOptions, BadCountsAreRejected) {
  EXPECT_NE(error({"-i", "0"}).find("--iterations"), std::string::npos);
  EXPECT_THROW(parse({"-i", "-3"}), Error);
  EXPECT_NE(error({"-x", "-1"}).find("--warmup"), std::string::npos);
  EXPECT_NE(error({"--ranks-per-node", "0"}).find("--ranks-per-node"), std::string::npos);
  EXPECT_THROW(parse({"-i", "many"}), Error);
}

TEST_F(ParseOptions, GoodCountsAreKept) {
  Options o = parse({"-i", "7", "-x", "0", "--ranks-per-node", "4"}).options;
  EXPECT_EQ(o.iterations, 7);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.layout.ranks_per_node, 4);
}

TEST_F(ParseOptions, SizesMustBeMultiplesOfTheType) {
  std::string msg = error({"-T", "int", "-m", "4,6"});
  EXPECT_TRUE(msg.find("multiple") != std::string::npos || msg.find("4 bytes") != std::string::npos) << msg;
  Options o = parse({"-T", "int", "-m", "4:64"}).options;
  EXPECT_EQ(o.type.name, "int");
  EXPECT_EQ(o.type.bytes, sizeof(int));
  EXPECT_EQ(o.sizes, (Sizes{4, 8, 16, 32, 64}));
  EXPECT_EQ(parse({"-T", "mpi_double", "-m", "8,16"}).options.type.name, "double");
  EXPECT_THROW(parse({"-T", "long"}), Error);
}

TEST_F(ParseOptions, MessageSizeOption) {
  EXPECT_EQ(parse({"-m", "3:96"}).options.sizes, (Sizes{3, 6, 12, 24, 48, 96}));
  EXPECT_EQ(parse({"--message-size", "1,3,8"}).options.sizes, (Sizes{1, 3, 8}));
  EXPECT_THROW(parse({"-m", "96:3"}), Error);
}

TEST_F(ParseOptions, BadNamesAreRejected) {
  EXPECT_THROW(parse({"-d", "gpu"}), Error);
  EXPECT_THROW(parse({"--rank-order", "zigzag"}), Error);
  EXPECT_THROW(parse({"--region", "foo"}), Error);
  EXPECT_THROW(parse({"--region", "size:0"}), Error);
  EXPECT_THROW(parse({"--region", "size:x"}), Error);
  EXPECT_THROW(parse({"--phase-mode", "x"}), Error);
  EXPECT_THROW(parse({"--log-level", "loud"}), Error);
}

TEST_F(ParseOptions, UnknownOptionIsAnError) {
  std::string msg = error({"--bogus"});
  EXPECT_NE(msg.find("bogus"), std::string::npos) << msg;
  EXPECT_THROW(parse({"-i"}), Error);  // missing value
}

TEST_F(ParseOptions, HelpExitsZeroWithText) {
  ParseResult r = parse({"--help"});
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_EQ(*r.exit_code, 0);
  EXPECT_NE(r.output.find("--message-size"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--radix"), std::string::npos) << r.output;
  ParseResult h = parse({"-h"});
  ASSERT_TRUE(h.exit_code.has_value());
  EXPECT_EQ(*h.exit_code, 0);
}

TEST_F(ParseOptions, VersionExitsZero) {
  ParseResult r = parse({"--version"});
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_EQ(*r.exit_code, 0);
  EXPECT_NE(r.output.find("mcb_test"), std::string::npos) << r.output;
}

TEST_F(ParseOptions, ListExitsZeroWithEveryAlgorithm) {
  ParseResult r = parse({"--list"});
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_EQ(*r.exit_code, 0);
  EXPECT_EQ(r.output, list_algorithms("mcb_test", algorithms_));
  EXPECT_NE(r.output.find("  a "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  b "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  c "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--radix"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unavailable: needs MPI 5"), std::string::npos) << r.output;
}

TEST_F(ParseOptions, ListShowsParameterDefaults) {
  algorithms_[1].params[0].default_value = "8";
  EXPECT_NE(list_algorithms("mcb_test", algorithms_).find("(default 8)"), std::string::npos);
}

TEST_F(ParseOptions, AlgorithmParameterBecomesAnOption) {
  Options o = parse({"--radix", "4"}).options;
  EXPECT_TRUE(o.params.has("radix"));
  EXPECT_EQ(o.params.get("radix"), "4");
  EXPECT_EQ(o.params.get_int("radix", 2), 4);
}

TEST_F(ParseOptions, Verbosity) {
  EXPECT_EQ(parse({"-v"}).options.log_level, 2);
  EXPECT_EQ(parse({"-vv"}).options.log_level, 1);
  EXPECT_EQ(parse({"-vvv"}).options.log_level, 0);
  EXPECT_EQ(parse({"-vvvvv"}).options.log_level, 0);
  EXPECT_EQ(parse({"--log-level", "error"}).options.log_level, 4);
  EXPECT_EQ(parse({"--log-level", "off"}).options.log_level, 6);
  EXPECT_EQ(parse({"-vv", "--log-level", "trace"}).options.log_level, 0);
}

TEST_F(ParseOptions, Regions) {
  RegionSpec numa = parse({"--region", "numa"}).options.layout.region;
  EXPECT_EQ(numa.kind, RegionSpec::Kind::numa);
  RegionSpec size = parse({"--region", "size:4"}).options.layout.region;
  EXPECT_EQ(size.kind, RegionSpec::Kind::size);
  EXPECT_EQ(size.size, 4);
  EXPECT_EQ(parse({"--region", "package"}).options.layout.region.kind, RegionSpec::Kind::package);
  EXPECT_EQ(parse({"--region", "l3"}).options.layout.region.kind, RegionSpec::Kind::l3);
}

TEST_F(ParseOptions, RankOrderAndPhaseMode) {
  EXPECT_EQ(parse({"--rank-order", "cyclic"}).options.layout.order, RankOrder::cyclic);
  EXPECT_EQ(parse({"--phase-mode", "isolated"}).options.phase_modes, std::vector<PhaseMode>{PhaseMode::isolated});
  EXPECT_EQ(parse({"--phase-mode", "both"}).options.phase_modes,
            (std::vector<PhaseMode>{PhaseMode::embedded, PhaseMode::isolated}));
  EXPECT_EQ(to_string(PhaseMode::isolated), "isolated");
  EXPECT_EQ(to_string(PhaseMode::embedded), "embedded");
}

TEST_F(ParseOptions, Progress) {
  EXPECT_EQ(parse({}).options.progress, 30.0);
  EXPECT_EQ(parse({"--progress", "0"}).options.progress, 0.0);
  EXPECT_EQ(parse({"--progress", "2.5"}).options.progress, 2.5);
  EXPECT_EQ(parse({"--progress", "600"}).options.progress, 600.0);
  EXPECT_EQ(error({"--progress", "-1"}), "--progress -1: must be >= 0 seconds");
  EXPECT_EQ(error({"--progress", "-0.5"}), "--progress -0.5: must be >= 0 seconds");
  EXPECT_NE(error({"--progress", "often"}).find("--progress"), std::string::npos);
  EXPECT_THROW(parse({"--progress"}), Error);  // missing value
  EXPECT_NE(parse({"--help"}).output.find("--progress"), std::string::npos);
}

TEST_F(ParseOptions, Timeout) {
  EXPECT_EQ(parse({}).options.timeout, 0.0);  // no limit
  for (const char* value : {"0", "0.5", "5", "inf"})
    EXPECT_EQ(parse({"--timeout", value}).options.timeout, std::stod(value)) << value;
  for (const char* value : {"-1", "nan"})
    EXPECT_EQ(error({"--timeout", value}), std::string("--timeout ") + value + ": must be >= 0 seconds");
  EXPECT_NE(error({"--timeout", "soon"}).find("Could not convert: --timeout = soon"), std::string::npos);
  EXPECT_NE(parse({"--help"}).output.find("--timeout"), std::string::npos);
}

TEST_F(ParseOptions, Flags) {
  Options o = parse({"-f", "-c"}).options;
  EXPECT_TRUE(o.full);
  EXPECT_TRUE(o.validate);
  Options l = parse({"--full", "--validate"}).options;
  EXPECT_TRUE(l.full);
  EXPECT_TRUE(l.validate);
}

TEST_F(ParseOptions, OutputFiles) {
  Options o = parse({"--csv", "x.csv", "--json", "y.json"}).options;
  EXPECT_EQ(o.csv, "x.csv");
  EXPECT_EQ(o.json, "y.json");
}

TEST_F(ParseOptions, HostMemory) { EXPECT_EQ(parse({"-d", "host"}).options.mem, MemKind::host); }

// ------------------------------------------------- configurations and lists

// An algorithm with a parameter of fixed choices (default all) and a free one.
class Configs : public ::testing::Test {
 protected:
  Configs() {
    Algorithm plain;
    plain.name = "plain";
    Algorithm tree;
    tree.name = "tree";
    tree.params = {{"inner", "help", "all", {"x", "y", "z"}}, {"fanout", "help", ""}};
    algorithms_ = {plain, tree};
  }
  std::vector<Config> expand(const Params& given, std::vector<std::string> names = {"plain", "tree"}) const {
    return expand_configs(algorithms_, names, {"tree"}, given);
  }
  static std::string describe(const Config& c) {
    std::string out = c.algorithm;
    for (const auto& [n, v] : c.params.values()) out += " " + n + "=" + v;
    return out;
  }
  std::vector<std::string> described(const Params& given) const {
    std::vector<std::string> out;
    for (const auto& c : expand(given)) out.push_back(describe(c));
    return out;
  }
  std::vector<Algorithm> algorithms_;
};

TEST_F(Configs, DefaultAllExpandsEveryChoice) {
  EXPECT_EQ(described({}), (std::vector<std::string>{"plain", "tree inner=x", "tree inner=y", "tree inner=z"}));
  auto c = expand({});
  EXPECT_FALSE(c[0].named);
  EXPECT_TRUE(c[1].named);
}

TEST_F(Configs, ListsMultiplyInOrderAndDeduplicate) {
  Params p;
  p.set("inner", "z,x,z");
  p.set("fanout", "2,4");
  EXPECT_EQ(described(p), (std::vector<std::string>{"plain", "tree fanout=2 inner=z", "tree fanout=4 inner=z",
                                                    "tree fanout=2 inner=x", "tree fanout=4 inner=x"}));
}

TEST_F(Configs, AllInsideAList) {
  Params p;
  p.set("inner", "y,all");
  EXPECT_EQ(described(p), (std::vector<std::string>{"plain", "tree inner=y", "tree inner=x", "tree inner=z"}));
}

TEST_F(Configs, BadValuesNameTheChoices) {
  Params p;
  p.set("inner", "x,w");
  EXPECT_EQ(error_of([&] { expand(p); }), "--inner w: expected one of x, y, z, a list of them, or all");
  Params e;
  e.set("fanout", "2,");
  EXPECT_NE(error_of([&] { expand(e); }).find("empty item"), std::string::npos);
}

TEST_F(Configs, AParameterMultipliesOnlyTheConfigurationsItAppliesTo) {
  algorithms_[1].params.push_back({"depth", "help", "", {}});
  algorithms_[1].params.back().applies = [](const Params& p) { return p.get("inner") == "y"; };
  Params p;
  p.set("inner", "x,y");
  p.set("depth", "1,2");
  EXPECT_EQ(described(p),
            (std::vector<std::string>{"plain", "tree inner=x", "tree depth=1 inner=y", "tree depth=2 inner=y"}));
}

TEST_F(ParseOptions, ConfigsFollowAlgorithms) {
  Options o = parse({"--algorithm", "b,a", "--radix", "2,8"}).options;
  ASSERT_EQ(o.configs.size(), 3u);
  EXPECT_EQ(o.configs[0].algorithm, "b");
  EXPECT_EQ(o.configs[0].params.get("radix"), "2");
  EXPECT_EQ(o.configs[1].params.get("radix"), "8");
  EXPECT_EQ(o.configs[2].algorithm, "a");
  EXPECT_FALSE(o.configs[2].params.has("radix"));
}

TEST(IntList, ListsAndDoublingRanges) {
  EXPECT_EQ(parse_int_list("--nodes", "4,1,2,4"), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(parse_int_list("--nodes", "1:8"), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(parse_int_list("--nodes", "3:20"), (std::vector<int>{3, 6, 12, 20}));
  EXPECT_EQ(parse_int_list("--nodes", "5"), (std::vector<int>{5}));
  EXPECT_EQ(error_of([] { parse_int_list("--nodes", "0"); }), "--nodes 0: '0' is not a positive integer");
  EXPECT_EQ(error_of([] { parse_int_list("--nodes", "8:2"); }), "--nodes 8:2: empty range (MIN 8 > MAX 2)");
  EXPECT_NE(error_of([] { parse_int_list("--nodes", "1,,2"); }).find("''"), std::string::npos);
  EXPECT_NE(error_of([] { parse_int_list("--nodes", "2,"); }).find("''"), std::string::npos);
}

TEST_F(ParseOptions, BreakdownNeedsOneAlgorithm) {
  auto parse_tool = [&](std::initializer_list<const char*> args) {
    std::vector<const char*> argv{"mcb_test"};
    argv.insert(argv.end(), args.begin(), args.end());
    return parse_options(static_cast<int>(argv.size()), argv.data(), "mcb_test", algorithms_, Tool::breakdown);
  };
  EXPECT_NE(error_of([&] { parse_tool({}); }).find("--algorithm is required"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_tool({"--algorithm", "all"}); }).find("breaks down one algorithm"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_tool({"--algorithm", "a,b"}); }).find("breaks down one algorithm"), std::string::npos);
  Options o = parse_tool({"--algorithm", "b"}).options;
  EXPECT_EQ(o.phase_modes, (std::vector<PhaseMode>{PhaseMode::embedded, PhaseMode::isolated}));
}

}  // namespace
}  // namespace mcb::bench
