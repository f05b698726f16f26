// ppg_lane: the multi-lane multi-process-per-GPU allreduce
// (allreduce-multi-process-per-gpu, Section IV-A2, Figure 7): Algorithm 2 on
// each process's slice of its GPU's vector. Process lr of a GPU works on
// slice lr with the processes of the same lr: MPI_Reduce_scatter of the
// slice among the G GPUs of its node, the chunk allreduced across nodes on
// its lane (the ranks with its local rank: every CPU core is a lane) by
// --inner, MPI_Allgatherv among the G. Per process: a reduce_scatter and an
// allgatherv of n/PPG over G ranks, an allreduce of n/(PPG*G) over N nodes.
// Phases: reduce_scatter, inter_node, allgather (with --gpu-aware no, d2h
// and h2d around them). PPG = 1 is lane.
#include "mcb/allreduce.hpp"
#include "ppg.hpp"
#include "shm/shm.hpp"

namespace mcb::allreduce {

Plan ppg_lane(const CollArgs& args, const Layout& layout, const Params& params) {
  const char* who = "ppg_lane";
  detail::require_layout(who, args, layout);
  const int ppg = layout.procs_per_gpu();
  // My node's processes with my rank on their GPU, one per GPU.
  const MPI_Comm group = layout.derived("ppg.group", layout.node() * ppg + layout.gpu_rank(), layout.rank());
  const detail::Domain dom{group, layout.lane_comm(), layout.gpus_per_node(), layout.gpu(), layout.num_nodes(), "node"};
  const detail::Inner inner = detail::parse_inner(who, params, dom);
  return detail::on_slice(detail::gpu_slice(args, layout), [dom, inner](const CollArgs& s) {
    return detail::lane_steps(s, dom.comm, dom.lane, dom.count, inner);
  });
}

// The multi-process-per-GPU algorithms split the GPU's buffers themselves.
MCB_DECLARE_ALGORITHM(ppg_lane) {
  Algorithm a{"ppg_lane",
              "multi-process per GPU, multi-lane: the lane algorithm on each process's slice",
              {detail::inner_node_param(), detail::node_factors_param()},
              ppg_lane};
  a.unsupported = detail::needs_uniform;
  a.per_gpu = true;
  return a;
}

}  // namespace mcb::allreduce
