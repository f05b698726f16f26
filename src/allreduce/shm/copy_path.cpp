// The copy paths of the shared-memory allreduces (see copy_path.hpp).
#include "copy_path.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "mcb/error.hpp"

namespace mcb::allreduce::detail {

namespace {

// What a peer reads through cross-memory attach to see whether the kernel lets it.
const std::uint64_t kProbe = 0x6d63622d636d6121ULL;

}  // namespace

std::string to_string(Path p) {
  static const char* const names[] = {"copy-in", "cma", "registered"};  // in Path's order
  return names[static_cast<int>(p)];
}

ParamSpec copy_param() {
  return {"copy",
          "how peers' buffers are reached: auto (registered where every buffer is, else cma where the kernel allows "
          "process_vm_readv, else copy-in), registered (buffers from mcb::shm_allocate: --buffers registered), cma "
          "or copy-in",
          "auto",
          {"auto", "registered", "cma", "copy-in"}};
}

int cma_read(pid_t pid, void* local, std::uintptr_t remote, std::size_t bytes) {
  auto* to = static_cast<char*>(local);
  while (bytes > 0) {
    iovec l{to, bytes};
    iovec r{reinterpret_cast<void*>(remote), bytes};
    const ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (got == 0) return EFAULT;
    to += got;
    remote += static_cast<std::size_t>(got);
    bytes -= static_cast<std::size_t>(got);
  }
  return 0;
}

namespace {

// What the probes found, per set of processes (sorted ids): a domain of
// processes met before (a communicator made again, a duplicate) skips the
// probes. Bounded; the ranks agree on every use, so a rank that dropped an
// entry makes everyone probe again.
struct Verdict {
  bool cma = false, cma_fast = false;
  double cma_ratio = 0;  // a kernel copy's time over a memcpy's, the worst rank's
  std::string cma_why, cma_speed;
};
std::map<std::vector<pid_t>, Verdict>& verdicts() {
  static auto* v = new std::map<std::vector<pid_t>, Verdict>;
  return *v;
}
std::mutex verdicts_mutex;  // threads may set up on different communicators at once
constexpr std::size_t kVerdicts = 256;

// The probes of discover_peers: every rank reads every other rank's probe
// word (`probes`: their addresses), then times a kernel copy from the next
// rank against a memcpy.
Verdict probe(MPI_Comm dom, const std::vector<pid_t>& pids, const std::vector<unsigned long long>& probes) {
  int me = 0, size = 0;
  MPI_Comm_rank(dom, &me);
  MPI_Comm_size(dom, &size);
  Verdict v;
  // One refusal anywhere turns the path off for the whole domain.
  int ok = 1;
  std::string why;
  for (int q = 0; q < size && ok; ++q) {
    if (q == me) continue;
    std::uint64_t word = 0;
    const int rc = cma_read(pids[static_cast<std::size_t>(q)], &word, probes[static_cast<std::size_t>(q)], sizeof word);
    if (rc != 0 || word != kProbe) {
      ok = 0;
      why = "process_vm_readv from pid " + std::to_string(pids[static_cast<std::size_t>(q)]) + ": " +
            (rc ? std::strerror(rc) : std::string("read the wrong bytes")) +
            (rc == EPERM ? " (ptrace restrictions: kernel.yama.ptrace_scope, or a container without CAP_SYS_PTRACE)"
                         : "");
    }
  }
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, dom);
  v.cma = all_ok == 1;
  if (!v.cma) {
    // The first refusal, as the lowest refusing rank saw it.
    int first = ok ? size : me, lowest = size;
    MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, dom);
    int len = me == lowest ? static_cast<int>(why.size()) : 0;
    MPI_Bcast(&len, 1, MPI_INT, lowest, dom);
    why.resize(static_cast<std::size_t>(len));
    MPI_Bcast(why.data(), len, MPI_CHAR, lowest, dom);
    v.cma_why = why;
  }
  if (!v.cma || size == 1) return v;
  // Is a kernel copy from the next rank as fast as a memcpy? Best of three
  // each, in cache after the first; every rank must find it so.
  std::vector<char> sample(kCmaSample, 1), into(kCmaSample, 2);  // touched: the pages exist
  const auto at = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(sample.data()));
  std::vector<unsigned long long> samples(static_cast<std::size_t>(size));
  MPI_Allgather(&at, 1, MPI_UNSIGNED_LONG_LONG, samples.data(), 1, MPI_UNSIGNED_LONG_LONG, dom);
  const int next = (me + 1) % size;
  using clock = std::chrono::steady_clock;
  double cma_s = 1e9, copy_s = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = clock::now();
    cma_read(pids[static_cast<std::size_t>(next)], into.data(), samples[static_cast<std::size_t>(next)], kCmaSample);
    auto t1 = clock::now();
    std::memcpy(into.data(), sample.data(), kCmaSample);
    auto t2 = clock::now();
    cma_s = std::min(cma_s, std::chrono::duration<double>(t1 - t0).count());
    copy_s = std::min(copy_s, std::chrono::duration<double>(t2 - t1).count());
  }
  MPI_Barrier(dom);  // the peers' samples stay alive until everyone is done
  double worst = cma_s / copy_s;
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, dom);
  v.cma_fast = worst <= 1.0;
  v.cma_ratio = worst;
  char text[160];
  std::snprintf(text, sizeof text, "process_vm_readv of %zu KiB at %.1f GB/s against memcpy's %.1f GB/s (rank %d)",
                kCmaSample / 1024, static_cast<double>(kCmaSample) / cma_s * 1e-9,
                static_cast<double>(kCmaSample) / copy_s * 1e-9, me);
  v.cma_speed = text;
  return v;
}

}  // namespace

Peers discover_peers(MPI_Comm dom) {
  int size = 0;
  MPI_Comm_size(dom, &size);
  const unsigned long long mine[2] = {static_cast<unsigned long long>(getpid()),
                                      static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(&kProbe))};
  std::vector<unsigned long long> all(2 * static_cast<std::size_t>(size));
  MPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, all.data(), 2, MPI_UNSIGNED_LONG_LONG, dom);
  Peers p;
  std::vector<unsigned long long> probes;
  for (int q = 0; q < size; ++q) {
    p.pids.push_back(static_cast<pid_t>(all[2 * static_cast<std::size_t>(q)]));
    probes.push_back(all[2 * static_cast<std::size_t>(q) + 1]);
  }
  p.sorted = p.pids;
  std::sort(p.sorted.begin(), p.sorted.end());
  Verdict v;
  int everyone = 0;
  {
    std::lock_guard<std::mutex> lock(verdicts_mutex);
    auto it = verdicts().find(p.sorted);
    if (it != verdicts().end()) v = it->second, everyone = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, &everyone, 1, MPI_INT, MPI_MIN, dom);
  if (!everyone) {
    v = probe(dom, p.pids, probes);
    std::lock_guard<std::mutex> lock(verdicts_mutex);
    auto& known = verdicts();
    if (known.size() >= kVerdicts && known.count(p.sorted) == 0) known.erase(known.begin());
    known[p.sorted] = v;
  }
  p.cma = v.cma;
  p.cma_fast = v.cma_fast;
  p.cma_ratio = v.cma_ratio;
  p.cma_why = v.cma_why;
  p.cma_speed = v.cma_speed;
  return p;
}

Descriptor describe(const void* in, const void* out, std::size_t bytes, const Peers& peers) {
  return describe(in, out, bytes, bytes, peers);
}

Descriptor describe(const void* in, const void* out, std::size_t in_bytes, std::size_t out_bytes, const Peers& peers) {
  Descriptor d;
  auto side = [&](const void* p, std::size_t bytes) {
    Side s;
    s.addr = reinterpret_cast<std::uintptr_t>(p);
    if (auto at = shm_lookup(p, bytes, peers.sorted)) {
      s.at = *at;
      s.registered = 1;
    }
    return s;
  };
  d.in = side(in, in_bytes);
  d.out = side(out, out_bytes);
  return d;
}

namespace {

bool is_registered(const Descriptor& d) { return d.in.registered && d.out.registered; }

Path path_for(bool registered, const Peers& peers, const std::string& requested, double cma_ratio) {
  if (requested == "copy-in") return Path::copy_in;
  const bool automatic = requested == "auto" || requested == kAutoNoCma;
  if (registered && (automatic || requested == "registered")) return Path::registered;
  const bool fast = peers.cma_fast || (peers.cma && peers.cma_ratio > 0 && peers.cma_ratio <= cma_ratio);
  if (peers.cma && (requested == "cma" || (requested == "auto" && fast))) return Path::cma;
  return Path::copy_in;
}

}  // namespace

Path choose(const std::vector<Descriptor>& all, const Peers& peers, const std::string& requested, double cma_ratio) {
  return path_for(std::all_of(all.begin(), all.end(), is_registered), peers, requested, cma_ratio);
}

Path choose(const Descriptor& mine, const Peers& peers, const std::string& requested, double cma_ratio) {
  return path_for(is_registered(mine), peers, requested, cma_ratio);
}

void reach(const std::vector<Descriptor>& all, Path path, Reach& r) {
  r.path = path;
  r.in.clear();
  r.out.clear();
  r.remote_in.clear();
  for (const Descriptor& d : all) {
    if (path == Path::registered) {
      r.in.push_back(shm_translate(d.in.at));
      r.out.push_back(shm_translate(d.out.at));
    }
    r.remote_in.push_back(static_cast<std::uintptr_t>(d.in.addr));
  }
}

Reach reach(const std::vector<Descriptor>& all, Path path) {
  Reach r;
  reach(all, path, r);
  return r;
}

}  // namespace mcb::allreduce::detail
