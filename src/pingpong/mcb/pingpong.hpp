// mcb pingpong: the multi-process-per-GPU ping-pong of
// allreduce-multi-process-per-gpu (Section III, Figure 5) as a plan.
#pragma once

#include <string>
#include <vector>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"

namespace mcb::pingpong {

/// One round trip between process l of node 0 and process l of node 1 for
/// the first --active processes of every GPU, each on its slice of its
/// GPU's buffers. Needs 2 nodes of the same size in block order. Phase:
/// pingpong.
Plan pingpong(const CollArgs& args, const Layout& layout, const Params& params);
/// Why a layout cannot run it ("" when it can).
std::string unsupported(const Layout& layout);
/// Why --active cannot run on a layout: beyond the processes per GPU, or
/// neither a power of two nor the processes per GPU.
std::string unsupported_active(const Layout& layout, const Params& params);
/// mcb_pingpong's algorithms: pingpong, with --active.
const std::vector<Algorithm>& algorithms();

}  // namespace mcb::pingpong
