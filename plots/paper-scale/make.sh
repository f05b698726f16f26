#!/usr/bin/env bash
# Regenerates the paper-scale data of plots/paper-scale/ by simulation
# (SimGrid SMPI, the simulation build): the papers' figures at their own
# process counts, on the platforms of their machines (scripts/platforms/),
# each also on the same platform without per-message costs (NAME-nocost),
# through the figure scripts (scripts/*.sbatch) with MCB_LAUNCHER=sim:...
# Simulated times are a model's, not the machines': see scripts/platforms/
# make_platforms.py for the model and scripts/calibrate.py for how close it
# is to the papers' stated numbers.
#
#   plots/paper-scale/make.sh [PART...]     # parts: tra, locality (default: tra)
#   MCB_BIN=build-sim/src                   # the simulation build (default)
#
# Parts and their wall time on this machine (AMD EPYC, one core busy):
#   tra   the TRA paper on theta-256x64 (64 ranks per node): Figure 8
#         (TRA's time against its radix, P = 512, 1024, 2048; S = 16, 128,
#         1024, 8192 B) and Figure 10 (system, TRA, TRA2 against S, P = 64
#         to 2048), with and without per-message costs.
#   locality  the locality paper on dane-32x112 (32 nodes x 112 ranks, 3584):
#         Figure 10 (every algorithm of the figure that SMPI can finish at
#         this scale, 4 per leader or group, both inner exchanges, 4, 64,
#         1024 and 4096 B); the standalone nonblocking exchange (12.8 million
#         messages in flight at once) is left out: see docs/claims.md.
#         About 1.5 hours per platform (the pairwise exchange alone: about
#         10 minutes per size).
# tra-theta-256x64/calibrate_tra_*.csv are the runs of `scripts/calibrate.py
# --platform theta-256x64` (P = 2048: TRA radix 2 and 46 at 128 B; system,
# TRA, TRA2 at 32 B), copied from its --out directory.
# One iteration per size (simulated times are deterministic); buffers of 64
# KiB and more on SMPI's shared pages, so nothing is validated here (the
# simulation tests validate the same code at small scale). The CSV files are
# compressed (gzip) once written; the plot scripts read .csv.gz as well.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=plots/paper-scale
export MCB_BIN=${MCB_BIN:-$PWD/build-sim/src} MCB_VALIDATE=0 MCB_RUNS=1
export MCB_ARGS="-i 1 -x 0 --sim-shared-malloc 65536 --progress 120"
parts=("${@:-tra}")
start=$SECONDS
for part in "${parts[@]}"; do
  case $part in
    tra)
      for platform in theta-256x64 theta-256x64-nocost; do
        out=$here/tra-$platform
        mkdir -p "$out"
        common=(MCB_LAUNCHER=sim:$platform MCB_RESULTS=$PWD/$out MCB_NODES=32 MCB_RANKS_PER_NODE=64)
        env "${common[@]}" MCB_SIZES=16:4096 scripts/tra_compare.sbatch
        env "${common[@]}" MCB_SIZES=16,128,1024,8192 MCB_NODE_COUNTS=8,16,32 scripts/tra_radix.sbatch
        gzip -f "$out"/*.csv
      done ;;
    locality)
      for platform in dane-32x112 dane-32x112-nocost; do
        out=$here/locality-$platform
        mkdir -p "$out"
        for algorithm in node_aware locality_aware multileader_node_aware hierarchical multileader system pairwise; do
          csv=$out/alltoall_sizes-$algorithm-N32-n3584-run1.csv
          [[ -f $csv.gz ]] && continue  # resumable: one file per algorithm
          # shellcheck disable=SC2086 # MCB_ARGS is a word list
          scripts/simulate.py --platform "$platform" --nodes 32 --ranks-per-node 112 --launch -- \
            "$MCB_BIN/mcb_alltoall" --algorithm "$algorithm" --inner pairwise,nonblocking --procs-per-leader 4 \
            --procs-per-group 4 -m 4,64,1024,4096 --csv "$csv" $MCB_ARGS
          gzip -f "$csv"
        done
      done ;;
    *) echo "make.sh: unknown part '$part' (parts: tra, locality)" >&2; exit 2 ;;
  esac
done
echo "make.sh: ${parts[*]} done in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s" >&2
