// mcb_copy_bw: the memory yardstick of the shared-memory allreduces (issue
// 21's roofline). Per size, on T threads at once (one per core, each with
// buffers of its own): the time of one memcpy of N bytes, of one sum of two
// N-byte vectors into a third and of one into two more (the pattern of a
// registered 2-rank allreduce's push), with the allreduces' own k-way sum
// (reduce_many_to, the floats in N bytes), the median over iterations of
// the slowest thread; and the memory traffic they move per second, counted
// as the allreduce counts its own (bytes read plus bytes written: 2N per
// copy, 3N and 4N per sum, times T). With buffers larger than the last-level cache, the
// all-core traffic is the bandwidth the allreduce's traffic is held against
// (scripts/measure/allreduce_vs_system.py). With -d cuda the same three on one GPU's
// memory: a device-to-device copy against mcb's device reduction kernels
// (Memory::reduce), each timed to its completion. No MPI communication.
//   mcb_copy_bw [-m SIZES] [-i ITERATIONS] [-t THREADS|all] [-d host|cuda|hip]
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "harness/cli.hpp"
#include "harness/metadata.hpp"
#include "harness/options.hpp"
#include "mcb/error.hpp"
#include "mcb/memory.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

// Per iteration, the slowest thread's seconds for one copy, one sum into
// one destination and one into two.
struct Times {
  std::vector<double> copy, sum, push;
};

Times run(const mcb::Memory& mem, std::size_t n, int threads, int warmup, int iterations) {
  Times t;
  t.copy.assign(static_cast<std::size_t>(iterations), 0.0);
  t.sum.assign(static_cast<std::size_t>(iterations), 0.0);
  t.push.assign(static_cast<std::size_t>(iterations), 0.0);
  std::vector<std::vector<double>> copy(static_cast<std::size_t>(threads)), sum(copy), push(copy);
  std::barrier sync(threads);
  auto work = [&](int id) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<unsigned>(id) % std::max(1u, std::thread::hardware_concurrency()), &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);  // first touch and work on one core
    mcb::Buffer a(mem, n), b(mem, n), c(mem, n), d(mem, n);
    mem.fill(a.data(), 1, n);
    mem.fill(b.data(), 2, n);
    mem.fill(c.data(), 3, n);
    mem.fill(d.data(), 4, n);
    const void* srcs[2] = {a.data(), b.data()};
    void* dst[2] = {c.data(), d.data()};
    const int floats = static_cast<int>(n / sizeof(float));
    for (int it = -warmup; it < iterations; ++it) {
      sync.arrive_and_wait();
      const auto t0 = clock_type::now();
      mem.copy(c.data(), a.data(), n);
      const auto t1 = clock_type::now();
      sync.arrive_and_wait();
      const auto t2 = clock_type::now();
      mem.reduce(dst, 1, srcs, 2, floats, MPI_FLOAT, MPI_SUM);
      const auto t3 = clock_type::now();
      sync.arrive_and_wait();
      const auto t4 = clock_type::now();
      mem.reduce(dst, 2, srcs, 2, floats, MPI_FLOAT, MPI_SUM);
      const auto t5 = clock_type::now();
      if (it < 0) continue;
      copy[static_cast<std::size_t>(id)].push_back(std::chrono::duration<double>(t1 - t0).count());
      sum[static_cast<std::size_t>(id)].push_back(std::chrono::duration<double>(t3 - t2).count());
      push[static_cast<std::size_t>(id)].push_back(std::chrono::duration<double>(t5 - t4).count());
    }
  };
  std::vector<std::thread> pool;
  for (int id = 1; id < threads; ++id) pool.emplace_back(work, id);
  work(0);
  for (auto& th : pool) th.join();
  for (std::size_t it = 0; it < static_cast<std::size_t>(iterations); ++it)
    for (std::size_t id = 0; id < static_cast<std::size_t>(threads); ++id) {
      t.copy[it] = std::max(t.copy[it], copy[id][it]);
      t.sum[it] = std::max(t.sum[it], sum[id][it]);
      t.push[it] = std::max(t.push[it], push[id][it]);
    }
  return t;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mcb_copy_bw: memcpy and k-way sum times and memory traffic per size, on one or all cores",
               "mcb_copy_bw"};
  std::string sizes = "4194304", threads_text = "1";
  int iterations = 100;
  std::string mem_name = "host";
  app.add_option("-m,--message-size", sizes, "bytes: MIN:MAX doubling, or a list a,b,c")->capture_default_str();
  app.add_option("-i,--iterations", iterations, "copies per size")->capture_default_str();
  app.add_option("-t,--threads", threads_text,
                 "threads at once, one per core, each with its own buffers; all: one per core")
      ->capture_default_str();
  app.add_option("-d,--mem", mem_name,
                 "host (one buffer set per thread) or cuda/hip (one GPU: device-to-device copy and mcb's device "
                 "reduction kernels)")
      ->capture_default_str();
  app.set_version_flag("--version", std::string(MCB_VERSION));
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::fputs(app.help().c_str(), stdout);
      return 0;
    } catch (const CLI::CallForVersion&) {
      std::fputs(mcb::bench::version_text("mcb_copy_bw").c_str(), stdout);
      return 0;
    } catch (const CLI::ParseError& e) {
      throw mcb::Error(std::string(e.what()) + " (see --help)");
    }
    if (iterations < 1) throw mcb::Error("--iterations " + std::to_string(iterations) + ": must be >= 1");
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const mcb::Memory& mem = mcb::memory_for(mcb::parse_mem_kind(mem_name));
    const bool device = mem.kind() != mcb::MemKind::host;
    if (device && threads_text != "1") throw mcb::Error("--threads " + threads_text + ": one GPU is one thread");
    int threads = cores;
    if (threads_text != "all") {
      if (!mcb::Params::is_integer(threads_text) || std::stol(threads_text) < 1)
        throw mcb::Error("--threads " + threads_text + ": expected a positive integer or all");
      threads = static_cast<int>(std::stol(threads_text));
    }
    // One number is that size alone (the benchmarks read it as 1:MAX).
    const std::vector<std::size_t> list = sizes.find_first_of(":,") == std::string::npos
                                              ? mcb::bench::parse_sizes(sizes + ":" + sizes)
                                              : mcb::bench::parse_sizes(sizes);
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    const int warmup = iterations / 10 + 1;
    if (device) {
      mem.select_device(0);
      const auto info = mem.device_info();
      std::printf(
          "# mcb_copy_bw: %s memory of %s; median over %d iterations, after %d warm-up, each operation timed to its "
          "end (stream synchronized)\n",
          mem_name.c_str(), info ? info->name.c_str() : "the first device", iterations, warmup);
    } else {
      std::printf(
          "# mcb_copy_bw: %d thread%s (of %d cores), each with its own buffers; median over %d iterations of "
          "the slowest thread, after %d warm-up\n",
          threads, threads == 1 ? "" : "s", cores, iterations, warmup);
    }
    std::printf(
        "# traffic: bytes read plus written per second by all threads (per thread: copy 2N, sum of two into one "
        "3N, into two (a 2-rank push) 4N); last-level cache as sysconf gives it: %s\n",
        l3 > 0 ? (std::to_string(l3 / 1024) + " KiB (buffers well above it measure memory)").c_str() : "unknown");
    std::printf("%-12s%14s%14s%16s%14s%16s%14s%16s\n", "# Size", "Copy(us)", "GB/s", "Copy traffic", "Sum(us)",
                "Sum traffic", "Push(us)", "Push traffic");
    for (std::size_t n : list) {
      const Times t = run(mem, n, threads, warmup, iterations);
      const double copy = median(t.copy), sum = median(t.sum), push = median(t.push);
      const double bytes = static_cast<double>(n), summed = static_cast<double>(n / sizeof(float) * sizeof(float));
      std::printf("%-12zu%14.2f%14.2f%16.2f%14.2f%16.2f%14.2f%16.2f\n", n, copy * 1e6, bytes / copy * 1e-9,
                  threads * 2 * bytes / copy * 1e-9, sum * 1e6, threads * 3 * summed / sum * 1e-9, push * 1e6,
                  threads * 4 * summed / push * 1e-9);
    }
  } catch (const mcb::Error& e) {
    std::fprintf(stderr, "mcb_copy_bw: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
