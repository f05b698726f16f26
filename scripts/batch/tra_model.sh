#!/usr/bin/env bash
# alltoall-tunable-radix-tra, Figure 4 ("Mathematical simulation"): rounds K
# and data blocks D of the tunable-radix alltoall for every radix r from 2 to
# P, P = 1024, 2048, 4096 and 8192 (Propositions 3-4). No MPI run: the model
# only. Writes tra_model.csv into the results directory.
# Plot: plots/tra_fig04.py.
#
#   scripts/batch/tra_model.sh [P_LIST]     # default 1024,2048,4096,8192
#   MCB_BIN, MCB_RESULTS as in scripts/batch/batch.sh
set -euo pipefail
submit=${SLURM_SUBMIT_DIR:-$PWD}
bin=${MCB_BIN:-$submit/build/src}
results=${MCB_RESULTS:-$submit/results}
[[ -x $bin/mcb_tra_model ]] || { echo "tra_model: $bin/mcb_tra_model not found (set MCB_BIN)" >&2; exit 2; }
mkdir -p "$results"
"$bin/mcb_tra_model" --ranks "${1:-1024,2048,4096,8192}" --sweep --csv "$results/tra_model.csv" >/dev/null
echo "tra_model: wrote $results/tra_model.csv" >&2
