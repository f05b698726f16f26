// Errors that mcb reports to the user as one clear line.
#pragma once

#include <mpi.h>

#include <optional>
#include <stdexcept>
#include <string>

namespace mcb {

/// Bad input or an unusable configuration. Thrown on every rank of the
/// communicator involved (see agree()), so that the harness can print one
/// line from rank 0 and exit non-zero everywhere without hanging.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "1, 2, 4, 8": the divisors of n, for errors that name the values that fit.
std::string divisors_of(int n);

/// Collective over `comm`: if any rank passes an error message, every rank
/// throws Error with the message of the lowest such rank.
void agree(MPI_Comm comm, const std::optional<std::string>& local_error);

/// Runs `f` on every rank of `comm`; an Error (or std::exception) thrown on
/// some ranks is rethrown as Error on all of them.
template <class F>
auto agree_on(MPI_Comm comm, F&& f) -> decltype(f()) {
  std::optional<std::string> err;
  if constexpr (std::is_void_v<decltype(f())>) {
    try {
      f();
    } catch (const std::exception& e) {
      err = e.what();
    }
    agree(comm, err);
  } else {
    decltype(f()) result{};
    try {
      result = f();
    } catch (const std::exception& e) {
      err = e.what();
    }
    agree(comm, err);
    return result;
  }
}

}  // namespace mcb
