#!/usr/bin/env bash
# Test of scripts/measure/osu_parity.py without OSU: a stand-in osu_alltoall,
# osu_allgather, osu_allreduce, osu_reduce and osu_bcast (osu_standin.c, an MPI program: rank 0
# prints OSU's -f table for the -m range, every latency 1e6 us) beside the
# real mcb binaries. mcb is then about 1e-6 x "OSU": the script must print
# every size of each collective, the five summary lines saying OUTSIDE, and
# exit 1; and refuse bad input with one line and exit 2.
#   check.sh PYTHON SOURCE_DIR BUILD_DIR MPI_FLAVOR WORK_DIR STANDIN
set -uo pipefail
py=$1 src=$2 build=$3 mpi=$4 work=$5 standin=$6
rm -rf "$work" && mkdir -p "$work/osu"
for c in alltoall allgather allreduce reduce bcast; do
  ln -s "$standin" "$work/osu/osu_$c"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out=$("$py" "$src/scripts/measure/osu_parity.py" --osu "$work/osu" --build "$build" --mpi "$mpi" --bind none -m 1:16 --runs 2 2>&1)
rc=$?
echo "$out"
[[ $rc == 1 ]] || fail "exit $rc with mcb far from the stand-in, expected 1"
for c in alltoall allgather bcast; do
  for s in 1 2 4 8 16; do
    grep -Eq "^$c +$s +1000000\.00 " <<<"$out" || fail "no $c row at $s B"
  done
done
for c in allreduce reduce; do
  for s in 4 8 16; do grep -Eq "^$c +$s +1000000\.00 " <<<"$out" || fail "no $c row at $s B"; done
  grep -Eq "^$c +[12] " <<<"$out" && fail "$c below 4 B (float)"
done
for c in alltoall allgather allreduce reduce bcast; do
  grep -q "^# $c: geometric mean mcb/OSU 0.000.*OUTSIDE the targets" <<<"$out" || fail "no OUTSIDE summary for $c"
  grep -q "^# $c: noise floor, OSU's even runs / odd runs: geometric mean 1.000, worst 1.000; noisy sizes .*: none" \
    <<<"$out" || fail "no noise floor line for $c (the stand-in agrees with itself)"
done

bad() {  # bad EXPECTED ARGS...
  local expected=$1; shift
  local o; o=$("$py" "$src/scripts/measure/osu_parity.py" "$@" 2>&1); local r=$?
  [[ $r == 2 && $(wc -l <<<"$o") == 1 && $o == *"$expected"* ]] || fail "$* -> exit $r: $o (expected one line with '$expected', exit 2)"
}
bad "no executable osu_alltoall under $work/nowhere" --osu "$work/nowhere" --build "$build"
bad "--collectives scan: expected one of alltoall, allgather, allreduce, reduce, bcast, reduce_scatter_block" --osu "$work/osu" --build "$build" --collectives scan
bad "-m 1k: expected MIN:MAX or MAX in bytes" --osu "$work/osu" --build "$build" -m 1k
bad "not found (build mcb first" --osu "$work/osu" --build "$work/nobuild"
bad "--runs must be at least 1" --osu "$work/osu" --build "$build" --runs 0
bad "--mpi-prefix $work/noprefix: no bin/mpiexec there" --osu "$work/osu" --build "$build" --mpi-prefix "$work/noprefix"
echo "osu_parity check: $failures failures"
exit $((failures > 0))
