// Command-line options shared by every mcb benchmark, with OSU's names where
// OSU has one. Parsing needs no MPI, so it is unit-tested on its own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/datatype.hpp"
#include "mcb/collective.hpp"
#include "mcb/layout.hpp"
#include "mcb/memory.hpp"

namespace mcb::bench {

enum class PhaseMode { embedded, isolated };
std::string to_string(PhaseMode mode);

/// What a binary is for: the OSU-style benchmark of every algorithm
/// (mcb_alltoall, ...), or the per-phase breakdown of one (mcb_breakdown).
enum class Tool { benchmark, breakdown };

/// One configuration to run: an algorithm with one value for each of its
/// parameters that has one (lists and "all" expanded).
struct Config {
  std::string algorithm;
  Params params;
  bool named = false;  // named in --algorithm (not only through "all")
};

/// --counts: how the v-forms spread their elements over the ranks.
///   equal:  OSU's (every rank the same; a reduce-scatter's vector split as
///           evenly as it goes, the first ranks one element more);
///   linear: rank r's share proportional to r + 1;
///   heavy:  the last rank half of the elements, the others the rest evenly;
///   zeros:  the odd ranks none, the even ranks the elements evenly.
/// Every choice keeps the total, so the same -m moves the same bytes.
enum class CountsKind { equal, linear, heavy, zeros };
std::string to_string(CountsKind k);
/// "equal", "linear", "heavy", "zeros"; throws Error otherwise.
CountsKind parse_counts(const std::string& text);
/// --gpu-aware: MPI calls on device pointers (yes), on host copies (no), or
/// as the MPI says it can (auto).
enum class GpuAware { automatic, yes, no };
std::string to_string(GpuAware g);

struct Options {
  std::vector<std::size_t> sizes;  // bytes per block, ascending
  int iterations = 0;              // 0: OSU's default for each size
  int warmup = -1;                 // -1: OSU's default for each size
  bool full = false;
  bool validate = false;
  bool in_place = false;  // MPI_IN_PLACE as the send buffer (--in-place)
  /// --fresh-send: before each iteration, untimed, every rank writes its
  /// input (the send buffer, in place the receive buffer), values unchanged.
  bool fresh_send = false;
  MemKind mem = MemKind::host;
  GpuAware gpu_aware = GpuAware::automatic;
  /// --staging: the host buffers device buffers are copied through.
  Staging staging = Staging::pinned;
  Datatype type;
  /// --op of the reducing collectives (the Offer's ops); nothing elsewhere.
  std::optional<ReduceOp> op;
  std::string csv, json;
  /// --save-iterations FILE: every iteration's total time on every rank (CSV).
  std::string save_iterations;
  std::vector<std::string> algorithms;  // resolved names, in the order given
  LayoutOptions layout;
  /// --gpus-per-node, --procs-per-gpu or --gpu-aware named: the run is about
  /// GPUs even on host memory (the header's "# GPUs:" line).
  bool gpu_run = false;
  std::vector<PhaseMode> phase_modes{PhaseMode::embedded};
  std::vector<int> nodes;             // node counts to run on (first K nodes); empty: all
  int log_level = 3;                  // spdlog level: 0 trace ... 6 off; default warn
  double progress = 30;               // seconds between progress lines on rank 0's stderr; 0: every step
  double timeout = 0;                 // --timeout: seconds a step (one size of one configuration) may take; 0: no limit
  std::size_t sim_shared_malloc = 0;  // simulation build: share host buffers of at least this many bytes (0: off)
  bool sim_local_work = true;         // simulation build: charge local work in simulated time (mcb/local_work.hpp)
  /// --buffers: where the send and receive buffers come from: plain (the
  /// memory backend), registered (mcb::shm_allocate, node-shared) or mixed
  /// (registered on even ranks only, plain on odd ones: the fallback test).
  std::string buffers = "plain";
  /// --counts of the v-forms (the Offer's vcounts); equal elsewhere.
  CountsKind counts = CountsKind::equal;
  Params params;                // as given (lists unexpanded)
  std::vector<Config> configs;  // algorithms x parameter values, in run order
};

/// What parsing decided: run with `options`, or print `output` (help,
/// --list) on rank 0 and exit with `exit_code`.
struct ParseResult {
  Options options;
  std::optional<int> exit_code;
  std::string output;
};

/// What a benchmark offers beyond the options every one has.
struct Offer {
  bool in_place = false;  // --in-place
  /// The element types -T accepts; the first is the default.
  std::vector<std::string> types{"char", "int", "float", "double"};
  /// The operations --op accepts, the default first; empty: no --op.
  std::vector<std::string> ops;
  bool gpus = false;     // --gpus-per-node, --procs-per-gpu, --gpu-aware
  bool buffers = false;  // --buffers plain|registered|mixed
  bool counts = false;   // --counts equal|linear|heavy|zeros
};

/// Parses argv for benchmark `binary` offering `algorithms`. Throws Error
/// with one line for any bad input.
ParseResult parse_options(int argc, const char* const* argv, const std::string& binary,
                          const std::vector<Algorithm>& algorithms, Tool tool = Tool::benchmark,
                          const Offer& offer = {});

/// The configurations of `names`: per algorithm, every combination of the
/// values of its parameters (given, else the default; "a,b" lists, "all" for
/// every choice). Throws Error for a value outside a parameter's choices.
std::vector<Config> expand_configs(const std::vector<Algorithm>& algorithms, const std::vector<std::string>& names,
                                   const std::vector<std::string>& named, const Params& given);

/// "a,b,c" or "MIN:MAX" (doubling) positive integers for option `option`.
std::vector<int> parse_int_list(const std::string& option, const std::string& text);

/// "MIN:MAX" (doubling from MIN, MAX included when reached), "MAX" (from 1),
/// "MIN:" (up to 1 MiB) or a comma-separated list "1,3,1000". Throws Error.
std::vector<std::size_t> parse_sizes(const std::string& text);

/// OSU's defaults: 1000 iterations and 100 warm-up up to 8 KiB, 100 and 10 above.
int default_iterations(std::size_t bytes);
int default_warmup(std::size_t bytes);

/// The --list text: algorithms, their parameters and availability.
std::string list_algorithms(const std::string& binary, const std::vector<Algorithm>& algorithms);

}  // namespace mcb::bench
