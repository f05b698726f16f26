// The run's report (harness/reporter.hpp).
#include "harness/reporter.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

#include "mcb/error.hpp"
#include "mcb/local_work.hpp"

namespace mcb::bench {

namespace {

// The plan's parameters as the header and the rows print them.
std::string params_text(const Plan& plan) {
  const std::string p = plan.params_string();
  return p.empty() ? "none" : p;
}

std::vector<std::string> plan_phase_names(const Plan& plan) {
  std::vector<std::string> names;
  for (const auto& n : plan.phase_names())
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  return names;
}

}  // namespace

Reporter::Reporter(const CollectiveSpec& spec, const Options& opt, MPI_Comm world)
    : spec_(spec), opt_(opt), id_(identify(world)) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  // Rank 0 writes the files; an open failure there stops every rank.
  agree_on(world, [&] {
    if (rank != 0) return;
    writer_ = std::make_unique<RowWriter>(opt_.csv, opt_.json);
    if (!opt_.save_iterations.empty()) {
      iterations_.open(opt_.save_iterations, std::ios::trunc);
      if (!iterations_) throw Error("--save-iterations " + opt_.save_iterations + ": cannot open for writing");
      iterations_ << "benchmark,collective,algorithm,params,ranks,nodes,phase_mode,size_bytes,iteration,rank,"
                     "time_us,slowest\n";
    }
  });
  if (rank == 0 && spec_.tool == Tool::breakdown) breakdown_ = std::make_unique<BreakdownTable>(stdout, opt_.validate);
}

void Reporter::start_configuration(const Layout& layout, bool gpu_aware, bool groups, bool host_copies) {
  layout_ = &layout;
  gpu_aware_ = gpu_aware;
  groups_ = groups;
  host_copies_ = host_copies;
  table_.reset();
  started_ = false;
}

void Reporter::plan_ready(const Algorithm& algorithm, const Plan& plan, PhaseMode mode, double traffic) {
  traffic_ = traffic;
  if (!started_) {
    started_ = true;
    for (const auto& note : plan.notes()) spdlog::info("{}", note);
    if (breakdown_) {
      if (!header_printed_) print_header(algorithm, plan, nullptr, mode);
      header_printed_ = true;
      breakdown_->columns(plan_phase_names(plan));
    } else {
      table_ = std::make_unique<ConsoleTable>(stdout, opt_.full, opt_.validate, params_text(plan),
                                              plan_phase_names(plan), spec_.bandwidth, traffic_ > 0);
      print_header(algorithm, plan, table_.get(), mode);
    }
  } else if (table_ && table_->follow(params_text(plan), plan_phase_names(plan))) {
    for (const auto& note : plan.notes()) spdlog::info("{}", note);  // why this size's plan decided otherwise
  }
}

// The run's description; for the breakdown (table == nullptr) once, with
// what varies between rows left to the rows.
void Reporter::print_header(const Algorithm& algorithm, const Plan& plan, const ConsoleTable* table,
                            PhaseMode mode) const {
  const std::string params = params_text(plan);
  std::printf("# %s (mcb %s): %s, algorithm %s%s\n", spec_.binary.c_str(), MCB_VERSION, spec_.collective.c_str(),
              algorithm.name.c_str(), table ? "" : ", time per phase");
  if (table) std::printf("# parameters: %s\n", params.c_str());
  std::printf("# MPI: %s %s\n", id_.mpi_library.c_str(), id_.mpi_version.c_str());
  if (id_.platform != "none") {
    std::printf("# simulated platform: %s (times are the model's, not a machine's)\n", id_.platform.c_str());
#ifdef MCB_SIMULATE
    // A system plan that pays its local work says what it runs (a note
    // "system: ..."); SMPI's own collective pays none.
    std::string system_pays = "; SMPI's own collective charges none of its own";
    for (const auto& note : plan.notes())
      if (note.rfind("system: ", 0) == 0) system_pays = "; " + note;
    std::printf("# local work: %s%s\n", local_work::describe().c_str(),
                algorithm.name.rfind("system", 0) == 0 ? system_pays.c_str() : "");
#endif
  }
  if (opt_.sim_shared_malloc > 0)
    std::printf("# validation: off (shared buffers: host buffers of %zu B and more are SMPI_SHARED_MALLOC's)\n",
                opt_.sim_shared_malloc);
  const std::string ranks =
      table ? "ranks: " + std::to_string(layout_->size()) + ", nodes: " + std::to_string(layout_->num_nodes()) + ", "
            : "ranks and nodes: per row, ";  // a --nodes sweep varies them
  std::printf("# %sranks per node: %s%s, rank order: %s, region: %s\n", ranks.c_str(),
              layout_->uniform() ? std::to_string(layout_->ranks_per_node()).c_str() : "uneven",
              layout_->options().ranks_per_node > 0 ? " (virtual nodes)" : "",
              to_string(layout_->options().order).c_str(), layout_->options().region.str().c_str());
  if (table) {
    std::printf("# type: %s (%zu B), size: %s, memory: %s%s%s, phase mode: %s\n", opt_.type.name.c_str(),
                opt_.type.bytes, spec_.size_unit.c_str(), to_string(opt_.mem).c_str(), buffers_text().c_str(),
                in_place_text().c_str(), to_string(mode).c_str());
    if (spec_.gpus && (opt_.gpu_run || opt_.mem != MemKind::host)) print_gpus();
    if (opt_.mem != MemKind::host) print_device();
    std::printf(
        "# latency: Avg/Min/Max Latency as OSU's: each rank's mean over iterations, then the mean/min/max over "
        "ranks; Slowest: per iteration the max over ranks, then over iterations\n");
    table->header();
    return;
  }
  std::printf("# type: %s (%zu B), size: %s, memory: %s%s%s\n", opt_.type.name.c_str(), opt_.type.bytes,
              spec_.size_unit.c_str(), to_string(opt_.mem).c_str(), buffers_text().c_str(), in_place_text().c_str());
  std::printf(
      "# times: median over iterations of the max over ranks (us); embedded: phases timed inside the run, "
      "isolated: each phase alone between barriers; Largest: the phase with the largest share of the sum\n");
}

// "# GPUs: ..." for the collectives that offer --procs-per-gpu, when the run
// is about GPUs: device buffers, or --gpus-per-node, --procs-per-gpu or
// --gpu-aware named (a host-memory run without them has no GPU to describe).
void Reporter::print_gpus() const {
  const int g = layout_->gpus_per_node(), ppg = layout_->procs_per_gpu();
  std::printf("# GPUs: %d per node, %d process%s per GPU%s, GPU-aware MPI: %s%s\n", g, ppg, ppg == 1 ? "" : "es",
              groups_ ? " sharing its buffers" : "", gpu_aware_ ? "yes" : "no (host copies)",
              gpu_aware_ && host_copies_ ? "; this algorithm on host copies (it works in host shared memory)" : "");
}

// "# GPU: ..." for device buffers: rank 0's device, how its processes share
// it (compute mode, MPS: without MPS they time-slice it), its link, and the
// host memory that copies go through.
void Reporter::print_device() const {
  const auto info = memory_for(opt_.mem).device_info();
  if (!info) return;
  auto known = [](const std::string& s) { return s.empty() ? std::string("unknown") : s; };
  std::printf(
      "# GPU: %s (%s), driver %s, %s, compute mode %s, MPS %s, PCIe %s%s\n", known(info->name).c_str(),
      known(info->bus_id).c_str(), known(info->driver).c_str(), known(info->runtime).c_str(),
      known(info->compute_mode).c_str(), known(info->mps).c_str(), known(info->pcie).c_str(),
      !gpu_aware_ || host_copies_ ? (", host copies through " + to_string(opt_.staging) + " memory").c_str() : "");
}

// ", buffers: registered|mixed" when not plain; ", fresh send" with --fresh-send;
// ", counts: equal|linear|heavy|zeros" in the v-forms.
std::string Reporter::buffers_text() const {
  return (opt_.buffers == "plain" ? "" : ", buffers: " + opt_.buffers) + (opt_.fresh_send ? ", fresh send" : "") +
         (spec_.vcounts ? ", counts: " + to_string(opt_.counts) : "");
}

// ", in place: yes|no" for the collectives that have an in-place mode.
std::string Reporter::in_place_text() const {
  if (!spec_.in_place_offset) return "";
  return std::string(", in place: ") + (opt_.in_place ? "yes" : "no");
}

void Reporter::row(const Algorithm& algorithm, const Plan& plan, PhaseMode mode, const SizeResult& r,
                   const Measurement& m) {
  const std::size_t size = r.size, count = r.count;
  const int iterations = r.iterations, warmup = r.warmup;
  const std::string& validation = r.validation;
  const double setup_us = r.setup_us;
  const ConsoleTable* table = table_.get();
  const std::string params = params_text(plan);
  // nccl-tests' bandwidths: one rank's buffer (the larger of send and
  // receive) over the slowest rank's mean time (OSU's Max Latency), and
  // that times the collective's bus factor; in GB/s (1e9 B/s).
  const int p = layout_->size();
  const Shape shape = shape_of(spec_, opt_, size / opt_.type.bytes, p);
  const double buffer_bytes =
      static_cast<double>(std::max(spec_.send_elements(shape, 0), spec_.recv_elements(shape, 0)) * opt_.type.bytes);
  const double factor = spec_.bus_factor ? spec_.bus_factor(p) : 1.0;
  auto algbw = [&](const Stats& st) { return st.rank_max > 0 ? buffer_bytes / st.rank_max * 1e-3 : 0.0; };
  if (breakdown_)
    breakdown_->row(layout_->num_nodes(), layout_->size(), to_string(mode), size, m.phase_stats, m.total, validation,
                    params);
  else {
    const double send_bytes = static_cast<double>(spec_.send_elements(shape, 0) * opt_.type.bytes);
    const double recv_bytes = static_cast<double>(spec_.recv_elements(shape, 0) * opt_.type.bytes);
    table_->set_copy_bytes(opt_.in_place ? recv_bytes : send_bytes, recv_bytes);
    table->row(size, m.total, m.phase_stats, validation, setup_us, algbw(m.total), algbw(m.total) * factor, traffic_,
               m.total.rank_max > 0 ? traffic_ * layout_->ranks_per_node() / m.total.rank_max * 1e-3 : 0.0);
  }
  if (!writer_) return;
  save_iterations(algorithm, params, mode, size, iterations, m);
  for (std::size_t s = 0; s <= m.phases.size(); ++s) {
    const bool total = s == m.phases.size();
    const Stats& st = total ? m.total : m.phase_stats[s];
    Row row;
    row.set("benchmark", spec_.binary)
        .set("mcb_version", std::string(MCB_VERSION))
        .set("collective", spec_.collective)
        .set("algorithm", algorithm.name)
        .set("params", params)
        .set("mpi_library", id_.mpi_library)
        .set("mpi_version", id_.mpi_version)
        .set("ranks", static_cast<long long>(layout_->size()))
        .set("nodes", static_cast<long long>(layout_->num_nodes()))
        .set("ranks_per_node", static_cast<long long>(layout_->ranks_per_node()))
        .set("rank_order", to_string(layout_->options().order))
        .set("region", layout_->options().region.str())
        .set("mem", to_string(opt_.mem))
        .set("datatype", opt_.type.name)
        .set("phase_mode", to_string(mode))
        .set("size_bytes", static_cast<long long>(size))
        .set("count", static_cast<long long>(count))
        .set("phase", total ? std::string("total") : m.phases[s])
        .set("iterations", static_cast<long long>(iterations))
        .set("warmup", static_cast<long long>(warmup))
        .set("avg_us", st.avg)
        .set("median_us", st.median)
        .set("min_us", st.min)
        .set("max_us", st.max)
        .set("stddev_us", st.stddev)
        .set("osu_avg_us", st.rank_avg)
        .set("osu_min_us", st.rank_min)
        .set("osu_max_us", st.rank_max)
        .set("p90_us", st.p90)
        .set("p99_us", st.p99)
        .set("algbw_gbps", algbw(st))
        .set("busbw_gbps", algbw(st) * factor)
        .set("validation", validation)
        .set("host", id_.host)
        .set("platform", id_.platform)
        .set("start_time", id_.start_time)
        .set("in_place", static_cast<long long>(opt_.in_place ? 1 : 0))
        .set("setup_us", setup_us)
        .set("gpus_per_node", static_cast<long long>(layout_->gpus_per_node()))
        .set("procs_per_gpu", static_cast<long long>(layout_->procs_per_gpu()))
        .set("gpu_aware", static_cast<long long>(gpu_aware_ ? 1 : 0))
        .set("buffers", opt_.buffers)
        .set("mem_traffic_bytes", static_cast<long long>(traffic_))
        .set("fresh_send", static_cast<long long>(opt_.fresh_send ? 1 : 0))
        .set("counts", to_string(opt_.counts));
    writer_->write(row);
  }
}

// --save-iterations: one row per (iteration, rank) with the rank's total
// time; slowest = 1 on the row of the iteration's slowest rank (the first
// one on a tie), whose times make the avg_us series.
void Reporter::save_iterations(const Algorithm& algorithm, const std::string& params, PhaseMode mode, std::size_t size,
                               int iterations, const Measurement& m) {
  if (!iterations_.is_open() || m.per_rank.empty()) return;
  const int p = layout_->size();
  const std::string head = csv_field(spec_.binary) + "," + csv_field(spec_.collective) + "," +
                           csv_field(algorithm.name) + "," + csv_field(params) + "," + std::to_string(p) + "," +
                           std::to_string(layout_->num_nodes()) + "," + to_string(mode) + "," + std::to_string(size) +
                           ",";
  const double to_us = 1e6 * spec_.time_factor;
  char num[32];
  for (int it = 0; it < iterations; ++it) {
    int slowest = 0;
    for (int r = 1; r < p; ++r)
      if (m.per_rank[static_cast<std::size_t>(r) * iterations + it] >
          m.per_rank[static_cast<std::size_t>(slowest) * iterations + it])
        slowest = r;
    for (int r = 0; r < p; ++r) {
      std::snprintf(num, sizeof num, "%.3f", m.per_rank[static_cast<std::size_t>(r) * iterations + it] * to_us);
      iterations_ << head << it << ',' << r << ',' << num << ',' << (r == slowest ? 1 : 0) << '\n';
    }
  }
  iterations_.flush();
}

}  // namespace mcb::bench
