// What a size means on P ranks (harness/spec.hpp, Shape), and --counts: how
// the v-forms spread their elements over the ranks (harness/options.hpp).
#include <algorithm>

#include "harness/spec.hpp"
#include "mcb/error.hpp"

namespace mcb::bench {

std::string to_string(CountsKind k) {
  switch (k) {
    case CountsKind::linear:
      return "linear";
    case CountsKind::heavy:
      return "heavy";
    case CountsKind::zeros:
      return "zeros";
    default:
      return "equal";
  }
}

CountsKind parse_counts(const std::string& text) {
  for (CountsKind k : {CountsKind::equal, CountsKind::linear, CountsKind::heavy, CountsKind::zeros})
    if (to_string(k) == text) return k;
  throw Error("--counts " + text + ": expected equal, linear, heavy or zeros");
}

namespace {

// `total` over the ranks `ranks` as evenly as it goes, the first ones one more.
void even(std::vector<std::size_t>& out, std::size_t total, const std::vector<int>& ranks) {
  if (ranks.empty()) return;
  const std::size_t n = ranks.size(), base = total / n, extra = total % n;
  for (std::size_t i = 0; i < n; ++i) out[static_cast<std::size_t>(ranks[i])] = base + (i < extra ? 1 : 0);
}

std::vector<int> ranks_where(int p, bool (*keep)(int r, int p)) {
  std::vector<int> ranks;
  for (int r = 0; r < p; ++r)
    if (keep(r, p)) ranks.push_back(r);
  return ranks;
}

}  // namespace

std::vector<std::size_t> spread_counts(std::size_t total, int p, CountsKind kind) {
  std::vector<std::size_t> out(static_cast<std::size_t>(p), 0);
  switch (kind) {
    case CountsKind::equal:
      even(out, total, ranks_where(p, [](int, int) { return true; }));
      break;
    case CountsKind::linear: {
      // Boundaries at total x (1 + ... + r) / (1 + ... + p): shares r + 1 in
      // proportion, rounded so that they add up to the total.
      const unsigned long long weights = static_cast<unsigned long long>(p) * (p + 1) / 2;
      auto boundary = [&](int r) {
        return static_cast<std::size_t>(static_cast<unsigned __int128>(total) *
                                        (static_cast<unsigned>(r) * (r + 1) / 2) / weights);
      };
      for (int r = 0; r < p; ++r) out[static_cast<std::size_t>(r)] = boundary(r + 1) - boundary(r);
      break;
    }
    case CountsKind::heavy:
      // The last rank the larger half, the others the rest evenly.
      even(out, total / 2, ranks_where(p, [](int r, int n) { return r + 1 < n; }));
      out.back() += total - (p > 1 ? total / 2 : 0);
      break;
    case CountsKind::zeros:
      even(out, total, ranks_where(p, [](int r, int) { return r % 2 == 0; }));
      break;
  }
  return out;
}

Shape Shape::packed(std::size_t count, std::vector<std::size_t> counts) {
  Shape s;
  s.count = count;
  s.p = static_cast<int>(counts.size());
  s.displs.resize(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    s.displs[r] = s.total;
    s.total += counts[r];
  }
  s.counts = std::move(counts);
  return s;
}

Shape Shape::spread(std::size_t count, int p, CountsKind kind) {
  return packed(count, spread_counts(count * static_cast<std::size_t>(p), p, kind));
}

int Shape::block_of(std::size_t j) const {
  const auto it = std::upper_bound(displs.begin(), displs.end(), j);
  return std::max(0, static_cast<int>(it - displs.begin()) - 1);
}

Shape Shape::equal(std::size_t count, int p) {
  return packed(count, std::vector<std::size_t>(static_cast<std::size_t>(p), count));
}

Shape shape_of(const CollectiveSpec& spec, const Options& opt, std::size_t elements, int p) {
  return spec.shape ? spec.shape(elements, p, opt.counts) : Shape::equal(elements, p);
}

}  // namespace mcb::bench
