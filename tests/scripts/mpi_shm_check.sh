#!/usr/bin/env bash
# scripts/peers/mpi_shm.py's bad input (no run): one line on stderr and
# exit 2 for each.
#   mpi_shm_check.sh PYTHON REPO BUILD MPI
set -uo pipefail
py=$1 repo=$2 build=$3 mpi=$4
script=$repo/scripts/peers/mpi_shm.py
fail=0
check() {
  local want=$1; shift
  local err rc
  err=$("$py" "$script" --mpi-prefix /usr --mpi "$mpi" --build "$build" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 2 || $(wc -l <<<"$err") -ne 1 || ! $err =~ $want ]]; then
    echo "FAIL: mpi_shm.py $*: exit $rc, stderr: $err"; fail=1
  fi
}
check "argument --plain-path: invalid choice: 'foo'" --plain-path foo
check "--collectives: unknown 'bogus'" --collectives bogus
check "--buffers: unknown 'shared'" --buffers shared
check "/nonexistent/src/mcb_gather: not built" --collectives gather --build /nonexistent
[[ $fail -eq 0 ]] && echo "mpi_shm_check: ok"
