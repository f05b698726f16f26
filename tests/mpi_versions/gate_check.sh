#!/usr/bin/env bash
# scripts/mpi/upgrade_gate.py on this build twice (--labels a,b): both sides
# run every benchmark at 2 ranks bound, interleaved, the CSVs and their
# metadata land in OUT/a and OUT/b, compare.py's report.txt and report.html
# are written and its exit status is the script's (0 or 1: timings on a
# shared machine may flag a row, never 2); bad input is refused in one line.
#   gate_check.sh PYTHON REPO BUILD OUT
set -uo pipefail
py=$1 repo=$2 build=$3 out=$4
gate=$repo/scripts/mpi/upgrade_gate.py
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out"
"$py" "$gate" "$build" "$build" "$out" --labels a,b --reps 2 --max-size 4 --benchmarks bcast,pingpong,allreduce
rc=$?
[[ $rc -eq 0 || $rc -eq 1 ]] || fail "upgrade_gate exit $rc, expected 0 or 1"
for side in a b; do
  for bench in bcast pingpong allreduce; do
    for r in 1 2; do
      [[ -s $out/$side/$bench-r$r.csv && -s $out/$side/$bench-r$r.csv.meta.json ]] ||
        fail "$out/$side/$bench-r$r.csv or its metadata missing"
    done
  done
done
[[ $(grep -cE -- ' --?bind-to core ' "$out/commands.txt") -eq 12 ]] || fail "commands.txt: not 12 launches bound to cores"
# Interleaved: repetition 2 starts with b.
[[ $(sed -n 7p "$out/commands.txt") == *"-r2.csv"* && $(sed -n 7p "$out/commands.txt") == *"side1"* ]] ||
  fail "repetition 2 does not start with the second build: $(sed -n 7p "$out/commands.txt")"
grep -q '^bcast *system' "$out/report.txt" || fail "report.txt has no bcast system row"
grep -q '<html' "$out/report.html" || fail "no report.html"
msg=$("$py" "$gate" "$build" "$build" "$out.same" --reps 1 --max-size 1 --benchmarks bcast 2>&1)
[[ $? -ne 0 && $msg == *"nothing to compare"* ]] || fail "the same MPI on both sides was not refused: $msg"
msg=$("$py" "$gate" "$build" /nonexistent "$out.bad" 2>&1)
[[ $? -ne 0 && $msg == *"no CMakeCache.txt"* && $(wc -l <<<"$msg") -eq 1 ]] || fail "a missing build: $msg"
msg=$("$py" "$gate" "$build" "$build" "$out.bad" --labels a,a 2>&1)
[[ $? -ne 0 && $msg == *"two different names"* ]] || fail "--labels a,a: $msg"
echo "gate_check: ok"
