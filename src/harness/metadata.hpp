// The environment of a run, recorded once per run beside its CSV and JSON
// (FILE.meta.json, docs/running.md: Run metadata): the command line, mcb's version,
// git commit, compiler and flags, the MPI library string, the MPI-related
// environment variables, where every rank ran (host and CPU binding, from
// hwloc), the CPU model, cores, NUMA domains and caches of rank 0's node,
// and the memory kind. scripts/compare/compare.py prints what differs between two
// runs' records before it compares their timings.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "mcb/layout.hpp"

namespace mcb::bench {

/// The prefixes of the environment variables recorded (OMPI_MCA_, UCX_, ...).
const std::vector<std::string>& recorded_env_prefixes();

/// Collective over layout.comm(). On rank 0 the record as one JSON object
/// (pretty-printed, ending in a newline); "" on the other ranks.
std::string run_metadata(const std::string& binary, const std::vector<std::string>& command_line,
                         const std::string& mpi_library_string, const std::string& start_time, const std::string& mem,
                         const Layout& layout);

/// The sidecar path of an output file: FILE.meta.json.
std::string metadata_path(const std::string& output);

/// What --version prints: mcb's version and git commit (at configure time),
/// the MPI library string, the compiled memory backends, hwloc, the compiler.
std::string version_text(const std::string& binary);

}  // namespace mcb::bench
