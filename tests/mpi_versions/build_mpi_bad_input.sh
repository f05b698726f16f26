#!/usr/bin/env bash
# scripts/mpi/build-mpi.sh's bad input (no network, nothing built): one line
# on stderr and exit 2 for a missing NAME, an unknown MPI, an unknown option,
# --with-cuda for MPICH and a CUDA directory without cuda.h.
#   build_mpi_bad_input.sh REPO
set -uo pipefail
script=$1/scripts/mpi/build-mpi.sh
fail=0
check() {  # check REGEX ARGS...
  local want=$1; shift
  local err rc
  err=$(WORK=$(mktemp -d) "$script" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 2 || $(wc -l <<<"$err") -ne 1 || ! $err =~ $want ]]; then
    echo "FAIL: build-mpi.sh $*: exit $rc, stderr: $err"; fail=1
  fi
}
check "usage: build-mpi.sh"
check "unknown MPI 'openmpi-9'" openmpi-9
check "unknown option --fast" openmpi-5.0.7 /tmp/x --fast
check "--with-cuda is for Open MPI only" mpich-4.2.1 /tmp/x --with-cuda
check "no /nonexistent/include/cuda.h" openmpi-5.0.7 /tmp/mcb-no-such-prefix --with-cuda=/nonexistent
[[ $fail -eq 0 ]] && echo "build_mpi_bad_input: ok"
