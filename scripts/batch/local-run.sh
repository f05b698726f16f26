#!/usr/bin/env bash
# Runs an mcb binary on this machine with the right launcher and flags:
#   scripts/batch/local-run.sh -n RANKS BINARY [ARGS...]
# MCB_MPI=openmpi (default) uses mpirun with --oversubscribe --bind-to none
# (and the run-as-root variables when root); MCB_MPI=mpich uses mpiexec.mpich.
# On a cluster use srun or your site's mpirun instead (docs/running.md).
set -euo pipefail
[[ ${1:-} == -n && $# -ge 3 ]] || { echo "usage: $0 -n RANKS BINARY [ARGS...]" >&2; exit 2; }
ranks=$2
shift 2
case ${MCB_MPI:-openmpi} in
  openmpi)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    exec mpirun.openmpi --oversubscribe --bind-to none -n "$ranks" "$@" ;;
  mpich)
    exec mpiexec.mpich -n "$ranks" "$@" ;;
  *)
    echo "$0: MCB_MPI=${MCB_MPI}: expected openmpi or mpich" >&2; exit 2 ;;
esac
