// The allreduce algorithms that mcb_allreduce offers, in --list order.
#include "engine.hpp"
#include "mcb/allreduce.hpp"
#include "shm.hpp"

namespace mcb::allreduce {

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::allreduce);
    v.push_back({"recursive_doubling",
                 "recursive doubling, log2 P exchanges of the whole vector, any P",
                 {},
                 layout_free(recursive_doubling)});
    v.push_back({"rabenseifner",
                 "reduce_scatter by recursive halving, allgather by recursive doubling, any P",
                 {},
                 layout_free(rabenseifner)});
    v.push_back({"ring", "ring reduce_scatter then ring allgather, 2(P-1) steps of n/P", {}, layout_free(ring)});
    Algorithm lane_algo{"lane",
                        "multi-lane: reduce_scatter on the node, the chunk allreduced across nodes on the lane by "
                        "--inner, allgatherv on the node",
                        {detail::inner_node_param(), detail::node_factors_param()},
                        lane};
    lane_algo.unsupported = [](const Layout& layout) {
      return layout.uniform() ? std::string() : std::string("needs the same number of ranks on every node");
    };
    v.push_back(lane_algo);
    // The multi-process-per-GPU algorithms split the GPU's buffers themselves.
    auto per_gpu = [&](Algorithm a) {
      a.unsupported = lane_algo.unsupported;
      a.per_gpu = true;
      v.push_back(std::move(a));
    };
    per_gpu({"ppg_standard",
             "multi-process per GPU: each of a GPU's PPG processes allreduces its slice with its counterparts on "
             "every GPU",
             {},
             ppg_standard});
    per_gpu({"ppg_lane",
             "multi-process per GPU, multi-lane: the lane algorithm on each process's slice",
             {detail::inner_node_param(), detail::node_factors_param()},
             ppg_lane});
    Algorithm rx{
        "shm_recursive_exchange",
        "shared-memory recursive exchange: reduce_scatter and allgather stages of flexible factors",
        {detail::factors_param(
             "=-f1,-f2,...,g1,g2,...: reduce_scatter (negative) and allgather (positive) factors, each "
             "multiplying to the ranks per node; alternatives separated by / (default: prime factors merged "
             "up to 8, mirrored)"),
         detail::inner_node_param(), detail::node_factors_param(), detail::interface_param(), detail::copy_param()},
        shm_recursive_exchange};
    rx.unsupported = detail::shm_unsupported;
    detail::needs_shared_memory(rx);
    v.push_back(rx);
    Algorithm tree{
        "shm_tree",
        "shared-memory tree: reduce stages into local rank 0, one leader per node (or region) across nodes, copy out",
        {detail::tree_factors_param(), detail::inner_node_param(), detail::node_factors_param(),
         detail::interface_param(), detail::copy_param()},
        shm_tree};
    tree.unsupported = rx.unsupported;
    detail::needs_shared_memory(tree);
    Algorithm cyclic{
        "shm_cyclic_shift",
        "shared-memory cyclic shift: dissemination reduce_scatter, Bruck allgather, commutative ops",
        {detail::factors_param(
             "=-f1,...,g1,...: reduce_scatter (negative) and allgather (positive) factors, each list "
             "multiplying to at least the ranks per node (-2,-2,-2,2,2,2 for 7); alternatives separated by / "
             "(default as shm_recursive_exchange)"),
         detail::inner_node_param(), detail::node_factors_param(), detail::interface_param(), detail::copy_param()},
        shm_cyclic_shift};
    cyclic.unsupported = rx.unsupported;
    detail::needs_shared_memory(cyclic);
    v.push_back(cyclic);
    v.push_back(tree);
    return v;
  }();
  return list;
}

}  // namespace mcb::allreduce
