// What a benchmark run does around its measurements: who and where it runs
// (the MPI library, the host, the start time, the simulated platform), the
// logger, the layouts it derives (the first N nodes, one process per GPU),
// the checks before the first measurement and the metadata record beside
// each output file.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/options.hpp"
#include "harness/spec.hpp"
#include "mcb/layout.hpp"
#include "mcb/memory.hpp"

namespace mcb::bench {

struct Identity {
  std::string mpi_library, mpi_version, host, start_time, platform = "none";
};

/// The MPI library and version, this host, the simulated platform (or
/// "none") and rank 0's clock as the run's start (collective over comm).
Identity identify(MPI_Comm comm);
/// Whether this MPI takes pointers of `kind` (--gpu-aware auto): host
/// always; device memory as the MPI's own query says, no when it has none.
bool mpi_takes(MemKind kind);
/// Why this MPI must not be handed pointers of `kind` (its own query says it
/// cannot read them: --gpu-aware yes is refused), or "" when it may.
std::string mpi_refuses(MemKind kind);
/// One process per GPU (the first of each): the layout that
/// the algorithms that do not split a GPU's buffers run on. Collective over
/// layout.comm(); the other processes get nullopt.
std::optional<Layout> gpu_leaders(const Layout& layout);
/// The "mcb" logger on stderr at `level`, each line naming the rank (in the
/// simulation build, where the simulated ranks share one process, the
/// calling rank).
void setup_logging(int rank, int level);
/// The ranks of the first `nodes` nodes of `full` as a layout of their own
/// (collective over full.comm(); the other ranks get nullopt).
std::optional<Layout> first_nodes(const Layout& full, int nodes, const LayoutOptions& options);
/// A configuration as progress lines name it: "node_aware inner=pairwise",
/// and the phase mode when the run has both.
std::string progress_label(const Config& config, PhaseMode mode, const Options& opt);
/// The run's metadata record beside each output file (FILE.meta.json), once
/// per run, before the first measurement.
void write_metadata(const CollectiveSpec& spec, const Options& opt, const Layout& layout, const std::string& start,
                    const std::vector<std::string>& command_line);
/// Before the first measurement: every configuration's parameter values
/// against the layout (Algorithm::check, make()'s own messages; a bad value
/// anywhere in a list is an error now, not after the configurations before
/// it ran), and one warning line per parameter given that no selected
/// configuration uses (--radix with --algorithm pairwise), from rank 0.
/// Node counts below the layout's (--nodes) are checked when they run.
void preflight(const CollectiveSpec& spec, const Options& opt, const Layout& layout, int world_rank);

}  // namespace mcb::bench
