#!/usr/bin/env bash
# scripts/preload/mpich_coll_tests.py on this build, against a stand-in of
# MPICH's test/mpi (its layout and mtest entry points, one gather program of
# our own: the script builds, runs and reads reports as with MPICH's tree,
# which CI does not fetch), and its bad input refused with one line on
# stderr and exit 2.
#   mpich_coll_tests_check.sh PYTHON REPO BUILD MPI OUT
set -uo pipefail
py=$1 repo=$2 build=$3 mpi=$4 out=$5
script=$repo/scripts/preload/mpich_coll_tests.py
fail=0
rm -rf "$out" && mkdir -p "$out"/src/test/mpi/{coll,util,include}
t=$out/src/test/mpi
cat >"$t/include/mpitest.h" <<'H'
#include "mpitestconf.h"
#include <mpi.h>
void MTest_Init(int *argc, char ***argv);
void MTest_Finalize(int errs);
H
cat >"$t/util/mtest.c" <<'C'
#include <stdio.h>
#include "mpitest.h"
void MTest_Init(int *argc, char ***argv) { MPI_Init(argc, argv); }
void MTest_Finalize(int errs) {
  int rank, all = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? " Found %d errors\n" : " No Errors\n", all);
  MPI_Finalize();
}
C
: >"$t/util/mtest_common.c"
: >"$t/util/mtest_single.c"
cat >"$t/coll/gather.c" <<'C'
#include <stdlib.h>
#include "mpitest.h"
int main(int argc, char **argv) {
  int rank, p, errs = 0;
  MTest_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int root = 0; root < p; ++root) {
    int mine[3] = {rank, 2 * rank, 3 * rank}, *all = malloc(sizeof(int) * 3 * p);
    MPI_Gather(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD);
    for (int i = 0; rank == root && i < 3 * p; ++i) errs += all[i] != (i % 3 + 1) * (i / 3);
    free(all);
  }
  MTest_Finalize(errs);
  return 0;
}
C
if ! "$py" "$script" --mpich-src "$out/src" --mpi "$mpi" --build "$build" --work "$out/work" --tests gather \
    >"$out/stdout" 2>"$out/stderr"; then
  echo "FAIL: the stand-in's gather: exit $?"; cat "$out/stdout" "$out/stderr"; fail=1
elif [[ $(grep -Ec '^gather +4 +(plain|shm|classic|system) +No Errors' "$out/stdout") -ne 4 ]] ||
    ! grep -Eq '^gather +4 +shm +No Errors +MPI_Gather 4/4' "$out/stdout"; then
  echo "FAIL: the stand-in's gather: table not as expected"; cat "$out/stdout"; fail=1
fi
check() {
  local want=$1; shift
  local err rc
  err=$("$py" "$script" --mpi "$mpi" --build "$build" --work "$out/work" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 2 || $(wc -l <<<"$err") -ne 1 || ! $err =~ $want ]]; then
    echo "FAIL: $(basename "$script") $*: exit $rc, stderr: $err"; fail=1
  fi
}
check "--mpich-src /nonexistent: no test/mpi/coll there" --mpich-src /nonexistent
check "--tests: unknown program 'bcast'" --mpich-src "$out/src" --tests bcast
check "--sets: unknown set 'fast'" --mpich-src "$out/src" --sets fast
check "/nonexistent/src/preload/libmcb_preload.so: not built" --mpich-src "$out/src" --build /nonexistent
[[ $fail -eq 0 ]] && echo "mpich_coll_tests_check: ok"
