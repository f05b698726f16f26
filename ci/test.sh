#!/usr/bin/env bash
# The test command of the README and of CI: installs the dependencies, builds
# mcb with Open MPI and with MPICH and runs the whole CTest suite on both
# (multi-host runs and a private Slurm included), checks the formatting,
# builds the SimGrid simulation variant and runs its tests, and compiles the
# CUDA (where nvcc exists) and HIP backends, running their tests that skip
# without a GPU.
#   ci/test.sh            everything
#   MCB_MPIS=openmpi ci/test.sh    one MPI only
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
jobs=$(nproc)
status=0
# ccache (from install-deps) keeps rebuilds of unchanged files cheap, also
# across clones of the repository (paths hashed relative to the clone).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$PWD
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

echo "== clang-format"
if ! git ls-files '*.cpp' '*.hpp' '*.cu' '*.c' | xargs clang-format --dry-run --Werror; then
  echo "clang-format: files above need formatting (clang-format -i)"; status=1
fi

# run_ctest DIR [ARGS] and the flaky list: ci/run-ctest.sh.
source ci/run-ctest.sh

plots=ON  # the figure and batch-script tests need no particular MPI: the first build runs them
for mpi in ${MCB_MPIS:-openmpi mpich}; do
  echo "== build and test with $mpi"
  cmake -S . -B "build-ci-$mpi" -DCMAKE_BUILD_TYPE=Release -DMCB_MPI="$mpi" -DMCB_ENABLE_CUDA=OFF -DMCB_ENABLE_HIP=OFF \
    -DMCB_PLOT_TESTS=$plots "${launcher[@]}" >/dev/null
  plots=OFF
  cmake --build "build-ci-$mpi" -j "$jobs"
  run_ctest "build-ci-$mpi" -j 2 || status=1
done

echo "== simulation build (SimGrid SMPI, -DMCB_SIMULATE=ON) and its tests"
cmake -S . -B build-ci-sim -DCMAKE_BUILD_TYPE=Release -DMCB_SIMULATE=ON "${launcher[@]}" >/dev/null
cmake --build build-ci-sim -j "$jobs" --target mcb_alltoall mcb_allgather mcb_allreduce mcb_breakdown sim_misbehave \
  sim_model_probe sim_local_work_probe
run_ctest build-ci-sim -j 2 || status=1

nvcc=$(command -v nvcc || ls -d /usr/local/cuda*/bin/nvcc 2>/dev/null | sort | tail -n 1 || true)
cuda=(-DMCB_ENABLE_CUDA=OFF)
[[ -n "$nvcc" ]] && cuda=(-DMCB_ENABLE_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90)
echo "== GPU build (CUDA: ${nvcc:-no nvcc, skipped}; HIP: Debian's hipcc): compile, and the no-GPU path"
cmake -S . -B build-ci-cuda -DCMAKE_BUILD_TYPE=Release "${cuda[@]}" -DMCB_ENABLE_HIP=ON "${launcher[@]}" >/dev/null
# Only what its tests below need: the library with both backends and three binaries.
cmake --build build-ci-cuda -j "$jobs" --target mcb_unit_tests mcb_alltoall mcb_allreduce mcb_copy_bw
# The gpu_ tests run on a GPU and are reported as skipped without one.
run_ctest build-ci-cuda -R 'bad_mem|bad_gpu_aware_refused|alltoall_p4$|unit|^gpu_' || status=1
report_ctest "build-ci-*"
exit $status
