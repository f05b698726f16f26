#!/usr/bin/env bash
# The GPU check of mcb, in one call on a bare GPU machine (one lent H100 or
# H200: a GPU driver, no MPI), from the bundles of scripts/gpu/bundle.sh:
#   1. checks: every allreduce algorithm validated (-c) at PPG 1, 2, 4 and 8
#      on two virtual nodes sharing the GPU, without and with MPS; the
#      ping-pong validated; alltoall/allgather on device buffers; the device
#      reduction kernels' unit test; --gpu-aware yes refused by Debian's
#      Open MPI, and run (with auto) on the CUDA-aware one;
#   2. timed runs: pinned against pageable staging, the device kernels
#      against a device-to-device copy, the multi-PPG ping-pong (Figure 5)
#      and the PPG allreduces (Figures 10-12's shapes) with host copies and
#      GPU-aware, without and with MPS;
# and writes one folder of results: summary.txt (a line per step: rc,
# seconds, failed validations), env.txt, every step's log and CSV.
#   ci/gpu-check.sh [BUNDLE_DIR] [OUT_DIR]   (defaults .gpu and $OUT/gpu-check)
# BUNDLE_DIR holds the bundles' folders, or only their pack (pack/bundles.tar.xz,
# which is what travels to the GPU machine), unpacked here first.
# Environment: DEADLINE (seconds for the whole check, default 450: steps
# that would start after it are skipped, with a line), QUICK=1 (checks only).
# Exit: 0 when every check passed, 1 otherwise (timed steps count too).
set -uo pipefail
bundle=$(cd "${1:-.gpu}" && pwd)
if [[ ! -d $bundle/debian && -f $bundle/pack/bundles.tar.xz ]]; then
  tar -C "$bundle" -xJf "$bundle/pack/bundles.tar.xz" || { echo "gpu-check: cannot unpack $bundle/pack" >&2; exit 2; }
fi
[[ -f $bundle/debian/env.sh ]] || { echo "gpu-check: no bundle in $bundle (scripts/gpu/bundle.sh)" >&2; exit 2; }
out=${2:-${OUT:-/tmp/out}/gpu-check}
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$(date +%s)
deadline=${DEADLINE:-450}
summary=$out/summary.txt
: >"$summary"
failed=0

# step NAME SECONDS [--expect-rc RC] COMMAND...: runs COMMAND (in the MPI of
# the current bundle) with a timeout, logs it to NAME.txt, and adds a line to
# summary.txt: its exit status, seconds, and the "fail" lines of its output.
step() {
  local name=$1 secs=$2 want=0
  shift 2
  if [[ ${1:-} == --expect-rc ]]; then want=$2; shift 2; fi
  local left=$((deadline - ($(date +%s) - start)))
  if ((left < 15)); then
    echo "$name: skipped (deadline ${deadline}s)" | tee -a "$summary"
    failed=1
    return
  fi
  ((secs > left)) && secs=$left
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout -k 5 "$secs" "$@" >"$out/$name.txt" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local verdict=ok
  [[ $rc == "$want" ]] || { verdict=FAILED; failed=1; }
  printf '%-40s %-6s rc=%-3s %6.1fs  %s fail lines\n' "$name" "$verdict" "$rc" "$(awk "BEGIN {print $t1 - $t0}")" \
    "$(grep -ci 'fail' "$out/$name.txt")" | tee -a "$summary"
}

use() {  # use debian|ompi-cuda: that bundle's MPI and binaries
  # shellcheck disable=SC1090
  source "$bundle/$1/env.sh"
  R=(mpirun --bind-to core --map-by core)
}
mps() {  # mps on|off
  if [[ $1 == on ]]; then
    nvidia-cuda-mps-control -d && sleep 1
  else
    echo quit | nvidia-cuda-mps-control 2>/dev/null
    sleep 1
  fi
}

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_mode,pcie.link.gen.max,pcie.link.width.max \
    --format=csv
  nvidia-smi topo -m 2>&1 | head -5
  head -2 /etc/os-release
  ldd --version | head -1
  nproc
  lscpu | grep -i "model name\|numa node(s)\|socket(s)"
  for b in "$bundle"/*/; do echo "bundle $b: $(ldd "$b/bin/mcb_allreduce" | grep -c 'not found') libraries not found"; done
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

sizes=4,4096,1048576,16777216
A=all
# 1. Checks with Debian's Open MPI (host copies), without MPS, then with it.
use debian
mcb_allreduce --version >>"$out/env.txt" 2>&1
# The device kernels' unit test: skipped (no GPU seen) counts as failed here.
step unit_device_kernels 120 bash -c 'out=$(mcb_unit_tests --gtest_filter="DeviceReduction.*:HostMemory.*" 2>&1)
  rc=$?; echo "$out"; [[ $rc == 0 ]] && ! grep -q "SKIPPED \]" <<<"$out"'
step refuse_gpu_aware 30 --expect-rc 2 "${R[@]}" -n 4 mcb_allreduce -d cuda --gpu-aware yes -m 4 \
  --ranks-per-node 2 --procs-per-gpu 2
for m in off on; do
  mps $m
  for ppg in 1 2 4 8; do
    step "allreduce_ppg${ppg}_mps_$m" 90 "${R[@]}" -n $((2 * ppg)) mcb_allreduce -d cuda -c -m $sizes -i 3 -x 1 \
      --algorithm $A --ranks-per-node "$ppg" --gpus-per-node 1 --procs-per-gpu "$ppg" \
      --csv "$out/allreduce_ppg${ppg}_mps_$m.csv"
  done
  step "pingpong_check_ppg8_mps_$m" 60 "${R[@]}" -n 16 mcb_pingpong -d cuda -c --ranks-per-node 8 \
    --procs-per-gpu 8 -m 1:1048576 -i 5 -x 1
done
mps off
step alltoall_device 60 "${R[@]}" -n 4 mcb_alltoall -d cuda -c -m 8,4096 -i 5 -x 1 --ranks-per-node 2 \
  --algorithm system,pairwise,bruck,tra,node_aware
step allgather_device 60 "${R[@]}" -n 4 mcb_allgather -d cuda -c -m 8,4096 -i 5 -x 1 --algorithm all

# 2. Checks with the CUDA-aware Open MPI: every algorithm on device buffers
#    (auto: the MPI says yes), mcb's device kernels in ring and the others.
if [[ -d $bundle/ompi-cuda ]]; then
  use ompi-cuda
  for ppg in 1 2 4; do
    step "aware_allreduce_ppg$ppg" 90 "${R[@]}" -n $((2 * ppg)) mcb_allreduce -d cuda -c -m $sizes -i 3 -x 1 \
      --algorithm $A --ranks-per-node "$ppg" --gpus-per-node 1 --procs-per-gpu "$ppg" --gpu-aware yes \
      --csv "$out/aware_allreduce_ppg$ppg.csv"
  done
  step aware_auto 60 "${R[@]}" -n 4 mcb_allreduce -d cuda -c -m $sizes -i 3 -x 1 --algorithm ring,system \
    --ranks-per-node 2 --procs-per-gpu 2
  step aware_pingpong_check 60 "${R[@]}" -n 8 mcb_pingpong -d cuda -c --ranks-per-node 4 --procs-per-gpu 4 \
    -m 1:1048576 -i 5 -x 1 --gpu-aware yes
  step aware_alltoall 60 "${R[@]}" -n 4 mcb_alltoall -d cuda -c -m 8,4096 -i 5 -x 1 --ranks-per-node 2 \
    --algorithm system,pairwise,bruck,tra,node_aware
else
  echo "no CUDA-aware bundle in $bundle: GPU-aware checks left out" | tee -a "$summary"
  failed=1
fi
[[ ${QUICK:-0} == 1 ]] && { echo "total $(($(date +%s) - start)) s" | tee -a "$summary"; exit $failed; }

# 3. Timed runs (the numbers of docs/gpu.md and the figures' CSVs).
use debian
big=268435456  # 256 MiB
step copy_bw_device 60 mcb_copy_bw -d cuda -m 1048576:268435456 -i 20
for s in pinned pageable; do
  step "staging_$s" 60 "${R[@]}" -n 2 mcb_allreduce -d cuda -f -m 1048576,16777216,$big -i 10 -x 2 \
    --algorithm system,ppg_standard --ranks-per-node 1 --procs-per-gpu 1 --gpu-aware no --staging $s \
    --csv "$out/staging_$s.csv"
done
# Figure 5: 1 to 8 active processes per GPU, to 64 MiB; file names as plots/ppg_fig05.py reads them.
for m in off on; do
  mps $m
  mkdir -p "$out/fig05-mps-$m"
  step "pingpong_fig05_mps_$m" 90 "${R[@]}" -n 16 mcb_pingpong -d cuda --ranks-per-node 8 --procs-per-gpu 8 \
    -m 4096:67108864 -i 10 -x 2 --csv "$out/fig05-mps-$m/pingpong_ppg-N2-n16-run1.csv"
done
mps off
# Figures 10-12: system, ppg_standard, ppg_lane with PPG 1, 2, 4, 8 to 2^28 floats, host copies
# (Debian's MPI) and GPU-aware (the CUDA-aware one); names as plots/figure.py's ppg rows read them.
fsizes=16384,262144,4194304,67108864,1073741824
for kind in host-copies gpu-aware; do
  if [[ $kind == gpu-aware ]]; then [[ -d $bundle/ompi-cuda ]] || continue; use ompi-cuda; fi
  mkdir -p "$out/ppg-$kind"
  for ppg in 1 2 4 8; do
    step "ppg_sizes_${kind}_p$ppg" 60 "${R[@]}" -n $((2 * ppg)) mcb_allreduce -d cuda -m $fsizes -i 5 -x 1 \
      --algorithm system,ppg_standard,ppg_lane --ranks-per-node "$ppg" --gpus-per-node 1 --procs-per-gpu "$ppg" \
      --csv "$out/ppg-$kind/allreduce_ppg_sizes-p$ppg-N2-n$((2 * ppg))-run1.csv"
  done
done
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
cat >"$out/README.md" <<README
# mcb GPU check, $(date -u +%Y-%m-%d) on ${gpu:-an unnamed GPU}

What ran: ci/gpu-check.sh of mcb $(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo "(no git)"),
with the bundles of scripts/gpu/bundle.sh (Debian's Open MPI 4.1.4: host copies; a CUDA-aware
build of the same Open MPI: GPU-aware). Every multi-process run is **one GPU shared by two
virtual nodes** (--ranks-per-node PPG --gpus-per-node 1: both "nodes" drive device 0, and
their MPI messages cross shared memory, not a network): not the paper's machines (Delta's
4 A100 per node over Slingshot). What it can show: the processes of one GPU sharing its
buffers, time-slicing it without MPS and sharing it under MPS, and the cost of host copies
through pinned and pageable memory; what it cannot: any inter-node effect, or more than one
GPU per node. summary.txt has a line per step, env.txt the machine.
README
echo "total $(($(date +%s) - start)) s" | tee -a "$summary"
exit $failed
