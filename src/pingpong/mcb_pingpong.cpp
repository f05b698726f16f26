// mcb_pingpong: the multi-process-per-GPU ping-pong (Figure 5 of
// allreduce-multi-process-per-gpu). -m is the message of a GPU in bytes,
// split among its active processes; the times are one-way (round trip / 2)
// and the console adds the bandwidth of a GPU's message. Validation: each
// GPU's receive buffer must hold its counterpart's send buffer.
#include "harness/benchmark.hpp"
#include "harness/datatype.hpp"
#include "mcb/pingpong.hpp"

int main(int argc, char** argv) {
  using namespace mcb;
  using namespace mcb::bench;
  auto message = [](const Shape& s, int) { return s.count; };
  auto send_value = [](int rank, const Shape& s, std::size_t index) {
    return pattern(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(s.p), index);
  };
  CollectiveSpec spec{"mcb_pingpong", "pingpong", &pingpong::algorithms(), message, message, send_value};
  // Rank r of the first node and r + P/2 of the second swap their whole
  // buffers (block order, two nodes of P/2).
  spec.source = [](int rank, const Shape& s, std::size_t j) { return Source{(rank + s.p / 2) % s.p, j}; };
  spec.gpus = true;
  spec.time_factor = 0.5;
  spec.bandwidth = true;
  spec.size_unit = "bytes of a GPU's message, split among its active processes; times one-way";
  return run_benchmark(argc, argv, spec);
}
