#!/usr/bin/env bash
# Run by ci/with-slurm.sh (test slurm_srun_sbatch): mcb as users run it under
# Slurm. 1. srun -n 8 of mcb_alltoall, validated; 2. sbatch --wait of the
# figure script scripts/batch/alltoall_sizes.sbatch, unchanged, with a tiny size
# range, checking its log and its CSV.
#   slurm_check.sh openmpi|mpich BINDIR YIELD_SHIM
set -euo pipefail
flavor=$1 bin=$2 shim=$3
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/mcb-slurm-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [[ $flavor == mpich ]]; then
  export MCB_LAUNCHER="srun --mpi=pmi2"
  # MPICH never yields: with more ranks than cores it needs the shim.
  export LD_PRELOAD=$shim
else
  export MCB_LAUNCHER="srun --mpi=pmix"
fi
fail() { echo "FAIL: $*"; exit 1; }

echo "== $MCB_LAUNCHER -n 8 mcb_alltoall"
$MCB_LAUNCHER -n 8 "$bin/mcb_alltoall" -c -m 1,64 -i 2 -x 0 --algorithm pairwise,node_aware --inner pairwise \
  --ranks-per-node 4 | tee "$work/srun.out"
grep -q "^# ranks: 8, nodes: 2, ranks per node: 4" "$work/srun.out" || fail "srun: not 8 ranks on 2 nodes"
rows=$(grep -cE "^[0-9]+ .* pass" "$work/srun.out" || true)
[[ $rows -eq 4 ]] || fail "srun: $rows validated rows, expected 4"
grep -qE "^[0-9]+ .* fail" "$work/srun.out" && fail "srun: validation failed"

echo "== sbatch --wait scripts/batch/alltoall_sizes.sbatch"
export MCB_BIN=$bin MCB_RESULTS=$work/results MCB_SIZES=4:8 MCB_RUNS=1 MCB_ARGS="-i 2 -x 0" MCB_RANKS_PER_NODE=4
(cd "$work" && sbatch --wait -N 1 --ntasks-per-node=8 -t 5 -o "$work/job.out" "$here/scripts/batch/alltoall_sizes.sbatch") ||
  { cat "$work/job.out" 2>/dev/null; fail "sbatch: the job failed"; }
cat "$work/job.out"
grep -q "\[alltoall_sizes\] run 1/1 done" "$work/job.out" || fail "sbatch: the job did not finish its run"
csv=$work/results/alltoall_sizes-N2-n8-run1.csv
[[ -s $csv ]] || fail "sbatch: no CSV $csv"
# system, system_persistent?, pairwise, nonblocking, bruck, tra, tra2 and the
# family with two inners: every total row validated, at both sizes.
totals=$(grep -c ",total," "$csv" || true)
passed=$(grep ",total," "$csv" | grep -c ",pass," || true)
[[ $totals -ge 20 && $totals -eq $passed ]] || fail "sbatch: $passed of $totals total rows pass in $csv"
echo "slurm: srun and sbatch runs validated ($passed configurations x sizes from the batch script)"
