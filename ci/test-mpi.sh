#!/usr/bin/env bash
# The whole CTest suite against an MPI installed in a prefix of its own (one
# that scripts/mpi/build-mpi.sh built: /opt/mcb/openmpi-5.0.7,
# /opt/mcb/mpich-4.2.1), the fake multi-host and local Slurm tests where
# the MPI's launcher supports them:
#   ci/test-mpi.sh PREFIX [CTEST ARGS...]   e.g. ci/test-mpi.sh /opt/mcb/openmpi-5.0.7 -L multihost
# Builds mcb into build-mpi-NAME (NAME = the prefix's folder), runs ctest -j 2
# there (a failed test once more, as ci/test.sh does), and prints the MPI's
# exact version. Not part of CI (the MPI is not a Debian package; about as
# long as one MPI of ci/test.sh). Needs ci/install-deps.sh's packages.
# Exit: 0 all passed, 1 a test failed, 2 no such MPI.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: ci/test-mpi.sh PREFIX [CTEST ARGS...]" >&2; exit 2; }
prefix=$(realpath -m "$1")
shift
[[ -x $prefix/bin/mpicxx && -x $prefix/bin/mpiexec ]] ||
  { echo "test-mpi: $prefix has no bin/mpicxx and bin/mpiexec (scripts/mpi/build-mpi.sh NAME builds one)" >&2; exit 2; }
name=$(basename "$prefix")
dir=build-mpi-$name
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$PWD
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
source ci/run-ctest.sh
start=$(date +%s)
echo "== $name: $("$prefix/bin/mpichversion" 2>/dev/null | head -n 1 ||
  "$prefix/bin/ompi_info" --version 2>/dev/null | head -n 1)"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMCB_MPI_PREFIX="$prefix" -DMCB_ENABLE_CUDA=OFF \
  -DMCB_ENABLE_HIP=OFF -DMCB_PLOT_TESTS=OFF "${launcher[@]}" | grep -E 'mcb: (MPI|mpiexec)'
cmake --build "$dir" -j "$(nproc)"
status=0
run_ctest "$dir" -j 2 "$@" || status=1
report_ctest "$dir"
echo "== $name: $( ((status == 0)) && echo passed || echo FAILED) in $(($(date +%s) - start)) s"
exit $status
