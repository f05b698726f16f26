#!/usr/bin/env bash
# Run by ci/with-slurm.sh (test sim_paper_scale_slurm): the paper-scale set's
# driver as a Slurm job array, on its small set (yahoo-16x8 and its -shm
# twin, 5 and 8 ranks, 1-4 B) in a scratch root: 1. submitted and waited
# for, every point's CSV there and gzipped, the Sparbit cells merged;
# 2. submitted again, every task finds its point done (resumable); 3. one
# point's files removed, `run` locally redoes that one only.
#   paper_scale_slurm.sh SCRIPTS_DIR BUILD_DIR
set -euo pipefail
scripts=$1 build=$2
root=$(mktemp -d /tmp/mcb-paper-scale.XXXXXX)
trap 'rm -rf "$root"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
driver=(/usr/bin/python3 "$scripts/sim/paper_scale.py")
sel=(--small --models costs,shm --root "$root" --build "$build")
cd "$root"
echo "== the array"
"${driver[@]}" slurm "${sel[@]}" --time 5 --submit --wait || { cat "$root"/mcb-paper-scale-*.out; fail "the array failed"; }
cat "$root"/mcb-paper-scale-*.out
n=$(find "$root/data/paper-scale" -name 'allgather_sparbit-*-run1.csv.gz' | wc -l)
((n == 8)) || fail "$n CSV files from the array, expected 8 (block and cyclic, 5 and 8 ranks, on 2 platforms)"
[[ $(wc -l < "$root/data/paper-scale/walltimes.tsv") -eq 4 ]] || fail "walltimes.tsv: not 4 points"
"${driver[@]}" merge "${sel[@]}"
for p in yahoo-16x8 yahoo-16x8-shm; do
  [[ -s $root/data/paper-scale/sparbit-$p/allgather_sparbit-cells.csv ]] || fail "no merged cells for $p"
done
echo "== again: every point done"
rm -f "$root"/mcb-paper-scale-*.out
"${driver[@]}" slurm "${sel[@]}" --time 5 --submit --wait || fail "the second array failed"
cat "$root"/mcb-paper-scale-*.out
[[ $(grep -h "points to run" "$root"/mcb-paper-scale-*.out | grep -c "^\[paper_scale\] 0 of 1 points") -eq 4 ]] ||
  fail "the second array ran points again"
echo "== one point removed, run locally"
rm "$root/data/paper-scale/sparbit-yahoo-16x8-shm/allgather_sparbit-block-n5-run1.csv.gz"
"${driver[@]}" run "${sel[@]}" | tee "$root/local.out"
grep -q "^\[paper_scale\] 1 of 4 points to run" "$root/local.out" || fail "run did not resume with the one point"
grep -q "sparbit-yahoo-16x8-shm/n5: done in" "$root/local.out" || fail "the removed point was not run"
echo "paper_scale: the array ran, resumed and merged"
