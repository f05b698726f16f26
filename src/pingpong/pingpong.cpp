// pingpong: the multi-process-per-GPU ping-pong (allreduce-multi-process-per-gpu,
// Section III, Figure 5). Two nodes; on every GPU the first `--active` of
// its PPG processes take part. Process l of node 0 sends its slice of its
// GPU's send buffer (slice l of `active`: the GPU's message split among its
// active processes) to process l of node 1, which receives it into its
// GPU's receive buffer and answers with its own slice; the round trip is
// timed and halved (one-way time). With --gpu-aware no each process copies
// its slice to the host before sending and back after receiving, inside
// the timed round trip (the paper's host-copy mode). Per active process
// and round trip: two messages of n/active bytes.
#include <string>

#include "mcb/error.hpp"
#include "mcb/pingpong.hpp"
#include "vector.hpp"  // the allreduces' chunks

namespace mcb::pingpong {

namespace {

int active_of(const Params& params) { return static_cast<int>(params.get_int("active", 1)); }

}  // namespace

std::string unsupported(const Layout& layout) {
  if (layout.num_nodes() != 2) return "needs exactly 2 nodes (--ranks-per-node P/2 on one machine)";
  if (!layout.uniform()) return "needs the same number of ranks on both nodes";
  if (layout.options().order != RankOrder::block) return "pairs the nodes' local ranks in block order";
  return "";
}

std::string unsupported_active(const Layout& layout, const Params& params) {
  const int active = active_of(params), ppg = layout.procs_per_gpu();
  if (active > ppg)
    return "--active " + std::to_string(active) + " exceeds the " + std::to_string(ppg) + " processes per GPU";
  if (active != ppg && (active & (active - 1)) != 0)
    return "--active " + std::to_string(active) + " is neither a power of two nor the processes per GPU";
  return "";
}

Plan pingpong(const CollArgs& args, const Layout& layout, const Params& params) {
  if (const std::string why = unsupported(layout); !why.empty()) throw Error("pingpong " + why);
  if (const std::string why = unsupported_active(layout, params); !why.empty()) throw Error("pingpong: " + why);
  const int active = active_of(params);
  const bool on = layout.gpu_rank() < active;
  // My slice: chunk gpu_rank() of `active`, cut as the allreduces cut theirs.
  const int lr = layout.gpu_rank();
  const allreduce::detail::Vector v(args, active);
  const long first = on ? v.first(lr) : 0;
  const int n = on ? v.count(lr, lr + 1) : 0;
  const std::size_t offset = static_cast<std::size_t>(first) * args.type_bytes();
  const std::size_t bytes = static_cast<std::size_t>(n) * args.type_bytes();
  const char* send = static_cast<const char*>(args.sendbuf) + offset;
  char* recv = static_cast<char*>(args.recvbuf) + offset;
  // Through the host when MPI must not see the buffers.
  const Buffer host_send = args.gpu_aware ? Buffer() : args.memory().staging_buffer(bytes, args.staging);
  const Buffer host_recv = args.gpu_aware ? Buffer() : args.memory().staging_buffer(bytes, args.staging);
  const MPI_Comm lane = layout.lane_comm();  // my counterpart and me
  const int partner = 1 - layout.node();
  const bool ping = layout.node() == 0;
  Plan plan;
  plan.add("pingpong", [args, on, n, bytes, send, recv, host_send, host_recv, lane, partner, ping] {
    if (!on) return;
    const Memory& mem = args.memory();
    const bool staged = !args.gpu_aware;
    auto out = [&] {
      if (staged) mem.copy(host_send.data(), send, bytes);
      MPI_Send(staged ? host_send.data() : send, n, args.type, partner, 0, lane);
    };
    auto in = [&] {
      MPI_Recv(staged ? host_recv.data() : recv, n, args.type, partner, 0, lane, MPI_STATUS_IGNORE);
      if (staged) mem.copy(recv, host_recv.data(), bytes);
    };
    if (ping) {
      out();
      in();
    } else {
      in();
      out();
    }
  });
  plan.set_param("active", std::to_string(active));
  return plan;
}

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<std::string> counts;
    for (int a = 1; a <= 64; ++a) counts.push_back(std::to_string(a));
    Algorithm a{"pingpong",
                "process l of node 0 and process l of node 1 exchange their GPUs' slices; one-way time",
                {{"active",
                  "active processes per GPU, sharing its message: a list, or all for 1, 2, 4, ... and the processes "
                  "per GPU",
                  "all", counts}},
                pingpong};
    a.unsupported = unsupported;
    a.unsupported_config = unsupported_active;
    a.per_gpu = true;
    return std::vector<Algorithm>{a};
  }();
  return list;
}

}  // namespace mcb::pingpong
