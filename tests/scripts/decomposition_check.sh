#!/usr/bin/env bash
# scripts/peers/decomposition.py on this build: one run of two sizes (a row
# per size, ratios in the CSV), and its bad input refused with one line on
# stderr and exit 2.
#   decomposition_check.sh PYTHON REPO BUILD MPI OUT
set -uo pipefail
py=$1 repo=$2 build=$3 mpi=$4 out=$5
script=$repo/scripts/peers/decomposition.py
fail=0
rm -rf "$out" && mkdir -p "$out"
if ! "$py" "$script" --build "$build" --mpi "$mpi" -m 4096:8192 --runs 1 --csv "$out/d.csv" >"$out/stdout" 2>"$out/stderr"
then
  echo "FAIL: one run: exit $?, stderr: $(tail -3 "$out/stderr")"; fail=1
elif [[ $(grep -Ec '^ +(4096|8192)( +[0-9]+\.[0-9]+){4} +[0-9.]+-[0-9.]+$' "$out/stdout") -ne 2 ]] ||
    [[ $(grep -Ec '^(4096|8192),plain,.*,in-place$' "$out/d.csv") -ne 2 ]]; then
  echo "FAIL: one run: table or CSV not as expected"; cat "$out/stdout" "$out/d.csv"; fail=1
fi
source "$(dirname "$0")/refusal.sh"  # check REGEX ARGS...
check "--runs: at least 1" --runs 0
check "argument --allgather: invalid choice: 'sideways'" --allgather sideways
check "-m 4: expected 8 <= MIN <= MAX" -m 4
check "-m big: expected MIN:MAX bytes" -m big
check "/nonexistent/src/mcb_reduce_scatter_block: not built" --build /nonexistent
[[ $fail -eq 0 ]] && echo "decomposition_check: ok"
