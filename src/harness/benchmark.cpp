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
#include <set>
#include <string_view>

#include "harness/measure.hpp"
#include "harness/metadata.hpp"
#include "harness/options.hpp"
#include "harness/progress.hpp"
#include "harness/reporter.hpp"
#include "harness/session.hpp"
#include "harness/stats.hpp"
#include "harness/validation.hpp"
#include "harness/watchdog.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"
#include "mcb/local_work.hpp"
#include "mcb/shm_alloc.hpp"

namespace mcb::bench {

namespace {

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

class Runner {
 public:
  /// The run's start (rank 0's clock, UTC, ISO 8601), as every row has it.
  const std::string& start_time() const { return reporter_.identity().start_time; }

  /// Collective over `world`; its rank 0 (rank 0 of every layout) reports.
  Runner(const CollectiveSpec& spec, const Options& opt, const Memory& mem, MPI_Comm world)
      : spec_(spec),
        opt_(opt),
        mem_(mem),
        validator_(spec, opt, mem),
        reporter_(spec, opt, world),
        watchdog_(spec.binary, opt.timeout, rank_in(world) == 0),
        gpu_aware_(opt.gpu_aware == GpuAware::automatic ? mpi_takes(opt.mem) : opt.gpu_aware == GpuAware::yes) {}

  /// Runs one configuration in one phase mode on `layout` over every size,
  /// each size a step of `progress` named `label`. Returns the number of
  /// sizes whose validation failed (same on every rank).
  int run(const Algorithm& algorithm, const Config& config, PhaseMode mode, const Layout& layout, Progress& progress,
          const std::string& label) {
    layout_ = &layout;
    const int p = layout_->size();
    const std::size_t tb = opt_.type.bytes;
    // Algorithms send up to a whole buffer in one message (an int count).
    const Shape largest = shape_of(spec_, opt_, opt_.sizes.back() / tb, p);
    std::size_t most = largest.count;
    for (int r = 0; r < p; ++r)
      most = std::max({most, spec_.send_elements(largest, r), spec_.recv_elements(largest, r)});
    if (most > INT_MAX / tb)
      throw Error("--message-size " + std::to_string(opt_.sizes.back()) + ": a buffer of " + std::to_string(most * tb) +
                  " bytes on " + std::to_string(p) + " ranks is too large for one MPI count");
    // Processes of one GPU share its buffers; one per GPU runs the
    // algorithms that do not split the buffers.
    groups_ = spec_.gpus && layout.procs_per_gpu() > 1;
    owner_ = {&layout, groups_, !groups_ || layout.gpu_rank() == 0};
    leaders_ = groups_ ? agree_on(layout.comm(), [&] { return gpu_leaders(layout); }) : std::nullopt;
    const int owner_rank = owner_.rank();
    const Shape owned = shape_of(spec_, opt_, opt_.sizes.back() / tb, owner_.size());
    // At least an element each: a rank with nothing to send (scatter's
    // non-roots, a zero count) still has a buffer to point at.
    const std::size_t send_bytes = std::max<std::size_t>(1, spec_.send_elements(owned, owner_rank)) * tb;
    const std::size_t recv_bytes = std::max<std::size_t>(1, spec_.recv_elements(owned, owner_rank)) * tb;
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
      // Host copies for the processes that run the algorithm (one per GPU
      // when its processes share the buffers): pinned memory is committed.
      if (staged(algorithm) && (!groups_ || leaders_)) {
        x.host_send = mem_.staging_buffer(send_bytes, opt_.staging);
        x.host_recv = mem_.staging_buffer(recv_bytes, opt_.staging);
      }
      return x;
    });
    reporter_.start_configuration(layout, gpu_aware_, groups_, staged(algorithm));
    int failures = 0;
    for (std::size_t size : opt_.sizes) {
      watchdog_.begin(step_name(config, mode, size));  // --timeout: this step's clock
      const std::size_t elements = size / tb;
      const Shape shape = shape_of(spec_, opt_, elements, p);
      validator_.fill(b, elements, owner_);
      CollArgs args{opt_.in_place ? MPI_IN_PLACE : b.send.data(),
                    b.recv.data(),
                    static_cast<int>(shape.of(layout_->rank())),
                    opt_.type.mpi,
                    layout_->comm(),
                    opt_.op ? mpi_op(*opt_.op) : MPI_OP_NULL,
                    &mem_,
                    gpu_aware_,
                    opt_.staging};
      if (spec_.vcounts) args.v = VCounts::packed(std::vector<int>(shape.counts.begin(), shape.counts.end()));
      spdlog::debug("{}: setting up for {} bytes", algorithm.name, size);
      // The setup (the persistent interface's init), timed: the max over ranks.
      MPI_Barrier(layout_->comm());
      watchdog_.started();
      const double t0 = MPI_Wtime();
      Plan plan = make_plan(algorithm, config, args, b, elements);
      double setup_us = (MPI_Wtime() - t0) * 1e6;
      MPI_Allreduce(MPI_IN_PLACE, &setup_us, 1, MPI_DOUBLE, MPI_MAX, layout_->comm());
      const int iterations = opt_.iterations > 0 ? opt_.iterations : default_iterations(size);
      const int warmup = opt_.warmup >= 0 ? opt_.warmup : default_warmup(size);
      watchdog_.stage(StepState::Stage::loop, iterations, warmup);
      Measurement m = measure(plan, layout_->comm(), iterations, warmup, mode, spec_.time_factor,
                              !opt_.save_iterations.empty(), watchdog_.iteration(), fresh_send(b, elements));
      // What the plan reports is read after it ran: an algorithm that sets
      // up in its first execution (the blocking interface) decides there.
      double traffic = plan.traffic();  // the schedule's bytes per rank, max over ranks (0: not counted)
      MPI_Allreduce(MPI_IN_PLACE, &traffic, 1, MPI_DOUBLE, MPI_MAX, layout_->comm());
      if (layout_->rank() == 0) reporter_.plan_ready(algorithm, plan, mode, std::max(traffic, 0.0));
      std::string validation = "off";
      if (opt_.validate) {
        watchdog_.stage(StepState::Stage::validation);
        const bool ok = validator_.check(algorithm.name, plan, b, elements, size, owner_);
        validation = ok ? "pass" : "fail";
        failures += ok ? 0 : 1;
      }
      watchdog_.end();
      if (layout_->rank() == 0)
        reporter_.row(algorithm, plan, mode, {size, shape.count, iterations, warmup, validation, setup_us}, m);
      progress.step(label, size, layout_->num_nodes());  // between sizes, outside the timed loop
    }
    return failures;
  }

 private:
  // Whether the harness runs `algorithm` on host copies of the buffers: MPI
  // must not see them, or the algorithm works on host memory only (an
  // algorithm that splits a GPU's buffers stages its slices itself).
  bool staged(const Algorithm& algorithm) const {
    if (algorithm.per_gpu) return false;
    return !gpu_aware_ || (algorithm.host_only && mem_.kind() != MemKind::host);
  }

  // --fresh-send: a store of the byte already there on every cache line of
  // my input (the send buffer, in place the receive buffer: the collective
  // reads it), so that the lines are modified in my cache when the call
  // begins, as after an application computed them; processes sharing a
  // GPU's buffers leave it to the first of them. Nothing without the option.
  std::function<void()> fresh_send(Buffers& b, std::size_t elements) const {
    if (!opt_.fresh_send || !owner_.writer) return {};
    const Shape s = shape_of(spec_, opt_, elements, owner_.size());
    Buffer& in = opt_.in_place ? b.recv : b.send;
    const std::size_t bytes =
        (opt_.in_place ? spec_.recv_elements(s, owner_.rank()) : spec_.send_elements(s, owner_.rank())) *
        opt_.type.bytes;
    auto* data = static_cast<volatile char*>(in.data());
    return [data, bytes] {
      for (std::size_t i = 0; i < bytes; i += 64) data[i] = data[i];
    };
  }

  // A step as the --timeout line names it: "alltoall algorithm 'tra'
  // (radix=4) at 1024 B", the phase mode when isolated, the nodes with --nodes.
  std::string step_name(const Config& config, PhaseMode mode, std::size_t size) const {
    std::string params;
    for (const auto& [name, value] : config.params.values())
      params += (params.empty() ? "" : ", ") + name + "=" + value;
    std::string what = spec_.collective + " algorithm '" + config.algorithm + "'";
    if (!params.empty()) what += " (" + params + ")";
    if (mode == PhaseMode::isolated) what += " in isolated phase mode";
    if (!opt_.nodes.empty()) what += " on " + std::to_string(layout_->num_nodes()) + " nodes";
    return what + " at " + std::to_string(size) + " B";
  }

  // The plan of `algorithm` as this run needs it: on one process per GPU
  // when processes share a GPU's buffers and the algorithm does not split
  // them (the others run phases of the same names that do nothing), and
  // through host copies (phases d2h and h2d around the algorithm's) when
  // MPI must not see the buffers and the algorithm does not stage itself.
  Plan make_plan(const Algorithm& algorithm, const Config& config, const CollArgs& args, const Buffers& b,
                 std::size_t elements) {
    const bool by_leaders = groups_ && !algorithm.per_gpu;
    const bool stage = staged(algorithm);
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
      const Shape s = shape_of(spec_, opt_, elements, on.size());
      const std::size_t tb = opt_.type.bytes, nsend = spec_.send_elements(s, on.rank()) * tb,
                        nrecv = spec_.recv_elements(s, on.rank()) * tb;
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

  const CollectiveSpec& spec_;
  const Options& opt_;
  const Memory& mem_;
  Validator validator_;
  Reporter reporter_;
  Watchdog watchdog_;  // --timeout
  const Layout* layout_ = nullptr;
  bool gpu_aware_ = true;          // MPI takes the buffers (--gpu-aware resolved)
  bool groups_ = false;            // processes share a GPU's buffers
  Owner owner_;                    // whose data this rank holds and checks
  std::optional<Layout> leaders_;  // one process per GPU (the first ones only)
};

// What the binary offers on its command line.
Offer offer_of(const CollectiveSpec& spec) {
  Offer offer;
  offer.in_place = spec.in_place_offset != nullptr;
  offer.gpus = spec.gpus;
  offer.buffers = spec.registered_buffers;
  offer.types = spec.types;
  offer.ops = spec.ops;
  offer.counts = spec.vcounts;
  return offer;
}

// Whether `config` of `algorithm` runs on `here`: "" if it does, else why
// not. A parameter value that "all" brought in and this layout cannot take
// is left out silently (`silent`); one the user gave is reported.
std::string why_not(const Algorithm& algorithm, const Config& config, const Layout& here, const Options& opt,
                    bool& silent) {
  std::string why = algorithm.unsupported ? algorithm.unsupported(here) : "";
  if (why.empty() && algorithm.unsupported_config) {
    why = algorithm.unsupported_config(here, config.params);
    bool given = false;
    for (const auto& p : algorithm.params) given = given || (opt.params.has(p.name) && opt.params.get(p.name) != "all");
    silent = !why.empty() && !given;
  }
  return why;
}

int run_all(int argc, char** argv, const CollectiveSpec& spec) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  try {
    ParseResult parsed = parse_options(argc, argv, spec.binary, *spec.algorithms, spec.tool, offer_of(spec));
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
    // An MPI that says it cannot read device memory is never handed device
    // pointers: Open MPI without CUDA support crashed inside its
    // reduce_scatter on them. A build without the backend says so below.
    const auto backends = compiled_backends();
    if (opt.gpu_aware == GpuAware::yes && opt.mem != MemKind::host &&
        std::find(backends.begin(), backends.end(), to_string(opt.mem)) != backends.end())
      if (const std::string why = mpi_refuses(opt.mem); !why.empty())
        throw Error("--gpu-aware yes: " + why + "; use --gpu-aware no (host copies) or auto");
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
    std::string skipped;         // why the first configuration left out was
    std::set<std::string> told;  // the skip lines printed
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
          bool silent = false;
          const std::string why = why_not(algorithm, config, here, opt, silent);
          if (silent) {
            progress.skip(modes_x_sizes);
            continue;
          }
          if (!why.empty()) {
            if (config.named) throw Error(algorithm.name + " " + why + " (" + here.describe() + ")");
            if (skipped.empty()) skipped = algorithm.name + " " + why + " (" + here.describe() + ")";
            // One line per algorithm and reason, not one per parameter value.
            if (here.rank() == 0 && told.insert(algorithm.name + why).second)
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

// Whether the command line names --timeout (read before MPI_Init, which
// comes before the options are parsed).
bool asks_for_watchdog(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--timeout" || arg.starts_with("--timeout=")) return true;
  }
  return false;
}

}  // namespace

int run_benchmark(int argc, char** argv, const CollectiveSpec& spec) {
  // A second thread only for --timeout's watchdog (funneled: it never calls
  // MPI). Without it, MPI_Init: a thread level above single costs Open MPI
  // 4.1.4 about 0.17 us per call whether or not a thread runs (issue 55).
  if (asks_for_watchdog(argc, argv)) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  const int rc = run_all(argc, argv, spec);
  spdlog::shutdown();
  MPI_Finalize();
  return rc;
}

}  // namespace mcb::bench
