// mcb_copy_bw: the time of one memcpy of N bytes between two host buffers
// (median of repeated copies, after a warm-up), the yardstick of the
// shared-memory allreduces: a copy-in design moves about three memcpys'
// worth of data (allreduce-shared-memory-multiradix). No MPI.
//   mcb_copy_bw [-m SIZES] [-i ITERATIONS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include "harness/cli.hpp"

#include "harness/options.hpp"
#include "mcb/error.hpp"
#include "mcb/memory.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mcb_copy_bw: time of one memcpy of each size (median, us)", "mcb_copy_bw"};
  std::string sizes = "4194304";
  int iterations = 100;
  app.add_option("-m,--message-size", sizes, "bytes: MIN:MAX doubling, or a list a,b,c")->capture_default_str();
  app.add_option("-i,--iterations", iterations, "copies per size")->capture_default_str();
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::fputs(app.help().c_str(), stdout);
      return 0;
    } catch (const CLI::ParseError& e) {
      throw mcb::Error(std::string(e.what()) + " (see --help)");
    }
    if (iterations < 1) throw mcb::Error("--iterations " + std::to_string(iterations) + ": must be >= 1");
    const std::vector<std::size_t> list = mcb::bench::parse_sizes(sizes);
    const mcb::Memory& mem = mcb::host_memory();
    mcb::Buffer src(mem, list.back()), dst(mem, list.back());
    std::memset(src.data(), 1, list.back());
    std::memset(dst.data(), 2, list.back());
    std::printf("# mcb_copy_bw: one memcpy, median of %d after %d warm-up copies\n", iterations, iterations / 10 + 1);
    std::printf("%-12s%14s%14s\n", "# Size", "Copy(us)", "GB/s");
    for (std::size_t n : list) {
      std::vector<double> us;
      for (int it = -(iterations / 10 + 1); it < iterations; ++it) {
        const auto t0 = std::chrono::steady_clock::now();
        std::memcpy(dst.data(), src.data(), n);
        const auto t1 = std::chrono::steady_clock::now();
        if (it >= 0) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
      std::nth_element(us.begin(), us.begin() + static_cast<long>(us.size() / 2), us.end());
      const double median = us[us.size() / 2];
      std::printf("%-12zu%14.2f%14.2f\n", n, median, static_cast<double>(n) / median / 1e3);
    }
  } catch (const mcb::Error& e) {
    std::fprintf(stderr, "mcb_copy_bw: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
