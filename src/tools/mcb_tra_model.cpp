// mcb_tra_model: the rounds K and data blocks D of the tunable-radix alltoall
// (alltoall-tunable-radix-tra, Propositions 3 and 4; TRA2 from Section IV)
// for given process counts and radices, and the Hockney estimate
// alpha*K + beta*D*S, as a table and as CSV. `--sweep` takes every radix
// from 2 to P, which is the data of the paper's Figure 4. No MPI: it runs
// anywhere, in seconds for P up to a few ten thousands.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "harness/cli.hpp"
#include "harness/metadata.hpp"
#include "harness/options.hpp"
#include "mcb/error.hpp"
#include "mcb/tra_model.hpp"

namespace {

using mcb::Error;
namespace a2a = mcb::alltoall;

struct Model {
  std::vector<int> ranks, radices, radices_intra, radices_inter;
  std::vector<std::size_t> sizes;
  int ranks_per_node = 0;
  bool sweep = false;
  double alpha = 1.0, beta = 0.1;  // us per message, ns per byte
  std::string csv;
};

// One row: tra (q == 0) or tra2.
struct Row {
  long p = 0, q = 0, r = 0, r2 = 0;
  int digits = 0;
  long rounds = 0, blocks = 0, inter_rounds = 0;
  bool has_delta = false;
  long d_rounds = 0, d_blocks = 0;
};

std::string dash_or(bool has, long v) { return has ? std::to_string(v) : "-"; }

// The radices to model for n members: the list given (each checked against
// [2, max(n, 2)]), every one with --sweep, else `fallback`.
std::vector<long> radices_for(const std::vector<int>& given, bool sweep, long n, long fallback, const char* option,
                              const std::string& what) {
  const long hi = std::max(n, 2L);
  std::vector<long> out;
  if (!given.empty()) {
    for (int r : given) {
      if (r < 2 || r > hi)
        throw Error(std::string(option) + " " + std::to_string(r) + " is outside [2, " + std::to_string(hi) + "] (" +
                    what + ": " + std::to_string(n) + ")");
      out.push_back(r);
    }
  } else if (sweep) {
    for (long r = 2; r <= hi; ++r) out.push_back(r);
  } else {
    out.push_back(fallback);
  }
  return out;
}

std::vector<Row> tra_rows(const Model& m, long p) {
  std::vector<Row> rows;
  std::vector<long> radices = {2, a2a::tra_default_radix(p), std::max(p, 2L)};  // Bruck, the paper's, spread-out
  if (m.sweep || !m.radices.empty()) radices = radices_for(m.radices, m.sweep, p, 0, "--radix", "ranks");
  radices.erase(std::unique(radices.begin(), radices.end()), radices.end());
  for (long r : radices) {
    const a2a::TraCost c = a2a::tra_cost(p, r);
    Row row{p, 0, r, 0, c.digits, c.rounds, c.blocks};
    if (!rows.empty() && rows.back().r == r - 1) {
      row.has_delta = true;
      row.d_rounds = c.rounds - rows.back().rounds;
      row.d_blocks = c.blocks - rows.back().blocks;
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<Row> tra2_rows(const Model& m, long p) {
  const long q = m.ranks_per_node;
  if (p % q != 0)
    throw Error("--ranks " + std::to_string(p) + " is not a multiple of --ranks-per-node " + std::to_string(q) +
                "; TRA2 needs every node full");
  const long nodes = p / q;
  std::vector<Row> rows;
  for (long r1 : radices_for(m.radices_intra, m.sweep, q, a2a::tra_default_radix(q), "--radix-intra", "ranks per node"))
    for (long r2 : radices_for(m.radices_inter, m.sweep, nodes, std::max(nodes, 2L), "--radix-inter", "nodes")) {
      const a2a::Tra2Cost c = a2a::tra2_cost(nodes, q, r1, r2);
      rows.push_back({p, q, r1, r2, 0, c.rounds, c.blocks, c.inter.rounds});
    }
  return rows;
}

// Where D's slope changes (Figure 4's red circle): the last radix at which
// D falls by more than one block from the radix before; from there on it
// falls by at most one per radix.
void print_knee(const std::vector<Row>& rows, long p) {
  long knee = 0, steepest = 0;
  for (const Row& row : rows) {
    if (!row.has_delta) continue;
    steepest = std::min(steepest, row.d_blocks);
    if (std::labs(row.d_blocks) > 1) knee = row.r;
  }
  if (knee == 0) return;
  std::printf(
      "# P = %ld: D's slope changes at radix %ld (sqrt(P) = %.1f): D falls by up to %ld blocks per radix "
      "step below it and by at most 1 above it\n",
      p, knee, std::sqrt(static_cast<double>(p)), -steepest);
}

int run(const Model& m) {
  std::vector<std::vector<Row>> all;  // every row first: bad input fails before any output
  for (int p : m.ranks) all.push_back(m.ranks_per_node > 0 ? tra2_rows(m, p) : tra_rows(m, p));
  std::FILE* csv = nullptr;
  if (!m.csv.empty()) {
    csv = std::fopen(m.csv.c_str(), "w");
    if (!csv) throw Error("--csv " + m.csv + ": cannot open for writing");
    std::fprintf(csv,
                 "algorithm,ranks,ranks_per_node,nodes,radix,radix_inter,digits,rounds,blocks,inter_rounds,size_bytes,"
                 "alpha_us,beta_ns_per_byte,model_us\n");
  }
  std::printf("# mcb_tra_model: rounds K and blocks D that one rank sends in the tunable-radix alltoall\n");
  std::printf("# (alltoall-tunable-radix-tra, Propositions 3-4; tra2: K1+K2 and N*D1+Q*D2)\n");
  std::printf("# Hockney: T = alpha*K + beta*D*S, alpha %g us, beta %g ns/B, S = bytes per block\n", m.alpha, m.beta);
  std::printf("%-10s %8s %6s %6s %7s %4s %8s %12s %8s %6s %8s", "# algorithm", "ranks", "rpn", "radix", "r-inter", "w",
              "K", "D", "K-inter", "dK", "dD");
  for (std::size_t s : m.sizes) std::printf(" %16s", ("T(S=" + std::to_string(s) + ") us").c_str());
  std::printf("\n");
  for (std::size_t k = 0; k < all.size(); ++k) {
    const int p = m.ranks[k];
    const std::vector<Row>& rows = all[k];
    const char* algo = m.ranks_per_node > 0 ? "tra2" : "tra";
    std::vector<long> best_r(m.sizes.size()), best_r2(m.sizes.size());
    std::vector<double> best_t(m.sizes.size(), HUGE_VAL);
    for (const Row& row : rows) {
      const bool two = row.q > 0;
      std::printf("%-10s %8ld %6s %6ld %7s %4s %8ld %12ld %8s %6s %8s", algo, row.p, dash_or(two, row.q).c_str(), row.r,
                  dash_or(two, row.r2).c_str(), dash_or(!two, row.digits).c_str(), row.rounds, row.blocks,
                  dash_or(two, row.inter_rounds).c_str(), dash_or(row.has_delta, row.d_rounds).c_str(),
                  dash_or(row.has_delta, row.d_blocks).c_str());
      for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        const double t = a2a::hockney(row.rounds, row.blocks, m.alpha, m.beta * 1e-3, static_cast<double>(m.sizes[i]));
        std::printf(" %16.2f", t);
        if (t < best_t[i]) best_t[i] = t, best_r[i] = row.r, best_r2[i] = row.r2;
        if (csv)
          std::fprintf(csv, "%s,%ld,%s,%s,%ld,%s,%s,%ld,%ld,%s,%zu,%g,%g,%.6f\n", algo, row.p,
                       two ? std::to_string(row.q).c_str() : "", two ? std::to_string(row.p / row.q).c_str() : "",
                       row.r, two ? std::to_string(row.r2).c_str() : "", two ? "" : std::to_string(row.digits).c_str(),
                       row.rounds, row.blocks, two ? std::to_string(row.inter_rounds).c_str() : "", m.sizes[i], m.alpha,
                       m.beta, t);
      }
      std::printf("\n");
    }
    if (m.ranks_per_node == 0) print_knee(rows, p);
    if (rows.size() > 1)
      for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        std::printf("# P = %d, S = %zu B: the model's best of these is radix %ld", p, m.sizes[i], best_r[i]);
        if (m.ranks_per_node > 0) std::printf(", radix-inter %ld", best_r2[i]);
        std::printf(" (%.2f us)\n", best_t[i]);
      }
  }
  if (csv) std::fclose(csv);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Model m;
  CLI::App app{"mcb_tra_model: rounds, data blocks and Hockney times of the tunable-radix alltoall (TRA, TRA2)",
               "mcb_tra_model"};
  std::string ranks, radix, intra, inter, sizes = "4,4096";
  app.add_option("-p,--ranks", ranks, "process counts P: a,b,c or MIN:MAX (doubling)")->required();
  app.add_option("-r,--radix", radix, "radices in [2, P] (default 2, ceil(sqrt(P)) and P)");
  app.add_flag("--sweep", m.sweep, "every radix from 2 to P (every r1 and r2 with --ranks-per-node): Figure 4");
  app.add_option("--ranks-per-node", m.ranks_per_node, "model tra2 with Q ranks per node (P a multiple of Q)")
      ->check(CLI::PositiveNumber);
  app.add_option("--radix-intra", intra, "tra2: r1 in [2, Q] (default ceil(sqrt(Q)))");
  app.add_option("--radix-inter", inter, "tra2: r2 in [2, P/Q] (default P/Q)");
  app.add_option("-m,--message-size", sizes, "bytes per block S for the Hockney estimate: list or MIN:MAX");
  app.add_option("--alpha", m.alpha, "latency per message in us")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--beta", m.beta, "transfer time per byte in ns")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--csv", m.csv, "write one row per configuration and size to this file");
  app.set_version_flag("--version", std::string(MCB_VERSION));
  try {
    app.parse(argc, argv);
    m.ranks = mcb::bench::parse_int_list("--ranks", ranks);
    if (!radix.empty()) m.radices = mcb::bench::parse_int_list("--radix", radix);
    if (!intra.empty()) m.radices_intra = mcb::bench::parse_int_list("--radix-intra", intra);
    if (!inter.empty()) m.radices_inter = mcb::bench::parse_int_list("--radix-inter", inter);
    m.sizes = mcb::bench::parse_sizes(sizes);
    if (m.ranks_per_node == 0 && !(m.radices_intra.empty() && m.radices_inter.empty()))
      throw Error("--radix-intra and --radix-inter model tra2: give --ranks-per-node");
    if (m.ranks_per_node > 0 && !m.radices.empty())
      throw Error("--radix models tra; with --ranks-per-node use --radix-intra and --radix-inter");
    return run(m);
  } catch (const CLI::CallForVersion&) {
    std::fputs(mcb::bench::version_text("mcb_tra_model").c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return (app.exit)(e);  // parenthesized: smpicxx defines exit(x) as a macro
    std::fprintf(stderr, "mcb_tra_model: error: %s\n", e.what());
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "mcb_tra_model: error: %s\n", e.what());
    return 2;
  }
}
