// What the gather and scatter algorithms share: the blocks of every rank
// packed in rank order (CollArgs::count_of, displ_of), and the binomial
// tree rooted at rank 0 over them, in which rank r's subtree is the ranks
// [r, r + span(r)): a contiguous run of blocks.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <bit>

#include "mcb/collective.hpp"

namespace mcb::rooted {

struct Blocks {
  explicit Blocks(const CollArgs& a) : args(a), p(a.size()), rank(a.rank()), elem(a.type_bytes()) {}

  /// Elements of blocks [lo, hi) (hi clamped to p).
  int count(int lo, int hi) const { return static_cast<int>(args.displ_of(std::min(hi, p)) - args.displ_of(lo)); }
  /// Block i in a buffer that holds the blocks from `first` on.
  char* at(void* base, int first, int i) const {
    return static_cast<char*>(base) + (args.displ_of(i) - args.displ_of(first)) * elem;
  }
  const char* at(const void* base, int first, int i) const { return at(const_cast<void*>(base), first, i); }
  /// The number of ranks in my binomial subtree (rank 0: all of them).
  int span(int r) const { return r == 0 ? p : std::min(r & -r, p - r); }
  std::size_t bytes(int lo, int hi) const { return static_cast<std::size_t>(count(lo, hi)) * elem; }

  CollArgs args;
  int p, rank;
  std::size_t elem;
};

}  // namespace mcb::rooted
