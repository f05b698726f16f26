#!/usr/bin/env bash
# Runs a command inside a private Slurm cluster on this machine, then stops it:
#   ci/with-slurm.sh [--timeout SECONDS] [--cpus N] COMMAND ARGS...
# Starts slurmctld and one slurmd (one node named as this machine, at
# 127.0.0.1, N CPUs, default 64, so that srun -n 32 fits on a 2-core box)
# with a configuration under a new
# temporary directory, exports SLURM_CONF and the environment that Open MPI and
# PMIx need under srun, runs COMMAND, and stops both daemons by PID and removes
# the directory, whether COMMAND passed, failed or ran out of time (exit 124).
# Needs Debian's slurmctld, slurmd and slurm-client (ci/install-deps.sh), and
# root (slurmd starts jobs as their user). Nothing outside the directory is
# touched: no system service, no munge (auth/none). Exits 77 (skipped)
# without Slurm or without root.
set -euo pipefail
timeout=600
cpus=64
while [[ $# -gt 0 ]]; do
  case $1 in
    --timeout) timeout=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    *) break ;;
  esac
done
if [[ $# -eq 0 ]]; then
  echo "usage: $0 [--timeout SECONDS] [--cpus N] COMMAND ARGS..." >&2
  exit 2
fi
# Exit 77 (CTest's "skipped") where this cannot work.
for d in slurmctld slurmd srun sbatch; do
  command -v $d >/dev/null || { echo "with-slurm: $d not found (ci/install-deps.sh installs Slurm)" >&2; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "with-slurm: slurmd must run as root" >&2; exit 77; }

dir=$(mktemp -d /tmp/mcb-slurm.XXXXXX)
user=$(id -un)
# The node carries this machine's own name, as on a real cluster: PMIx 5
# clients (Open MPI 5) find their node's data (PMIX_LOCAL_PEERS) by the
# hostname, and under a node named otherwise every rank but the first two
# failed in MPI_Init (local rank above its count of local peers).
node=$(hostname -s)
# Ports of our own, away from a system Slurm's 6817/6818.
ctld_port=$((17000 + RANDOM % 1000))
slurmd_port=$((ctld_port + 1000))
mkdir -p "$dir/spool/$node" "$dir/state" "$dir/tmp/$node" "$dir/log"
cat > "$dir/slurm.conf" <<EOF
ClusterName=mcb-ci
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
TmpFS=$dir/tmp/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$dir/slurm.conf

stop() {
  local rc=$?
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [[ -s $pidfile ]] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 0.5
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [[ -s $pidfile ]] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true
  done
  # Jobs left behind by a failed or timed-out command.
  pkill -9 -f "slurmstepd.*$dir" 2>/dev/null || true
  if [[ $rc -ne 0 ]]; then
    echo "with-slurm: exit $rc; last lines of the daemons' logs:" >&2
    tail -n 5 "$dir"/log/*.log >&2 || true
  fi
  rm -rf "$dir"
  exit $rc
}
trap stop EXIT
trap 'exit 130' INT TERM

slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$node"
# Wait until the node is idle (under a second here).
for _ in $(seq 100); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
  [[ $state == idle ]] && break
  sleep 0.1
done
if [[ $state != idle ]]; then
  echo "with-slurm: the node did not come up (state '${state:-none}')" >&2
  exit 1
fi
echo "with-slurm: Slurm up in $dir (node $node, $cpus CPUs)"
# Open MPI under srun does not know it is oversubscribed: yield when idle.
export OMPI_MCA_mpi_yield_when_idle=1 PMIX_MCA_gds=hash
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
set +e
timeout --kill-after=10 "$timeout" "$@"
rc=$?
set -e
[[ $rc -eq 124 ]] && echo "with-slurm: FAIL: the command ran past $timeout s" >&2
exit $rc
