#!/usr/bin/env bash
# scripts/measure/interface_parity.py on this build: one launch of one cell (a row
# per cell, both interfaces timed), and its bad input refused with one line
# on stderr and exit 2.
#   interface_parity_check.sh PYTHON REPO BUILD MPI OUT
set -uo pipefail
py=$1 repo=$2 build=$3 mpi=$4 out=$5
script=$repo/scripts/measure/interface_parity.py
fail=0
rm -rf "$out" && mkdir -p "$out"
if ! "$py" "$script" --build "$build" --mpi "$mpi" --launches 1 -m 64 --collectives allreduce --buffers plain \
    --out "$out/run" >"$out/stdout" 2>"$out/stderr"; then
  echo "FAIL: one launch: exit $?, stderr: $(tail -3 "$out/stderr")"; fail=1
elif ! grep -Eq '^allreduce +plain +64 B +[0-9.]+ \[' "$out/run/report.txt" ||
    [[ $(wc -l <"$out/run/runs.csv") -ne 2 ]]; then
  echo "FAIL: one launch: report or runs.csv not as expected"; cat "$out/run/report.txt"; fail=1
fi
source "$(dirname "$0")/refusal.sh"  # check REGEX ARGS...
check "--collectives alltoall: expected some of allreduce,reduce,bcast" --collectives alltoall
check "--launches: at least 1" --launches 0
check "-m 4,x: expected sizes in bytes" -m 4,x
check "--buffers gpu: expected plain, registered or both" --buffers gpu
check "--allreduce ring: expected shm_recursive_exchange, shm_tree or shm_cyclic_shift" --allreduce ring
err=$("$py" "$script" --build /nonexistent --mpi "$mpi" --launches 1 -m 4 --collectives bcast --buffers plain 2>&1 >/dev/null)
rc=$?
[[ $rc -eq 2 && $err =~ "/nonexistent/src/mcb_bcast: not built" ]] || { echo "FAIL: a missing build: exit $rc, $err"; fail=1; }
[[ $fail -eq 0 ]] && echo "interface_parity_check: ok"
