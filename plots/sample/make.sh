#!/usr/bin/env bash
# Regenerates plots/sample/: every figure script of scripts/ run small on this
# machine, so that every plot has data and is tested in CI. Not timings to
# quote: the locality and TRA alltoall figures are simulated (SimGrid SMPI,
# scripts/sim/platforms/, deterministic, local work not timed); the allgather,
# allreduce, reduce, bcast, PPG and FFT figures ran oversubscribed on 2 cores
# (Open MPI, host memory standing in for GPU memory).
#
#   plots/sample/make.sh [BUILD] [SIM_BUILD]   # default build-ci-openmpi, build-sim
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build-ci-openmpi}" && pwd)
sim=$(cd "${2:-$root/build-sim}" && pwd)
out=$root/plots/sample
rm -f "$out"/*.csv "$out"/*.csv.gz
export MCB_RESULTS=$out MCB_SCRIPTS=$root/scripts/batch
sc=$root/scripts/batch

# Simulated: 4 to 8 nodes of the many-core platform, 8 ranks per node, one iteration (deterministic).
sim_env=(MCB_BIN="$sim/src" MCB_LAUNCHER=sim:manycore-32x112 MCB_RUNS=1 MCB_ARGS="-i 1 -x 1")
sizes=4,16,64,256,1024,4096
env "${sim_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=16 MCB_SIZES=$sizes MCB_LEADERS=4,8,16 "$sc/alltoall_leaders.sbatch"
env "${sim_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=16 MCB_SIZES=$sizes "$sc/alltoall_sizes.sbatch"
env "${sim_env[@]}" MCB_NODES=8 MCB_RANKS_PER_NODE=8 "$sc/alltoall_nodes.sbatch"
env "${sim_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=16 MCB_SIZES=$sizes MCB_ARGS="-i 1 -x 1" "$sc/alltoall_breakdown.sbatch"
env "${sim_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=16 MCB_SIZES=$sizes MCB_SYSTEM=dragonfly \
  MCB_LAUNCHER=sim:dragonfly-32x64 "$sc/alltoall_systems.sbatch"
env "${sim_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=16 MCB_SIZES=$sizes MCB_SYSTEM=gpu16x4 \
  MCB_LAUNCHER=sim:gpu-16x4 "$sc/alltoall_systems.sbatch"
env "${sim_env[@]}" MCB_NODES=8 MCB_RANKS_PER_NODE=8 MCB_NODE_COUNTS=2,4,8 MCB_SIZES=16,128,1024,8192 \
  "$sc/tra_radix.sbatch"
env "${sim_env[@]}" MCB_NODES=8 MCB_RANKS_PER_NODE=8 MCB_NODE_COUNTS=4,8 MCB_SIZES=16,256,1024,4096 \
  "$sc/tra2_radix.sbatch"
env "${sim_env[@]}" MCB_NODES=8 MCB_RANKS_PER_NODE=8 MCB_SIZES=16,64,256,1024,4096 "$sc/tra_compare.sbatch"
MCB_BIN=$build/src "$sc/tra_model.sh"
gzip -f "$out/tra_model.csv"

# Oversubscribed on this machine (Open MPI), small.
loc_env=(MCB_BIN="$build/src" MCB_LAUNCHER=local)
ar_sizes=4,16,64,256,1024,4096,16384,65536,262144,1048576
env "${loc_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=4 MCB_SIZES=1:16384 MCB_ARGS="-i 20 -x 2" "$sc/allgather_sparbit.sbatch" \
  >"$out/allgather_sparbit-compare_best.txt"
env "${loc_env[@]}" MCB_NODES=1 MCB_RANKS_PER_NODE=8 MCB_RUNS=2 MCB_SIZES=$ar_sizes MCB_ARGS="-i 20 -x 2" \
  "$sc/allreduce_node.sbatch" >/dev/null
env "${loc_env[@]}" MCB_NODES=2 MCB_RANKS_PER_NODE=4 MCB_RUNS=2 MCB_SIZES=$ar_sizes MCB_ARGS="-i 20 -x 2" \
  "$sc/allreduce_nodes.sbatch" >/dev/null
env "${loc_env[@]}" MCB_NODES=1 MCB_RANKS_PER_NODE=8 MCB_RUNS=2 MCB_SIZES=$ar_sizes MCB_ARGS="-i 20 -x 2" \
  "$sc/reduce_bcast.sbatch" >/dev/null
env "${loc_env[@]}" MCB_NODES=2 MCB_RANKS_PER_NODE=4 MCB_RUNS=3 MCB_SIZES=$ar_sizes MCB_ARGS="-i 20 -x 2" \
  MCB_GPUS_PER_NODE=1 MCB_MEM=host "$sc/pingpong_ppg.sbatch" >/dev/null
env "${loc_env[@]}" MCB_NODES=4 MCB_RANKS_PER_NODE=4 MCB_RUNS=3 MCB_SIZES=4096:1048576 MCB_BIG=1048576 \
  MCB_ARGS="-i 10 -x 2" MCB_GPUS_PER_NODE=1 MCB_MEM=host "$sc/allreduce_ppg.sbatch" >/dev/null
env "${loc_env[@]}" MCB_NODES=2 MCB_RANKS_PER_NODE=4 MCB_RUNS=1 MCB_ARGS="-i 20 -x 2" "$sc/tra_fft.sbatch" >/dev/null
echo "sample: $(ls "$out"/*.csv* | wc -l) files in $out"
