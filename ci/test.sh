#!/usr/bin/env bash
# The test command of the README and of CI: installs the dependencies, builds
# mcb with Open MPI and with MPICH and runs the CTest suite on both
# (multi-host runs and a private Slurm included), checks the formatting,
# builds the SimGrid simulation variant and runs its tests, and compiles the
# CUDA (where nvcc exists) and HIP backends, running their tests that skip
# without a GPU. It ends with each step's wall time and each build's ten
# slowest tests, and fails when the whole run took longer than its budget.
#   ci/test.sh                  CI: the first MPI runs every test but those
#                               labelled extended, the second MPI also leaves
#                               out those labelled sweep (docs/development.md)
#   ci/test.sh --extended       every test on both MPIs (about 21 minutes here; no budget)
#   MCB_MPIS=openmpi ci/test.sh one MPI only
#   MCB_CI_BUDGET=SECONDS       the budget (default 1800 s: the 30 minutes CI must stay under)
set -euo pipefail
cd "$(dirname "$0")/.."
extended=0
case ${1:-} in
  "") ;;
  --extended) extended=1 ;;
  *) echo "usage: ci/test.sh [--extended]" >&2; exit 2 ;;
esac
budget=${MCB_CI_BUDGET:-1800}
[[ $budget =~ ^[0-9]+$ ]] || { echo "ci/test.sh: MCB_CI_BUDGET=$budget: expected whole seconds" >&2; exit 2; }
# timed, run_ctest, report_ctest, report_times: ci/run-ctest.sh.
source ci/run-ctest.sh
timed install-deps ci/install-deps.sh
jobs=$(nproc)
# Three tests at once on 2 cores: a test is mostly its launch (mpirun and
# MPI_Init of oversubscribed ranks, partly idle), and a third test fills the
# gaps: 121 alltoall, allgather and node-aware tests took 75-88 s at -j 3
# against 96-98 s at -j 2 (issue 55).
ctest_jobs=3
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

# configure_and_build DIR CMAKE_ARGS... [-- TARGETS...]
configure_and_build() {
  local dir=$1 args=() targets=()
  shift
  while (($#)) && [[ $1 != -- ]]; do args+=("$1"); shift; done
  if (($#)); then shift; targets=(--target "$@"); fi
  # (errexit is off inside timed's call: each step returns its own failure)
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${args[@]}" "${launcher[@]}" >/dev/null || return
  cmake --build "$dir" -j "$jobs" "${targets[@]}"
}

plots=ON  # the figure and batch-script tests need no particular MPI: the first build runs them
leave_out='^extended$'
((extended)) && leave_out=
for mpi in ${MCB_MPIS:-openmpi mpich}; do
  echo "== build and test with $mpi${leave_out:+ (leaving out the tests labelled $leave_out)}"
  timed "build-ci-$mpi: configure and build" configure_and_build "build-ci-$mpi" -DMCB_MPI="$mpi" \
    -DMCB_ENABLE_CUDA=OFF -DMCB_ENABLE_HIP=OFF -DMCB_PLOT_TESTS=$plots
  plots=OFF
  timed "build-ci-$mpi: tests" run_ctest "build-ci-$mpi" -j $ctest_jobs ${leave_out:+-LE "$leave_out"} || status=1
  # The second MPI runs each sweep's representatives only (label sweep).
  ((extended)) || leave_out='^(extended|sweep)$'
done

echo "== simulation build (SimGrid SMPI, -DMCB_SIMULATE=ON) and its tests"
timed "build-ci-sim: configure and build" configure_and_build build-ci-sim -DMCB_SIMULATE=ON -- mcb_alltoall \
  mcb_allgather mcb_allreduce mcb_breakdown sim_misbehave sim_model_probe sim_local_work_probe
timed "build-ci-sim: tests" run_ctest build-ci-sim -j $ctest_jobs || status=1

nvcc=$(command -v nvcc || ls -d /usr/local/cuda*/bin/nvcc 2>/dev/null | sort | tail -n 1 || true)
cuda=(-DMCB_ENABLE_CUDA=OFF)
[[ -n "$nvcc" ]] && cuda=(-DMCB_ENABLE_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90)
echo "== GPU build (CUDA: ${nvcc:-no nvcc, skipped}; HIP: Debian's hipcc): compile, and the no-GPU path"
# Only what its tests below need: the library with both backends and three binaries.
timed "build-ci-cuda: configure and build" configure_and_build build-ci-cuda "${cuda[@]}" -DMCB_ENABLE_HIP=ON -- \
  mcb_unit_tests mcb_alltoall mcb_allreduce mcb_copy_bw
# The gpu_ tests run on a GPU and are reported as skipped without one.
timed "build-ci-cuda: tests" run_ctest build-ci-cuda -R 'bad_mem|bad_gpu_aware_refused|alltoall_p4$|unit|^gpu_' ||
  status=1
report_ctest "build-ci-*"
report_times "build-ci-*"
echo "== ci/test.sh: $SECONDS s in all$( ((extended)) || echo ", budget $budget s")"
if ((!extended && SECONDS > budget)); then
  echo "ci/test.sh: took $SECONDS s, over its budget of $budget s: the slowest steps and tests are above" \
    "(docs/development.md, 'How long CI takes')"
  status=1
fi
exit $status
