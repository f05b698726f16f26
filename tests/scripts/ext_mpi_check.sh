#!/usr/bin/env bash
# scripts/peers/ext_mpi.sh without ext_mpi (CI has none): its bad input
# refused with one line on stderr and exit 2, and its driver compiling
# cleanly against the MPI under test (ext_mpi provides the MPI-4 _init
# functions at link time: compiled only).
#   ext_mpi_check.sh REPO MPICC
set -uo pipefail
repo=$1 mpicc=$2
script=$repo/scripts/peers/ext_mpi.sh
fail=0
check() {
  local want=$1; shift
  local err rc
  err=$("$script" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 2 || $(wc -l <<<"$err") -ne 1 || ! $err =~ $want ]]; then
    echo "FAIL: ext_mpi.sh $*: exit $rc, stderr: $err"; fail=1
  fi
}
check "missing DIR"
check "/nonexistent: no such directory" /nonexistent
check "unknown collective 'foo'" /nonexistent --collectives foo
check "unknown collective 'bogus'" /nonexistent --collectives allreduce,bogus
check "--reps 0: expected a positive integer" /nonexistent --reps 0
check "--sizes: 6 is not a multiple of 4" /nonexistent --sizes 6
check "unknown option --frobnicate" /nonexistent --frobnicate
out=$("$mpicc" -fsyntax-only -Wall -Wextra -Werror "$repo/scripts/peers/ext_mpi_driver.c" 2>&1) ||
  { echo "FAIL: ext_mpi_driver.c does not compile with $mpicc: $out"; fail=1; }
[[ $fail -eq 0 ]] && echo "ext_mpi_check: ok"
