// Slices and host copies of the multi-process-per-GPU allreduces (see ppg.hpp).
#include "ppg.hpp"

#include "vector.hpp"

namespace mcb::allreduce::detail {

CollArgs gpu_slice(const CollArgs& args, const Layout& layout) {
  const Vector v(args, layout.procs_per_gpu());
  const int lr = layout.gpu_rank();
  const std::size_t offset = static_cast<std::size_t>(v.first(lr)) * v.elem;
  CollArgs s = args;
  if (args.sendbuf != MPI_IN_PLACE) s.sendbuf = static_cast<const char*>(args.sendbuf) + offset;
  s.recvbuf = static_cast<char*>(args.recvbuf) + offset;
  s.count = v.count(lr, lr + 1);
  return s;
}

Plan on_slice(const CollArgs& slice, const std::function<Plan(const CollArgs&)>& make) {
  if (slice.gpu_aware) return make(slice);
  const std::size_t bytes = slice.block_bytes();
  const Buffer host = slice.memory().staging_buffer(bytes, slice.staging);
  CollArgs h = slice;
  h.sendbuf = MPI_IN_PLACE;
  h.recvbuf = host.data();
  h.mem = &host_memory();
  h.gpu_aware = true;
  Plan plan;
  plan.add("d2h", [slice, host, bytes] {
    slice.memory().copy(host.data(), slice.sendbuf == MPI_IN_PLACE ? slice.recvbuf : slice.sendbuf, bytes);
  });
  const Plan inner = make(h);
  plan.append(inner);
  for (const auto& [name, value] : inner.params()) plan.set_param(name, value);
  plan.add("h2d", [slice, host, bytes] { slice.memory().copy(slice.recvbuf, host.data(), bytes); });
  return plan;
}

}  // namespace mcb::allreduce::detail
