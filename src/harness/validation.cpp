// Validation (harness/validation.hpp): the patterns, the expected results
// computed from them, and the comparison after one more run of the plan.
#include "harness/validation.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "harness/datatype.hpp"

namespace mcb::bench {

namespace {

// How many ranks give each element of a reduction a value of their own (the
// others give the neutral value): few enough that no result overflows the
// narrowest type (int8: sums within +-96, products within +-81) or leaves
// the integers that half and bfloat16 hold exactly (+-256). The window
// slides with the index, so every rank's data is in some elements' results.
std::size_t window(ReduceOp op, int p) {
  std::size_t w = 3;  // bitwise: an AND of more random words is mostly zero
  if (op == ReduceOp::sum || op == ReduceOp::min || op == ReduceOp::max) w = 32;
  if (op == ReduceOp::prod) w = 4;
  return std::min(w, static_cast<std::size_t>(p));
}

std::int64_t neutral(ReduceOp op, bool unsigned_type) {
  switch (op) {
    case ReduceOp::prod:
      return 1;
    case ReduceOp::min:
      return unsigned_type ? -1 : 101;  // above every value of the window (-1: the type's largest)
    case ReduceOp::max:
      return unsigned_type ? 0 : -101;
    case ReduceOp::band:
      return -1;  // all bits set
    default:
      return 0;  // sum, bor, bxor
  }
}

// a op b; min and max of an unsigned type of `unsigned_bytes` compare the
// values as that type holds them (the negative ones wrap to the top).
std::int64_t combine(ReduceOp op, std::int64_t a, std::int64_t b, std::size_t unsigned_bytes) {
  if (unsigned_bytes && (op == ReduceOp::min || op == ReduceOp::max)) {
    const std::uint64_t mask = unsigned_bytes >= 8 ? ~0ull : (1ull << (8 * unsigned_bytes)) - 1;
    const bool less = (static_cast<std::uint64_t>(a) & mask) < (static_cast<std::uint64_t>(b) & mask);
    return (op == ReduceOp::min) == less ? a : b;
  }
  switch (op) {
    case ReduceOp::sum:
      return a + b;
    case ReduceOp::prod:
      return a * b;
    case ReduceOp::min:
      return std::min(a, b);
    case ReduceOp::max:
      return std::max(a, b);
    case ReduceOp::band:
      return a & b;
    case ReduceOp::bor:
      return a | b;
    case ReduceOp::bxor:
      return a ^ b;
  }
  return a;
}

}  // namespace

std::int64_t reduction_value(ReduceOp op, bool unsigned_type, int rank, int p, std::size_t index) {
  const auto r = static_cast<std::size_t>(rank), n = static_cast<std::size_t>(p);
  if ((r + index) % n >= window(op, p)) return neutral(op, unsigned_type);
  const std::size_t h = r * 5 + index * 3;
  static const std::int64_t sums[] = {-3, -2, -1, 1, 2, 3}, products[] = {-3, -2, 2, 3};
  switch (op) {
    // In an unsigned type the negative values are its largest ones, so that
    // sums and products wrap around as C's unsigned arithmetic does (an MPI
    // that saturates instead, as Open MPI 4.1's AVX sums of 8- and 16-bit
    // integers do, shows).
    case ReduceOp::sum:
      return sums[h % 6];
    case ReduceOp::prod:
      return products[h % 4];
    case ReduceOp::min:
    case ReduceOp::max:
      // -100 .. 100; in an unsigned type the negative ones are its largest
      // values, so that a comparison that treats it as signed shows.
      return static_cast<std::int64_t>(pattern(r, n, index) % 201) - 100;
    default:  // bitwise: a whole 64-bit hash, truncated to the type when stored
      return static_cast<std::int64_t>(pattern(r, n, index));
  }
}

void fill_pattern(const CollectiveSpec& spec, const Options& opt, int rank, const Shape& shape,
                  std::vector<unsigned char>& out) {
  const int p = shape.p;
  const std::size_t n = spec.send_elements(shape, rank), tb = opt.type.bytes;
  out.resize(n * tb);
  if (spec.reduces) {
    const bool u = is_unsigned(*opt.type.elem);
    for (std::size_t i = 0; i < n; ++i) store_integer(opt.type, &out[i * tb], reduction_value(*opt.op, u, rank, p, i));
    return;
  }
  for (std::size_t i = 0; i < n; ++i) store_element(opt.type, &out[i * tb], spec.send_value(rank, shape, i));
}

std::size_t result_elements(const CollectiveSpec& spec, const Shape& shape, int rank) {
  return spec.result_elements ? spec.result_elements(shape, rank) : spec.recv_elements(shape, rank);
}

void expected_result(const CollectiveSpec& spec, const Options& opt, int rank, const Shape& shape,
                     std::vector<unsigned char>& out) {
  const int p = shape.p;
  const std::size_t n = result_elements(spec, shape, rank), tb = opt.type.bytes;
  out.resize(n * tb);
  if (spec.expected) return spec.expected(rank, shape, out);
  if (spec.reduces) {
    // Element i: the values of the window's ranks combined in rank order.
    const ReduceOp op = *opt.op;
    const bool u = is_unsigned(*opt.type.elem);
    const std::size_t ub = u ? opt.type.bytes : 0;
    const std::size_t w = window(op, p), np = static_cast<std::size_t>(p);
    std::vector<int> ranks(w);
    for (std::size_t j = 0; j < n; ++j) {
      // Result element j reduces element i of every rank's input.
      const std::size_t i = spec.source ? spec.source(rank, shape, j).index : j;
      for (std::size_t t = 0; t < w; ++t) ranks[t] = static_cast<int>((t + np - i % np) % np);
      std::sort(ranks.begin(), ranks.end());
      std::int64_t acc = reduction_value(op, u, ranks[0], p, i);
      for (std::size_t t = 1; t < w; ++t) acc = combine(op, acc, reduction_value(op, u, ranks[t], p, i), ub);
      store_integer(opt.type, &out[j * tb], acc);
    }
    return;
  }
  (void)p;
  for (std::size_t j = 0; j < n; ++j) {
    const Source s = spec.source(rank, shape, j);
    store_element(opt.type, &out[j * tb], spec.send_value(s.rank, shape, s.index));
  }
}

void Validator::place_in(void* recv, const std::vector<unsigned char>& data, const Shape& shape,
                         const Owner& owner) const {
  const std::size_t offset = spec_.in_place_offset(owner.rank(), shape);
  mem_.copy(static_cast<unsigned char*>(recv) + offset * opt_.type.bytes, data.data(), data.size());
}

void Validator::fill(Buffers& b, std::size_t elements, const Owner& owner) const {
  if (opt_.sim_shared_malloc > 0) return;  // shared pages (simulation): no data of their own, nothing to check
  const Shape s = shape(elements, owner);
  fill_pattern(spec_, opt_, owner.rank(), s, b.send_host);
  if (owner.writer) mem_.copy(b.send.data(), b.send_host.data(), b.send_host.size());
  b.pristine = b.send_host;
  if (opt_.in_place && owner.writer) place_in(b.recv.data(), b.pristine, s, owner);
  owner.sync();
}

bool Validator::check(const std::string& algorithm, const Plan& plan, Buffers& b, std::size_t elements,
                      std::size_t size, const Owner& owner) const {
  const Layout& layout = *owner.layout;
  const Shape s = shape(elements, owner);
  const std::size_t tb = opt_.type.bytes;
  const std::size_t nrecv = spec_.recv_elements(s, owner.rank()), nsend = spec_.send_elements(s, owner.rank());
  const std::size_t nresult = result_elements(spec_, s, owner.rank());
  if (owner.writer) {
    mem_.fill(b.recv.data(), 0xA5, nrecv * tb);
    if (opt_.in_place) place_in(b.recv.data(), b.pristine, s, owner);
  }
  owner.sync();
  plan.execute();
  owner.sync();  // every process of a GPU wrote its slice
  b.recv_host.resize(nrecv * tb);
  mem_.copy(b.recv_host.data(), b.recv.data(), nrecv * tb);
  mem_.copy(b.send_host.data(), b.send.data(), nsend * tb);

  const bool compared = (!spec_.root_result || layout.rank() == 0) && owner.writer;
  if (compared) expected_result(spec_, opt_, owner.rank(), s, b.expected);
  std::size_t wrong = 0, first = 0;
  double relative_error = 0.0;  // spec_.tolerance > 0: the norm-wise error over all ranks
  if (spec_.tolerance > 0) {
    double most[2] = {0.0, 0.0};  // max |result - expected|, max |expected|
    for (std::size_t i = 0; i < (compared ? nresult * tb / sizeof(double) : 0); ++i) {
      double got = 0, want = 0;
      std::memcpy(&got, &b.recv_host[i * sizeof(double)], sizeof got);
      std::memcpy(&want, &b.expected[i * sizeof(double)], sizeof want);
      const double diff = std::fabs(got - want);
      most[0] = std::isnan(diff) ? HUGE_VAL : std::max(most[0], diff);
      most[1] = std::max(most[1], std::fabs(want));
    }
    MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_DOUBLE, MPI_MAX, layout.comm());
    relative_error = most[1] > 0 ? most[0] / most[1] : most[0];
    if (layout.rank() == 0)
      spdlog::info("{}: relative error {:.3g} (tolerance {:.3g})", algorithm, relative_error, spec_.tolerance);
    if (!(relative_error <= spec_.tolerance)) wrong = 1;
  } else {
    for (std::size_t i = 0; i < (compared ? nresult : 0); ++i)
      if (std::memcmp(&b.recv_host[i * tb], &b.expected[i * tb], tb) != 0 && wrong++ == 0) first = i;
  }
  std::size_t changed = 0, first_changed = 0;
  for (std::size_t i = 0; i < (opt_.in_place || !owner.writer ? 0 : nsend); ++i)  // in place: no send buffer
    if (std::memcmp(&b.send_host[i * tb], &b.pristine[i * tb], tb) != 0 && changed++ == 0) first_changed = i;
  const std::string where = spec_.binary + ": validation failed: algorithm " + algorithm + ", size " +
                            std::to_string(size) + " B, rank " + std::to_string(layout.rank());
  if (wrong && spec_.tolerance > 0 && layout.rank() == 0)
    std::fprintf(stderr, "%s: relative error %.3g above the tolerance %.3g\n", where.c_str(), relative_error,
                 spec_.tolerance);
  else if (wrong && spec_.tolerance == 0)
    std::fprintf(stderr, "%s, element %zu (block %zu, index %zu): expected %s, got %s (%zu of %zu elements wrong)\n",
                 where.c_str(), first, static_cast<std::size_t>(s.block_of(first)), first - s.at(s.block_of(first)),
                 format_element(opt_.type, &b.expected[first * tb]).c_str(),
                 format_element(opt_.type, &b.recv_host[first * tb]).c_str(), wrong, nresult);
  if (changed)
    std::fprintf(stderr, "%s, send buffer modified at element %zu: expected %s, got %s (%zu elements changed)\n",
                 where.c_str(), first_changed, format_element(opt_.type, &b.pristine[first_changed * tb]).c_str(),
                 format_element(opt_.type, &b.send_host[first_changed * tb]).c_str(), changed);
  if (changed) mem_.copy(b.send.data(), b.pristine.data(), nsend * tb);
  owner.sync();
  int bad = (wrong || changed) ? 1 : 0, any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, layout.comm());
  return any == 0;
}

}  // namespace mcb::bench
