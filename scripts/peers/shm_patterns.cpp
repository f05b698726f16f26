// shm_patterns: why mcb's copy-in shared-memory allreduce spreads its piece
// (issue 48, docs/allreduce.md "Against the paper's own library"). Two
// processes, one shared mapping, bound to CPUs 0 and 1, float sum: the
// three steps of a 2-rank copy-in allreduce, each ended by a flag, timed
// per step on rank 0 (microseconds per call, mean over the calls; each
// step's time includes its wait for the other rank). No MPI, no mcb.
//
//   g++ -O3 -o /tmp/shm_patterns scripts/peers/shm_patterns.cpp
//   /tmp/shm_patterns BYTES CALLS
//
// Schedules (h = BYTES / 2; R_me and R_peer the two regions; "mine" is my
// half of the vector, "theirs" the other half):
//   pull    copy in in[theirs] -> R_me[theirs];
//           recv[mine] = in[mine] + R_peer[mine], then copied to
//           R_me[mine]; copy R_peer[theirs] -> recv[theirs] (pull)
//   dual    (mcb at issue 48's start): as pull, but the sum is stored to
//           R_me[mine] and recv[mine] in the same loop
//   ext_mpi (its method 9 at 2 ranks): copy in all of in -> R_me;
//           R_me[mine] += R_peer[mine]; push R_me[mine] -> R_peer[mine];
//           copy R_me -> recv
//   spread  (mcb since issue 48): copy in in[theirs] -> R_me[theirs];
//           recv[mine] = in[mine] + R_peer[mine], then pushed to
//           R_peer[mine]; copy R_me[theirs] -> recv[theirs]
// Every result is checked (each element must be 3).
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

enum class Schedule { pull, dual, ext_mpi, spread };
constexpr const char* kNames[] = {"pull", "dual", "ext_mpi", "spread"};

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct alignas(64) Flag {
  std::atomic<unsigned> value;
};

struct Rank {
  int me;
  Flag* flags;  // two, on cache lines of their own
  unsigned counter = 0;
  void set() { flags[me].value.store(++counter, std::memory_order_release); }
  void wait(unsigned target) const {
    while (static_cast<int>(flags[1 - me].value.load(std::memory_order_acquire) - target) < 0) {
    }
  }
};

void add(float* out, const float* a, const float* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

void add2(float* out1, float* out2, const float* a, const float* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out1[i] = out2[i] = a[i] + b[i];
}

// One call of `s`; t[0..2] += the time of each step.
void call(Schedule s, Rank& r, char* mine_region, char* peer_region, const char* in, char* recv, std::size_t n,
          double* t) {
  const std::size_t h = n / 2, mine = static_cast<std::size_t>(r.me) * h, theirs = h - mine;
  const unsigned base = r.counter;
  const double t0 = now_us();
  r.wait(base);  // the peer finished the last call
  if (s == Schedule::ext_mpi)
    std::memcpy(mine_region, in, n);
  else
    std::memcpy(mine_region + theirs, in + theirs, h);
  r.set();
  const double t1 = now_us();
  r.wait(base + 1);
  auto* sum_in = reinterpret_cast<const float*>(in + mine);
  auto* peer = reinterpret_cast<const float*>(peer_region + mine);
  auto* out = reinterpret_cast<float*>(recv + mine);
  auto* region = reinterpret_cast<float*>(mine_region + mine);
  switch (s) {
    case Schedule::pull:
      add(out, sum_in, peer, h / 4);
      std::memcpy(region, out, h);
      break;
    case Schedule::dual:
      add2(region, out, sum_in, peer, h / 4);
      break;
    case Schedule::ext_mpi:
      add(region, region, peer, h / 4);
      std::memcpy(peer_region + mine, region, h);
      break;
    case Schedule::spread:
      add(out, sum_in, peer, h / 4);
      std::memcpy(peer_region + mine, out, h);
      break;
  }
  r.set();
  const double t2 = now_us();
  r.wait(base + 2);
  if (s == Schedule::ext_mpi)
    std::memcpy(recv, mine_region, n);
  else
    std::memcpy(recv + theirs, (s == Schedule::spread ? mine_region : peer_region) + theirs, h);
  r.set();
  const double t3 = now_us();
  t[0] += t1 - t0;
  t[1] += t2 - t1;
  t[2] += t3 - t2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s BYTES CALLS (BYTES a multiple of 128)\n", argv[0]);
    return 2;
  }
  const std::size_t n = std::strtoul(argv[1], nullptr, 0);
  const int calls = std::atoi(argv[2]);
  if (n == 0 || n % 128 != 0 || calls < 1) {
    std::fprintf(stderr, "%s: BYTES must be a positive multiple of 128, CALLS positive\n", argv[0]);
    return 2;
  }
  const std::size_t page = 4096, region = (n + page - 1) / page * page;
  void* shared = mmap(nullptr, page + 2 * region, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  auto* flags = new (shared) Flag[2]{};
  char* regions[2] = {static_cast<char*>(shared) + page, static_cast<char*>(shared) + page + region};
  const pid_t child = fork();
  Rank r{child == 0 ? 1 : 0, flags};
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  CPU_SET(r.me, &cpus);
  sched_setaffinity(0, sizeof cpus, &cpus);
  auto* in = static_cast<float*>(std::aligned_alloc(page, region));
  auto* recv = static_cast<float*>(std::aligned_alloc(page, region));
  int bad = 0;
  for (int s = 0; s < 4; ++s) {
    double t[3] = {0, 0, 0}, warm[3] = {0, 0, 0};
    for (std::size_t i = 0; i < n / 4; ++i) in[i] = static_cast<float>(r.me + 1);
    std::memset(recv, 0, n);
    for (int c = 0; c < calls + 10; ++c) {
      call(static_cast<Schedule>(s), r, regions[r.me], regions[1 - r.me], reinterpret_cast<char*>(in),
           reinterpret_cast<char*>(recv), n, c < 10 ? warm : t);
    }
    for (std::size_t i = 0; i < n / 4; ++i)
      if (recv[i] != 3.0F) {
        std::fprintf(stderr, "rank %d, %s: element %zu is %g, not 3\n", r.me, kNames[s], i, recv[i]);
        bad = 1;
        break;
      }
    if (r.me == 0)
      std::printf("%-8s %10zu B: copy_in %9.2f  reduce %9.2f  allgather %9.2f  total %9.2f us\n", kNames[s], n,
                  t[0] / calls, t[1] / calls, t[2] / calls, (t[0] + t[1] + t[2]) / calls);
  }
  if (child == 0) _exit(bad);
  int status = 0;
  waitpid(child, &status, 0);
  return bad || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}
