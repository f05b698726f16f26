#!/usr/bin/env bash
# Proves that the bundles of scripts/gpu/bundle.sh run on a machine that has
# neither the system's MPI nor CUDA: inside a mount namespace where Debian's
# Open MPI, PMIx, /usr/local/cuda and /opt/mcb (the CUDA-aware Open MPI) are
# hidden under empty tmpfs mounts, with an empty environment, each bundle's
# mcb_allreduce must validate on host memory under the bundle's own mpirun,
# find its CUDA runtime (and stop with the clear no-GPU line for -d cuda), and
# refuse or accept --gpu-aware yes as its MPI says. Needs root (unshare).
#   tests/gpu/bundle_hidden.sh [BUNDLE_DIR]   (default .gpu)
set -euo pipefail
b=$(cd "${1:-.gpu}" && pwd)
hidden=(/usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /usr/local/cuda)
[[ -d /opt/mcb ]] && hidden+=(/opt/mcb)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for bundle in debian ompi-cuda; do
  [[ -d $b/$bundle ]] || { echo "bundle_hidden: no $b/$bundle"; [[ $bundle == debian ]] && status=1; continue; }
  echo "== $bundle (hidden: ${hidden[*]})"
  {
    echo "set -e; source $b/$bundle/env.sh"
    cat <<'RUN'
! ldd "$(command -v mcb_allreduce)" | grep "not found"
mpirun -n 2 mcb_allreduce -c -m 1024,65536 -i 5 -x 1 --algorithm system,ring | grep -E "^(# MPI:|1024 |65536 )"
mpirun -n 2 mcb_allreduce -d cuda -m 4 2>&1 | grep -m1 "no usable CUDA device"
echo "--gpu-aware yes: $(mpirun -n 2 mcb_allreduce -d cuda --gpu-aware yes -m 4 2>&1 | grep -m1 error: || true)"
RUN
  } >"$tmp/run.sh"
  if ! unshare --mount bash -c "for d in ${hidden[*]}; do mount -t tmpfs none \$d; done
      exec env -i PATH=/usr/bin:/bin HOME=/tmp bash $tmp/run.sh"; then
    echo "bundle_hidden: $bundle FAILED"
    status=1
  fi
done
exit $status
