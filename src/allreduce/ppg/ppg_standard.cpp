// ppg_standard: the standard multi-process-per-GPU allreduce
// (allreduce-multi-process-per-gpu, Section IV-A1, Figure 6). The PPG
// processes of a GPU share its buffers; process lr (local rank % PPG)
// allreduces slice lr of its GPU's vector with the processes of the same lr
// on every GPU: one MPI_Allreduce of n/PPG over the G*N GPUs per process,
// the PPG of them concurrent. With --gpu-aware no, each process copies its
// slice to the host and back (phases d2h, h2d). PPG = 1 is MPI_Allreduce.
#include "mcb/allreduce.hpp"
#include "ppg.hpp"

namespace mcb::allreduce {

Plan ppg_standard(const CollArgs& args, const Layout& layout, const Params&) {
  detail::require_layout("ppg_standard", args, layout);
  // The processes with my rank on their GPU, one per GPU, in GPU order.
  const MPI_Comm slice_comm = layout.derived("ppg.slice", layout.gpu_rank(), layout.rank());
  return detail::on_slice(detail::gpu_slice(args, layout), [slice_comm](const CollArgs& s) {
    Plan plan;
    plan.add("allreduce", [s, slice_comm] { MPI_Allreduce(s.sendbuf, s.recvbuf, s.count, s.type, s.op, slice_comm); });
    return plan;
  });
}

// The multi-process-per-GPU algorithms split the GPU's buffers themselves.
MCB_DECLARE_ALGORITHM(ppg_standard) {
  Algorithm a{"ppg_standard",
              "multi-process per GPU: each of a GPU's PPG processes allreduces its slice with its counterparts on "
              "every GPU",
              {},
              ppg_standard};
  a.unsupported = detail::needs_uniform;
  a.per_gpu = true;
  return a;
}

}  // namespace mcb::allreduce
