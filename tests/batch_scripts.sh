#!/usr/bin/env bash
# Test of the figure scripts (scripts/batch/*.sbatch, scripts/batch/batch.sh) outside Slurm:
#   1. every script, dry run (MCB_DRY_RUN=1) on 2 virtual nodes of 4 ranks:
#      exits 0 and announces as many launches as it makes;
#   2. bad shapes: one line and exit 2, nothing launched;
#   3. one real small run of tra_compare.sbatch and of tra_model.sh, whose CSV
#      files must hold validated rows.
#   batch_scripts.sh ROOT BIN
set -uo pipefail
root=$1 bin=$2
work=$(mktemp -d /tmp/mcb-batch-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export MCB_BIN=$bin MCB_RESULTS=$work/results
for script in "$root"/scripts/batch/*.sbatch; do
  name=$(basename "$script" .sbatch)
  out=$(MCB_DRY_RUN=1 MCB_NODES=2 MCB_RANKS_PER_NODE=4 MCB_GPUS_PER_NODE=2 "$script" 2>&1) || {
    fail "$name: dry run exited $?: $out"; continue; }
  launches=$(grep -c "^\[$name\] run [0-9]*/[0-9]*: " <<<"$out")
  last=$(grep -o "^\[$name\] run [0-9]*/[0-9]*: " <<<"$out" | tail -n 1)
  [[ $launches -ge 1 && $last == "[$name] run $launches/$launches: " ]] ||
    fail "$name: $launches launches, the last announced as '$last'"
  echo "ok: $name, dry run: $launches launches"
done
bad() {  # bad EXPECTED_TEXT VAR=VALUE... SCRIPT
  local want=$1
  shift
  out=$(env MCB_DRY_RUN=1 "$@" 2>&1)
  rc=$?
  [[ $rc -eq 2 && $(wc -l <<<"$out") -eq 1 && $out == *"$want"* ]] || { fail "$*: exit $rc, output: $out"; return; }
  echo "ok: bad input $*: $out"
}
bad "MCB_NODES=0: expected a positive integer" MCB_NODES=0 "$root/scripts/batch/alltoall_sizes.sbatch"
bad "MCB_RANKS_PER_NODE=x: expected a positive integer" MCB_RANKS_PER_NODE=x "$root/scripts/batch/alltoall_sizes.sbatch"
bad "MCB_LAUNCHER=mpirun: expected srun ..., local or sim:PLATFORM" MCB_LAUNCHER=mpirun "$root/scripts/batch/tra_compare.sbatch"
bad "the ping-pong needs 2 nodes" MCB_NODES=1 "$root/scripts/batch/pingpong_ppg.sbatch"
bad "do not split evenly among 3 GPUs" MCB_GPUS_PER_NODE=3 "$root/scripts/batch/allreduce_ppg.sbatch"
bad "MCB_SYSTEM=a/b: letters, digits" MCB_SYSTEM=a/b "$root/scripts/batch/alltoall_systems.sbatch"
bad "MCB_PROCS: 99 is more than the 8 ranks" MCB_PROCS=5,99 "$root/scripts/batch/allgather_sparbit.sbatch"
bad "MCB_SIM_TIMEOUT=1h: expected a positive integer" MCB_SIM_TIMEOUT=1h "$root/scripts/batch/tra_radix.sbatch"
# The simulation's time limit reaches simulate.py (every sim: launch).
out=$(MCB_DRY_RUN=1 MCB_LAUNCHER=sim:yahoo-16x8 MCB_SIM_TIMEOUT=86400 MCB_PROCS=5 "$root/scripts/batch/allgather_sparbit.sbatch" 2>&1)
[[ $(grep -c -- "--timeout 86400 --launch" <<<"$out") -eq 2 ]] || fail "MCB_SIM_TIMEOUT not passed to simulate.py: $out"
# A real run, small: 2 virtual nodes of 2 ranks, validated.
MCB_NODES=2 MCB_RANKS_PER_NODE=2 MCB_SIZES=16,64 MCB_ARGS="-i 2 -x 0" MCB_LAUNCHER=local \
  "$root/scripts/batch/tra_compare.sbatch" >"$work/run.out" 2>&1 || fail "tra_compare.sbatch: exit $?: $(tail -5 "$work/run.out")"
csv=$work/results/tra_compare-N2-n4-run1.csv
rows=$(grep -c ",total," "$csv" 2>/dev/null)
passed=$(grep ",total," "$csv" 2>/dev/null | grep -c ",pass,")
# system, tra, tra2 on 1 and 2 nodes, 2 sizes: 12 validated rows.
[[ $rows -eq 12 && $passed -eq 12 ]] || fail "tra_compare.sbatch: $passed of $rows total rows pass in $csv"
grep -q "^\[tra_compare\] run 1/1 done; elapsed [0-9]*s, ETA 0s" "$work/run.out" || fail "tra_compare.sbatch: no progress line"
"$root/scripts/batch/tra_model.sh" 64,128 2>/dev/null && [[ $(grep -c "^tra,128," "$work/results/tra_model.csv") -ge 100 ]] ||
  fail "tra_model.sh: no sweep in $work/results/tra_model.csv"
echo "batch scripts: $fails failures"
exit $((fails > 0))
