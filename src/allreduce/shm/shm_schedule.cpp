// The shared-memory recursive exchange schedule (see shm_schedule.hpp).
#include "shm_schedule.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "mcb/error.hpp"
#include "shm.hpp"

namespace mcb::allreduce::detail {

namespace {

std::string divisors_of(int q) {
  std::string out;
  for (int d = 1; d <= q; ++d)
    if (q % d == 0) out += (out.empty() ? "" : ", ") + std::to_string(d);
  return out;
}

long product(const std::vector<int>& v) {
  long p = 1;
  for (int x : v) p *= x;
  return p;
}

// The members of my group in a stage of factor f over digits of `stride`.
std::vector<int> group(int rank, int f, int stride) {
  const int digit = (rank / stride) % f;
  std::vector<int> g;
  for (int d = 0; d < f; ++d) g.push_back(rank + (d - digit) * stride);
  return g;
}

// Part `i` of `n` of a range of cache lines.
Range part(Range lines, int i, int n) {
  const std::size_t len = lines.size();
  return {lines.lo + len * static_cast<std::size_t>(i) / static_cast<std::size_t>(n),
          lines.lo + len * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(n)};
}

Range to_bytes(Range lines, std::size_t bytes) {
  return {std::min(lines.lo * kCacheLine, bytes), std::min(lines.hi * kCacheLine, bytes)};
}

// Per rank, its piece (in lines) after the reduce_scatter stages.
Range piece_of(int rank, const std::vector<int>& rs, std::size_t lines) {
  Range r{0, lines};
  int stride = 1;
  for (int f : rs) {
    r = part(r, (rank / stride) % f, f);
    stride *= f;
  }
  return r;
}

// Sorted, adjacent runs from the same source merged, empty ones dropped.
std::vector<Copy> coalesce(std::vector<Copy> copies) {
  std::sort(copies.begin(), copies.end(), [](const Copy& a, const Copy& b) { return a.range.lo < b.range.lo; });
  std::vector<Copy> out;
  for (const Copy& c : copies) {
    if (c.range.size() == 0) continue;
    if (!out.empty() && out.back().from == c.from && out.back().range.hi == c.range.lo)
      out.back().range.hi = c.range.hi;
    else
      out.push_back(c);
  }
  return out;
}

// The lists of "-4,-2,2,4" (`option` names the option in errors); `ordered`:
// whether every negative factor comes before every positive one.
Factors split_factors(const std::string& who, const std::string& option, const std::string& text, bool* ordered) {
  Factors f;
  std::stringstream ss(text);
  std::string item;
  *ordered = true;
  while (std::getline(ss, item, ',')) {
    int v = 0;
    std::size_t used = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || v == 0 || v == 1 || v == -1)
      throw Error(who + ": " + option + " " + text + ": '" + item +
                  "' is not a factor (negative for reduce_scatter, positive for allgather, |f| >= 2)");
    if (v < 0 && !f.allgather.empty()) *ordered = false;
    (v < 0 ? f.reduce_scatter : f.allgather).push_back(v < 0 ? -v : v);
  }
  if (text.empty() || text.back() == ',') throw Error(who + ": " + option + " " + text + ": empty item in the list");
  return f;
}

}  // namespace

Factors parse_factors(const std::string& who, const std::string& text, int q, bool reduce_only, bool at_least) {
  bool ordered = true;
  Factors f = split_factors(who, "--factors", text, &ordered);
  if (reduce_only && !f.allgather.empty())
    throw Error(who + ": --factors " + text + ": the tree takes reduce factors only (negative, e.g. -4,-2)");
  for (const auto* list : {&f.reduce_scatter, &f.allgather}) {
    if (reduce_only && list == &f.allgather) continue;
    const std::string what = std::string(list == &f.reduce_scatter ? "reduce_scatter" : "allgather") +
                             " factors multiply to " + std::to_string(product(*list));
    if (at_least && product(*list) < q)
      throw Error(who + ": --factors " + text + ": the " + what + ", less than the " + std::to_string(q) +
                  " ranks per node");
    if (!at_least && product(*list) != q)
      throw Error(who + ": --factors " + text + ": the " + what + ", not to the " + std::to_string(q) +
                  " ranks per node (use divisors of " + std::to_string(q) + ": " + divisors_of(q) + ")");
  }
  return f;
}

Factors default_factors(int q) {
  std::vector<int> primes;
  for (int n = q, d = 2; n > 1; d = d * d > n ? n : d + 1)
    while (n % d == 0) {
      primes.push_back(d);
      n /= d;
    }
  std::sort(primes.rbegin(), primes.rend());
  Factors f;
  for (int p : primes)
    if (!f.reduce_scatter.empty() && f.reduce_scatter.back() * p <= 8)
      f.reduce_scatter.back() *= p;
    else
      f.reduce_scatter.push_back(p);
  f.allgather.assign(f.reduce_scatter.rbegin(), f.reduce_scatter.rend());
  return f;
}

std::string to_string(const Factors& f) {
  std::string out;
  auto add = [&out](int x) {
    if (!out.empty()) out += ',';
    out += std::to_string(x);
  };
  for (int x : f.reduce_scatter) add(-x);
  for (int x : f.allgather) add(x);
  return out.empty() ? "none" : out;
}

ShmSchedule shm_schedule(int q, int rank, const Factors& factors, std::size_t bytes) {
  const std::size_t lines = (bytes + kCacheLine - 1) / kCacheLine;
  ShmSchedule s;
  std::set<int> readers;
  Range r{0, lines};
  int stride = 1;
  for (int f : factors.reduce_scatter) {
    std::vector<int> g = group(rank, f, stride);
    r = part(r, (rank / stride) % f, f);
    s.rs_range.push_back(to_bytes(r, bytes));
    std::erase(g, rank);
    readers.insert(g.begin(), g.end());
    s.rs_members.push_back(std::move(g));
    stride *= f;
  }
  s.piece = to_bytes(r, bytes);

  std::vector<Range> piece(static_cast<std::size_t>(q));
  for (int o = 0; o < q; ++o)
    piece[static_cast<std::size_t>(o)] = to_bytes(piece_of(o, factors.reduce_scatter, lines), bytes);
  std::vector<std::vector<int>> held(static_cast<std::size_t>(q));  // whose pieces each rank holds
  for (int o = 0; o < q; ++o) held[static_cast<std::size_t>(o)] = {o};
  int span = q;
  for (std::size_t a = 0; a < factors.allgather.size(); ++a) {
    const int g = factors.allgather[a];
    span /= g;
    if (a + 1 == factors.allgather.size())
      for (int o : held[static_cast<std::size_t>(rank)])
        s.held_before_last.push_back(piece[static_cast<std::size_t>(o)]);
    std::vector<std::vector<int>> next(static_cast<std::size_t>(q));
    for (int x = 0; x < q; ++x)
      for (int m : group(x, g, span))
        next[static_cast<std::size_t>(x)].insert(next[static_cast<std::size_t>(x)].end(),
                                                 held[static_cast<std::size_t>(m)].begin(),
                                                 held[static_cast<std::size_t>(m)].end());
    std::vector<int> members = group(rank, g, span);
    std::erase(members, rank);
    std::vector<Copy> copies;
    for (int m : members)
      for (int o : held[static_cast<std::size_t>(m)]) copies.push_back({m, piece[static_cast<std::size_t>(o)]});
    s.ag_copies.push_back(coalesce(std::move(copies)));
    readers.insert(members.begin(), members.end());
    s.ag_members.push_back(std::move(members));
    held = std::move(next);
  }
  if (factors.allgather.empty()) s.held_before_last = {Range{0, bytes}};
  std::vector<Copy> own;
  for (const Range& x : s.held_before_last) own.push_back({rank, x});
  s.held_before_last.clear();
  for (const Copy& c : coalesce(std::move(own))) s.held_before_last.push_back(c.range);
  s.readers.assign(readers.begin(), readers.end());
  return s;
}

TreeSchedule tree_schedule(int q, int rank, const Factors& factors, std::size_t bytes) {
  const std::size_t lines = (bytes + kCacheLine - 1) / kCacheLine;
  TreeSchedule t;
  std::set<int> readers;
  int stride = 1;
  bool active = true;
  for (int f : factors.reduce_scatter) {
    TreeStage st;
    st.active = active;
    if (active) {
      const int digit = (rank / stride) % f;
      st.members = group(rank, f, stride);
      st.root = st.members.front();
      std::erase(st.members, rank);
      st.part = to_bytes(part(Range{0, lines}, digit, f), bytes);
      readers.insert(st.members.begin(), st.members.end());
      active = digit == 0;
    }
    t.stages.push_back(std::move(st));
    stride *= f;
  }
  t.own_first = t.stages.empty() ? Range{bytes, bytes} : t.stages.front().part;
  if (rank == 0)
    for (int o = 1; o < q; ++o) readers.insert(o);  // everyone copies the sum out of local rank 0's region
  t.readers.assign(readers.begin(), readers.end());
  return t;
}

CyclicSchedule cyclic_schedule(int q, int rank, const Factors& factors, std::size_t bytes) {
  const std::size_t lines = (bytes + kCacheLine - 1) / kCacheLine;
  auto piece = [&](int p) { return to_bytes(part(Range{0, lines}, p, q), bytes); };
  auto mod = [q](long x) { return static_cast<int>(((x % q) + q) % q); };
  CyclicSchedule c;
  std::set<int> readers;
  long d = 1;  // D_j
  for (int f : factors.reduce_scatter) {
    const long next = d * f;
    std::vector<CyclicReduce> ops;
    std::set<int> from_all;
    for (long o = 0; o < q; o += next) {  // offsets that are multiples of D_{j+1}
      const long w = std::min<long>(next, q - o);
      CyclicReduce op;
      op.range = piece(mod(rank + o));
      for (long i = 1; i < f && i * d < w; ++i) op.from.push_back(mod(rank - i * d));
      if (op.range.size() == 0 || op.from.empty()) continue;
      from_all.insert(op.from.begin(), op.from.end());
      if (!ops.empty() && ops.back().from == op.from && ops.back().range.hi == op.range.lo)
        ops.back().range.hi = op.range.hi;
      else
        ops.push_back(std::move(op));
    }
    for (long x = 1; x < f && x * d < q; ++x) readers.insert(mod(rank + x * d));  // they read my partial sums
    c.rs.push_back(std::move(ops));
    c.rs_from.emplace_back(from_all.begin(), from_all.end());
    d = next;
  }
  c.piece = piece(rank);
  long held = 1;  // D'_a: I hold the pieces rank + t, t < min(D'_a, q)
  for (std::size_t a = 0; a < factors.allgather.size(); ++a) {
    const int g = factors.allgather[a];
    if (a + 1 == factors.allgather.size())
      for (long t = 0; t < std::min<long>(held, q); ++t) c.held_before_last.push_back(piece(mod(rank + t)));
    std::vector<Copy> copies;
    std::set<int> from_all;
    for (long i = 1; i < g && i * held < q; ++i) {
      const int from = mod(rank + i * held);
      for (long t = 0; t < held && i * held + t < q; ++t) copies.push_back({from, piece(mod(rank + i * held + t))});
      from_all.insert(from);
      readers.insert(mod(rank - i * held));
    }
    c.ag_copies.push_back(coalesce(std::move(copies)));
    c.ag_from.emplace_back(from_all.begin(), from_all.end());
    held *= g;
  }
  if (factors.allgather.empty()) c.held_before_last = {Range{0, bytes}};
  std::vector<Copy> own;
  for (const Range& x : c.held_before_last) own.push_back({rank, x});
  c.held_before_last.clear();
  for (const Copy& x : coalesce(std::move(own))) c.held_before_last.push_back(x.range);
  readers.erase(rank);
  c.readers.assign(readers.begin(), readers.end());
  return c;
}

Factors parse_exchange_factors(const std::string& who, const std::string& text, int p, const std::string& nodes) {
  if (text == "none") return {};
  bool ordered = true;
  const Factors f = split_factors(who, "--node-factors", text, &ordered);
  const std::string what = who + ": --node-factors " + text + ": ";
  if (!ordered) throw Error(what + "the reduce_scatter factors (negative) come before the allgather factors");
  if (!std::equal(f.allgather.begin(), f.allgather.end(), f.reduce_scatter.rbegin(), f.reduce_scatter.rend()))
    throw Error(what + "the allgather factors must mirror the reduce_scatter factors (-4,-2,2,4)");
  const long r = product(f.reduce_scatter);
  if (p % r != 0)
    throw Error(what + "the reduce_scatter factors multiply to " + std::to_string(r) + ", not a divisor of the " +
                std::to_string(p) + " " + nodes + " (use divisors of " + std::to_string(p) + ": " + divisors_of(p) +
                "; none for the nested allreduce alone)");
  return f;
}

ExchangeSchedule exchange_schedule(int p, int rank, const Factors& factors, std::size_t count) {
  ExchangeSchedule x;
  const int r = static_cast<int>(product(factors.reduce_scatter));
  Range range{0, count};
  std::vector<ExchangeStage> stages;
  int stride = 1;
  for (int f : factors.reduce_scatter) {
    ExchangeStage st;
    st.mine = (rank / stride) % f;
    st.peers = group(rank, f, stride);
    for (int v = 0; v < f; ++v) st.parts.push_back(part(range, v, f));
    range = st.parts[static_cast<std::size_t>(st.mine)];
    stages.push_back(std::move(st));
    stride *= f;
  }
  x.reduce_scatter = stages;
  x.piece = range;
  for (int m = rank % r; m < p; m += r) x.nested.push_back(m);
  x.allgather.assign(stages.rbegin(), stages.rend());
  return x;
}

}  // namespace mcb::allreduce::detail
