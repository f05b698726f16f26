// The cost model of the tunable-radix alltoall (alltoall-tunable-radix-tra,
// Section III-A, Propositions 1-4, and Section IV for TRA2): the rounds K
// and the data blocks D that one rank sends, and the Hockney estimate
// alpha*K + beta*D*S. Everything here is integer arithmetic on the paper's
// formulas; the algorithm (tra.cpp) enumerates its rounds from the digits
// instead, and the tests check that the two agree.
#pragma once

#include <vector>

namespace mcb::alltoall {

/// w: the number of base-r digits of P-1 (0 for P = 1). Counted with
/// integers: ceil(log(P)/log(r)) in floating point is wrong at exact powers.
int tra_digits(long p, long r);

/// The paper's radix, ceil(sqrt(P)), and at least 2.
long tra_default_radix(long p);

/// One round (digit x, value z) of TRA: every rank sends the blocks whose
/// digit x is z to rank + z*r^x. `blocks` is Proposition 4's h.
struct TraRound {
  int digit;
  long value, distance, blocks;
};

/// The rounds with at least one block, in the algorithm's order (x outer,
/// z inner); there are K of them and their blocks add up to D.
std::vector<TraRound> tra_rounds(long p, long r);

struct TraCost {
  int digits = 0;   // w
  long rounds = 0;  // K: Proposition 3, w(r-1) - floor((r^w - P) / r^(w-1))
  long blocks = 0;  // D: Proposition 4, summed over the rounds
};
/// K and D for P ranks and radix r (2 <= r; r > P behaves as r = P).
TraCost tra_cost(long p, long r);

/// TRA2 on N nodes of Q ranks: an intra-node TRA of radix r1 whose unit is
/// the N blocks for one local rank, then an inter-node TRA of radix r2 whose
/// unit is the Q blocks for one node (Section IV).
struct Tra2Cost {
  TraCost intra, inter;  // in units
  long rounds = 0;       // K1 + K2
  long blocks = 0;       // N*D1 + Q*D2
};
Tra2Cost tra2_cost(long nodes, long ranks_per_node, long r1, long r2);

/// Hockney: alpha*K + beta*D*S, in the units of alpha (beta per byte).
double hockney(long rounds, long blocks, double alpha, double beta, double block_bytes);

}  // namespace mcb::alltoall
