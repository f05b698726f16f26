// The measurement loop (harness/measure.hpp).
#include "harness/measure.hpp"

#include <algorithm>

namespace mcb::bench {

Measurement measure(const Plan& plan, MPI_Comm comm, int iterations, int warmup, PhaseMode mode, double factor,
                    bool keep_ranks, std::atomic<int>& at, const std::function<void()>& before) {
  Measurement m;
  const auto& phases = plan.phases();
  std::vector<std::size_t> slot(phases.size());
  for (std::size_t p = 0; p < phases.size(); ++p) {
    auto it = std::find(m.phases.begin(), m.phases.end(), phases[p].name);
    slot[p] = static_cast<std::size_t>(it - m.phases.begin());
    if (it == m.phases.end()) m.phases.push_back(phases[p].name);
  }
  const std::size_t width = m.phases.size() + 1;  // phases, then the total
  std::vector<double> times(width * static_cast<std::size_t>(iterations), 0.0);
  std::vector<double> scratch(width);

  at.store(-warmup - 1, std::memory_order_relaxed);
  if (before) before();
  MPI_Barrier(comm);
  for (int it = -warmup; it < iterations; ++it) {
    at.store(it, std::memory_order_relaxed);
    double* row = it >= 0 ? &times[static_cast<std::size_t>(it) * width] : scratch.data();
    std::fill(row, row + width, 0.0);
    if (mode == PhaseMode::embedded) {
      const double t0 = MPI_Wtime();
      double prev = t0;
      for (std::size_t p = 0; p < phases.size(); ++p) {
        plan.run_phase(p);
        const double now = MPI_Wtime();
        row[slot[p]] += now - prev;
        prev = now;
      }
      row[width - 1] = prev - t0;
    } else {
      for (std::size_t p = 0; p < phases.size(); ++p) {
        MPI_Barrier(comm);
        const double t0 = MPI_Wtime();
        plan.run_phase(p);
        const double dt = MPI_Wtime() - t0;
        row[slot[p]] += dt;
        row[width - 1] += dt;
      }
    }
    if (before && it + 1 < iterations) before();  // the next iteration's, before the barrier ending this one
    MPI_Barrier(comm);
  }
  at.store(iterations, std::memory_order_relaxed);

  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<double> maxed(rank == 0 ? times.size() : 0);
  MPI_Reduce(times.data(), maxed.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_MAX, 0, comm);
  std::vector<double> mine(width, 0.0), sum(width), lo(width), hi(width);
  for (int it = 0; it < iterations; ++it)
    for (std::size_t s = 0; s < width; ++s) mine[s] += times[static_cast<std::size_t>(it) * width + s];
  for (double& t : mine) t /= std::max(iterations, 1);
  const int n = static_cast<int>(width);
  MPI_Reduce(mine.data(), sum.data(), n, MPI_DOUBLE, MPI_SUM, 0, comm);
  MPI_Reduce(mine.data(), lo.data(), n, MPI_DOUBLE, MPI_MIN, 0, comm);
  MPI_Reduce(mine.data(), hi.data(), n, MPI_DOUBLE, MPI_MAX, 0, comm);
  if (keep_ranks) {  // --save-iterations: every rank's totals to rank 0
    std::vector<double> mine_totals(static_cast<std::size_t>(iterations));
    for (int it = 0; it < iterations; ++it)
      mine_totals[static_cast<std::size_t>(it)] = times[static_cast<std::size_t>(it) * width + width - 1];
    if (rank == 0) m.per_rank.resize(static_cast<std::size_t>(iterations) * static_cast<std::size_t>(size));
    MPI_Gather(mine_totals.data(), iterations, MPI_DOUBLE, m.per_rank.data(), iterations, MPI_DOUBLE, 0, comm);
  }
  if (rank != 0) return m;
  const double to_us = 1e6 * factor;
  for (std::size_t s = 0; s < width; ++s) {
    std::vector<double> us(static_cast<std::size_t>(iterations));
    for (int it = 0; it < iterations; ++it) us[static_cast<std::size_t>(it)] = maxed[it * width + s] * to_us;
    Stats& st = s + 1 < width ? m.phase_stats.emplace_back() : m.total;
    st = summarize(std::move(us));
    st.rank_avg = sum[s] / size * to_us;
    st.rank_min = lo[s] * to_us;
    st.rank_max = hi[s] * to_us;
  }
  return m;
}

}  // namespace mcb::bench
