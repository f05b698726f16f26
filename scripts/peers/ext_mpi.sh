#!/usr/bin/env bash
# ext_mpi.sh DIR: mcb's copy-in shared-memory collectives against the
# multi-radix paper's own library, eth-cscs/ext_mpi_collectives, from a
# checkout (or bare clone) DIR that the user provides. Nothing of ext_mpi is
# in mcb: its sources are copied into a scratch folder under /tmp, built
# there without XPMEM (its copy-in methods only) with a driver written here
# (scripts/peers/ext_mpi_driver.c), and removed at the end.
#
# --collectives LIST (default allreduce; `all` for the six):
#   allreduce: ext_mpi '9;1 -R R' (recursive exchange, copy-in) and
#     '8;1 -R R' (cyclic shift, copy-in), MPI_Allreduce_init, vs mcb
#     shm_recursive_exchange and shm_cyclic_shift --factors=-R,R --copy copy-in;
#   reduce_scatter_block: ext_mpi '9;1 -R R' through
#     MPI_Reduce_scatter_block_init (on one node ext_mpi's copy-in methods,
#     8 and up, are one schedule: every rank copies its vector in, then sums
#     its part from every rank's copy; the factors are unused) vs mcb
#     shm_recursive_exchange --factors=-R --copy copy-in;
#   allgather, allgatherv: ext_mpi's MPI_Allgather_init / MPI_Allgatherv_init
#     (no method key: its one shared-memory schedule on one node) vs mcb
#     shm_recursive_exchange --factors=R --copy copy-in;
#   gatherv, scatterv (root 0): ext_mpi's MPI_Gatherv_init /
#     MPI_Scatterv_init (shared memory) vs mcb's linear and binomial, which
#     are point-to-point: mcb has no shared-memory gatherv or scatterv.
#   The v-forms take equal counts (OSU's): ext_mpi ignores displs (it lays
#   the blocks out back to back). Float elements, sum for the reductions.
#
#   timed (default): --ranks ranks R bound to cores, --reps interleaved
#     repetitions (which goes first alternates) of one ext_mpi launch (every
#     collective, persistent: MPI_<Coll>_init + MPI_Start/MPI_Wait) and one mcb
#     launch per collective, mcb's shared-memory algorithms with --interface
#     persistent and blocking; OSU's average latency, median per size over the
#     repetitions, ratio mcb / ext_mpi, one table per collective.
#   --check: ext_mpi's methods validated at oversubscribed rank counts (the
#     timings of those runs mean nothing): the allreduce alone at 4, 8 and 16,
#     with the other collectives at 3, 4 and 8 (--check-ranks).
#
# ext_mpi's MPI_Init creates a 2 GiB System V segment per rank (shmget,
# IPC_PRIVATE) and touches all of it; only its MPI_Finalize removes it. A
# killed or failed run would leave it behind and hold the memory, so every
# segment created by a rank of ours (the driver records its pids) is removed
# after every run, on any exit, Ctrl-C and timeouts included, once any rank
# that outlived its mpirun (orphaned after a timeout) has been killed.
# `ext_mpi.sh --cleanup` removes such segments left by a run that was itself
# killed with SIGKILL.
#
# Exit status: 0 done, 1 a validation failed or a run or build failed,
# 2 bad usage, a missing DIR, a DIR that is not ext_mpi, a missing tool.
set -uo pipefail

prog=ext_mpi.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
POOL_BYTES_DEFAULT=2147483648  # ext_mpi's pool per rank (EXT_MPI_Init_native)

usage() {
  cat <<EOF
usage: $prog DIR [--collectives LIST] [--sizes B,B,...] [--reps N] [--ranks N] [--check]
                 [--check-ranks N,N,...] [--iterations N] [--warmup N] [--csv FILE] [--mcb-build DIR]
                 [--pool-mib N] [--run-timeout S] [--keep]
       $prog --cleanup
  DIR             an ext_mpi_collectives checkout or bare clone (its HEAD is used)
  --collectives   comma-separated: allreduce (default), reduce_scatter_block, allgather, allgatherv,
                  gatherv, scatterv; or all
  --sizes         sizes in bytes, multiples of 4, as mcb's -m: the vector for allreduce and
                  reduce_scatter_block, a rank's block for the others (timed: 1 KiB to 64 MiB, powers
                  of 4; --check: 4,60,1024,4100,65536,1048580)
  --reps          interleaved repetitions (default 5)
  --ranks         ranks of the timed comparison, bound to cores (default 2); factors -R,R
  --check         validate ext_mpi's methods at --check-ranks oversubscribed ranks instead of timing
                  (default 4,8,16 for the allreduce alone, 3,4,8 with any other collective)
  --iterations, --warmup
                  timed and warm-up iterations per size (default OSU's: 1000/100, 100/10 above 8 KiB;
                  --check: 2/1)
  --csv FILE      write every run's rows and the medians (timed)
  --mcb-build DIR mcb's build whose src/mcb_<collective> are compared (default $repo/build-gate-openmpi)
  --pool-mib N    cut ext_mpi's shared pool to N MiB per rank in the scratch copy (default: 2048, as
                  shipped, when timing; with --check enough for the sizes, as 16 ranks x 2 GiB do not fit)
  --run-timeout S limit of each mpirun, seconds (default 1800)
  --keep          keep the scratch folder
  --cleanup       only remove System V segments left by ext_mpi runs that were killed (yours, mode 600,
                  ext_mpi's pool size: 2 GiB, or --pool-mib N; creator gone)
environment: MPICC (default mpicc), MPIRUN (default mpirun), PYTHON (default /usr/bin/python3)
EOF
}

fail2() {
  echo "$prog: $*" >&2
  exit 2
}

# --- arguments ---------------------------------------------------------------
dir="" sizes="" reps=5 ranks=2 check=0 check_ranks="" iterations="" warmup="" csv="" collectives_arg=allreduce
mcb_build="$repo/build-gate-openmpi" pool_mib="" run_timeout=1800 keep=0 cleanup_only=0
while (($#)); do
  case "$1" in
    --collectives) collectives_arg=${2-}; shift ;;
    --sizes) sizes=${2-}; shift ;;
    --reps) reps=${2-}; shift ;;
    --ranks) ranks=${2-}; shift ;;
    --check) check=1 ;;
    --check-ranks) check_ranks=${2-}; shift ;;
    --iterations) iterations=${2-}; shift ;;
    --warmup) warmup=${2-}; shift ;;
    --csv) csv=${2-}; shift ;;
    --mcb-build) mcb_build=${2-}; shift ;;
    --pool-mib) pool_mib=${2-}; shift ;;
    --run-timeout) run_timeout=${2-}; shift ;;
    --keep) keep=1 ;;
    --cleanup) cleanup_only=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) fail2 "unknown option $1 (see --help)" ;;
    *)
      [[ -z $dir ]] || fail2 "one DIR only (got '$dir' and '$1')"
      dir=$1
      ;;
  esac
  shift
done

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
is_count "$reps" || fail2 "--reps $reps: expected a positive integer"
is_count "$ranks" || fail2 "--ranks $ranks: expected a positive integer"
((ranks >= 2)) || fail2 "--ranks $ranks: ext_mpi's shared-memory collectives need at least 2 ranks"
is_count "$run_timeout" || fail2 "--run-timeout $run_timeout: expected a positive integer"
[[ -z $iterations ]] || is_count "$iterations" || fail2 "--iterations $iterations: expected a positive integer"
[[ -z $warmup ]] || [[ $warmup =~ ^[0-9]+$ ]] || fail2 "--warmup $warmup: expected a non-negative integer"
[[ -z $pool_mib ]] || is_count "$pool_mib" || fail2 "--pool-mib $pool_mib: expected a positive integer"
all_collectives=(allreduce reduce_scatter_block allgather allgatherv gatherv scatterv)
known="allreduce, reduce_scatter_block, allgather, allgatherv, gatherv, scatterv, or all"
collectives=()
if [[ $collectives_arg == all ]]; then
  collectives=("${all_collectives[@]}")
else
  [[ $collectives_arg =~ ^[a-z_]+(,[a-z_]+)*$ ]] ||
    fail2 "--collectives '$collectives_arg': expected a comma-separated list of $known"
  for c in ${collectives_arg//,/ }; do
    [[ $c != all ]] || fail2 "--collectives $collectives_arg: 'all' stands alone"
    [[ " ${all_collectives[*]} " == *" $c "* ]] ||
      fail2 "--collectives: unknown collective '$c' (expected $known)"
    [[ " ${collectives[*]} " == *" $c "* ]] || collectives+=("$c")
  done
fi
has() { [[ " ${collectives[*]} " == *" $1 "* ]]; }
colls_csv=$(IFS=,; echo "${collectives[*]}")
if [[ -z $check_ranks ]]; then
  if [[ $colls_csv == allreduce ]]; then check_ranks="4,8,16"; else check_ranks="3,4,8"; fi
fi
[[ $check_ranks =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || fail2 "--check-ranks $check_ranks: expected N,N,..."
if [[ -n $sizes ]]; then
  [[ $sizes =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || fail2 "--sizes $sizes: expected B,B,... (bytes)"
  for s in ${sizes//,/ }; do ((s % 4 == 0)) || fail2 "--sizes: $s is not a multiple of 4 (float elements)"; done
elif ((check)); then
  sizes=4,60,1024,4100,65536,1048580
else
  sizes=1024,4096,16384,65536,262144,1048576,4194304,16777216,67108864
fi

# The algorithms are named per call (MPI_Info); ext_mpi's environment would override them.
for v in $(compgen -e | grep '^EXT_MPI_'); do
  echo "$prog: ignoring $v from the environment" >&2
  unset "$v"
done
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
PYTHON=${PYTHON:-/usr/bin/python3}
need() { command -v "$1" >/dev/null 2>&1 || fail2 "missing tool: $1 ($2)"; }
need ipcs "util-linux: to find ext_mpi's System V segments"
need ipcrm "util-linux: to remove ext_mpi's System V segments"

# --- System V segments ---------------------------------------------------------
# Removes the segments whose creator is one of our ranks (pid files in
# $pid_dir), and those created since $shm_before (a list of ids) by a process
# that is gone, of mode 600 and the pool's size (a rank killed before it
# wrote its pid file). With no pid dir: every segment of mode 600 and the
# pool's size whose creator is gone (--cleanup). Only the user's own.
pid_dir="" shm_before="" pool_bytes=$POOL_BYTES_DEFAULT
me=$(id -un)
remove_segments() {
  local id owner perms bytes cpid removed=()
  declare -A creator=()
  while read -r id _ cpid _; do
    creator[$id]=$cpid
  done < <(ipcs -m -p 2>/dev/null | awk '$1 ~ /^[0-9]+$/')
  while read -r _ id owner perms bytes _; do
    cpid=${creator[$id]-}
    [[ -n $cpid && $owner == "$me" ]] || continue
    if [[ -n $pid_dir && -e $pid_dir/$cpid ]] ||
      { [[ $perms == 600 && $bytes == "$pool_bytes" ]] && ! kill -0 "$cpid" 2>/dev/null &&
        { [[ -z $pid_dir ]] || [[ " $shm_before " != *" $id "* ]]; }; }; then
      ipcrm -m "$id" 2>/dev/null && removed+=("$id")
    fi
  done < <(ipcs -m 2>/dev/null | awk '$2 ~ /^[0-9]+$/')
  if ((${#removed[@]})); then
    echo "# removed ${#removed[@]} System V segment(s) left by ext_mpi's ranks: ${removed[*]}"
  fi
  return 0
}

# Kills the ranks of ours (pid files in $pid_dir, running $driver) that
# outlived their mpirun: after a timeout a rank spinning in ext_mpi can be left
# orphaned, attached to its segment, which then stays until it exits.
driver=""
kill_leftover_ranks() {
  local f pid exe killed=()
  [[ -n $pid_dir && -n $driver && -d $pid_dir ]] || return 0
  for f in "$pid_dir"/*; do
    [[ -e $f ]] || continue
    pid=${f##*/}
    exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
    [[ ${exe% (deleted)} == "$driver" ]] || continue
    kill -KILL "$pid" 2>/dev/null && killed+=("$pid")
  done
  if ((${#killed[@]})); then
    echo "# killed ${#killed[@]} rank(s) of ext_mpi's that outlived their mpirun: ${killed[*]}"
    sleep 1
  fi
  return 0
}

if ((cleanup_only)); then
  [[ -z $pool_mib ]] || pool_bytes=$((pool_mib * 1048576))
  before=$(ipcs -m | awk '$2 ~ /^[0-9]+$/' | wc -l)
  remove_segments
  echo "# $prog --cleanup: $before segment(s) before, $(ipcs -m | awk '$2 ~ /^[0-9]+$/' | wc -l) now"
  exit 0
fi

# --- DIR -----------------------------------------------------------------------
[[ -n $dir ]] || fail2 "missing DIR, an ext_mpi_collectives checkout (see --help)"
[[ -d $dir ]] || fail2 "$dir: no such directory"
need git "to read DIR's commit"
need make "to build ext_mpi"
need tar "to copy DIR into the scratch folder"
need "$MPICC" "the MPI C compiler wrapper; set MPICC"
need "$MPIRUN" "the MPI launcher; set MPIRUN"
need timeout "coreutils"
wanted=(Makefile minclude.sh src include latency_bandwidth)
bare=$(git -C "$dir" rev-parse --is-bare-repository 2>/dev/null || echo none)
if [[ $bare == true ]]; then
  if ! git -C "$dir" cat-file -e HEAD:src/mpi/ext_mpi_interface.c 2>/dev/null ||
    ! git -C "$dir" cat-file -e HEAD:include/mpi/ext_mpi_interface.h 2>/dev/null; then
    fail2 "$dir: not ext_mpi_collectives (its HEAD has no src/mpi/ext_mpi_interface.c)"
  fi
else
  [[ -f $dir/src/mpi/ext_mpi_interface.c && -f $dir/include/mpi/ext_mpi_interface.h && -f $dir/Makefile ]] ||
    fail2 "$dir: not an ext_mpi_collectives checkout (no src/mpi/ext_mpi_interface.c)"
fi
commit=$(git -C "$dir" rev-parse HEAD 2>/dev/null || echo "unknown (not a git repository)")
if [[ $bare == false ]] && [[ -n $(git -C "$dir" status --porcelain --untracked-files=no -- "${wanted[@]}" 2>/dev/null) ]]; then
  commit="$commit (with local changes)"
fi
if ((!check)); then
  for c in "${collectives[@]}"; do
    mcb=$mcb_build/src/mcb_$c
    [[ -x $mcb ]] || fail2 "$mcb: not found (build it: cmake --build $mcb_build --target mcb_$c; or --mcb-build DIR)"
  done
  [[ -x $PYTHON ]] || fail2 "missing tool: $PYTHON (for the table; set PYTHON)"
fi
max_size=0
for s in ${sizes//,/ }; do ((s > max_size)) && max_size=$s; done
if [[ -z $pool_mib ]] && ((check)); then
  # the gathers hold every rank's block: the largest size times the most ranks
  gathered=$max_size
  if [[ $colls_csv != allreduce && $colls_csv != reduce_scatter_block && $colls_csv != allreduce,reduce_scatter_block ]]; then
    most=0
    for p in ${check_ranks//,/ }; do ((p > most)) && most=$p; done
    gathered=$((max_size * most))
  fi
  pool_mib=$((4 * (gathered / 1048576 + 1) + 32))
  ((pool_mib >= 64)) || pool_mib=64
fi
[[ -z $pool_mib ]] || pool_bytes=$((pool_mib * 1048576))

# --- scratch folder, traps -------------------------------------------------------
scratch=$(mktemp -d /tmp/mcb-peer-ext_mpi.XXXXXX) || fail2 "cannot create a scratch folder under /tmp"
pid_dir=$scratch/pids
mkdir -p "$pid_dir" "$scratch/src" "$scratch/out"
export MCB_PEER_PID_DIR=$pid_dir  # the driver's ranks record their pids there (the ranks inherit it)
current=""  # the pid of the timeout running an mpirun
# shellcheck disable=SC2317  # on_exit and on_signal run from the traps
on_exit() {
  kill_leftover_ranks
  remove_segments
  if ((keep)); then echo "# scratch folder kept: $scratch"; else rm -rf "$scratch"; fi
}
# shellcheck disable=SC2317
on_signal() {
  trap - INT TERM HUP
  echo "$prog: $1: stopping the run and removing ext_mpi's segments" >&2
  if [[ -n $current ]]; then
    kill -TERM "$current" 2>/dev/null  # timeout passes it on to mpirun, which ends the ranks
    for _ in $(seq 30); do
      kill -0 "$current" 2>/dev/null || break
      sleep 1
    done
    kill -KILL -- "-$current" 2>/dev/null  # timeout leads its own process group
    wait "$current" 2>/dev/null
  fi
  exit "$2"
}
trap on_exit EXIT
trap 'on_signal interrupted 130' INT
trap 'on_signal terminated 143' TERM
trap 'on_signal hangup 129' HUP

echo "# $prog: eth-cscs/ext_mpi_collectives from $dir"
echo "# reference commit: $commit"
echo "# scratch folder: $scratch"

# --- build -------------------------------------------------------------------------
if [[ $bare == true ]]; then
  git -C "$dir" archive HEAD "${wanted[@]}" | tar -x -C "$scratch/src" || fail2 "$dir: git archive failed"
else
  tar -C "$dir" -cf - "${wanted[@]}" | tar -x -C "$scratch/src" || fail2 "$dir: copying the sources failed"
fi
if [[ -n $pool_mib ]] && ((pool_mib != 2048)); then
  native=$scratch/src/src/mpi/ext_mpi_native.c
  grep -q '1024u \* 1024u \* 2048u' "$native" ||
    { echo "$prog: cannot find ext_mpi's pool size (1024u * 1024u * 2048u) in src/mpi/ext_mpi_native.c; run without --pool-mib" >&2; exit 1; }
  sed -i "s/1024u \* 1024u \* 2048u/1024u * 1024u * ${pool_mib}u/g" "$native"
  echo "# ext_mpi's shared pool cut from 2048 to $pool_mib MiB per rank in the scratch copy (src/mpi/ext_mpi_native.c, EXT_MPI_Init_native); the algorithms are unchanged"
fi
jobs=$(nproc 2>/dev/null || echo 2)
echo "# building libext_mpi_collectives.a without XPMEM (CFLAGS as its Makefile's, less -DXPMEM) and the driver with $MPICC"
if ! make -C "$scratch/src" -j"$jobs" CC="$MPICC" \
  CFLAGS="-g -O3 -Wall -fPIC -I. -Iinclude/core -Iinclude/mpi -DP_ROFILE" \
  lib/libext_mpi_collectives.a >"$scratch/build.log" 2>&1; then
  tail -n 20 "$scratch/build.log" >&2
  echo "$prog: building ext_mpi failed (log above)" >&2
  exit 1
fi
driver=$scratch/ext_mpi_driver
if ! "$MPICC" -O2 -o "$driver" "$here/ext_mpi_driver.c" "$scratch/src/lib/libext_mpi_collectives.a" \
  -lrt -lm -ldl >>"$scratch/build.log" 2>&1; then
  tail -n 20 "$scratch/build.log" >&2
  echo "$prog: building the driver failed (log above)" >&2
  exit 1
fi

# --- running -----------------------------------------------------------------------
cores=$(nproc 2>/dev/null || echo 1)
launch_flags() {  # $1 ranks, $2 bind (1: to cores)
  local f=()
  [[ $(id -u) == 0 ]] && f+=(--allow-run-as-root)
  if (($1 > cores)); then
    f+=(--oversubscribe --bind-to none)
  elif (($2)); then
    f+=(--bind-to core)
  else
    f+=(--bind-to none)
  fi
  echo "${f[@]}"
}
# run OUT NRANKS BIND PROGRAM ARGS...: one mpirun under timeout, stdout to
# OUT, stderr to OUT.err; segments removed afterwards.
run() {
  local out=$1 n=$2 bind=$3 rc t0 flags
  shift 3
  read -r -a flags <<<"$(launch_flags "$n" "$bind")"
  shm_before=$(ipcs -m | awk '$2 ~ /^[0-9]+$/ {print $2}' | tr '\n' ' ')
  t0=$SECONDS
  timeout -k 30 "$run_timeout" "$MPIRUN" "${flags[@]}" -n "$n" "$@" >"$out" 2>"$out.err" &
  current=$!
  wait "$current"
  rc=$?
  current=""
  kill_leftover_ranks
  remove_segments
  if ((rc == 124 || rc == 137)); then
    echo "$prog: timed out after ${run_timeout}s: $*" >&2
  elif ((rc != 0)); then
    echo "$prog: exit status $rc: $*" >&2
    tail -n 5 "$out.err" >&2
  fi
  echo "#   ($((SECONDS - t0)) s)"
  return "$rc"
}
# "-2 -2 2 2" for 4 ranks; fails unless a power of 2.
binary_factors() {
  local p=$1 neg="" pos=""
  while ((p > 1)); do
    ((p % 2 == 0)) || return 1
    neg+="-2 " pos+=" 2" p=$((p / 2))
  done
  echo "${neg% }$pos"
}
itx=()
[[ -z $iterations ]] || itx+=(-i "$iterations")
[[ -z $warmup ]] || itx+=(-x "$warmup")

status=0
if ((check)); then
  ((${#itx[@]})) || itx=(-i 2 -x 1)
  echo "# --check: ${collectives[*]}; every result validated"
  has allreduce && echo "# allreduce: ext_mpi's copy-in methods 9 (recursive exchange) and 8 (cyclic shift)"
  has reduce_scatter_block && echo "# reduce_scatter_block: ext_mpi's copy-in methods 9 and 8 ('9;1 -P P', '8;1 -P P')"
  for c in allgather allgatherv gatherv scatterv; do
    has $c && echo "# $c: ext_mpi's MPI_${c^}_init (no method key: its one shared-memory schedule)"
  done
  echo "# the ranks are oversubscribed on $cores cores and spin: THE TIMINGS BELOW MEAN NOTHING"
  ((${#collectives[@]} > 1)) && echo "# one launch per rank count and collective: a crash in one hides none of the others"
  summary=()
  for p in ${check_ranks//,/ }; do
    ((p >= 2)) || continue
    lists=("-$p $p")
    ((p > 2)) && binary=$(binary_factors "$p") && lists+=("$binary")
    ((p == 8)) && lists+=("-4 -2 2 4")
    ((p == 16)) && lists+=("-4 -4 4 4")
    line=""
    for c in "${collectives[@]}"; do
      algos=() names=()
      case $c in
        allreduce)
          for m in 9 8; do for l in "${lists[@]}"; do algos+=(-a "$m;1 $l") names+=("'$m;1 $l'"); done; done ;;
        reduce_scatter_block)
          algos=(-r "9;1 -$p $p" -r "8;1 -$p $p") names=("'9;1 -$p $p'" "'8;1 -$p $p'") ;;
        *) names=("MPI_${c^}_init") ;;
      esac
      if [[ $colls_csv == allreduce ]]; then
        echo "# $p ranks: ${names[*]}"
        out=$scratch/out/check_$p.txt
      else
        echo "# $p ranks, $c: ${names[*]}"
        out=$scratch/out/check_${p}_$c.txt
      fi
      run "$out" "$p" 0 "$driver" -c "$c" -m "$sizes" "${itx[@]}" "${algos[@]}"
      rc=$?
      cat "$out"
      if ((rc == 124 || rc == 137)); then
        verdict="TIMED OUT"
      elif ((rc > 128)); then
        verdict="CRASHED (exit status $rc: signal $((rc - 128)), $(kill -l $((rc - 128)) 2>/dev/null || echo '?'))"
      elif grep -q ' FAIL$' "$out"; then
        verdict="FAIL ($(grep -c ' FAIL$' "$out") of $(grep -c -E ' (pass|FAIL)$' "$out") rows)"
      elif ((rc)); then
        verdict="FAILED (exit status $rc)"
      elif ! grep -q -E ' pass$' "$out"; then
        verdict="NO ROWS"
      else
        verdict="pass ($(grep -c ' pass$' "$out") rows)"
      fi
      [[ $verdict == pass* ]] || status=1
      line+="${line:+; }$c $verdict"
    done
    summary+=("#   $p ranks: $line")
  done
  if ((${#collectives[@]} > 1)); then
    echo "# --check summary (ext_mpi @ $commit):"
    printf '%s\n' "${summary[@]}"
  fi
  if ((status)); then echo "# --check: FAILED (see above)"; else echo "# --check: every size passed"; fi
  exit "$status"
fi

factors_sp="-$ranks $ranks" factors_mcb="-$ranks,$ranks"
mcb_sizes=$sizes
[[ $sizes == *,* ]] || mcb_sizes="$sizes:$sizes"  # mcb's -m N alone means 1..N
if ((ranks > cores)); then
  echo "# $ranks ranks OVERSUBSCRIBED on $cores cores: THE TIMINGS MEAN NOTHING"
else
  echo "# $ranks ranks bound to cores"
fi
echo "# sizes $sizes; $reps interleaved repetitions (which goes first alternates)"
if has allreduce; then
  echo "# ext_mpi: '9;1 $factors_sp' and '8;1 $factors_sp', MPI_Allreduce_init + MPI_Start/MPI_Wait"
  echo "# mcb ($mcb_build/src/mcb_allreduce): shm_recursive_exchange and shm_cyclic_shift --factors=$factors_mcb" \
    "--copy copy-in, --interface persistent,blocking"
fi
if has reduce_scatter_block; then
  echo "# reduce_scatter_block: ext_mpi '9;1 $factors_sp', MPI_Reduce_scatter_block_init + MPI_Start/MPI_Wait;" \
    "mcb shm_recursive_exchange --factors=-$ranks --copy copy-in --interface persistent,blocking -T float"
fi
for c in allgather allgatherv; do
  has $c && echo "# $c: ext_mpi's MPI_${c^}_init + MPI_Start/MPI_Wait (no method key);" \
    "mcb shm_recursive_exchange --factors=$ranks --copy copy-in --interface persistent,blocking -T float"
done
for c in gatherv scatterv; do
  has $c && echo "# $c (root 0): ext_mpi's MPI_${c^}_init + MPI_Start/MPI_Wait (shared memory);" \
    "mcb has no shared-memory $c: its linear and binomial (point-to-point), -T float"
done
echo "# MPI: $("$MPIRUN" --version 2>/dev/null | head -n 1)"
# mcb_args COLLECTIVE: mcb's algorithms and options for it (into the array margs)
mcb_args() {
  case "$1" in
    allreduce)
      margs=(--algorithm "shm_recursive_exchange,shm_cyclic_shift" --factors="$factors_mcb" --copy copy-in
        --interface "persistent,blocking") ;;
    reduce_scatter_block)
      margs=(--algorithm shm_recursive_exchange --factors="-$ranks" --copy copy-in --interface "persistent,blocking"
        -T float) ;;
    allgather | allgatherv)
      margs=(--algorithm shm_recursive_exchange --factors="$ranks" --copy copy-in --interface "persistent,blocking"
        -T float) ;;
    gatherv | scatterv)
      margs=(--algorithm "linear,binomial" -T float) ;;
  esac
}
manifest=$scratch/out/manifest.tsv
: >"$manifest"
for ((r = 1; r <= reps; r++)); do
  if ((r % 2)); then order=(ext mcb); else order=(mcb ext); fi
  pos=0
  for c in "${collectives[@]}"; do  # per collective one ext_mpi launch and one mcb launch, side by side
    for kind in "${order[@]}"; do
      pos=$((pos + 1))
      if [[ $kind == ext ]]; then
        out=$scratch/out/ext_${c}_$r.txt
        echo "# repetition $r/$reps: ext_mpi $c"
        case $c in
          allreduce) eargs=(-a "9;1 $factors_sp" -a "8;1 $factors_sp") ;;
          reduce_scatter_block) eargs=(-r "9;1 $factors_sp") ;;
          *) eargs=() ;;
        esac
        run "$out" "$ranks" 1 "$driver" -c "$c" -m "$sizes" "${itx[@]}" "${eargs[@]}"
      else
        out=$scratch/out/mcb_${c}_$r.csv
        echo "# repetition $r/$reps: mcb $c"
        mcb_args "$c"
        run "$out.console" "$ranks" 1 "$mcb_build/src/mcb_$c" "${margs[@]}" -m "$mcb_sizes" "${itx[@]}" -c \
          --csv "$out"
      fi
      rc=$?
      ((rc == 0)) || status=1
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$pos" "$kind" "$out" "$c" "$rc" >>"$manifest"
    done
  done
done

"$PYTHON" - "$manifest" "$commit" "$ranks" "$factors_sp" "$csv" "${pool_mib:-2048}" "$colls_csv" <<'PY' || status=1
import csv, os, statistics, sys

manifest, commit, ranks, factors, out_csv, pool, colls = sys.argv[1:8]
colls = colls.split(",")
# (rep, position, source, algorithm, interface, size, avg_us, validation, collective)
rows = []
ext_rc = {}  # collective: the exit statuses of its ext_mpi launches
for line in open(manifest):
    rep, pos, kind, path, coll, rc = line.rstrip("\n").split("\t")
    if kind == "ext":
        ext_rc.setdefault(coll, []).append(int(rc))
    if not os.path.exists(path):
        continue
    if kind == "ext":
        for text in open(path):
            f = text.split()
            if len(f) != 10 or text.startswith("#"):
                continue
            method = f[2].split(";")[0]
            name = "ext_mpi" if f[2] == "default" else "ext_mpi " + method
            rows.append((rep, pos, "ext_mpi", name, f[1], int(f[3]), float(f[4]), f[9], f[0]))
    else:
        for r in csv.DictReader(open(path)):
            if r["phase"] != "total":
                continue
            params = dict(p.split("=", 1) for p in r["params"].split(";") if "=" in p)
            # linear and binomial (gatherv, scatterv) are blocking calls without an interface parameter
            rows.append((rep, pos, "mcb", r["algorithm"], params.get("interface", "blocking"), int(r["size_bytes"]),
                         float(r["osu_avg_us"]), r["validation"], r.get("collective") or coll))

key = lambda x: (x[8], x[3], x[4], x[5])
med = {}
for k in {key(x) for x in rows}:
    med[k] = statistics.median(x[6] for x in rows if key(x) == k)
reps = len({x[0] for x in rows})


def table(coll, cols, head):
    if not any(x[8] == coll and x[2] == "ext_mpi" for x in rows):
        codes = ", ".join(str(c) + (f" (signal {c - 128})" if c > 128 else "") for c in ext_rc.get(coll, []))
        print(f"# ext_mpi's {coll} gave no result: its launches ended with exit status {codes} (see above);"
              " mcb's columns alone")
    print("".join(f"{h:>11}" for h in head))
    for s in sorted({x[5] for x in rows if x[8] == coll}):
        cells = [f"{s:>11}"]
        for alg, itf, ref in cols:
            v = med.get((coll, alg, itf, s))
            cells.append(f"{v:>11.2f}" if v is not None else f"{'-':>11}")
            if ref:
                r = med.get((coll, ref, "persistent", s))
                cells.append(f"{v / r:>11.2f}" if v is not None and r else f"{'-':>11}")
        print("".join(cells))


print()
print(f"# mcb / ext_mpi_collectives @ {commit}")
if "allreduce" in colls:
    print(f"# {ranks} ranks, float sum, factors {factors}, copy-in; OSU's average latency (us), median of {reps} "
          "interleaved repetitions; ratio = mcb / ext_mpi (<= 1.00: mcb at least as fast)")
    print(f"# RE = mcb shm_recursive_exchange vs ext_mpi '9;1 {factors}', CS = mcb shm_cyclic_shift vs ext_mpi '8;1 {factors}'")
if pool != "2048":
    print(f"# ext_mpi built with its shared pool cut to {pool} MiB per rank (--pool-mib; shipped: 2048)")
if "allreduce" in colls:
    cols = [("ext_mpi 9", "persistent", None), ("shm_recursive_exchange", "persistent", "ext_mpi 9"),
            ("shm_recursive_exchange", "blocking", "ext_mpi 9"), ("ext_mpi 8", "persistent", None),
            ("shm_cyclic_shift", "persistent", "ext_mpi 8"), ("shm_cyclic_shift", "blocking", "ext_mpi 8")]
    head = ["bytes", "ext9", "RE pers", "ratio", "RE block", "ratio", "ext8", "CS pers", "ratio", "CS block", "ratio"]
    table("allreduce", cols, head)
common = (f"{ranks} ranks, float, OSU's average latency (us), median of {reps} interleaved repetitions; "
          "ratio = mcb / ext_mpi (<= 1.00: mcb at least as fast)")
for coll in colls:
    if coll == "allreduce":
        continue
    print()
    if coll == "reduce_scatter_block":
        ext = "ext_mpi 9"
        print(f"# reduce_scatter_block: {common}; bytes: the vector (each rank's part 1/{ranks} of it)")
        print(f"# mcb shm_recursive_exchange --factors=-{ranks} --copy copy-in vs ext_mpi '9;1 {factors}' "
              "(MPI_Reduce_scatter_block_init; on one node every copy-in method of ext_mpi is one schedule, "
              "the factors unused)")
    else:
        ext = "ext_mpi"
        print(f"# {coll}: {common}; bytes: a rank's block")
    if coll in ("gatherv", "scatterv"):
        print(f"# root 0; mcb has no shared-memory {coll}: its linear and binomial (point-to-point, blocking) vs "
              f"ext_mpi's MPI_{coll.capitalize()}_init (shared memory)")
        cols = [(ext, "persistent", None), ("linear", "blocking", ext), ("binomial", "blocking", ext)]
        head = ["bytes", "ext_mpi", "linear", "ratio", "binomial", "ratio"]
    else:
        if coll != "reduce_scatter_block":
            print(f"# mcb shm_recursive_exchange --factors={ranks} --copy copy-in vs ext_mpi's "
                  f"MPI_{coll.capitalize()}_init (no method key: its one shared-memory schedule)")
        cols = [(ext, "persistent", None), ("shm_recursive_exchange", "persistent", ext),
                ("shm_recursive_exchange", "blocking", ext)]
        head = ["bytes", "ext_mpi", "SHM pers", "ratio", "SHM block", "ratio"]
    table(coll, cols, head)
bad = sorted({key(x) for x in rows if x[7] != "pass"})
for coll, alg, itf, s in bad:
    if coll == "allreduce":
        print(f"# validation FAILED: {alg} {itf} at {s} B")
    else:
        print(f"# validation FAILED: {coll} {alg} {itf} at {s} B")
if out_csv:
    with open(out_csv, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["reference_commit", "ranks", "rep", "position", "source", "algorithm", "interface", "size_bytes",
                    "osu_avg_us", "validation", "collective"])
        for x in sorted(rows, key=lambda x: (int(x[0]), x[8], x[3], x[4], x[5])):
            w.writerow([commit, ranks, *x])
        for (coll, alg, itf, s), v in sorted(med.items()):
            src = "ext_mpi" if alg.startswith("ext_mpi") else "mcb"
            ok = all(x[7] == "pass" for x in rows if key(x) == (coll, alg, itf, s))
            w.writerow([commit, ranks, "median", "", src, alg, itf, s, f"{v:.3f}", "pass" if ok else "FAIL", coll])
    print(f"# rows and medians written to {out_csv}")
sys.exit(1 if bad else 0)
PY
exit "$status"
