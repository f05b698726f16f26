#include "mcb/tra_model.hpp"

#include <algorithm>

namespace mcb::alltoall {

int tra_digits(long p, long r) {
  int w = 0;
  for (long v = p - 1; v > 0; v /= r) ++w;
  return w;
}

long tra_default_radix(long p) {
  long r = 1;
  while (r * r < p) ++r;
  return std::max(r, 2L);
}

std::vector<TraRound> tra_rounds(long p, long r) {
  r = std::min(r, std::max(p, 2L));
  std::vector<TraRound> rounds;
  const int w = tra_digits(p, r);
  long rx = 1;  // r^x
  for (int x = 0; x < w; ++x, rx *= r) {
    const long group = rx * r;         // r^(x+1)
    const long lgc = p % group;        // blocks in the last, partial group
    const long lc = (p / group) * rx;  // one unit from every full group
    for (long z = 1; z < r; ++z) {
      const long t = lgc - z * rx;
      const long h = t <= 0 ? lc : t / rx > 0 ? lc + rx : lc + t % rx;
      if (h > 0) rounds.push_back({x, z, z * rx, h});
    }
  }
  return rounds;
}

TraCost tra_cost(long p, long r) {
  r = std::min(r, std::max(p, 2L));
  TraCost c;
  c.digits = tra_digits(p, r);
  if (c.digits == 0) return c;
  long top = 1;  // r^(w-1)
  for (int i = 1; i < c.digits; ++i) top *= r;
  c.rounds = c.digits * (r - 1) - (top * r - p) / top;
  for (const TraRound& round : tra_rounds(p, r)) c.blocks += round.blocks;
  return c;
}

Tra2Cost tra2_cost(long nodes, long ranks_per_node, long r1, long r2) {
  Tra2Cost c;
  c.intra = tra_cost(ranks_per_node, r1);
  c.inter = tra_cost(nodes, r2);
  c.rounds = c.intra.rounds + c.inter.rounds;
  c.blocks = nodes * c.intra.blocks + ranks_per_node * c.inter.blocks;
  return c;
}

double hockney(long rounds, long blocks, double alpha, double beta, double block_bytes) {
  return alpha * static_cast<double>(rounds) + beta * static_cast<double>(blocks) * block_bytes;
}

}  // namespace mcb::alltoall
