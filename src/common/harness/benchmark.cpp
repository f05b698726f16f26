// The benchmark harness's run (harness/benchmark.hpp): the options parsed,
// the layouts, then per node count, configuration, phase mode and size the
// Runner's setup, measurement (harness/measure.hpp), validation and rows;
// around them harness/session.hpp.
#include "harness/benchmark.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "harness/measure.hpp"
#include "harness/metadata.hpp"
#include "harness/options.hpp"
#include "harness/progress.hpp"
#include "harness/report.hpp"
#include "harness/session.hpp"
#include "harness/stats.hpp"
#include "harness/validation.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "mcb/local_work.hpp"
#include "mcb/shm_alloc.hpp"

namespace mcb::bench {

namespace {

class Runner {
 public:
  /// The run's start (rank 0's clock, UTC, ISO 8601), as every row has it.
  const std::string& start_time() const { return id_.start_time; }

  /// Collective over `world`; its rank 0 (rank 0 of every layout) reports.
  Runner(const CollectiveSpec& spec, const Options& opt, const Memory& mem, MPI_Comm world)
      : spec_(spec),
        opt_(opt),
        mem_(mem),
        validator_(spec, opt, mem),
        id_(identify(world)),
        gpu_aware_(opt.gpu_aware == GpuAware::automatic ? mpi_takes(opt.mem) : opt.gpu_aware == GpuAware::yes) {
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
    if (rank == 0 && spec_.tool == Tool::breakdown)
      breakdown_ = std::make_unique<BreakdownTable>(stdout, opt_.validate);
  }

  /// Runs one configuration in one phase mode on `layout` over every size,
  /// each size a step of `progress` named `label`. Returns the number of
  /// sizes whose validation failed (same on every rank).
  int run(const Algorithm& algorithm, const Config& config, PhaseMode mode, const Layout& layout, Progress& progress,
          const std::string& label) {
    layout_ = &layout;
    const int p = layout_->size();
    const std::size_t tb = opt_.type.bytes;
    const std::size_t max_count = opt_.sizes.back() / tb;
    // Algorithms send up to a whole buffer in one message (an int count).
    const std::size_t most = std::max(spec_.send_elements(max_count, p), spec_.recv_elements(max_count, p));
    if (max_count > static_cast<std::size_t>(INT_MAX) || most > INT_MAX / tb)
      throw Error("--message-size " + std::to_string(opt_.sizes.back()) + ": a buffer of " + std::to_string(most * tb) +
                  " bytes on " + std::to_string(p) + " ranks is too large for one MPI count");
    // Processes of one GPU share its buffers; one per GPU runs the
    // algorithms that do not split the buffers.
    groups_ = spec_.gpus && layout.procs_per_gpu() > 1;
    owner_ = {&layout, groups_, !groups_ || layout.gpu_rank() == 0};
    leaders_ = groups_ ? agree_on(layout.comm(), [&] { return gpu_leaders(layout); }) : std::nullopt;
    const std::size_t send_bytes = spec_.send_elements(max_count, p) * tb;
    const std::size_t recv_bytes = spec_.recv_elements(max_count, p) * tb;
    Buffers b = agree_on(layout_->comm(), [&] {
      Buffers x;
      // --buffers registered: every rank's from mcb::shm_allocate (collective);
      // mixed: the odd ranks drop theirs for plain ones.
      auto buffer = [&](std::size_t bytes) {
        if (groups_) return shared_buffer(mem_, layout.gpu_comm(), bytes);
        if (opt_.buffers == "plain") return Buffer(mem_, bytes);
        Buffer shared = shm_allocate(layout.comm(), bytes);
        return opt_.buffers == "mixed" && layout.rank() % 2 == 1 ? Buffer(mem_, bytes) : shared;
      };
      x.send = buffer(send_bytes);
      x.recv = buffer(recv_bytes);
      if (!gpu_aware_ && !algorithm.per_gpu) {
        x.host_send = Buffer(host_memory(), send_bytes);
        x.host_recv = Buffer(host_memory(), recv_bytes);
      }
      return x;
    });
    std::unique_ptr<ConsoleTable> table;  // Tool::benchmark only
    bool started = false;                 // header printed for this configuration
    int failures = 0;
    for (std::size_t size : opt_.sizes) {
      const std::size_t count = size / tb;
      validator_.fill(b, count, owner_);
      CollArgs args{opt_.in_place ? MPI_IN_PLACE : b.send.data(),
                    b.recv.data(),
                    static_cast<int>(count),
                    opt_.type.mpi,
                    layout_->comm(),
                    opt_.op ? mpi_op(*opt_.op) : MPI_OP_NULL,
                    &mem_,
                    gpu_aware_};
      spdlog::debug("{}: setting up for {} bytes", algorithm.name, size);
      // The setup (the persistent interface's init), timed: the max over ranks.
      MPI_Barrier(layout_->comm());
      const double t0 = MPI_Wtime();
      Plan plan = make_plan(algorithm, config, args, b, count);
      double setup_us = (MPI_Wtime() - t0) * 1e6;
      MPI_Allreduce(MPI_IN_PLACE, &setup_us, 1, MPI_DOUBLE, MPI_MAX, layout_->comm());
      const int iterations = opt_.iterations > 0 ? opt_.iterations : default_iterations(size);
      const int warmup = opt_.warmup >= 0 ? opt_.warmup : default_warmup(size);
      Measurement m =
          measure(plan, layout_->comm(), iterations, warmup, mode, spec_.time_factor, !opt_.save_iterations.empty());
      // What the plan reports is read after it ran: an algorithm that sets
      // up in its first execution (the blocking interface) decides there.
      traffic_ = plan.traffic();  // the schedule's bytes per rank, max over ranks (0: not counted)
      MPI_Allreduce(MPI_IN_PLACE, &traffic_, 1, MPI_DOUBLE, MPI_MAX, layout_->comm());
      traffic_ = std::max(traffic_, 0.0);
      if (!started && layout_->rank() == 0) {
        started = true;
        for (const auto& note : plan.notes()) spdlog::info("{}", note);
        if (breakdown_) {
          if (!header_printed_) print_header(algorithm, plan, nullptr, mode);
          header_printed_ = true;
          breakdown_->columns(plan_phase_names(plan));
        } else {
          table = std::make_unique<ConsoleTable>(stdout, opt_.full, opt_.validate, params_text(plan),
                                                 plan_phase_names(plan), spec_.bandwidth, traffic_ > 0);
          print_header(algorithm, plan, table.get(), mode);
        }
      } else if (table && table->follow(params_text(plan), plan_phase_names(plan))) {
        for (const auto& note : plan.notes()) spdlog::info("{}", note);  // why this size's plan decided otherwise
      }
      std::string validation = "off";
      if (opt_.validate) {
        const bool ok = validator_.check(algorithm.name, plan, b, count, size, owner_);
        validation = ok ? "pass" : "fail";
        failures += ok ? 0 : 1;
      }
      if (layout_->rank() == 0)
        report(algorithm, plan, mode, size, count, iterations, warmup, m, validation, setup_us, table.get());
      progress.step(label, size, layout_->num_nodes());  // between sizes, outside the timed loop
    }
    return failures;
  }

 private:
  // The plan's parameters as the header and the rows print them.
  static std::string params_text(const Plan& plan) {
    const std::string p = plan.params_string();
    return p.empty() ? "none" : p;
  }

  static std::vector<std::string> plan_phase_names(const Plan& plan) {
    std::vector<std::string> names;
    for (const auto& n : plan.phase_names())
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    return names;
  }

  // The plan of `algorithm` as this run needs it: on one process per GPU
  // when processes share a GPU's buffers and the algorithm does not split
  // them (the others run phases of the same names that do nothing), and
  // through host copies (phases d2h and h2d around the algorithm's) when
  // MPI must not see the buffers and the algorithm does not stage itself.
  Plan make_plan(const Algorithm& algorithm, const Config& config, const CollArgs& args, const Buffers& b,
                 std::size_t count) {
    const bool by_leaders = groups_ && !algorithm.per_gpu;
    const bool stage = !gpu_aware_ && !algorithm.per_gpu;
    Plan plan = agree_on(layout_->comm(), [&] {
      if (by_leaders && !leaders_) return Plan();
      const Layout& on = by_leaders ? *leaders_ : *layout_;
      CollArgs a = args;
      a.comm = on.comm();
      if (!stage) return algorithm.make(a, on, config.params);
      CollArgs h = a;
      h.mem = &host_memory();
      h.gpu_aware = true;
      if (a.sendbuf != MPI_IN_PLACE) h.sendbuf = b.host_send.data();
      h.recvbuf = b.host_recv.data();
      const std::size_t tb = opt_.type.bytes, nsend = spec_.send_elements(count, on.size()) * tb,
                        nrecv = spec_.recv_elements(count, on.size()) * tb;
      const Plan inner = algorithm.make(h, on, config.params);
      Plan staged;
      const Memory* mem = &mem_;
      staged.add("d2h", [a, h, mem, nsend, nrecv] {
        if (a.sendbuf == MPI_IN_PLACE)
          mem->copy(h.recvbuf, a.recvbuf, nrecv);
        else
          mem->copy(const_cast<void*>(h.sendbuf), a.sendbuf, nsend);
      });
      staged.append(inner);
      staged.add("h2d", [a, h, mem, nrecv] { mem->copy(a.recvbuf, h.recvbuf, nrecv); });
      for (const auto& [name, value] : inner.params()) staged.set_param(name, value);
      return staged;
    });
    if (!by_leaders) return plan;
    // The leader's phase names to the other processes of its GPU.
    std::string names;
    for (const auto& n : plan.phase_names()) names += n + "\n";
    int len = static_cast<int>(names.size());
    MPI_Bcast(&len, 1, MPI_INT, 0, layout_->gpu_comm());
    names.resize(static_cast<std::size_t>(len));
    MPI_Bcast(names.data(), len, MPI_CHAR, 0, layout_->gpu_comm());
    if (leaders_) return plan;
    Plan idle;
    for (std::size_t at = 0, end; (end = names.find('\n', at)) != std::string::npos; at = end + 1)
      idle.add(names.substr(at, end - at), [] {});
    return idle;
  }

  // The run's description; for the breakdown (table == nullptr) once, with
  // what varies between rows left to the rows.
  void print_header(const Algorithm& algorithm, const Plan& plan, const ConsoleTable* table, PhaseMode mode) const {
    const std::string params = params_text(plan);
    std::printf("# %s (mcb %s): %s, algorithm %s%s\n", spec_.binary.c_str(), MCB_VERSION, spec_.collective.c_str(),
                algorithm.name.c_str(), table ? "" : ", time per phase");
    if (table) std::printf("# parameters: %s\n", params.c_str());
    std::printf("# MPI: %s %s\n", id_.mpi_library.c_str(), id_.mpi_version.c_str());
    if (id_.platform != "none") {
      std::printf("# simulated platform: %s (times are the model's, not a machine's)\n", id_.platform.c_str());
#ifdef MCB_SIMULATE
      std::printf("# local work: %s%s\n", local_work::describe().c_str(),
                  algorithm.name.rfind("system", 0) == 0 ? "; SMPI's own collective charges none of its own" : "");
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
      if (spec_.gpus) print_gpus();
      std::printf(
          "# latency: Avg/Min/Max Latency as OSU's: each rank's mean over iterations, then the mean/min/max over "
          "ranks; Slowest: per iteration the max over ranks, then over iterations\n");
      table->header();
      return;
    }
    std::printf("# type: %s (%zu B), size: %s, memory: %s%s\n", opt_.type.name.c_str(), opt_.type.bytes,
                spec_.size_unit.c_str(), to_string(opt_.mem).c_str(), in_place_text().c_str());
    std::printf(
        "# times: median over iterations of the max over ranks (us); embedded: phases timed inside the run, "
        "isolated: each phase alone between barriers; Largest: the phase with the largest share of the sum\n");
  }

  // "# GPUs: ..." for the collectives that offer --procs-per-gpu.
  void print_gpus() const {
    const int g = layout_->gpus_per_node(), ppg = layout_->procs_per_gpu();
    std::printf("# GPUs: %d per node, %d process%s per GPU%s, GPU-aware MPI: %s\n", g, ppg, ppg == 1 ? "" : "es",
                groups_ ? " sharing its buffers" : "", gpu_aware_ ? "yes" : "no (host copies)");
  }

  // ", buffers: registered|mixed" when not plain.
  std::string buffers_text() const { return opt_.buffers == "plain" ? "" : ", buffers: " + opt_.buffers; }

  // ", in place: yes|no" for the collectives that have an in-place mode.
  std::string in_place_text() const {
    if (!spec_.in_place_offset) return "";
    return std::string(", in place: ") + (opt_.in_place ? "yes" : "no");
  }

  void report(const Algorithm& algorithm, const Plan& plan, PhaseMode mode, std::size_t size, std::size_t count,
              int iterations, int warmup, const Measurement& m, const std::string& validation, double setup_us,
              const ConsoleTable* table) {
    const std::string params = params_text(plan);
    // nccl-tests' bandwidths: one rank's buffer (the larger of send and
    // receive) over the slowest rank's mean time (OSU's Max Latency), and
    // that times the collective's bus factor; in GB/s (1e9 B/s).
    const int p = layout_->size();
    const double buffer_bytes =
        static_cast<double>(std::max(spec_.send_elements(count, p), spec_.recv_elements(count, p)) * opt_.type.bytes);
    const double factor = spec_.bus_factor ? spec_.bus_factor(p) : 1.0;
    auto algbw = [&](const Stats& st) { return st.rank_max > 0 ? buffer_bytes / st.rank_max * 1e-3 : 0.0; };
    if (breakdown_)
      breakdown_->row(layout_->num_nodes(), layout_->size(), to_string(mode), size, m.phase_stats, m.total, validation,
                      params);
    else
      table->row(size, m.total, m.phase_stats, validation, setup_us, algbw(m.total), algbw(m.total) * factor, traffic_,
                 m.total.rank_max > 0 ? traffic_ * layout_->ranks_per_node() / m.total.rank_max * 1e-3 : 0.0);
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
          .set("mem_traffic_bytes", static_cast<long long>(traffic_));
      writer_->write(row);
    }
  }

  // --save-iterations: one row per (iteration, rank) with the rank's total
  // time; slowest = 1 on the row of the iteration's slowest rank (the first
  // one on a tie), whose times make the avg_us series.
  void save_iterations(const Algorithm& algorithm, const std::string& params, PhaseMode mode, std::size_t size,
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

  const CollectiveSpec& spec_;
  const Options& opt_;
  const Memory& mem_;
  Validator validator_;
  Identity id_;
  const Layout* layout_ = nullptr;
  bool gpu_aware_ = true;          // MPI takes the buffers (--gpu-aware resolved)
  bool groups_ = false;            // processes share a GPU's buffers
  Owner owner_;                    // whose data this rank holds and checks
  std::optional<Layout> leaders_;  // one process per GPU (the first ones only)
  std::unique_ptr<RowWriter> writer_;
  std::ofstream iterations_;  // --save-iterations, rank 0
  std::unique_ptr<BreakdownTable> breakdown_;
  bool header_printed_ = false;
  double traffic_ = 0;  // the current plan's Plan::traffic(), max over ranks
};

int run_all(int argc, char** argv, const CollectiveSpec& spec) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  try {
    Offer offer;
    offer.in_place = spec.in_place_offset != nullptr;
    offer.gpus = spec.gpus;
    offer.buffers = spec.registered_buffers;
    offer.types = spec.types;
    offer.ops = spec.ops;
    ParseResult parsed = parse_options(argc, argv, spec.binary, *spec.algorithms, spec.tool, offer);
    if (parsed.exit_code) {
      if (world_rank == 0) std::fputs(parsed.output.c_str(), stdout);
      return *parsed.exit_code;
    }
    const Options& opt = parsed.options;
    setup_logging(world_rank, opt.log_level);
    share_host_buffers(opt.sim_shared_malloc);
#ifdef MCB_SIMULATE
    local_work::enable(opt.sim_local_work);
#endif
    Layout layout = Layout::create(MPI_COMM_WORLD, opt.layout);
    spdlog::info("layout: {}; node {} local rank {}", layout.describe(), layout.node(), layout.local_rank());
    const Memory& mem = *agree_on(layout.comm(), [&] {
      const Memory* m = &memory_for(opt.mem);
      m->select_device(layout.gpu());
      return m;
    });
    std::vector<int> node_counts = opt.nodes.empty() ? std::vector<int>{layout.num_nodes()} : opt.nodes;
    for (int n : node_counts)
      if (n > layout.num_nodes())
        throw Error("--nodes " + std::to_string(n) + ": this run has " + std::to_string(layout.num_nodes()) + " node" +
                    (layout.num_nodes() == 1 ? "" : "s") + " (" + layout.describe() + ")");
    preflight(spec, opt, layout, world_rank);
    Runner runner(spec, opt, mem, MPI_COMM_WORLD);
    write_metadata(spec, opt, layout, runner.start_time(), std::vector<std::string>(argv, argv + argc));
    // Steps: node counts x configurations x phase modes x sizes.
    const long modes_x_sizes = static_cast<long>(opt.phase_modes.size() * opt.sizes.size());
    Progress progress(spec.binary, static_cast<long>(node_counts.size() * opt.configs.size()) * modes_x_sizes,
                      opt.progress, world_rank == 0);
    int failures = 0, ran = 0;
    std::string skipped;  // why the first configuration left out was
    for (int n : node_counts) {
      // The ranks left out of a node count wait here; an error on the others
      // reaches them too.
      agree_on(MPI_COMM_WORLD, [&] {
        std::optional<Layout> sub = n == layout.num_nodes() ? std::nullopt : first_nodes(layout, n, opt.layout);
        if (n != layout.num_nodes() && !sub) return;
        const Layout& here = sub ? *sub : layout;
        for (const Config& config : opt.configs) {
          const Algorithm& algorithm = *std::find_if(spec.algorithms->begin(), spec.algorithms->end(),
                                                     [&](const Algorithm& a) { return a.name == config.algorithm; });
          std::string why = algorithm.unsupported ? algorithm.unsupported(here) : "";
          if (why.empty() && algorithm.unsupported_config) {
            // A value that "all" brought in and this layout cannot take is
            // left out silently; one the user gave is an error.
            why = algorithm.unsupported_config(here, config.params);
            bool given = false;
            for (const auto& p : algorithm.params)
              given = given || (opt.params.has(p.name) && opt.params.get(p.name) != "all");
            if (!why.empty() && !given) {
              progress.skip(modes_x_sizes);
              continue;
            }
          }
          if (!why.empty()) {
            if (config.named) throw Error(algorithm.name + " " + why + " (" + here.describe() + ")");
            if (skipped.empty()) skipped = algorithm.name + " " + why + " (" + here.describe() + ")";
            if (here.rank() == 0)
              std::printf("# skipping %s, not applicable: %s (%s)\n\n", algorithm.name.c_str(), why.c_str(),
                          here.describe().c_str());
            progress.skip(modes_x_sizes);
            continue;
          }
          ++ran;
          for (PhaseMode mode : opt.phase_modes) {
            failures += runner.run(algorithm, config, mode, here, progress, progress_label(config, mode, opt));
            if (here.rank() == 0 && spec.tool == Tool::benchmark) std::printf("\n");
          }
        }
      });
    }
    progress.finish();
    // Nothing could run (a binary of one algorithm on a layout it cannot
    // take): that is an error, not an empty success.
    MPI_Allreduce(MPI_IN_PLACE, &ran, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (ran == 0 && !skipped.empty()) throw Error(skipped);
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failures && world_rank == 0)
      std::fprintf(stderr, "%s: validation failed for %d algorithm/size combinations\n", spec.binary.c_str(), failures);
    return failures ? 1 : 0;
  } catch (const Error& e) {
    if (world_rank == 0) std::fprintf(stderr, "%s: error: %s\n", spec.binary.c_str(), e.what());
    return 2;
  }
}

}  // namespace

int run_benchmark(int argc, char** argv, const CollectiveSpec& spec) {
  MPI_Init(&argc, &argv);
  const int rc = run_all(argc, argv, spec);
  spdlog::shutdown();
  MPI_Finalize();
  return rc;
}

}  // namespace mcb::bench
