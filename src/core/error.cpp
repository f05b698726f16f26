#include "mcb/error.hpp"

#include <vector>

namespace mcb {

std::string divisors_of(int n) {
  std::string out;
  for (int d = 1; d <= n; ++d)
    if (n % d == 0) out += (out.empty() ? "" : ", ") + std::to_string(d);
  return out;
}

void agree(MPI_Comm comm, const std::optional<std::string>& local_error) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_error ? rank : size;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int len = rank == first ? static_cast<int>(local_error->size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  std::string msg = rank == first ? *local_error : std::string(len, ' ');
  MPI_Bcast(msg.data(), len, MPI_CHAR, first, comm);
  if (first != 0) msg = "rank " + std::to_string(first) + ": " + msg;
  throw Error(msg);
}

}  // namespace mcb
