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
#   plots/paper-scale/make.sh [PART...]     # parts: tra, locality, nodes, sparbit (default: tra)
#   MCB_BIN=build-sim/src                   # the simulation build (default)
#
# Parts and their wall time on this machine (AMD EPYC, one core busy):
#   tra   the TRA paper on theta-256x64 (64 ranks per node): Figure 8
#         (TRA's time against its radix, P = 512, 1024, 2048; S = 16, 128,
#         1024, 8192 B), Figure 9 (TRA2's phases against r1 and r2, same P)
#         and Figure 10 (system, TRA, TRA2 against S, P = 64 to 2048), with
#         and without per-message costs. Hours per P from 1024 on; the
#         committed data has P = 512 for Figure 8, P = 512, 1024 and 2048
#         for Figure 9 (2.4, 3.5 and 11 minutes) and P = 64 to 512 for
#         Figure 10 (the P = 1024 run was cut short after the system
#         alltoall).
#   locality  the locality paper on dane-32x112 (32 nodes x 112 ranks, 3584):
#         Figure 10 (every algorithm of the figure that SMPI can finish at
#         this scale, 4 per leader or group, both inner exchanges, 4, 64,
#         1024 and 4096 B); the standalone nonblocking exchange (12.8 million
#         messages in flight at once) is left out: see docs/claims.md.
#         About 1.5 hours per platform (the pairwise exchange alone: about
#         10 minutes per size).
#   nodes  the locality paper's Figures 11 and 12 on dane-32x112: the
#         algorithms of Figure 10 (not the standalone exchanges) on 2, 4 and
#         8 nodes x 112 in one launch (mcb --nodes), 4 and 4096 B; 16 nodes
#         in two launches, 4 B with every algorithm and 4096 B with the
#         system alltoall, node-aware and locality-aware only (the gather-
#         based ones need more than 24 GB there: SMPI's binomial gather
#         keeps its buffers in private memory); the 32-node points are
#         Figure 10's. About an hour. (The committed alltoall_nodes-N16-*
#         file is a first attempt in one launch up to 16 nodes: complete for
#         2, 4 and 8 nodes, cut short by memory at 16.)
#   sparbit  the Sparbit paper's Figure 5 and Tables I-II: every allgather,
#         1 B to 1 MiB, the paper's process counts (5, 13, 21, ... and 8, 16,
#         24, ...) in block (sequential) order and, at multiples of the node
#         count, cyclic, on yahoo-16x8 (P up to 128) and cervino-5x32 (P up
#         to 160): the cores of the paper's clusters; its larger counts ran
#         more processes than cores, which SMPI does not model. Then the same
#         on the -nocost twins. About 15 minutes (Yahoo) and 30 (Cervino)
#         per platform.
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
        common=("MCB_LAUNCHER=sim:$platform" "MCB_RESULTS=$PWD/$out" MCB_NODES=32 MCB_RANKS_PER_NODE=64)
        env "${common[@]}" MCB_SIZES=16:4096 scripts/tra_compare.sbatch
        env "${common[@]}" MCB_SIZES=16,128,1024,8192 MCB_NODE_COUNTS=8,16,32 scripts/tra_radix.sbatch
        env "${common[@]}" MCB_NODE_COUNTS=8,16,32 scripts/tra2_radix.sbatch
        gzip -f "$out"/*.csv
      done ;;
    locality)
      for platform in dane-32x112 dane-32x112-nocost; do
        out=$here/locality-$platform
        mkdir -p "$out"
        for algorithm in node_aware locality_aware multileader_node_aware hierarchical multileader system pairwise; do
          # The gather-based algorithms at 4096 B: SMPI's linear gather and
          # scatter (receive in place), as its binomial ones keep P x 4 KiB
          # temporary buffers per rank in private memory (more than 24 GB).
          # The committed multileader_node_aware-4096B-lineargather file ran
          # 1 to 4096 B: at 4, 64 and 1024 B it is within 0.1% of binomial.
          gathers=(--cfg smpi/gather:ompi_basic_linear --cfg smpi/scatter:ompi_basic_linear)
          case $algorithm in
            hierarchical | multileader | multileader_node_aware)
              runs=("4,64,1024 -" "4096:4096 4096B-lineargather-") ;;
            *) runs=("4,64,1024,4096 -") ;;
          esac
          for run in "${runs[@]}"; do
            read -r sizes tag <<<"$run"
            csv=$out/alltoall_sizes-$algorithm-${tag#-}N32-n3584-run1.csv
            [[ -f $csv.gz ]] && continue  # resumable: one file per run
            cfg=()
            [[ $tag == - ]] || cfg=("${gathers[@]}")
            # shellcheck disable=SC2086 # MCB_ARGS is a word list
            scripts/simulate.py --platform "$platform" --nodes 32 --ranks-per-node 112 --launch "${cfg[@]}" -- \
              "$MCB_BIN/mcb_alltoall" --algorithm "$algorithm" --inner pairwise,nonblocking --procs-per-leader 4 \
              --procs-per-group 4 -m "$sizes" --csv "$csv" $MCB_ARGS
            gzip -f "$csv"
          done
        done
        # Figure 13 (plots/locality_fig13.py): hierarchical with isolated phases, 8 nodes.
        csv=$out/breakdown_hierarchical-N8-n896-run1.csv
        if [[ ! -f $csv.gz ]]; then
          # shellcheck disable=SC2086 # MCB_ARGS is a word list
          scripts/simulate.py --platform "$platform" --nodes 8 --ranks-per-node 112 --launch -- \
            "$MCB_BIN/mcb_alltoall" --algorithm hierarchical --inner pairwise,nonblocking --phase-mode isolated \
            -m 4,64,256,1024,4096 --csv "$csv" $MCB_ARGS
          gzip -f "$csv"
        fi
      done ;;
    nodes)
      all=system,hierarchical,multileader,node_aware,locality_aware,multileader_node_aware
      # (file, nodes in the launch, mcb arguments), resumable per file
      for run in "N8-n896 8 --algorithm $all -m 4,4096 --nodes 2,4,8" "4B-N16-n1792 16 --algorithm $all -m 4:4" \
        "4096B-N16-n1792 16 --algorithm system,node_aware,locality_aware -m 4096:4096"; do
        read -r name n args <<<"$run"
        csv=$here/locality-dane-32x112/alltoall_nodes-$name-run1.csv
        [[ -f $csv.gz ]] && continue
        # shellcheck disable=SC2086 # word lists
        scripts/simulate.py --platform dane-32x112 --nodes "$n" --ranks-per-node 112 --launch -- \
          "$MCB_BIN/mcb_alltoall" $args --inner pairwise,nonblocking --procs-per-leader 4 --procs-per-group 4 \
          --csv "$csv" $MCB_ARGS
        gzip -f "$csv"
      done ;;
    sparbit)
      for platform in yahoo-16x8 cervino-5x32 yahoo-16x8-nocost cervino-5x32-nocost; do
        out=$here/sparbit-$platform
        [[ -f $out/allgather_sparbit-cells.csv ]] && continue  # resumable: written last
        mkdir -p "$out"
        shape=${platform#*-}
        shape=${shape%-nocost}
        MCB_LAUNCHER=sim:$platform MCB_RESULTS=$PWD/$out MCB_NODES=${shape%x*} MCB_RANKS_PER_NODE=${shape#*x} \
          scripts/allgather_sparbit.sbatch | sed -n '/^# rank order/,$p' > "$out/compare_best.txt"
        gzip -f "$out"/*-run1.csv
      done ;;
    *) echo "make.sh: unknown part '$part' (parts: tra, locality, nodes, sparbit)" >&2; exit 2 ;;
  esac
done
echo "make.sh: ${parts[*]} done in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s" >&2
