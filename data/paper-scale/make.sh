#!/usr/bin/env bash
# Regenerates the paper-scale data of data/paper-scale/ by simulation
# (SimGrid SMPI, the simulation build): scripts/sim/paper_scale.py run, which
# has the list of simulations, their parts and models, -j, resuming and the
# Slurm job array. Simulated times are a model's, not the machines': see
# docs/simulation.md.
#
#   data/paper-scale/make.sh [PART...] [-- DRIVER OPTIONS]   # parts: tra, locality, nodes, sparbit (default: tra)
#   data/paper-scale/make.sh sparbit -- --models shm -j 2
#   MCB_BIN=build-sim/src                                      # the simulation build's binaries (default)
set -euo pipefail
cd "$(dirname "$0")/../.."
parts=()
while [[ $# -gt 0 && $1 != -- ]]; do parts+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
((${#parts[@]})) || parts=(tra)
build=$(dirname "${MCB_BIN:-$PWD/build-sim/src}")
exec /usr/bin/python3 scripts/sim/paper_scale.py run --build "$build" --parts "$(IFS=,; echo "${parts[*]}")" "$@"
