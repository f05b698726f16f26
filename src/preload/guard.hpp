// The re-entrancy guard of the preload: mcb's algorithms and their setup call
// MPI themselves (an inner "system" exchange calls MPI_Alltoall, a layout
// calls MPI_Allgather, agree() calls MPI_Allreduce). While a thread is
// inside the preload, every intercepted call it makes goes straight to the
// MPI's own (PMPI_*).
#pragma once

namespace mcb::preload {

// initial-exec: the library is preloaded at start-up, so its thread-local
// lives in the static TLS block and reads without a call.
inline thread_local bool t_busy __attribute__((tls_model("initial-exec"))) = false;

class Busy {
 public:
  Busy() : previous_(t_busy) { t_busy = true; }
  ~Busy() { t_busy = previous_; }
  Busy(const Busy&) = delete;
  Busy& operator=(const Busy&) = delete;

 private:
  bool previous_;
};

inline bool busy() { return t_busy; }

}  // namespace mcb::preload
