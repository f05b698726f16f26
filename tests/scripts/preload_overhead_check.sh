#!/usr/bin/env bash
# scripts/preload/preload_overhead.py on this build: two runs of one size
# (a row with the three modes, the differences and the noise; every launch
# in the CSV), and its bad input refused with one line on stderr and exit 2.
#   preload_overhead_check.sh PYTHON REPO BUILD MPI OUT
set -uo pipefail
py=$1 repo=$2 build=$3 mpi=$4 out=$5
script=$repo/scripts/preload/preload_overhead.py
fail=0
rm -rf "$out" && mkdir -p "$out"
if ! "$py" "$script" --build "$build" --mpi "$mpi" --runs 2 -m 8:8 -i 200 --in-place --collectives allreduce \
    --csv "$out/runs.csv" >"$out/stdout" 2>"$out/stderr"; then
  echo "FAIL: two runs: exit $?, stderr: $(tail -3 "$out/stderr")"; fail=1
elif ! grep -Eq '^allreduce +8( +-?[0-9]+\.[0-9]{3}){7}$' "$out/stdout" ||
    ! grep -q 'medians over 2 interleaved runs' "$out/stdout" ||
    [[ $(grep -c ",allreduce,1," "$out/runs.csv") -ne 6 ]]; then
  echo "FAIL: two runs: table or runs.csv not as expected"; cat "$out/stdout" "$out/runs.csv"; fail=1
fi
source "$(dirname "$0")/refusal.sh"  # check REGEX ARGS...
check "--collectives bcast: expected alltoall, allgather or allreduce" --collectives bcast
check "--in-place: alltoall has no in-place form" --in-place --collectives alltoall
check "--runs: at least 1" --runs 0
mkdir -p "$out/no-binaries/src/preload" && : >"$out/no-binaries/src/preload/libmcb_preload.so"
check "no-binaries/src/mcb_allreduce: not built" --collectives allreduce --build "$out/no-binaries"
check "--mpi-prefix /nonexistent: neither bin/ompi_info" --mpi-prefix /nonexistent
err=$("$py" "$script" --build /nonexistent --mpi "$mpi" --runs 1 2>&1 >/dev/null)
rc=$?
[[ $rc -eq 2 && $err =~ "/nonexistent/src/preload/libmcb_preload.so not found" ]] ||
  { echo "FAIL: a missing build: exit $rc, $err"; fail=1; }
[[ $fail -eq 0 ]] && echo "preload_overhead_check: ok"
