#!/usr/bin/env bash
# CP2K's H2O-32 (QS, BLYP/DZVP, NVE MD) with the MPI's own collectives and
# with libmcb_preload's, interleaved (docs/applications.md):
#
#   scripts/apps/cp2k.sh [--build DIR] [--reps N] [--ranks P] [--steps S]
#                        [--molecules M] [--out DIR] [--config NAME=ENV ...] [--check]
#
# Needs Debian's cp2k (apt-get install cp2k; this script installs nothing)
# and a preload built against the MPI that cp2k links (Debian's Open MPI:
# build-ci-openmpi or any -DMCB_MPI=openmpi build). Writes the input with
# scripts/apps/cp2k_h2o.py, then runs every configuration once per
# repetition, in turn (interleaved: a slow spell of the machine hits all of
# them alike), P ranks bound to cores, one OpenMP thread, and prints
# cp2k_h2o.py's summary: energies (equal to the last digit, or the
# difference), CP2K's total and collective times, the preload's report.
# Configurations (default): mpi (no preload), system (the preload with the
# MPI's own algorithms through mcb's plans: the preload's own cost), mcb (the
# papers' algorithms: shm_recursive_exchange, tra, sparbit). --config
# NAME="VAR=VALUE VAR=VALUE" replaces the list (repeatable; NAME=- for no
# preload, NAME=+ for the preload loaded with no collective set: what loading
# it costs).
# --check (the test preload_cp2k): also fail unless each preload report shows
# alltoall, allgather, allreduce and bcast served (cp2k_h2o.py summary --check).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build-ci-openmpi
reps=5
ranks=2
steps=1
molecules=32
out=
configs=()
check=()
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --molecules) molecules=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --config) configs+=("$2"); shift 2 ;;
    --check) check=(--check); shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "cp2k.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$reps" "$ranks" "$steps" "$molecules"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "cp2k.sh: '$n' is not a positive integer" >&2; exit 2; }
done
command -v cp2k >/dev/null || { echo "cp2k.sh: no cp2k on the PATH (Debian: apt-get install cp2k)" >&2; exit 77; }
preload=$(realpath -m "$build")/src/preload/libmcb_preload.so  # absolute: the runs start in --out
[[ -f $preload ]] || { echo "cp2k.sh: no $preload (build mcb with -DMCB_MPI=openmpi first)" >&2; exit 2; }
if ((${#configs[@]} == 0)); then
  configs=("mpi=-"
           "system=MCB_ALLREDUCE=system MCB_ALLTOALL=system MCB_ALLGATHER=system MCB_BCAST=system"
           "mcb=MCB_ALLREDUCE=shm_recursive_exchange MCB_ALLTOALL=tra MCB_ALLGATHER=sparbit MCB_BCAST=shm_tree")
fi
out=${out:-$root/cp2k-h2o-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
/usr/bin/python3 "$here/cp2k_h2o.py" input --molecules "$molecules" --steps "$steps" --out "$out/h2o.inp"
# Debian's cp2k links Open MPI: its launcher, as root if need be.
mpirun=(mpirun.openmpi -n "$ranks" --bind-to core --map-by core)
[[ $(id -u) -eq 0 ]] && mpirun+=(--allow-run-as-root)
export OMP_NUM_THREADS=1 HWLOC_COMPONENTS=${HWLOC_COMPONENTS:--linuxio,-pci} OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
{
  echo "# cp2k.sh $(date -u +%FT%TZ) on $(hostname): $(getconf _NPROCESSORS_ONLN) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "# cp2k: $(cp2k --version 2>/dev/null | head -1); $ranks ranks bound to cores, $reps reps, $steps MD steps, H2O-$molecules"
  echo "# mcb: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown); preload $preload"
  for c in "${configs[@]}"; do echo "# config ${c%%=*}: ${c#*=}"; done
} > "$out/README.txt"
cat "$out/README.txt"
start=$SECONDS
for ((rep = 1; rep <= reps; rep++)); do
  for c in "${configs[@]}"; do
    name=${c%%=*} env_text=${c#*=}
    args=()
    if [[ $env_text != - ]]; then
      args+=(-x "LD_PRELOAD=$preload" -x "MCB_PRELOAD_REPORT=$out/$name-$rep.report")
      [[ $env_text == + ]] || for kv in $env_text; do args+=(-x "$kv"); done
    fi
    t0=$SECONDS
    # CP2K appends to an output file that is there (an --out folder used
    # again: the test's): each run starts from none, and from none of
    # CP2K's restart, trajectory and energy files of the last.
    rm -f "$out/$name-$rep.out" "$out/$name-$rep.report" "$out/H2O-$molecules-mcb"-*
    (cd "$out" && "${mpirun[@]}" -x OMP_NUM_THREADS "${args[@]}" cp2k -i h2o.inp -o "$name-$rep.out" \
      > "$name-$rep.log" 2>&1) || echo "cp2k.sh: $name rep $rep failed (see $out/$name-$rep.log)"
    # A configuration with the preload whose run left no report did not run it (not loaded).
    [[ $env_text == - || -s $out/$name-$rep.report ]] ||
      echo "cp2k.sh: $name rep $rep: no preload report, the preload did not run (see $out/$name-$rep.log)"
    echo "rep $rep $name: $((SECONDS - t0)) s"
  done
done
echo "# all runs: $((SECONDS - start)) s" | tee -a "$out/README.txt"
/usr/bin/python3 "$here/cp2k_h2o.py" summary "${check[@]}" "$out" | tee "$out/summary.txt"
