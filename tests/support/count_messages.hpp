// Point-to-point messages counted by the test interposer
// (count_messages.cpp) between MPI_Pcontrol(1) and MPI_Pcontrol(0).
#pragma once

#include <mpi.h>

#include "mcb/plan.hpp"

namespace mcb::test {

void reset_counts();
/// Resets the counts and executes `plan` once with counting on, all ranks
/// of `comm` starting together.
void count_execution(const mcb::Plan& plan, MPI_Comm comm);
/// Messages / bytes this rank sent to `world_rank` while counting was on.
long messages_to(int world_rank);
long bytes_to(int world_rank);

}  // namespace mcb::test
