// The CSV / JSON Lines schema and writers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/report.hpp"
#include "mcb/error.hpp"

namespace mcb::bench {
namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A fresh directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "mcb_unit_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

Row sample_row() {
  Row r;
  r.set("benchmark", std::string("mcb_alltoall"))
      .set("algorithm", std::string("pairwise"))
      .set("params", std::string("radix=4;k=2"))
      .set("mpi_library", std::string("Open MPI v4.1.4, package: x,y"))
      .set("ranks", 8LL)
      .set("size_bytes", 1024LL)
      .set("phase", std::string("total"))
      .set("avg_us", 12.34567)
      .set("min_us", 1.0)
      .set("validation", std::string("pass"));
  return r;
}

// Splits one CSV line (RFC 4180) into fields.
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::size_t column(const std::string& name) {
  const auto& cols = schema_columns();
  return static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

TEST(Schema, Columns) {
  const auto& cols = schema_columns();
  ASSERT_FALSE(cols.empty());
  EXPECT_EQ(cols.front(), "schema_version");
  for (const char* c : {"size_bytes", "phase", "avg_us", "validation", "algorithm", "params", "ranks"})
    EXPECT_NE(std::find(cols.begin(), cols.end(), c), cols.end()) << c;
  std::vector<std::string> sorted = cols;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "duplicate column";
}

TEST(Schema, CsvHeaderIsTheColumnsJoinedByCommas) {
  std::string expected;
  for (const auto& c : schema_columns()) expected += (expected.empty() ? "" : ",") + c;
  EXPECT_EQ(csv_header(), expected);
  EXPECT_EQ(csv_header().rfind("schema_version,", 0), 0u);
}

TEST(CsvField, PlainTextIsUnchanged) {
  EXPECT_EQ(csv_field("abc"), "abc");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a b;c=1"), "a b;c=1");
}

TEST(CsvField, SpecialCharactersAreQuoted) {
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("\""), "\"\"\"\"");
  EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
  EXPECT_EQ(csv_field("a\rb"), "\"a\rb\"");
}

TEST(JsonString, Escapes) {
  EXPECT_EQ(json_string("abc"), "\"abc\"");
  EXPECT_EQ(json_string(""), "\"\"");
  EXPECT_EQ(json_string("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(json_string("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(json_string("a\nb"), "\"a\\nb\"");
  EXPECT_EQ(json_string("a\tb\r"), "\"a\\tb\\r\"");
  EXPECT_EQ(json_string(std::string("\x01", 1)), "\"\\u0001\"");
  EXPECT_EQ(json_string(std::string("\x1f", 1)), "\"\\u001f\"");
  EXPECT_EQ(json_string(std::string("a\0b", 3)), "\"a\\u0000b\"");
  EXPECT_EQ(json_string("h\xc3\xa9llo"), "\"h\xc3\xa9llo\"");  // UTF-8 passes through
}

TEST(Row, StartsWithTheSchemaVersionAndEmptyStrings) {
  Row r;
  ASSERT_EQ(r.values().size(), schema_columns().size());
  ASSERT_TRUE(std::holds_alternative<long long>(r.values()[0]));
  EXPECT_EQ(std::get<long long>(r.values()[0]), kSchemaVersion);
  for (std::size_t i = 1; i < r.values().size(); ++i) {
    ASSERT_TRUE(std::holds_alternative<std::string>(r.values()[i])) << schema_columns()[i];
    EXPECT_EQ(std::get<std::string>(r.values()[i]), "");
  }
}

TEST(Row, SetUnknownColumnThrowsLogicError) {
  Row r;
  EXPECT_THROW(r.set("no_such_column", 1LL), std::logic_error);
  EXPECT_THROW(r.set("", std::string("x")), std::logic_error);
}

TEST(Row, SetPutsTheValueInItsColumn) {
  Row r;
  r.set("phase", std::string("gather"));
  EXPECT_EQ(std::get<std::string>(r.values()[column("phase")]), "gather");
  r.set("phase", std::string("scatter"));  // overwrite
  EXPECT_EQ(std::get<std::string>(r.values()[column("phase")]), "scatter");
}

TEST(CsvLine, QuotesAndFormatsNumbers) {
  std::string line = csv_line(sample_row());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.rfind("1,mcb_alltoall,", 0), 0u) << line;
  EXPECT_NE(line.find(",\"Open MPI v4.1.4, package: x,y\","), std::string::npos) << line;
  EXPECT_NE(line.find(",12.346,"), std::string::npos) << line;
  EXPECT_NE(line.find(",1.000,"), std::string::npos) << line;

  std::vector<std::string> fields = split_csv(line);
  ASSERT_EQ(fields.size(), schema_columns().size()) << line;
  EXPECT_EQ(fields[column("schema_version")], "1");
  EXPECT_EQ(fields[column("mpi_library")], "Open MPI v4.1.4, package: x,y");
  EXPECT_EQ(fields[column("ranks")], "8");
  EXPECT_EQ(fields[column("size_bytes")], "1024");
  EXPECT_EQ(fields[column("phase")], "total");
  EXPECT_EQ(fields[column("avg_us")], "12.346");
  EXPECT_EQ(fields[column("validation")], "pass");
  EXPECT_EQ(fields[column("host")], "");
}

TEST(CsvLine, EmptyRowHasOneFieldPerColumn) {
  std::string line = csv_line(Row());
  EXPECT_EQ(static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')), schema_columns().size() - 1);
}

TEST(JsonLine, OneObjectWithEveryKey) {
  Row r = sample_row();
  r.set("host", std::string("node\"1\""));
  std::string line = json_line(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.front(), '{');
  EXPECT_EQ(line.back(), '}');
  EXPECT_NE(line.find("\"schema_version\": 1,"), std::string::npos) << line;
  EXPECT_NE(line.find("\"phase\": \"total\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"size_bytes\": 1024,"), std::string::npos) << line;
  EXPECT_NE(line.find("\"avg_us\": 12.346,"), std::string::npos) << line;
  EXPECT_NE(line.find("\"host\": \"node\\\"1\\\"\""), std::string::npos) << line;
  for (const auto& c : schema_columns()) EXPECT_NE(line.find("\"" + c + "\": "), std::string::npos) << c;
  // Keys in schema order.
  std::size_t prev = 0;
  for (const auto& c : schema_columns()) {
    std::size_t at = line.find("\"" + c + "\": ");
    EXPECT_GE(at, prev) << c;
    prev = at;
  }
}

TEST(RowWriter, WritesHeaderAndRows) {
  TempDir dir;
  std::string csv = dir.file("out.csv"), json = dir.file("out.json");
  {
    RowWriter w(csv, json);
    Row r = sample_row();
    w.write(r);
    r.set("phase", std::string("gather"));
    w.write(r);
    r.set("phase", std::string("scatter"));
    w.write(r);
    // Rows are flushed as they are written.
    EXPECT_EQ(read_lines(csv).size(), 4u);
    EXPECT_EQ(read_lines(json).size(), 3u);
  }
  std::vector<std::string> c = read_lines(csv), j = read_lines(json);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0], csv_header());
  EXPECT_EQ(c[1], csv_line(sample_row()));
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0], json_line(sample_row()));
  EXPECT_NE(j[2].find("\"phase\": \"scatter\""), std::string::npos);
}

TEST(RowWriter, TruncatesAnExistingFile) {
  TempDir dir;
  std::string csv = dir.file("out.csv");
  {
    std::ofstream old(csv);
    old << "old1\nold2\nold3\nold4\nold5\n";
  }
  {
    RowWriter w(csv, "");
    w.write(sample_row());
  }
  std::vector<std::string> c = read_lines(csv);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0], csv_header());
}

TEST(RowWriter, OnlyTheRequestedFiles) {
  TempDir dir;
  std::string json = dir.file("only.json");
  {
    RowWriter w("", json);
    w.write(sample_row());
  }
  EXPECT_EQ(read_lines(json).size(), 1u);
  EXPECT_NO_THROW({
    RowWriter none("", "");
    none.write(sample_row());
  });
}

TEST(RowWriter, UnwritablePathThrowsError) {
  EXPECT_THROW(RowWriter("/nonexistent/dir/x.csv", ""), Error);
  EXPECT_THROW(RowWriter("", "/nonexistent/dir/x.json"), Error);
}

// The lines that `print` writes to a file.
std::vector<std::string> printed(const std::function<void(std::FILE*)>& print) {
  TempDir dir;
  const std::string path = dir.file("table.txt");
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) throw std::runtime_error("cannot open " + path);
  print(out);
  std::fclose(out);
  return read_lines(path);
}

// The console table of a plan whose parameters and phases change between
// sizes (copy=auto deciding per setup): the table says so before the row,
// and every row has as many phase columns as the header above it.
TEST(ConsoleTable, FollowsAPlanThatChangesBetweenSizes) {
  Stats total, phase;
  total.rank_avg = 10;
  phase.rank_avg = 2.5;
  const std::vector<std::string> three = {"copy_in", "reduce_scatter", "allgather"},
                                 four = {"copy_in", "reduce_scatter", "allgather", "complete"};
  const std::vector<std::string> lines = printed([&](std::FILE* out) {
    ConsoleTable table(out, false, true, "copy=copy-in", three);
    table.header();
    table.row(4, total, {phase, phase, phase}, "pass");
    EXPECT_FALSE(table.follow("copy=copy-in", three));  // unchanged: nothing printed
    table.row(8, total, {phase, phase, phase}, "pass");
    EXPECT_TRUE(table.follow("copy=cma", four));
    table.row(16, total, {phase, phase, phase, phase}, "pass");
    EXPECT_TRUE(table.follow("copy=copy-in", three));
    table.row(32, total, {phase, phase, phase}, "pass");
  });
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0].rfind("# Size", 0), 0u);
  EXPECT_EQ(lines[1].rfind("4 ", 0), 0u);
  EXPECT_EQ(lines[2].rfind("8 ", 0), 0u);
  EXPECT_EQ(lines[3], "# parameters: copy=cma");
  EXPECT_NE(lines[4].find("complete(us)"), std::string::npos);
  EXPECT_EQ(lines[5].rfind("16 ", 0), 0u);
  EXPECT_EQ(lines[6], "# parameters: copy=copy-in");
  EXPECT_EQ(lines[7].rfind("# Size", 0), 0u);
  EXPECT_EQ(lines[8].rfind("32 ", 0), 0u);
  // Every row is as wide as the header it follows, and no wider.
  EXPECT_EQ(lines[1].size(), lines[0].size());
  EXPECT_EQ(lines[5].size(), lines[4].size());
  EXPECT_GT(lines[4].size(), lines[0].size());
}

// A row given fewer or more phase values than the header has columns keeps
// the header's columns (a missing value prints as 0).
TEST(ConsoleTable, RowKeepsTheHeadersColumns) {
  Stats total, phase;
  const std::vector<std::string> lines = printed([&](std::FILE* out) {
    ConsoleTable table(out, false, false, "none", {"a", "b"});
    table.header();
    table.row(1, total, {phase}, "off");
    table.row(2, total, {phase, phase, phase}, "off");
  });
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].size(), lines[0].size());
  EXPECT_EQ(lines[2].size(), lines[0].size());
}

}  // namespace
}  // namespace mcb::bench
