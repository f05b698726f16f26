#!/usr/bin/env bash
# Installs the dependencies, builds mcb and runs the default alltoall
# benchmark (every algorithm, validated) on 2 ranks of this machine.
#   ci/quickstart.sh                 Open MPI, build directory build/
#   MCB_MPI=mpich ci/quickstart.sh   MPICH, build directory build-mpich/
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
mpi=${MCB_MPI:-openmpi}
build=build
[[ $mpi == openmpi ]] || build=build-$mpi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMCB_MPI="$mpi"
cmake --build "$build" -j "$(nproc)"
MCB_MPI=$mpi scripts/batch/local-run.sh -n 2 "$build/src/mcb_alltoall" --algorithm all -c -f --csv "$build/alltoall.csv"
echo "quickstart: rows written to $build/alltoall.csv"
