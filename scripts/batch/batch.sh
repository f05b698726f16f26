# Shared by the figure scripts (scripts/batch/*.sbatch): where the binaries and the
# results are, how many nodes and ranks per node, how to launch, progress.
# Sourced, not run. Every figure script reads the same variables:
#
#   Under Slurm (sbatch or salloc), nodes and ranks per node come from the
#   allocation (SLURM_JOB_NUM_NODES, SLURM_NTASKS); elsewhere from
#     MCB_NODES           nodes (default 2)
#     MCB_RANKS_PER_NODE  ranks per node (default 4)
#   and the nodes are virtual (mcb --ranks-per-node) on this machine.
#   MCB_RANKS_PER_NODE under Slurm: virtual nodes of that many ranks inside
#   the allocation (a one-node test allocation standing in for several).
#
#   MCB_LAUNCHER  how ranks start:
#       srun ... (default under Slurm: "srun --mpi=pmix"; "srun --mpi=pmi2" for MPICH)
#       local        scripts/batch/local-run.sh: mpirun on this machine (MCB_MPI=openmpi|mpich)
#       sim:PLATFORM scripts/sim/simulate.py on a SimGrid platform (MCB_BIN: the simulation build)
#   MCB_SIM_TIMEOUT  with sim:, seconds a simulation may run before it fails
#                 (default 1800; scripts/sim/paper_scale.py gives its points a day)
#   MCB_BIN       directory of the mcb binaries (default build/src of the submit directory)
#   MCB_RESULTS   results directory, one for every figure (default results/ of the submit directory)
#   MCB_RUNS      repetitions, each its own CSV (default: the paper's)
#   MCB_SIZES     sizes, as mcb's -m (default: the paper's)
#   MCB_ARGS      more options for every mcb run (e.g. -i 100 -x 10, or -c to
#                 validate), instead of the script's own (the paper's iterations)
#   MCB_VALIDATE=0 do not validate (default: every result checked, mcb -c)
#   MCB_DRY_RUN=1 print the commands, run nothing
#
# Progress: every launch prints "[script] run i/n ..., elapsed, ETA" on
# stderr; the binaries add their own per-size progress (--progress).

set -euo pipefail
batch_name=${batch_name:?set batch_name before sourcing batch.sh}
submit=${SLURM_SUBMIT_DIR:-$PWD}
# sbatch runs a copy of the script: find scripts/ from the submit directory.
batch_scripts=${MCB_SCRIPTS:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
bin=${MCB_BIN:-$submit/build/src}
results=${MCB_RESULTS:-$submit/results}
runs=${MCB_RUNS:-${batch_runs:-3}}
read -r -a mcb_args <<<"${MCB_ARGS-${batch_args:-}}"
[[ ${MCB_VALIDATE:-1} == 0 ]] || mcb_args+=(-c)

die() {
  echo "$batch_name: $*" >&2
  exit 2
}

positive() {  # positive NAME VALUE
  [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1=$2: expected a positive integer"
}

positive MCB_SIM_TIMEOUT "${MCB_SIM_TIMEOUT:-1800}"

# Nodes and ranks per node of the allocation (or of the variables).
virtual=0
if [[ -n ${SLURM_JOB_ID:-} ]]; then
  ntasks=${SLURM_NTASKS:?$batch_name: SLURM_NTASKS unset: give the job --ntasks or --ntasks-per-node}
  if [[ -n ${MCB_RANKS_PER_NODE:-} ]]; then
    positive MCB_RANKS_PER_NODE "$MCB_RANKS_PER_NODE"
    virtual=1 per_node=$MCB_RANKS_PER_NODE
    ((ntasks % per_node == 0)) || die "MCB_RANKS_PER_NODE=$per_node does not divide the $ntasks tasks"
    nodes=$((ntasks / per_node))
  else
    nodes=${SLURM_JOB_NUM_NODES:-1}
    ((ntasks % nodes == 0)) || die "$ntasks tasks on $nodes nodes: give the same number of tasks to every node"
    per_node=$((ntasks / nodes))
  fi
  launcher=${MCB_LAUNCHER:-srun --mpi=pmix}
else
  nodes=${MCB_NODES:-2} per_node=${MCB_RANKS_PER_NODE:-4}
  positive MCB_NODES "$nodes"
  positive MCB_RANKS_PER_NODE "$per_node"
  virtual=1
  launcher=${MCB_LAUNCHER:-local}
fi
case $launcher in
  local | srun*) ;;
  sim:*) virtual=0 ;;  # the platform's hosts are the nodes
  *) die "MCB_LAUNCHER=$launcher: expected srun ..., local or sim:PLATFORM" ;;
esac
[[ ${MCB_DRY_RUN:-0} == 1 || -d $bin ]] || die "$bin: no such directory (set MCB_BIN to the mcb binaries)"
mkdir -p "$results"

batch_start=$SECONDS
batch_done=0
batch_total=0

# hms SECONDS: 45s, 1m02s, 1h03m
hms() {
  local s=$1
  if ((s >= 3600)); then printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
  elif ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60))
  else printf '%ds' "$s"; fi
}

# launch NODES PER_NODE BINARY ARGS...: BINARY (a name in MCB_BIN) on NODES
# nodes of PER_NODE ranks, then progress on stderr.
launch() {
  local n=$1 k=$2 binary=$bin/$3
  shift 3
  ((n >= 1 && k >= 1)) || die "launch: $n nodes x $k ranks"
  local total=$((n * k)) cmd
  case $launcher in
    srun*)
      # shellcheck disable=SC2206 # the launcher is a word list
      cmd=($launcher -n "$total")
      if ((virtual)); then cmd+=("$binary" --ranks-per-node "$k"); else cmd+=(-N "$n" --ntasks-per-node="$k" "$binary"); fi ;;
    local) cmd=("$batch_scripts/local-run.sh" -n "$total" "$binary" --ranks-per-node "$k") ;;
    sim:*)
      cmd=("$batch_scripts/../sim/simulate.py" --platform "${launcher#sim:}" --nodes "$n" --ranks-per-node "$k"
        --timeout "${MCB_SIM_TIMEOUT:-1800}" --launch -- "$binary") ;;
  esac
  cmd+=("$@" "${mcb_args[@]}")
  run_step "$n nodes x $k ranks" "${cmd[@]}"
}

# run_step WHAT COMMAND...: one launch, with progress before and after.
run_step() {
  local what=$1
  shift
  ((batch_done)) || echo "$batch_name: $nodes nodes x $per_node ranks ($launcher$( ((virtual)) && echo ', virtual nodes')), $runs runs, into $results" >&2
  batch_done=$((batch_done + 1))
  echo "[$batch_name] run $batch_done/$batch_total: $what: $*" >&2
  if [[ ${MCB_DRY_RUN:-0} == 1 ]]; then return 0; fi
  "$@"
  local spent=$((SECONDS - batch_start))
  local left=$((spent * (batch_total - batch_done) / batch_done))
  echo "[$batch_name] run $batch_done/$batch_total done; elapsed $(hms $spent), ETA $(hms $left)" >&2
}

# launch_ranks RANKS BINARY ARGS...: RANKS ranks that need not fill whole
# nodes (the Sparbit paper's process counts): the launcher spreads them
# (mcb refuses a partial virtual node: with virtual nodes, such a count runs
# as one node).
launch_ranks() {
  local p=$1
  if ((p % per_node == 0)); then launch $((p / per_node)) "$per_node" "${@:2}"; return; fi
  local binary=$bin/$2 cmd
  case $launcher in
    sim:*)
      cmd=("$batch_scripts/../sim/simulate.py" --platform "${launcher#sim:}" --ranks "$p" --ranks-per-node "$per_node" \
        --timeout "${MCB_SIM_TIMEOUT:-1800}" --launch -- "$binary" "${@:3}" "${mcb_args[@]}")
      run_step "$p ranks" "${cmd[@]}"
      return ;;
  esac
  # shellcheck disable=SC2206 # the launcher is a word list
  if [[ $launcher == local ]]; then cmd=("$batch_scripts/local-run.sh" -n "$p" "$binary")
  else cmd=($launcher -n "$p" "$binary"); fi
  cmd+=("${@:3}" "${mcb_args[@]}")
  run_step "$p ranks" "${cmd[@]}"
}

# launch_dealt RANKS BINARY ARGS...: RANKS ranks dealt over the run's nodes,
# as Open MPI's --map-by node does (the Sparbit paper's cyclic mapping at
# any process count): node i runs RANKS/nodes ranks, one more for the first
# RANKS % nodes; mcb numbers them in cyclic order (--rank-order cyclic).
# Real nodes only (the simulator's, or Slurm's without MCB_RANKS_PER_NODE):
# mcb's virtual nodes are equal.
launch_dealt() {
  local p=$1 binary=$bin/$2 cmd n=$nodes
  ((p < n)) && n=$p
  case $launcher in
    sim:*)
      cmd=("$batch_scripts/../sim/simulate.py" --platform "${launcher#sim:}" --ranks "$p" --nodes "$nodes" --deal \
        --timeout "${MCB_SIM_TIMEOUT:-1800}" --launch -- "$binary") ;;
    srun*)
      ((virtual)) && die "launch_dealt: $p ranks dealt over nodes needs real nodes (unset MCB_RANKS_PER_NODE)"
      # shellcheck disable=SC2206 # the launcher is a word list
      cmd=($launcher -n "$p" -N "$n" "$binary") ;;
    *) die "launch_dealt: $p ranks dealt over nodes needs real nodes (sim: or srun), not $launcher" ;;
  esac
  cmd+=("${@:3}" --rank-order cyclic "${mcb_args[@]}")
  run_step "$p ranks dealt over $n nodes" "${cmd[@]}"
}

# csv_name STEM: the results file of one run, named after the script, the
# shape and the repetition: STEM-N{nodes}-n{ranks}-run{r}.csv
csv_name() {
  echo "$results/$1-N${2}-n$(($2 * $3))-run$4.csv"
}

# node_list FROM: FROM, 2*FROM, ... up to the allocation's nodes (and the
# allocation's own count when it is not a power of two times FROM).
node_list() {
  local n=$1 out=()
  while ((n < nodes)); do out+=("$n"); n=$((n * 2)); done
  out+=("$nodes")
  local IFS=,
  echo "${out[*]}"
}

# largest_prime N: the largest prime <= N (the papers' "worst case" count).
largest_prime() {
  local n=$1 d
  for ((; n >= 2; n--)); do
    for ((d = 2; d * d <= n; d++)); do ((n % d == 0)) && continue 2; done
    echo "$n"
    return
  done
  echo 1
}


# divisors LIST N: the values of the comma-separated LIST that divide N (the
# leader and group sizes a node of N ranks can take), comma-separated.
divisors() {
  local v out=() IFS=,
  for v in $1; do
    if ((v <= $2 && $2 % v == 0)); then out+=("$v"); else echo "$batch_name: $v does not divide $2 ranks per node: left out" >&2; fi
  done
  echo "${out[*]}"
}
