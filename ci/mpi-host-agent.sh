#!/bin/sh
# Open MPI's remote-shell agent for fake hosts on one machine
# (mpirun --mca plm_rsh_agent ci/mpi-host-agent.sh --hostfile ...): instead of
# ssh, start the host's daemon here, in a UTS namespace of its own named after
# the host, so that every "host" has its own hostname and thus its own
# shared-memory node (MPI_COMM_TYPE_SHARED) and session directory, with TCP
# between hosts. Used by tests/run_mpi.py --hosts. Needs root (or user
# namespaces: unshare --map-root-user).
while [ $# -gt 0 ]; do
  case $1 in
    -*) shift ;;  # ssh options Open MPI may pass (-x and the like)
    *) break ;;
  esac
done
host=$1
shift
exec unshare --uts /bin/sh -c "hostname $host && $*"
