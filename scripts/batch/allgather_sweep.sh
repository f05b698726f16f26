#!/usr/bin/env bash
# The Sparbit paper's sweep (allgather-sparbit, Section IV: Figures 1 and 5,
# Tables I and II): mcb_allgather with every algorithm over OSU's sizes
# (1 B to 1 MiB doubling) for each process count, in block (the paper's
# sequential) and cyclic order, one CSV per run, then scripts/compare/compare_best.py
# on all of them.
#
#   scripts/batch/allgather_sweep.sh [-o DIR] [-p LIST|paper] [-k K] [-b BUILD] [-- MCB_ARGS...]
#
#   -o DIR    results directory (default allgather-results)
#   -p LIST   process counts, e.g. "5 8 13 16"; "paper" (default): the
#             paper's two progressions 5, 13, 21, ... and 8, 16, 24, ... up
#             to MAX_P (default: SLURM_NTASKS under Slurm, else 16)
#   -k K      virtual nodes of K ranks (--ranks-per-node K), for cyclic order
#             on one machine; process counts that K does not divide run in
#             block order only. Without -k, nodes are the real ones.
#   -b BUILD  build directory holding src/mcb_allgather (default build)
#   MCB_ARGS  passed on, e.g. -m 1:4096 -i 50 -x 5 (the paper: 50 and 5)
#
# Under Slurm (SLURM_JOB_ID set) each run is `srun -n P`; elsewhere
# scripts/batch/local-run.sh (oversubscribed when P exceeds the cores: fine for
# correctness, not for timings).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=allgather-results procs=paper k=0 build=build
while getopts "o:p:k:b:h" opt; do
  case $opt in
    o) out=$OPTARG ;;
    p) procs=$OPTARG ;;
    k) k=$OPTARG ;;
    b) build=$OPTARG ;;
    *) sed -n '2,24p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ ${1:-} == -- ]] && shift
bin=$build/src/mcb_allgather
[[ -x $bin ]] || { echo "$0: $bin not found (build first, or give -b BUILD)" >&2; exit 2; }
if [[ $procs == paper ]]; then
  max=${MAX_P:-${SLURM_NTASKS:-16}}
  procs=$( (seq 5 8 "$max"; seq 8 8 "$max") | sort -n | tr '\n' ' ')
fi
mkdir -p "$out"

launch() {
  local n=$1
  shift
  if [[ -n ${SLURM_JOB_ID:-} ]]; then srun -n "$n" "$@"; else "$here/local-run.sh" -n "$n" "$@"; fi
}

for p in $procs; do
  nodes=()
  if ((k > 0)); then
    nodes=(--ranks-per-node "$k")
    if ((p % k != 0)); then
      echo "# P=$p: -k $k does not divide it; block order only" >&2
      launch "$p" "$bin" --algorithm all -c --csv "$out/allgather-p$p-block.csv" "$@" >"$out/allgather-p$p-block.txt"
      continue
    fi
  fi
  for order in block cyclic; do
    echo "# P=$p, $order order" >&2
    launch "$p" "$bin" --algorithm all -c --rank-order "$order" "${nodes[@]}" --csv "$out/allgather-p$p-$order.csv" \
      "$@" >"$out/allgather-p$p-$order.txt"
  done
done
/usr/bin/python3 "$here/../compare/compare_best.py" "$out"/allgather-p*.csv --cells "$out/cells.csv" | tee "$out/compare_best.txt"
