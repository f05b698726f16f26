// Point-to-point messages counted by the test interposer
// (count_messages.cpp) between MPI_Pcontrol(1) and MPI_Pcontrol(0).
#pragma once

namespace mcb::test {

void reset_counts();
/// Messages / bytes this rank sent to `world_rank` while counting was on.
long messages_to(int world_rank);
long bytes_to(int world_rank);

}  // namespace mcb::test
