// What the lane and multi-process-per-GPU allreduces share
// (allreduce-multi-process-per-gpu, Sections II and IV): the steps of
// Algorithm 2 on any group and lane communicators, a process's slice of its
// GPU's vector, and the host-copy mode that stages a slice through host
// memory for an MPI that must not see device pointers.
#pragma once

#include <functional>

#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/plan.hpp"
#include "shm/shm.hpp"

namespace mcb::allreduce::detail {

/// Algorithm 2 on args' vector (args.comm unused): MPI_Reduce_scatter on
/// `group` (chunk r to its rank r), the chunk allreduced in place on `lane`
/// by `inner` when there are `lanes` > 1 lanes, MPI_Allgatherv on `group`.
/// Phases: reduce_scatter, inter_node, allgather.
Plan lane_steps(const CollArgs& args, MPI_Comm group, MPI_Comm lane, int lanes, const Inner& inner);

/// My slice of my GPU's vector: chunk gpu_rank() of procs_per_gpu() (the
/// first count % PPG one element longer), at the same offset in the send
/// and receive buffers.
CollArgs gpu_slice(const CollArgs& args, const Layout& layout);

/// `make`'s plan on `slice`, directly when MPI takes its buffers
/// (slice.gpu_aware), else through host copies: phase d2h copies the slice
/// (of the receive buffer in place) into a host buffer, `make` runs on it in
/// place, phase h2d copies the result back.
Plan on_slice(const CollArgs& slice, const std::function<Plan(const CollArgs&)>& make);

/// Algorithm::unsupported of lane and the multi-process-per-GPU algorithms.
inline std::string needs_uniform(const Layout& layout) {
  return layout.uniform() ? std::string() : std::string("needs the same number of ranks on every node");
}

}  // namespace mcb::allreduce::detail
