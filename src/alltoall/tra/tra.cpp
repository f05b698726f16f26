// tra: the tunable-radix alltoall (alltoall-tunable-radix-tra, Section III,
// Figure 1), Bruck's algorithm generalised to any radix r in [2, P].
//   rotate:      x[i] = send[(rank + i) % P]
//   exchange:    for every digit x of P-1 in base r and every value
//                z = 1..r-1: the blocks i whose digit x is z go to
//                rank + z*r^x and arrive from rank - z*r^x (packed, one
//                MPI_Sendrecv per round)
//   rotate_back: recv[(rank - i) % P] = x[i]
// Per rank: K = w(r-1) - floor((r^w - P) / r^(w-1)) messages and D blocks
// of s bytes in all (Propositions 3 and 4, mcb/tra_model.hpp), w the number
// of base-r digits of P-1. r = 2 is Bruck (K = ceil(log2 P), D about
// P/2 log2 P); r = P is the spread-out exchange (K = P-1, D = P-1). The
// default radix is the paper's ceil(sqrt(P)). Scratch: P blocks plus twice
// the largest round; the send buffer is only read. This file also holds the
// exchange rounds that tra2, bruck and the inner exchanges reuse.
#include "tra.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "mcb/tra_model.hpp"
#include "node_aware/hierarchy.hpp"

namespace mcb::alltoall {

namespace detail {

std::vector<TraStep> tra_schedule(int n, int radix) {
  const long r = std::min<long>(radix, std::max(n, 2));
  std::vector<TraStep> steps;
  for (long rx = 1; rx < n; rx *= r)  // r^x for every digit x of n-1
    for (long z = 1; z < r; ++z) {
      TraStep s;
      s.distance = static_cast<int>(z * rx);
      for (long group = 0; group + z * rx < n; group += rx * r) {
        const long first = group + z * rx, len = std::min(rx, n - first);
        s.runs.emplace_back(static_cast<int>(first), static_cast<int>(len));
        s.blocks += static_cast<int>(len);
      }
      if (s.blocks > 0) steps.push_back(std::move(s));
    }
  return steps;
}

int resolve_radix(const std::string& who, const Params& params, const std::string& name, int n, const std::string& what,
                  long fallback) {
  const long hi = std::max(n, 2);
  if (!params.has(name)) return static_cast<int>(std::clamp(fallback, 2L, hi));
  const long r = params.get_int(name, fallback);
  if (r < 2 || r > hi)
    throw Error(who + ": --" + name + " " + std::to_string(r) + " is outside [2, " + std::to_string(hi) + "] (" + what +
                ": " + std::to_string(n) + ")");
  return static_cast<int>(r);
}

Plan::Step tra_exchange(const CollArgs& args, std::vector<int> members, int me, int radix, int unit, void* x, int tag) {
  struct State {
    std::vector<TraStep> steps;
    std::vector<int> members;
    Buffer out, in;
  };
  auto st = std::make_shared<State>();
  const int n = static_cast<int>(members.size());
  st->steps = tra_schedule(n, radix);
  st->members = std::move(members);
  int most = 0;
  for (const auto& s : st->steps) most = std::max(most, s.blocks);
  const std::size_t bytes = args.type_bytes() * static_cast<std::size_t>(unit);
  st->out = Buffer(args.memory(), bytes * most);
  st->in = Buffer(args.memory(), bytes * most);
  auto* base = static_cast<char*>(x);
  return [=, a = args] {
    const Memory& mem = a.memory();
    auto* out = st->out.as<char>();
    auto* in = st->in.as<char>();
    for (const TraStep& s : st->steps) {
      std::size_t at = 0;
      for (const auto& [first, len] : s.runs) {
        mem.copy(out + at, base + first * bytes, len * bytes);
        at += len * bytes;
      }
      const int to = st->members[(me + s.distance) % n], from = st->members[(me - s.distance + n) % n];
      MPI_Sendrecv(out, s.blocks * unit, a.type, to, tag, in, s.blocks * unit, a.type, from, tag, a.comm,
                   MPI_STATUS_IGNORE);
      at = 0;
      for (const auto& [first, len] : s.runs) {
        mem.copy(base + first * bytes, in + at, len * bytes);
        at += len * bytes;
      }
    }
  };
}

Plan tra_plan(const CollArgs& args, int radix) {
  const int p = args.size(), me = args.rank();
  const std::size_t block = args.block_bytes();
  std::vector<std::size_t> rotate(static_cast<std::size_t>(p)), back(rotate.size());
  for (int i = 0; i < p; ++i) {
    rotate[i] = static_cast<std::size_t>((me + i) % p);    // x[i] <- send[me + i]
    back[i] = static_cast<std::size_t>((me - i + p) % p);  // recv[i] <- x[me - i]
  }
  auto st = std::make_shared<Scratch>();
  st->x = Buffer(args.memory(), block * p);
  st->pack = Repack(rotate);
  st->unpack = Repack(back);
  std::vector<int> members(static_cast<std::size_t>(p));
  std::iota(members.begin(), members.end(), 0);
  const auto* send = static_cast<const char*>(args.sendbuf);
  auto* recv = static_cast<char*>(args.recvbuf);

  Plan plan;
  plan.add("rotate", [=, a = args] { st->pack.run(a.memory(), st->x.data(), send, block); });
  plan.add("exchange", tra_exchange(args, std::move(members), me, radix, args.count, st->x.data(), 0));
  plan.add("rotate_back", [=, a = args] { st->unpack.run(a.memory(), recv, st->x.data(), block); });
  return plan;
}

Plan inner_tra(const CollArgs& args, const InnerSite& site) {
  const int n = args.size();
  const int radix = resolve_radix(site.who, site.params, "radix", n, "ranks in the exchange", tra_default_radix(n));
  Plan plan = tra_plan(args, radix);
  plan.set_param("radix", std::to_string(radix));
  return plan;
}

}  // namespace detail

namespace {

// --radix on P ranks: the check before the first measurement and the
// factory resolve it here, with the same messages.
int radix_of(const Params& params, int p) {
  return detail::resolve_radix("tra", params, "radix", p, "ranks", tra_default_radix(p));
}

}  // namespace

Plan tra(const CollArgs& args, const Params& params) {
  const int radix = radix_of(params, args.size());
  Plan plan = detail::tra_plan(args, radix);
  plan.set_param("radix", std::to_string(radix));
  return plan;
}

MCB_DECLARE_ALGORITHM(tra) {
  Algorithm a{"tra",
              "tunable-radix alltoall: radix r from 2 (Bruck) to P (spread-out), any P",
              {{"radix", "r in [2, P], a list of them (default ceil(sqrt(P)))", "", {}}},
              [](const CollArgs& args, const Layout&, const Params& p) { return tra(args, p); }};
  a.check = [](const Layout& layout, const Params& p) { radix_of(p, layout.size()); };
  return a;
}

}  // namespace mcb::alltoall
