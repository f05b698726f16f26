// A benchmark binary with deliberately wrong algorithms, to prove that the
// harness's validation catches a wrong element and a modified send buffer.
#include <cstring>

#include "alltoall_spec.hpp"
#include "mcb/alltoall.hpp"

namespace {

// Correct, then flips one byte of the last received element on the last rank.
mcb::Plan wrong_element(const mcb::CollArgs& a, const mcb::Layout&, const mcb::Params&) {
  mcb::Plan plan = mcb::alltoall::pairwise(a);
  plan.add("corrupt", [a] {
    if (a.rank() != a.size() - 1) return;
    auto* r = static_cast<unsigned char*>(a.recvbuf);
    r[a.block_bytes() * a.size() - 1] ^= 0x40;
  });
  return plan;
}

// Correct, but rank 0 writes into its send buffer afterwards.
mcb::Plan writes_send(const mcb::CollArgs& a, const mcb::Layout&, const mcb::Params&) {
  mcb::Plan plan = mcb::alltoall::pairwise(a);
  plan.add("scribble", [a] {
    if (a.rank() == 0) static_cast<unsigned char*>(const_cast<void*>(a.sendbuf))[0] += 1;
  });
  return plan;
}

const std::vector<mcb::Algorithm>& broken() {
  static const std::vector<mcb::Algorithm> list = {
      {"wrong_element", "flips one received byte", {}, wrong_element},
      {"writes_send", "modifies the send buffer", {}, writes_send},
      {"pairwise", "correct", {}, [](const mcb::CollArgs& a, const mcb::Layout&, const mcb::Params&) {
         return mcb::alltoall::pairwise(a);
       }}};
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  return mcb::bench::run_benchmark(argc, argv, mcb::bench::alltoall_spec("mcb_broken_alltoall", &broken()));
}
