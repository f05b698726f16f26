// The allgather algorithms that mcb_allgather offers, in --list order.
#include "mcb/allgather.hpp"

namespace mcb::allgather {

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::allgather);
    v.push_back({"ring", "ring, P-1 steps to the next rank", {}, layout_free(ring)});
    Algorithm ne{"neighbor_exchange",
                 "neighbor exchange, P/2 steps of two blocks, even P only",
                 {},
                 layout_free(neighbor_exchange)};
    ne.unsupported = [](const Layout& l) { return neighbor_exchange_unsupported(l.size()); };
    v.push_back(ne);
    Algorithm rd{"recursive_doubling",
                 "recursive doubling, log2 P pairwise steps, power-of-two P only",
                 {},
                 layout_free(recursive_doubling)};
    rd.unsupported = [](const Layout& l) { return recursive_doubling_unsupported(l.size()); };
    v.push_back(rd);
    v.push_back(
        {"bruck", "Bruck, ceil(log2 P) steps of doubling distance, then a rotation, any P", {}, layout_free(bruck)});
    v.push_back({"sparbit",
                 "Sparbit, ceil(log2 P) steps of halving distance, one message per block, any P",
                 {},
                 layout_free(sparbit)});
    return v;
  }();
  return list;
}

}  // namespace mcb::allgather
