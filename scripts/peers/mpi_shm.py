#!/usr/bin/env python3
"""mcb's shared-memory collectives against the MPIs' own (issue 48, item 3).

Usage:
    /usr/bin/python3 scripts/peers/mpi_shm.py --mpi-prefix PREFIX [--mpi openmpi|mpich] [--build DIR] [--out DIR]
        [--collectives allreduce,reduce,bcast,allgather] [--repeats 5] [-m SIZES]
        [--allgather-sizes SIZES] [-i ITERS -x WARMUP] [--timeout S] [-v]
    /usr/bin/python3 scripts/peers/mpi_shm.py --mpi-prefix PREFIX --check [--check-ranks 2,3,4,8,16]
        [--check-hosts 'a:2,b:2;a:2,b:1;...'] [--check-sizes SIZES]

One MPI per invocation, the one installed in PREFIX (scripts/mpi/build-mpi.sh),
with mcb built against it (--build, default build-mpi-NAME). Every peer
below runs inside the same mcb binary as mcb's own algorithms: one launch
runs mcb's algorithms and `system` (the MPI's collective) with the peer
forced, so that both sides share the process, the buffers and the barriers.

Peers (each forced explicitly, then proved to have run; a peer that cannot
run is one line, never a silent fallback to another algorithm):

  Open MPI 5 (`ompi_info` beside the launcher names every parameter first)
    coll/sm     --mca coll_sm_priority 100 (default 0: below tuned's 30):
                allreduce (its reduce then bcast), reduce, bcast. Proof: with
                --mca coll_base_verbose 10 in the timed run itself, on every
                rank every communicator of more than one rank selected sm
                above all others, and sm's lazy set-up ("coll:sm:enable ...:
                success!", done at the first sm collective) ran.
    HAN         --mca coll_han_priority 100: allreduce, reduce, bcast. HAN
                takes only communicators that span nodes ("comm has only
                local processes; disqualifying myself" on one node): a
                one-node run prints that line instead of a table; --check
                validates it on fake nodes, where the same verbose output
                shows HAN selected on every communicator that spans hosts.
    tuned N     allgather: --mca coll_tuned_use_dynamic_rules 1 --mca
                coll_tuned_allgather_algorithm N, N the number ompi_info gives
                the name (5.0.7: sparbit 7, ring 4, bruck 2,
                recursive_doubling 3, neighbor 5), against mcb's sparbit,
                ring, bruck, recursive_doubling, neighbor_exchange. Proof: a
                short launch with libmcb_ompi_coll_trace.so (src/tune/)
                preloaded names the coll/base function that ran at every
                size (docs/tune.md); a size where Open MPI handed the forced
                algorithm to another is left out with one line.
    tuned N     reduce_scatter_block, reduce_scatter, allgatherv and the
                shared-memory allgather (allgather_shm), plain and registered
                buffers: every coll_tuned_<coll>_algorithm value ompi_info
                lists (4.1.4: reduce_scatter_block basic_linear 1,
                recursive_doubling 2, recursive_halving 3, butterfly 4;
                reduce_scatter non-overlapping 1, recursive_halving 2, ring 3,
                butterfly 4; allgatherv default 1, bruck 2, ring 3, neighbor
                4, two_proc 5), each forced as the allgather's above and
                proved by the same trace, against mcb's shm_recursive_exchange;
                gather and scatter the same (4.1.4: basic_linear 1, binomial
                2, linear_sync 3 / linear_nb 3) against mcb's shm_linear,
                gatherv and scatterv against the default only (coll/tuned
                has no algorithm for them: coll/basic's linear runs).
                The report ends with mcb against the fastest of them per size
                (the largest of mcb's ratios to each, every one measured side
                by side in its own launch). --no-forced: the default only.
    default     `system` with nothing forced (what users get): a reference
                column beside each peer, and a table of its own (mcb's
                algorithms run in the default's launches too), also where
                no peer can be forced.
  MPICH 4.2 (`mpivars` beside the launcher must list every CVAR and value)
    release_gather  MPIR_CVAR_DEVICE_COLLECTIVES=all
                MPIR_CVAR_COLLECTIVE_FALLBACK=error
                MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD=0 (not after 5 calls only)
                MPIR_CVAR_<COLL>_POSIX_INTRA_ALGORITHM=release_gather
                MPIR_CVAR_<COLL>_COMPOSITION: allreduce 3 (gamma: the
                node's shared-memory allreduce alone; 1, alpha, on fake
                nodes), reduce 1 and bcast 1 (alpha: release_gather inside
                the node, the netmod across nodes).
                Proof: a canary launch with MPIR_CVAR_COLL_SHM_LIMIT_PER_NODE=0
                and MPIR_CVAR_COLLECTIVE_FALLBACK=print must print "release_gather
                <coll> cannot create more shared memory" at least once per
                timed call: text that only release_gather's own function
                prints. An MPICH without the CH4 POSIX module (ch4:ucx, where
                configure defines MPIDI_CH4_DIRECT_NETMOD, as in Debian's
                build and build-mpi.sh's) prints nothing there: one line,
                no table. The timed runs keep FALLBACK=error, so any checked
                fallback fails the run; the unchecked ones (the call-count
                threshold, an element wider than a cell) cannot happen with
                THRESHOLD=0 and float or char.
    NAME        reduce_scatter_block, reduce_scatter, allgatherv and the
                shared-memory allgather: each MPIR_CVAR_<COLL>_INTRA_ALGORITHM
                value mpivars lists (4.0.2's reduce_scatter_block:
                noncommutative, recursive_doubling, pairwise,
                recursive_halving, nb), with MPIR_CVAR_DEVICE_COLLECTIVES=none
                and MPIR_CVAR_COLLECTIVE_FALLBACK=error (a call MPICH cannot
                run with it fails the launch). Proof: a launch of every size
                with FALLBACK=print shows no "User set collective algorithm
                is not usable" line. The report ends with the fastest of
                them per size, as for Open MPI. --no-forced: the default only.
    default     nothing set: as for Open MPI (Debian's MPICH 4.0.2,
                ch4:ucx, has only this one and the forced ones above:
                --mpi-prefix /usr --mpi mpich).

mcb's side: allreduce `shm_recursive_exchange` and `shm_tree`, reduce and
bcast `shm_tree` (--mcb-allreduce etc.), blocking interface (as MPI_Allreduce;
--interface), on plain buffers with `--copy copy-in` (--plain-path auto or
cma: another path) and on registered
buffers (`--buffers registered --copy auto`, where the MPI's collective
runs on the same registered buffers: auto is what such a user gets, the
small path's copy-in below its switch (until 2026-12-02 also below 4 KiB
blocking, allreduce 8 KiB), the registered path above; `--registered-path registered` forces the registered
path at every size, as before issue 57). Float sum (bcast: char).

Timing (default): 2 ranks bound to cores, sizes 4 B to 64 MiB (allgather
1 B to 1 MiB per block), mcb's default iterations, --repeats (5) runs,
interleaved: the configurations in one order, then the reverse, and inside
each launch mcb's algorithms first or last in turn. Per (configuration,
algorithm, size) the median over runs of each run's median_us (per
iteration the slowest rank, then the median over iterations). Ratio = the
median over runs of mcb / the MPI's peer in the same launch (paired: this
machine's launches fall into two speed states, and two columns' medians
may come from launches in different ones): <= 1.0 means mcb is at least as
fast. `mpi_shm.py --paired-from OUT/runs.csv` prints the paired ratios of a
finished run again.

--fresh-send: mcb's --fresh-send in every launch (mcb's algorithms and the
MPI's alike write their input before each iteration, untimed): without it
the MPI's single-copy paths read a buffer still in the reader's cache.

--settle OUT/runs.csv: the cells of a finished run above --settle-above
(1.0) again, one size per launch, --settle-launches (10) launches each, mcb
first and last in turn (settle.txt, settle.csv): a sweep puts seconds
between the two sides of a cell, enough for this machine's speed state to
switch, and favours the second algorithm of a launch.

--check: correctness, not speed. Every configuration at --check-ranks
(oversubscribed above the core count) and on fake nodes (--check-hosts,
through tests/run_mpi.py --hosts: a UTS namespace per host, shared memory
inside a host, TCP between hosts), mcb -c (every element validated, the
MPI's collective included), few iterations, the same proofs (Open MPI:
verbose and trace in the checked run itself). The times of a check mean
nothing. Exit status 1 if a run fails or a row does not validate.

Output (--out, default peers-mpi-shm-NAME): report.txt (the console),
ratios.csv (one row per table cell), runs.csv (every run's median per
algorithm and size), logs/ (every launch: its command line first, then its
output, the proof lines included). Standard library only.
"""

import argparse
import csv
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
REPO = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
sys.path.insert(0, os.path.join(SCRIPTS, "tuning"))

from lib.mpi_tools import (LIBRARY_NAME, OMPI_INVALID_ENUM, MpiToolError, binding, build_dir,  # noqa: E402
                           clean_env, launcher, mpi_version, mpivars_entry, parse_mpivars_algorithms, parse_ompi_enum,
                           prefix_launcher, prefix_mpi,
                           require_prefix_library, run_tool, shell_line, tool_beside)
from mcbtune.openmpi_trace import OMPI_FUNCTIONS, TRACE_LIBRARY, ompi_check_forced, read_trace  # noqa: E402

SHM_COLLS = ("allreduce", "reduce", "bcast")
# Issue 71's collectives: mcb's shared-memory form against the MPI's
# default and, on Open MPI, each of coll/tuned's algorithms forced (neither
# Open MPI's coll/sm or HAN nor MPICH's release_gather implements them),
# plain and registered buffers.
# allgather_shm is mcb_allgather's shared-memory form (the allgather entry
# compares the classic algorithms with Open MPI's tuned ones).
# gather, gatherv, scatter, scatterv: mcb's shm_linear (rooted at 0) against
# the MPI's default and its own algorithms forced (Open MPI's coll/tuned has
# gather and scatter algorithms, none for the v-forms: their default only).
ROOTED_COLLS = ("gather", "gatherv", "scatter", "scatterv")
NEW_COLLS = ("reduce_scatter_block", "reduce_scatter", "allgatherv", "allgather_shm") + ROOTED_COLLS
BUFFERED = SHM_COLLS + NEW_COLLS
ALL_COLLS = SHM_COLLS + ("allgather",) + NEW_COLLS
BINARY = {c: "mcb_" + c for c in ALL_COLLS}
BINARY["allgather_shm"] = "mcb_allgather"
# The coll/tuned collective whose algorithms are each new collective's peers.
TUNED_COLL = {"reduce_scatter_block": "reduce_scatter_block", "reduce_scatter": "reduce_scatter",
              "allgatherv": "allgatherv", "allgather_shm": "allgather", "allgather": "allgather"}
TUNED_COLL.update({c: c for c in ROOTED_COLLS})
DEFAULT_MCB = {"allreduce": "shm_recursive_exchange,shm_tree", "reduce": "shm_tree", "bcast": "shm_tree"}
DEFAULT_MCB.update({c: "shm_recursive_exchange" for c in NEW_COLLS})
DEFAULT_MCB.update({c: "shm_linear" for c in ROOTED_COLLS})
# mcb's allgather and the name Open MPI's ompi_info gives the same algorithm.
ALLGATHER_PAIRS = [("sparbit", "sparbit"), ("ring", "ring"), ("bruck", "bruck"),
                   ("recursive_doubling", "recursive_doubling"), ("neighbor_exchange", "neighbor")]
BUFFERS = {"plain": ["--copy", "copy-in"], "registered": ["--buffers", "registered", "--copy", "auto"]}
# MPICH's composition per collective: gamma (3) is allreduce's shared-memory-only
# one (the whole communicator on one node), alpha (1) the node-aware one.
MPICH_COMPOSITION = {"allreduce": "3", "reduce": "1", "bcast": "1"}
MPICH_COMPOSITION_HOSTS = {"allreduce": "1", "reduce": "1", "bcast": "1"}
RELEASE_GATHER_TEXT = "release_gather %s cannot create more shared memory"


class PeerError(Exception):
    """Something that stops the script: one line."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------
# Configurations


class Config:
    """One launch shape: a collective, buffers, the MPI's peer and how it is forced."""

    def __init__(self, coll, buffers, peer, mca=(), env=None, mcb=(), proof=None, forced=""):
        self.coll, self.buffers, self.peer = coll, buffers, peer
        self.mca, self.env = list(mca), dict(env or {})
        self.mcb = list(mcb)          # mcb's algorithms in the launch (none for the reference)
        self.proof = proof            # ("ompi_select", "sm"|"han"), ("ompi_trace", name), ("mpich_canary",), None
        self.forced = forced          # the forcing, as a user would type it
        self.refused = None           # one line when it cannot run
        self.note = ""                # what the proof showed

    @property
    def key(self):
        return "%s-%s-%s" % (self.coll, self.buffers, re.sub(r"[^A-Za-z0-9]+", "_", self.peer).strip("_"))

    @property
    def label(self):
        what = "%s, %s buffers" % (self.coll, self.buffers) if self.coll in BUFFERED else self.coll
        return "%s: %s" % (what, self.peer)

    def algorithms(self, mcb_first=True):
        return (self.mcb + ["system"]) if mcb_first else (["system"] + self.mcb)


def mca_text(mca):
    return " ".join("--mca %s %s" % kv for kv in mca)


def env_text(env):
    return " ".join("%s=%s" % kv for kv in sorted(env.items()))


def default_configs(args, coll):
    """Issue 71's collectives: mcb's shared-memory form beside the MPI's default."""
    return [Config(coll, buffers, "default", mcb=args.mcb[coll]) for buffers in args.buffers]


def tuned_config(args, coll, buffers, name, value, mcb):
    """coll/tuned's algorithm `name` (number `value`, None: not listed) forced, proved by the trace."""
    tuned = TUNED_COLL[coll]
    c = Config(coll, buffers, "tuned %s (%s)" % (name, value or "?"),
               [("coll", "^han"), ("coll_tuned_use_dynamic_rules", "1"),
                ("coll_tuned_%s_algorithm" % tuned, value or "")],
               mcb=mcb, proof=("ompi_trace", name))
    c.forced = mca_text(c.mca)
    if value is None:
        c.refused = ("Open MPI %s has no tuned %s algorithm '%s' (ompi_info lists: %s)"
                     % (args.version, tuned, name, args.ompi_tuned_listed[tuned]))
    return c


def ompi_configs(args):
    confs = []
    for coll in args.collectives:
        if coll in NEW_COLLS:
            confs += default_configs(args, coll)
            if args.forced:
                for buffers in args.buffers:
                    for name, value in args.ompi_tuned[TUNED_COLL[coll]].items():
                        confs.append(tuned_config(args, coll, buffers, name, value, args.mcb[coll]))
            continue
        if coll == "allgather":
            for ours, name in ALLGATHER_PAIRS:
                confs.append(tuned_config(args, coll, "plain", name, args.ompi_tuned["allgather"].get(name), [ours]))
            continue
        for buffers in args.buffers:
            for comp, prio, proof in (("coll/sm", "coll_sm_priority", "sm"), ("HAN", "coll_han_priority", "han")):
                c = Config(coll, buffers, comp, [(prio, "100"), ("coll_base_verbose", "10")],
                           mcb=args.mcb[coll], proof=("ompi_select", proof))
                c.forced = "--mca %s 100" % prio
                if not args.ompi_params.get(prio):
                    c.refused = "Open MPI %s has no MCA parameter %s (ompi_info --param coll %s --level 9)" % (
                        args.version, prio, proof)
                confs.append(c)
            confs.append(Config(coll, buffers, "default", mcb=args.mcb[coll]))
    return confs


def mpich_cvars(coll, hosts=False):
    """The CVARs that force release_gather. On fake nodes: the node-aware
    composition (alpha), whose allreduce is release_gather's reduce and bcast
    inside each node, and FALLBACK=print: mcb's lane communicators (one rank
    per node) have no node hierarchy, so alpha cannot apply to the calls on
    them and FALLBACK=error would abort the run."""
    comp = (MPICH_COMPOSITION_HOSTS if hosts else MPICH_COMPOSITION)[coll]
    env = {"MPIR_CVAR_DEVICE_COLLECTIVES": "all", "MPIR_CVAR_COLLECTIVE_FALLBACK": "print" if hosts else "error",
           "MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD": "0",
           "MPIR_CVAR_%s_COMPOSITION" % coll.upper(): comp}
    for c in canary_colls(coll, hosts):
        env["MPIR_CVAR_%s_POSIX_INTRA_ALGORITHM" % c.upper()] = "release_gather"
    if "MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM" not in env:
        # The harness's own allreduces (agreement, validation) stay off
        # release_gather when the peer is reduce or bcast: MPICH picks it for
        # them by itself, each communicator's set-up takes shared memory, and
        # once the per-node limit is used up (mcb_bcast's many communicators)
        # its fallback is an abort under FALLBACK=error ("release_gather
        # allreduce cannot create more shared memory").
        env["MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM"] = "mpir"
    return env


def canary_colls(coll, hosts=False):
    """The release_gather functions a call of `coll` enters."""
    return ["reduce", "bcast"] if (coll == "allreduce" and hosts) else [coll]


def mpich_forced_config(args, coll, buffers, name):
    """MPICH's own algorithm `name` of a new collective forced by its CVAR;
    MPIR_CVAR_COLLECTIVE_FALLBACK=error turns a call MPICH cannot run with it
    into an error (the timed launch fails), the proof launch's =print counts
    its lines (MPICH_FALLBACK)."""
    cvar = "MPIR_CVAR_%s_INTRA_ALGORITHM" % TUNED_COLL[coll].upper()
    env = {"MPIR_CVAR_DEVICE_COLLECTIVES": "none", "MPIR_CVAR_COLLECTIVE_FALLBACK": "error", cvar: name}
    c = Config(coll, buffers, "%s" % name, env=env, mcb=args.mcb[coll], proof=("mpich_forced",))
    c.forced = env_text(env)
    return c


def mpich_configs(args):
    confs = []
    for coll in args.collectives:
        if coll in NEW_COLLS:
            confs += default_configs(args, coll)
            if args.forced:
                try:
                    names = parse_mpivars_algorithms(args.mpivars, TUNED_COLL[coll])
                except MpiToolError as e:
                    raise PeerError("MPICH %s: %s" % (args.version, e))
                for buffers in args.buffers:
                    confs += [mpich_forced_config(args, coll, buffers, n) for n in names]
            continue
        if coll == "allgather":
            c = Config(coll, "plain", "Open MPI's tuned allgathers")
            c.refused = ("the allgather comparison is against Open MPI 5's coll/tuned (forced by number); "
                         "run it with --mpi-prefix of an Open MPI 5")
            confs.append(c)
            continue
        for buffers in args.buffers:
            env = mpich_cvars(coll)
            c = Config(coll, buffers, "release_gather", env=env, mcb=args.mcb[coll], proof=("mpich_canary",))
            c.forced = env_text(env)
            unknown = [v for v in env if mpivars_entry(args.mpivars, v) is None]
            algo = "MPIR_CVAR_%s_POSIX_INTRA_ALGORITHM" % coll.upper()
            if unknown:
                c.refused = "MPICH %s's mpivars lists no %s" % (args.version, ", ".join(unknown))
            elif not re.search(r"^release_gather +- ", mpivars_entry(args.mpivars, algo) or "", re.M):
                c.refused = "MPICH %s's mpivars lists no value release_gather for %s" % (args.version, algo)
            confs.append(c)
            confs.append(Config(coll, buffers, "default", mcb=args.mcb[coll]))
    return confs


# ----------------------------------------------------------------------------
# Launching


def mcb_args(args, conf, sizes, iterations, warmup, csv_path, algorithms, validate=False):
    cmd = [os.path.join(args.build, "src", BINARY[conf.coll]), "--algorithm", ",".join(algorithms), "-m", sizes]
    if iterations is not None:
        cmd += ["-i", str(iterations)]
    if warmup is not None:
        cmd += ["-x", str(warmup)]
    if conf.coll in BUFFERED:
        if conf.mcb:
            cmd += ["--interface", args.interface]
        flags = BUFFERS[conf.buffers][:-1] + [args.plain_path if conf.buffers == "plain" else args.registered_path]
        cmd += flags if conf.mcb else flags[:-2]
    if validate:
        cmd += ["-c"]
    if getattr(args, "fresh_send", False):
        cmd += ["--fresh-send"]
    if csv_path:
        cmd += ["--csv", csv_path]
    if args.timeout_mcb:
        cmd += ["--timeout", str(args.timeout_mcb)]
    return cmd


def per_process_stderr(program, stderr_dir):
    """The program wrapped so that each process writes its stderr to a file of
    its own (STDERR_DIR/process.PID.err: exec keeps the shell's pid). The
    launcher forwards the ranks' output in chunks that may split a line and
    interleave it with another rank's; the proofs parse whole lines."""
    return ["sh", "-c", 'exec "$@" 2>"%s/process.$$.err"' % stderr_dir, "sh"] + program


def collect_stderr(stderr_dir):
    """The per-process stderr files, each under a line naming it, then removed."""
    text = []
    for name in sorted(os.listdir(stderr_dir)):
        path = os.path.join(stderr_dir, name)
        with open(path, errors="replace") as f:
            text.append("=== stderr of %s ===\n%s" % (name, f.read()))
        os.remove(path)
    return "\n".join(text)


def run(cmd, log_path, timeout, launch_env=None, stderr_dir=None):
    """Runs a launch in a clean environment (no MPIR_CVAR_*, no OMPI_MCA_coll*:
    the forcing comes only from the command line, or from launch_env);
    writes its command and output (then the per-process stderr files of
    stderr_dir) to log_path; returns (rc, output)."""
    full_env = clean_env(args_global.mpi, launch_env)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=timeout, start_new_session=True)
        rc, out = proc.returncode, proc.stdout
    except subprocess.TimeoutExpired as e:
        rc, out = 124, (e.stdout or "") if isinstance(e.stdout, str) else ""
        out += "\n[mpi_shm.py: timed out after %.0f s]\n" % timeout
    if stderr_dir:
        out += "\n" + collect_stderr(stderr_dir)
    with open(log_path, "w") as f:
        f.write("# command: %s\n" % shell_line(cmd, launch_env or {}))
        f.write("# exit %d after %.1f s\n" % (rc, time.monotonic() - start))
        f.write(out)
    return rc, out


def fresh_dir(args, name):
    """An empty folder under OUT/tmp for one launch's per-process stderr."""
    path = os.path.join(args.out, "tmp", "stderr-" + name)
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(path):
        os.remove(os.path.join(path, f))
    return path


def launch_line(args, conf, n, env, mca, bind):
    return launcher(args.mpi, n, env, bind, args.launcher, args.version, mca)


def tail(text, lines=12):
    return "\n".join(text.rstrip().splitlines()[-lines:])


def first_error(out):
    for pat in (r"^mcb_\w+: error: .*$", r"^.*(?:Abort|Assertion|error|Error|ERROR).*$"):
        m = re.search(pat, out, re.M)
        if m:
            return m.group(0).strip()
    return tail(out, 1)


# ----------------------------------------------------------------------------
# Proofs


def ompi_selection(out):
    """Every communicator's selection per process from coll_base_verbose 10:
    [(process, record)], record = {name, cid, selected: [(component,
    priority, enabled)], query: {component: message}}; plus {process: sm
    enables that succeeded}."""
    current, records, enabled = {}, [], {}
    for line in out.splitlines():
        m = re.match(r"^\[([^\]]+)\] coll:base:comm_select: new communicator: (.*) \(cid (\S+)\)\s*$", line)
        if m:
            rec = {"name": m.group(2).strip(), "cid": m.group(3), "selected": [], "query": {}, "info_excluded": []}
            current[m.group(1)] = rec
            records.append((m.group(1), rec))
            continue
        m = re.match(r"^\[([^\]]+)\] coll:base:comm_select: selecting\s+(\S+), priority\s+(-?\d+), (Enabled|Disabled)",
                     line)
        if m and m.group(1) in current:
            current[m.group(1)]["selected"].append((m.group(2), int(m.group(3)), m.group(4) == "Enabled"))
            continue
        m = re.match(r"^\[([^\]]+)\] coll:base:comm_select: component disqualified: (\w+) \(due to communicator "
                     r"info key\)", line)
        if m and m.group(1) in current:
            current[m.group(1)]["info_excluded"].append(m.group(2))
            continue
        m = re.match(r"^\[([^\]]+)\] coll:(\w+):comm_query \(([^)]*)\): (.*)$", line)
        if m and m.group(1) in current:
            current[m.group(1)]["query"][m.group(2)] = m.group(4).strip()
            continue
        m = re.match(r"^\[([^\]]+)\] coll:sm:enable \(([^)]*)\): success!", line)
        if m:
            enabled.setdefault(m.group(1), []).append(m.group(2))
    return records, enabled


# Modules that give a communicator no blocking allreduce, reduce or bcast:
# libnbc only the nonblocking collectives, ftagree only MPIX_Comm_agree.
NOT_BLOCKING = ("libnbc", "ftagree")


def top_module(rec):
    """The module whose blocking collectives the communicator got: the last
    enabled one (coll_base_comm_select enables the modules in increasing
    priority, then those an info key or `--mca coll` names in its order, and
    each copies its functions over the earlier ones), libnbc and ftagree,
    which give none of them, left out."""
    on = [s for s in rec["selected"] if s[2] and s[0] not in NOT_BLOCKING]
    return on[-1][0] if on else None


def check_ompi_select(out, component):
    """(ok, text): did `component` (sm or han) take the communicators it should?"""
    records, enabled = ompi_selection(out)
    if not records:
        return False, "no coll_base_verbose output (was --mca coll_base_verbose 10 passed on?)"
    multi = [(p, r) for p, r in records if top_module(r) != "self"]  # 'self' takes one-rank communicators only
    if component == "sm":
        bad = [(p, r) for p, r in multi if top_module(r) != "sm"]
        if bad:
            p, r = bad[0]
            why = r["query"].get("sm") or "sm not selected"
            first = ("coll/sm takes only communicators inside one node; it" if "not all peers local" in why
                     else "coll/sm")
            return False, ("%s did not take communicator '%s' (cid %s) on %s: \"%s\"; it runs %s"
                           % (first, r["name"], r["cid"], p, why, top_module(r)))
        procs = {p for p, _ in records}
        missing = sorted(procs - set(enabled))
        if missing:
            return False, "coll/sm was selected but never set up (no 'coll:sm:enable ...: success!') on %s" % missing[0]
        return True, ("sm selected (priority 100, above %s) on all %d multi-rank communicators of %d processes; "
                      "its set-up ran (coll:sm:enable ... success!) on %s"
                      % (", ".join(sorted({"%s %d" % (s[0], s[1]) for _, r in multi for s in r["selected"]
                                           if s[2] and s[0] not in ("sm",) + NOT_BLOCKING})),
                         len(multi), len(procs), ", ".join(sorted(set(enabled[min(enabled)])))))
    # HAN: it must take every communicator that spans hosts (sm says "not all
    # peers local" for those), but HAN's own sub-communicators (which an info
    # key keeps from HAN), and there must be one.
    spanning = [(p, r) for p, r in multi if "not all peers local" in r["query"].get("sm", "")
                and "han" not in r["info_excluded"]]
    if not spanning:
        lines = sorted({r["query"].get("han", "") for _, r in multi if r["query"].get("han")})
        return False, ("HAN takes only communicators that span nodes; on one node it declines every one: "
                       "\"coll:han:comm_query: %s\"" % ("; ".join(lines) or "no HAN line"))
    bad = [(p, r) for p, r in spanning if top_module(r) != "han"]
    if bad:
        p, r = bad[0]
        return False, ("HAN did not take communicator '%s' (cid %s) that spans hosts on %s: \"%s\"; it runs %s"
                       % (r["name"], r["cid"], p, r["query"].get("han", ""), top_module(r)))
    return True, ("han selected (priority 100) on all %d communicators that span hosts, of %d processes"
                  % (len(spanning), len({p for p, _ in records})))


def prove_ompi_trace(args, conf, sizes, tmp, n=2, bind="core", hosts=None):
    """Open MPI tuned allgather: which coll/base function ran at each size."""
    trace = os.path.join(tmp, conf.key + ".trace")
    if os.path.exists(trace):
        os.remove(trace)
    lib = os.path.join(args.build, TRACE_LIBRARY)
    env = {"LD_PRELOAD": lib, "MCB_COLL_TRACE": trace}
    cmd = launch_line(args, conf, n, env, conf.mca, bind) + mcb_args(args, conf, sizes, 2, 0, None, ["system"])
    rc, out = run(cmd, os.path.join(args.logs, "proof-%s.txt" % conf.key), args.timeout)
    if rc != 0:
        return None, "the traced launch failed (exit %d): %s" % (rc, first_error(out))
    return read_trace(trace, TUNED_COLL[conf.coll]), None


def judge_trace(coll, name, seen, sizes):
    """{size: (status, note)} for the forced name from the trace counts."""
    return {s: ompi_check_forced(TUNED_COLL[coll], name, seen.get(s, {})) for s in sizes}


MPICH_FALLBACK = "User set collective algorithm is not usable for the provided arguments"


def prove_mpich_forced(args, conf, iterations=2):
    """MPICH, a new collective's forced algorithm: one launch of `system` at
    every size with MPIR_CVAR_COLLECTIVE_FALLBACK=print, which prints
    MPICH_FALLBACK for each call MPICH hands to another algorithm. Returns (ok, text)."""
    env = dict(conf.env, MPIR_CVAR_COLLECTIVE_FALLBACK="print")
    cmd = launch_line(args, conf, 2, env, [], "core") + mcb_args(args, conf, args.sizes[conf.coll], iterations, 0,
                                                                  None, ["system"])
    rc, out = run(cmd, os.path.join(args.logs, "proof-%s.txt" % conf.key), args.timeout)
    calls = iterations * len(args.sizes_list[conf.coll])
    if rc != 0:
        return False, "the proof launch failed (exit %d): %s" % (rc, first_error(out))
    if MPICH_FALLBACK in out:
        return False, ("MPICH %s fell back from %s (%d lines '%s' for %d calls)"
                       % (args.version, conf.peer, out.count(MPICH_FALLBACK), MPICH_FALLBACK, calls))
    return True, ("with MPIR_CVAR_COLLECTIVE_FALLBACK=print no fallback line in %d calls at %d sizes (the timed "
                  "launches run with =error)" % (calls, len(args.sizes_list[conf.coll])))


def prove_mpich_canary(args, conf, size, tmp, n=2, bind="core", iterations=20, hosts=None):
    """MPICH: the canary. Returns (ok, text)."""
    env = dict(mpich_cvars(conf.coll, bool(hosts)), MPIR_CVAR_COLL_SHM_LIMIT_PER_NODE="0",
               MPIR_CVAR_COLLECTIVE_FALLBACK="print")
    errs = fresh_dir(args, conf.key)
    program = mcb_args(args, conf, str(size), iterations, 0, None, ["system"])
    log_path = os.path.join(args.logs, "proof-%s-n%d%s.txt" % (conf.key, n, "-" + re.sub(r"\W", "_", hosts)
                                                                 if hosts else ""))
    if hosts:
        run_mpi = os.path.join(REPO, "tests", "run_mpi.py")
        cmd = [sys.executable, run_mpi, "--mpiexec", args.launcher, "--mpi", args.mpi, "-n", str(n),
               "--timeout", str(args.timeout), "--hosts", hosts]
        if args.yield_shim and n > (os.cpu_count() or 1):
            cmd += ["--yield-shim", args.yield_shim]
        for k, v in sorted(env.items()):
            cmd += ["--env", "%s=%s" % (k, v)]
        cmd += ["--"] + per_process_stderr(program, errs)
        rc, out = run(cmd, log_path, args.timeout + 60, env, stderr_dir=errs)
    else:
        cmd = launch_line(args, conf, n, env, [], bind) + per_process_stderr(program, errs)
        rc, out = run(cmd, log_path, args.timeout, stderr_dir=errs)
    texts = [RELEASE_GATHER_TEXT % c for c in canary_colls(conf.coll, bool(hosts))]
    text = texts[0]
    count = min(out.count(t) for t in texts)
    if rc != 0:
        return False, "the canary launch failed (exit %d): %s" % (rc, first_error(out))
    if count < iterations:
        device = args.mpich_device or "unknown device"
        why = (" (its device is %s: configure defines MPIDI_CH4_DIRECT_NETMOD for ch4:ucx unless "
               "--with-ch4-shmmods=posix, so there is no CH4 POSIX module and no release_gather; "
               "an MPICH built --with-device=ch4:ofi has them)" % device) if "ucx" in device else ""
        return False, ("MPICH %s never entered release_gather's %s: with MPIR_CVAR_COLL_SHM_LIMIT_PER_NODE=0 the "
                       "canary printed \"%s\" %d times for %d calls%s"
                       % (args.version, conf.coll, text, count, iterations, why))
    return True, ("canary: with MPIR_CVAR_COLL_SHM_LIMIT_PER_NODE=0 and FALLBACK=print, release_gather printed "
                  "%s at least %d times for %d calls" % (" and ".join('"%s"' % t for t in texts), count, iterations))


# The functions of each Open MPI peer (src/tune/ompi_coll_trace.c counts them).
PEER_FUNCTIONS = {"sm": ["mca_coll_sm_%s_intra"],
                  "han": ["mca_coll_han_%s_intra", "mca_coll_han_%s_intra_simple", "mca_coll_han_%s_reproducible"]}
TUNED_FUNCTIONS = ["ompi_coll_tuned_%s_intra_dec_fixed", "ompi_coll_tuned_%s_intra_dec_dynamic"]


def read_peer_trace(path):
    """{bytes: {function: calls}} of rank 0 from the trace library's file (every function)."""
    seen = {}
    if os.path.isfile(path):
        with open(path) as f:
            for line in f:
                fields = dict(kv.split("=", 1) for kv in line.split())
                if fields.get("rank") == "0":
                    b = seen.setdefault(int(fields["bytes"]), {})
                    b[fields["function"]] = b.get(fields["function"], 0) + int(fields["calls"])
    return seen


def judge_peer_trace(component, coll, seen, sizes, calls):
    """(ok, text): at every size rank 0 called the peer's own function at least
    `calls` times (and, for coll/sm, coll/tuned's decision function never)."""
    mine = [f % coll for f in PEER_FUNCTIONS[component]]
    tuned = [f % coll for f in TUNED_FUNCTIONS]
    bad = []
    for s in sizes:
        got = seen.get(s, {})
        n = sum(got.get(f, 0) for f in mine)
        t = sum(got.get(f, 0) for f in tuned)
        if n < calls or (component == "sm" and t):
            bad.append("%s: %s %d calls%s" % (human(s), "+".join(mine), n,
                                              ", coll/tuned %d" % t if t else ""))
    if bad:
        return False, ("trace: the peer's own function did not take every call (rank 0, %d expected per size): %s"
                       % (calls, "; ".join(bad)))
    used = sorted({f for s in sizes for f in seen.get(s, {}) if f in mine})
    return True, ("trace: rank 0 called %s at least %d times at each of the %d sizes%s"
                  % ("+".join(used), calls, len(sizes),
                     ", coll/tuned's decision functions never" if component == "sm" else ""))


def prove(args, conf, tmp):
    """Sets conf.refused or conf.note from a short proof launch (timed mode)."""
    if conf.refused or conf.proof is None:
        return
    kind = conf.proof[0]
    if kind == "ompi_select":
        errs = fresh_dir(args, conf.key)
        trace = os.path.join(tmp, conf.key + ".peer-trace")
        if os.path.exists(trace):
            os.remove(trace)
        env = {"LD_PRELOAD": args.peer_trace, "MCB_COLL_TRACE": trace}
        cmd = launch_line(args, conf, 2, env, conf.mca, "core") + per_process_stderr(
            mcb_args(args, conf, args.sizes[conf.coll], 2, 0, None, ["system"]), errs)
        rc, out = run(cmd, os.path.join(args.logs, "proof-%s.txt" % conf.key), args.timeout, stderr_dir=errs)
        ok, text = check_ompi_select(out, conf.proof[1])
        if rc != 0 and ok:
            ok, text = False, "the launch failed (exit %d): %s" % (rc, first_error(out))
        if ok:
            ok, called = judge_peer_trace(conf.proof[1], conf.coll, read_peer_trace(trace),
                                          args.sizes_list[conf.coll], 2)
            text = "%s; %s" % (text, called) if ok else called
        if ok:
            conf.note = text
        else:
            conf.refused = text
    elif kind == "ompi_trace":
        seen, err = prove_ompi_trace(args, conf, args.sizes[conf.coll], tmp)
        if err:
            conf.refused = err
            return
        verdict = judge_trace(conf.coll, conf.proof[1], seen, args.sizes_list[conf.coll])
        bad = {s: v for s, v in verdict.items() if v[0] != "ok"}
        conf.excluded = bad
        ran = OMPI_FUNCTIONS[TUNED_COLL[conf.coll]].get(conf.proof[1])
        if len(bad) == len(verdict):
            conf.refused = "Open MPI never ran %s: %s" % (conf.proof[1], next(iter(bad.values()))[1])
        else:
            conf.note = ("trace: ompi_coll_base_%s ran at %d of %d sizes%s"
                         % (ran, len(verdict) - len(bad), len(verdict),
                            "; left out: " + "; ".join("%d B: %s" % (s, v[1]) for s, v in sorted(bad.items()))
                            if bad else ""))
    elif kind == "mpich_forced":
        ok, text = prove_mpich_forced(args, conf)
        if ok:
            conf.note = text
        else:
            conf.refused = text
    elif kind == "mpich_canary":
        ok, text = prove_mpich_canary(args, conf, args.sizes_list[conf.coll][0], tmp)
        if ok:
            conf.note = text
        else:
            conf.refused = text


# ----------------------------------------------------------------------------
# Timed runs


def read_csv(path, n):
    """{algorithm: {size: (median_us, avg_us, params)}} of the 'total' rows."""
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["phase"] != "total":
                continue
            if int(r["ranks"]) != n:
                raise PeerError("%s: ranks=%s, expected %d (a binary started by another MPI's launcher?)"
                                % (path, r["ranks"], n))
            rows.setdefault(r["algorithm"], {})[int(r["size_bytes"])] = (
                float(r["median_us"]), float(r["avg_us"]), r["params"])
    return rows


def launch_once(args, conf, sizes, algorithms, tmp, tag, what):
    """One timed launch of `conf` on `sizes` (mcb -m) with `algorithms` in
    that order. Returns read_csv()'s rows, or None after marking the
    configuration refused (`what` names the run in that line)."""
    csv_path = os.path.join(tmp, "%s-%s.csv" % (conf.key, tag))
    program = mcb_args(args, conf, sizes, args.iterations, args.warmup, csv_path, algorithms)
    errs = None
    if conf.proof and conf.proof[0] == "ompi_select":
        errs = fresh_dir(args, conf.key)
        program = per_process_stderr(program, errs)
    cmd = launch_line(args, conf, 2, conf.env, conf.mca, "core") + program
    log_path = os.path.join(args.logs, "%s-%s.txt" % (tag, conf.key))
    rc, out = run(cmd, log_path, args.timeout, stderr_dir=errs)
    if rc != 0 or OMPI_INVALID_ENUM in out:
        conf.refused = "%s failed (exit %d): %s (log: %s)" % (what, rc, first_error(out),
                                                            os.path.relpath(log_path, args.out))
        log("  " + conf.refused)
        return None
    if conf.proof and conf.proof[0] == "ompi_select":
        ok, text = check_ompi_select(out, conf.proof[1])
        if not ok:
            conf.refused = "%s: %s" % (what, text)
            log("  " + conf.refused)
            return None
    return read_csv(csv_path, 2)


def timed(args, confs, tmp):
    """Runs every runnable configuration --repeats times, interleaved. Returns
    {(conf key, algorithm): {size: [median per run]}}, params, and the runs' rows."""
    # The unforced default runs mcb's algorithms too: its own table (mcb
    # against what users get, in the same launch), also where no peer can
    # be forced (Debian's MPICH 4.0.2: ch4:ucx has no release_gather).
    live = [c for c in confs if not c.refused]
    results, params, runs = {}, {}, []
    for r in range(args.repeats):
        order = live if r % 2 == 0 else list(reversed(live))
        for conf in order:
            if conf.refused:
                continue
            algorithms = conf.algorithms(mcb_first=(r % 2 == 0))
            log("[run %d/%d] %s (%s)" % (r + 1, args.repeats, conf.label, ",".join(algorithms)))
            rows = launch_once(args, conf, args.sizes[conf.coll], algorithms, tmp, "run%d" % (r + 1),
                               "run %d" % (r + 1))
            for algorithm, sizes in (rows or {}).items():
                for size, (med, avg, par) in sizes.items():
                    results.setdefault((conf.key, algorithm), {}).setdefault(size, []).append(med)
                    params[(conf.key, algorithm)] = par
                    runs.append({"mpi": args.mpi, "mpi_version": args.version, "collective": conf.coll,
                                 "buffers": conf.buffers, "peer": conf.peer, "forced": conf.forced,
                                 "algorithm": algorithm, "params": par, "size_bytes": size, "run": r + 1,
                                 "median_us": med, "avg_us": avg})
    return results, params, runs


def read_runs(path):
    """runs.csv's rows, typed."""
    with open(path, newline="") as f:
        return [dict(r, run=int(r["run"]), size_bytes=int(r["size_bytes"]), median_us=float(r["median_us"]))
                for r in csv.DictReader(f)]


def settle(args, confs, tmp):
    """--settle RUNS.csv: every cell whose paired ratio there is above 1.0
    again, one size per launch (mcb's algorithm and the MPI's back to back,
    so that both see the same speed state: a sweep of 14 sizes puts seconds
    between them), --settle-launches times, the order turned each launch.
    Returns the report's lines and its CSV rows."""
    runs = read_runs(args.settle)
    index = by_launch(runs)
    cells = []
    for key in index:
        coll, buffers, peer, algorithm, size = key
        if algorithm == "system" or coll not in args.collectives or buffers not in args.buffers:
            continue
        x = paired_ratio(index, coll, buffers, peer, algorithm, size)
        if x is not None and x > args.settle_above:
            cells.append((coll, buffers, peer, algorithm, size, x))
    by_label = {(c.coll, c.buffers, c.peer): c for c in confs}
    out = ["# settle: the cells of %s above %.2f, one size per launch, %d launches each, mcb first and last in"
           " turn; ratio = mcb / the MPI in the same launch" % (os.path.relpath(args.settle), args.settle_above,
                                                               args.settle_launches),
           "# verdict: ahead (median <= 1), spread (median > 1, but mcb ahead in at least a quarter of the"
           " launches), behind (mcb ahead in fewer)",
           "%-10s %-10s %-8s %-24s %9s %7s %7s %13s %7s  %s" % ("collective", "buffers", "peer", "algorithm", "size",
                                                               "sweep", "median", "min-max", "ahead", "verdict")]
    rows = []
    for coll, buffers, peer, algorithm, size, sweep in sorted(cells):
        conf = by_label.get((coll, buffers, peer))
        if conf is None or conf.refused:
            out.append("%-10s %-10s %-8s %-24s %9s  cannot run: %s" % (coll, buffers, peer, algorithm, human(size),
                                                                       conf.refused if conf else "no such config"))
            continue
        ratios = []
        for r in range(args.settle_launches):
            order = [algorithm, "system"] if r % 2 == 0 else ["system", algorithm]
            log("[settle %d/%d] %s %s (%s)" % (r + 1, args.settle_launches, conf.label, human(size), ",".join(order)))
            got = launch_once(args, conf, "%d:%d" % (size, size), order, tmp, "settle%d-%d" % (r + 1, size),
                              "settle launch %d at %d B" % (r + 1, size))
            if got is None:
                break
            mine, theirs = got[algorithm][size][0], got["system"][size][0]
            if theirs > 0:
                ratios.append(mine / theirs)
        if not ratios:
            out.append("%-10s %-10s %-8s %-24s %9s  no launch ran: %s" % (coll, buffers, peer, algorithm,
                                                                          human(size), conf.refused))
            continue
        med, ahead = statistics.median(ratios), sum(1 for x in ratios if x <= 1.0)
        verdict = "ahead" if med <= 1.0 else ("spread" if 4 * ahead >= len(ratios) else "behind")
        out.append("%-10s %-10s %-8s %-24s %9s %7.2f %7.2f %6.2f-%-6.2f %3d/%-3d  %s" % (
            coll, buffers, peer, algorithm, human(size), sweep, med, min(ratios), max(ratios), ahead, len(ratios),
            verdict))
        rows.append({"mpi": args.mpi, "mpi_version": args.version, "collective": coll, "buffers": buffers,
                     "peer": peer, "forced": conf.forced, "mcb_algorithm": algorithm, "size_bytes": size,
                     "sweep_ratio": "%.4f" % sweep, "ratio_median": "%.4f" % med, "ratio_min": "%.4f" % min(ratios),
                     "ratio_max": "%.4f" % max(ratios), "launches": len(ratios), "mcb_ahead": ahead,
                     "verdict": verdict, "ratios": " ".join("%.4f" % x for x in ratios)})
    if not cells:
        out.append("(no cell above %.2f)" % args.settle_above)
    return out, rows


# ----------------------------------------------------------------------------
# Report


def fmt_us(v):
    return "-" if v is None else ("%.2f" % v if v < 1000 else "%.0f" % v)


def human(size):
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= div and size % div == 0:
            return "%d %s" % (size // div, unit)
    return "%d B" % size


def header(args, out, check=False):
    out.append("# mcb's shared-memory collectives against the MPI's own (scripts/peers/mpi_shm.py)")
    out.append("# command: %s" % " ".join(shlex.quote(a) for a in [os.path.relpath(sys.argv[0], REPO)] + sys.argv[1:]))
    out.append("# MPI: %s %s in %s (%s)" % (LIBRARY_NAME[args.mpi], args.version, args.prefix, args.mpi_detail))
    out.append("# build: %s, launcher: %s" % (os.path.relpath(args.build, REPO), args.launcher))
    if check:
        out.append("# CHECK: correctness at several rank counts and on fake nodes, mcb -c (every algorithm, the "
                   "MPI's included, validated); the times of a check mean nothing")
    else:
        out.append("# 2 ranks bound to cores; %d interleaved runs; per size the median over runs of each run's "
                   "median (per iteration the slowest rank); ratio = the median over runs of mcb / the MPI's peer "
                   "in the same launch (<= 1.00: mcb at least as fast)" % args.repeats)
    out.append("# mcb: --interface %s; plain buffers --copy %s, registered --buffers registered --copy "
               "%s (the MPI's collective on the same buffers); -i %s -x %s%s"
               % (args.interface, args.plain_path, args.registered_path,
                  args.iterations if args.iterations is not None else "default",
                  args.warmup if args.warmup is not None else "default",
                  "; --fresh-send (both: every rank writes its input before each iteration)"
                  if getattr(args, "fresh_send", False) else ""))


def by_launch(runs):
    """{(collective, buffers, peer, algorithm, size): {run: median_us}} of runs.csv's rows."""
    index = {}
    for r in runs:
        key = (r["collective"], r["buffers"], r["peer"], r["algorithm"], r["size_bytes"])
        index.setdefault(key, {})[r["run"]] = r["median_us"]
    return index


def paired_ratio(index, coll, buffers, peer, algorithm, size):
    """The median over runs of mcb's median / the MPI's in the same launch
    (None without a common run); index: by_launch(). Per launch, not the
    ratio of the two columns' medians: this machine's launches fall into two
    speed states (a 4 B allreduce 0.2 or 0.7 us), and the medians of two
    columns may come from launches in different states."""
    mine = index.get((coll, buffers, peer, algorithm, size), {})
    theirs = index.get((coll, buffers, peer, "system", size), {})
    common = [k for k in mine if k in theirs and theirs[k] > 0]
    return statistics.median(mine[k] / theirs[k] for k in common) if common else None


def report(args, confs, results, params, runs):
    out, rows = [], []
    launches = by_launch(runs)
    header(args, out)
    groups = []
    for c in confs:
        g = (c.coll, c.buffers) if c.coll in BUFFERED else (c.coll, c.peer)
        if g not in groups:
            groups.append(g)
    refusals = [c for c in confs if c.refused]
    for g in groups:
        members = [c for c in confs if ((c.coll, c.buffers) if c.coll in BUFFERED else (c.coll, c.peer)) == g]
        default = next((c for c in members if c.peer == "default"), None)
        peers = [c for c in members if c.peer != "default"]
        if default is not None and default.mcb and not default.refused:
            peers.append(default)
        for peer in peers:
            own = peer is default  # the default's own table: no second default column
            out.append("")
            out.append("## %s" % peer.label)
            out.append("# forced: %s" % (peer.forced or "nothing (what users get; mcb in the same launch)"))
            if peer.refused:
                out.append("# CANNOT RUN: %s" % peer.refused)
                continue
            if not own:
                out.append("# proof: %s" % peer.note)
            sizes = sorted(results.get((peer.key, "system"), {}))
            excluded = getattr(peer, "excluded", {})
            cols = ["size", "%s us" % peer.peer.split(" (")[0]]
            if default is not None and not default.refused and not own:
                cols.append("default us")
            for a in peer.mcb:
                cols += ["%s us" % a, "ratio"]
            widths = [max(10, len(h) + 1) for h in cols]
            out.append("# mcb params: %s" % "; ".join("%s %s" % (a, params.get((peer.key, a), "?"))
                                                       for a in peer.mcb))
            out.append("".join(h.rjust(w) for h, w in zip(cols, widths)))
            for s in sizes:
                theirs = statistics.median(results[(peer.key, "system")][s])
                line = [human(s), fmt_us(theirs)]
                dflt = None
                if default is not None and not default.refused and not own:
                    d = results.get((default.key, "system"), {}).get(s)
                    dflt = statistics.median(d) if d else None
                    line.append(fmt_us(dflt))
                for a in peer.mcb:
                    m = results.get((peer.key, a), {}).get(s)
                    mine = statistics.median(m) if m else None
                    ratio = (paired_ratio(launches, peer.coll, peer.buffers, peer.peer, a, s)
                             if (mine is not None and s not in excluded) else None)
                    line += [fmt_us(mine), "-" if ratio is None else "%.2f%s" % (ratio, "*" if ratio > 1.0 else "")]
                    rows.append({"mpi": args.mpi, "mpi_version": args.version, "collective": peer.coll,
                                 "buffers": peer.buffers, "peer": peer.peer, "forced": peer.forced,
                                 "mcb_algorithm": a, "mcb_params": params.get((peer.key, a), ""),
                                 "size_bytes": s, "mcb_median_us": mine, "peer_median_us": theirs,
                                 "ratio": ratio, "mcb_min_us": min(m) if m else None,
                                 "peer_min_us": min(results[(peer.key, "system")][s]),
                                 "default_median_us": dflt, "runs": len(results[(peer.key, "system")][s]),
                                 "excluded": excluded.get(s, ("", ""))[1] if s in excluded else "",
                                 "proof": peer.note})
                out.append("".join(v.rjust(w) for v, w in zip(line, widths)))
            out.append("# '*': mcb slower than the peer at that size")
        fastest(args, g, members, results, launches, out, rows)
    if refusals:
        out.append("")
        out.append("## Configurations that cannot run")
        for c in refusals:
            out.append("- %s: %s" % (c.label, c.refused))
    return out, rows


def fastest(args, group, members, results, launches, out, rows):
    """mcb against the fastest of the MPI's own algorithms per size (issue
    71's goal): the largest of mcb's ratios to each peer that ran there
    (each ratio paired in its own launches), with that peer's name. Only
    where more than one peer ran (the forced coll/tuned algorithms)."""
    ran = [c for c in members if not c.refused and c.mcb]
    if len(ran) < 2 or group[0] not in NEW_COLLS:
        return
    out.append("")
    out.append("## %s, %s buffers: mcb against the fastest of %s's own (%d: %s)"
               % (group[0], group[1], LIBRARY_NAME[args.mpi], len(ran), ", ".join(c.peer for c in ran)))
    out.append("# ratio: the largest of mcb's paired ratios to each (<= 1: mcb at least as fast as every one)")
    for a in ran[0].mcb:
        out.append("%10s%12s%10s  %s" % ("size", "fastest us", "ratio", "fastest of the MPI's own"))
        sizes = sorted(set().union(*[results.get((c.key, "system"), {}).keys() for c in ran]))
        for s in sizes:
            best = None
            for c in ran:
                if s in getattr(c, "excluded", {}) or s not in results.get((c.key, "system"), {}):
                    continue
                r = paired_ratio(launches, c.coll, c.buffers, c.peer, a, s)
                if r is not None and (best is None or r > best[0]):
                    best = (r, c)
            if best is None:
                continue
            r, c = best
            theirs = statistics.median(results[(c.key, "system")][s])
            out.append("%10s%12s%10s  %s" % (human(s), fmt_us(theirs), "%.2f%s" % (r, "*" if r > 1.0 else ""),
                                             c.peer))
            rows.append({"mpi": args.mpi, "mpi_version": args.version, "collective": c.coll,
                         "buffers": c.buffers, "peer": "fastest: " + c.peer, "forced": c.forced,
                         "mcb_algorithm": a, "mcb_params": "", "size_bytes": s, "mcb_median_us": None,
                         "peer_median_us": theirs, "ratio": r, "mcb_min_us": None, "peer_min_us": None,
                         "default_median_us": None, "runs": len(results[(c.key, "system")][s]),
                         "excluded": "", "proof": c.note})


def write_csv(path, rows, fields):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("%.4f" % v if isinstance(v, float) else ("" if v is None else v)) for k, v in r.items()})


# ----------------------------------------------------------------------------
# Check mode


def placements(args):
    """[(label, n, hosts or None)]."""
    out = []
    for n in args.check_ranks:
        out.append(("%d ranks on 1 node%s" % (n, "" if binding(n) else ", oversubscribed"), n, None))
    for hosts in args.check_hosts:
        counts = [int(h.split(":")[1]) for h in hosts.split(",")]
        out.append(("%d ranks on %d fake nodes (%s)" % (sum(counts), len(counts), hosts), sum(counts), hosts))
    return out


def applies(coll, algorithm, n):
    if algorithm == "neighbor_exchange" and n % 2:
        return "mcb's neighbor_exchange needs an even number of ranks"
    if algorithm == "recursive_doubling" and n & (n - 1):
        return "mcb's recursive_doubling needs a power-of-two number of ranks"
    return None


def check_launch(args, conf, n, hosts, env, mca, algorithms, log_path, preload="", errs=None):
    """A validated run through tests/run_mpi.py (oversubscription, fake hosts,
    every rank's exit status). Returns (rc, output)."""
    run_mpi = os.path.join(REPO, "tests", "run_mpi.py")
    cmd = [sys.executable, run_mpi, "--mpiexec", args.launcher, "--mpi", args.mpi, "-n", str(n),
           "--timeout", str(args.timeout), "--expect-ranks"]
    if args.mpi == "mpich" and args.yield_shim and n > (os.cpu_count() or 1):
        cmd += ["--yield-shim", args.yield_shim]
    if hosts:
        cmd += ["--hosts", hosts]
    if preload:
        cmd += ["--preload", preload]
    rank_env = dict(env)
    for name, value in mca:
        rank_env["OMPI_MCA_" + name] = value
    for k, v in sorted(rank_env.items()):
        cmd += ["--env", "%s=%s" % (k, v)]
    program = mcb_args(args, conf, args.check_sizes_text[conf.coll], args.check_iterations, 1, None, algorithms,
                       validate=True)
    cmd += ["--"] + (per_process_stderr(program, errs) if errs else program)
    return run(cmd, log_path, args.timeout + 60, rank_env, stderr_dir=errs)


def mcb_refusal(out, algorithms):
    """(algorithm, reason) when mcb refused one of its own algorithms here
    (its one error line, e.g. nodes of different sizes), else None."""
    for m in re.finditer(r"^mcb_\w+: error: (\w+)\b(.*)$", out, re.M):
        if m.group(1) in algorithms:
            return m.group(1), (m.group(1) + m.group(2)).strip()
    return None


def check(args, confs, tmp):
    failures, lines = 0, []
    for conf in confs:
        if conf.proof and conf.proof[0] == "mpich_canary" and not conf.refused:
            log("[proof] %s" % conf.label)
            prove(args, conf, tmp)  # a release_gather the library lacks is refused once, for every placement
    for label, n, hosts in placements(args):
        for conf in confs:
            if conf.peer == "default":
                continue
            what = "%s, %s" % (conf.label, label)
            if conf.refused:
                lines.append("CANNOT RUN %s: %s" % (what, conf.refused))
                continue
            mcb = [a for a in conf.mcb if not applies(conf.coll, a, n)]
            if conf.mcb and not mcb:
                lines.append("SKIP %s: %s" % (what, applies(conf.coll, conf.mcb[0], n)))
                continue
            env, mca, preload = dict(conf.env), list(conf.mca), ""
            if args.mpi == "mpich" and hosts and conf.proof:
                env = mpich_cvars(conf.coll, hosts=True)
            trace = None
            if conf.proof and conf.proof[0] == "ompi_trace":
                trace = os.path.join(tmp, "check-%s-%d-%s.trace" % (conf.key, n, re.sub(r"\W", "_", hosts or "")))
                if os.path.exists(trace):
                    os.remove(trace)
                preload = os.path.join(args.build, TRACE_LIBRARY)
                env["MCB_COLL_TRACE"] = trace
            log_path = os.path.join(args.logs, "check-%s-n%d%s.txt" % (conf.key, n, "-" + re.sub(r"\W", "_", hosts)
                                                                       if hosts else ""))
            log("[check] %s" % what)
            errs = None
            if conf.proof and conf.proof[0] == "ompi_select":
                errs = fresh_dir(args, conf.key)
                trace = os.path.join(tmp, "check-%s-%d-%s.peer-trace" % (conf.key, n, re.sub(r"\W", "_", hosts or "")))
                if os.path.exists(trace):
                    os.remove(trace)
                preload = args.peer_trace
                env["MCB_COLL_TRACE"] = trace
            algorithms = [a for a in conf.algorithms() if a == "system" or a in mcb]
            rc, out = check_launch(args, conf, n, hosts, env, mca, algorithms, log_path, preload, errs)
            refusal = mcb_refusal(out, mcb) if rc != 0 else None
            if refusal:
                # mcb refuses its algorithm here (one error line): the peer is checked alone.
                algorithms = ["system"]
                if trace and os.path.exists(trace):
                    os.remove(trace)
                if errs:
                    fresh_dir(args, conf.key)
                rc, out = check_launch(args, conf, n, hosts, env, mca, algorithms, log_path, preload, errs)
            rel = os.path.relpath(log_path, args.out)
            passed = len(re.findall(r"^\d+\s.*\bpass\b", out, re.M))
            failed = len(re.findall(r"^\d+\s.*\bfail\b", out, re.M))
            proof = ""
            refused = None
            if conf.proof and conf.proof[0] == "ompi_select":
                ok, proof = check_ompi_select(out, conf.proof[1])
                if ok:
                    ok, called = judge_peer_trace(conf.proof[1], conf.coll, read_peer_trace(trace),
                                                  args.check_sizes[conf.coll], args.check_iterations)
                    proof = "%s; %s" % (proof, called) if ok else called
                if not ok:
                    refused = proof
                    counts = [int(h.split(":")[1]) for h in hosts.split(",")] if hosts else []
                    if conf.proof[1] == "han" and len(set(counts)) > 1 and proof.startswith("trace:"):
                        refused += (" (HAN hands a communicator with different numbers of ranks per node back to "
                                    "the module below it, unlogged in a release build: are_ppn_imbalanced in "
                                    "coll_han_%s.c)" % conf.coll)
            elif trace:
                seen = read_trace(trace, TUNED_COLL[conf.coll])
                verdict = judge_trace(conf.coll, conf.proof[1], seen, args.check_sizes[conf.coll])
                bad = {s: v for s, v in verdict.items() if v[0] != "ok"}
                proof = "trace: ompi_coll_base_%s ran at %d of %d sizes" % (
                    OMPI_FUNCTIONS[TUNED_COLL[conf.coll]][conf.proof[1]], len(verdict) - len(bad), len(verdict))
                if bad:
                    proof += "; Open MPI handed it on at " + "; ".join("%d B: %s" % (s, v[1])
                                                                      for s, v in sorted(bad.items()))
                if len(bad) == len(verdict):
                    refused = proof
            elif conf.proof and conf.proof[0] == "mpich_canary":
                ok, proof = prove_mpich_canary(args, conf, args.check_sizes[conf.coll][0], tmp, n,
                                               binding(n), iterations=4, hosts=hosts)
                if not ok:
                    refused = proof
                elif hosts:
                    fallbacks = len(re.findall(r"cannot be applied", out))
                    proof += ("; FALLBACK=print (alpha cannot apply on communicators without a node hierarchy, as "
                              "mcb's lanes): %d such lines in the checked run" % fallbacks)
            if refused:
                lines.append("CANNOT RUN %s: %s (the run itself: exit %d, %d rows validated, %d failed; log: %s)"
                             % (what, refused, rc, passed, failed, rel))
                continue
            if rc != 0 or failed or not passed:
                failures += 1
                fail = [l[6:] for l in out.splitlines() if l.startswith("FAIL: ")]
                lines.append("FAIL %s: %s; %d rows pass, %d fail (log: %s)"
                             % (what, "; ".join(fail) or first_error(out), passed, failed, rel))
                continue
            skipped = [a for a in conf.mcb if a not in mcb]
            notes = ["%s skipped: %s" % (",".join(skipped), applies(conf.coll, skipped[0], n))] if skipped else []
            if refusal:
                notes.append("mcb refused its own here, so the peer ran alone: \"%s\"" % refusal[1])
            lines.append("ok %s: %d rows validated (%s)%s; %s" % (
                what, passed, ",".join(algorithms), " (%s)" % "; ".join(notes) if notes else "", proof))
    return failures, lines


# ----------------------------------------------------------------------------
# Command line


def sizes_of(text):
    """mcb's -m syntax: a,b,c or MIN:MAX doubling."""
    if ":" in text:
        lo, hi = (int(x) for x in text.split(":"))
        out, s = [], lo
        while s <= hi:
            out.append(s)
            s *= 2
        return out
    return [int(x) for x in text.split(",")]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)

    def one_line(msg):  # a bad option is one line, not argparse's usage and error
        print("mpi_shm.py: %s" % msg, file=sys.stderr)
        sys.exit(2)
    p.error = one_line
    p.add_argument("--mpi-prefix", required=True, help="the MPI's prefix (scripts/mpi/build-mpi.sh NAME)")
    p.add_argument("--mpi", choices=["openmpi", "mpich"],
                   help="the MPI of a prefix that holds both, as Debian's /usr (default: the one its tools name)")
    p.add_argument("--build", help="mcb built against it (default build-mpi-NAME)")
    p.add_argument("--out", help="output folder (default peers-mpi-shm-NAME)")
    p.add_argument("--collectives", default="allreduce,reduce,bcast,allgather")
    p.add_argument("--buffers", default="plain,registered", help="plain, registered or both (shm collectives)")
    p.add_argument("--mcb-allreduce", default=DEFAULT_MCB["allreduce"])
    p.add_argument("--mcb-reduce", default=DEFAULT_MCB["reduce"])
    p.add_argument("--mcb-bcast", default=DEFAULT_MCB["bcast"])
    p.add_argument("--interface", default="blocking", choices=["blocking", "persistent"])
    p.add_argument("--plain-path", default="copy-in", choices=["copy-in", "auto", "cma"],
                   help="mcb's --copy on plain buffers (default copy-in, the design's reference; auto: what a "
                        "user gets, cma where it works and pays)")
    p.add_argument("--registered-path", default="auto", choices=["auto", "registered"],
                   help="mcb's --copy on registered buffers (default auto: what a user gets)")
    p.add_argument("-m", "--sizes", default="4:67108864", help="allreduce, reduce, bcast sizes (mcb -m)")
    p.add_argument("--allgather-sizes", default="1:1048576",
                   help="block sizes of the allgathers, gathers and scatters (mcb -m)")
    p.add_argument("--fresh-send", action="store_true",
                   help="mcb's --fresh-send for mcb and the MPI alike: every rank writes its input before each "
                        "iteration, untimed (docs/timing.md, warm buffers)")
    p.add_argument("-i", "--iterations", type=int, help="timed iterations (default mcb's)")
    p.add_argument("-x", "--warmup", type=int, help="warm-up iterations (default mcb's)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--timeout", type=float, default=1800, help="seconds per launch")
    p.add_argument("--settle", metavar="RUNS.csv",
                   help="instead of the sweep: every cell above --settle-above in that runs.csv again, one size per"
                        " launch (settle.txt, settle.csv)")
    p.add_argument("--settle-launches", type=int, default=10)
    p.add_argument("--settle-above", type=float, default=1.0)
    p.add_argument("--no-forced", dest="forced", action="store_false",
                   help="issue 71's collectives on Open MPI: the default only, not each coll/tuned algorithm")
    p.add_argument("--check", action="store_true", help="correctness runs instead of timing")
    p.add_argument("--check-ranks", default="2,3,4,8,16")
    p.add_argument("--check-hosts", default="a:2,b:2;a:2,b:1;a:4,b:4;a:4,b:4,c:4,d:4",
                   help="fake-node placements h1:K1,h2:K2 separated by ';' ('' for none)")
    p.add_argument("--check-sizes", default="4,1024,65536,1048576")
    p.add_argument("--check-allgather-sizes", default="1,1024,65536")
    p.add_argument("--check-iterations", type=int, default=3)
    p.add_argument("--yield-shim", help="MPICH, oversubscribed checks: libmcb_mpich_yield.so (default: BUILD/tests/)")
    args = p.parse_args(argv)
    args.prefix = os.path.abspath(args.mpi_prefix)
    try:
        # A prefix with both MPIs (Debian's /usr: mpiexec.openmpi and
        # mpiexec.mpich beside an mpiexec that is either): --mpi says which.
        named = os.path.join(args.prefix, "bin", "mpiexec." + (args.mpi or ""))
        if args.mpi and os.access(named, os.X_OK):
            args.launcher = named
        else:
            args.mpi = args.mpi or prefix_mpi(args.prefix)
            args.launcher = prefix_launcher(args.prefix)
    except MpiToolError as e:
        p.error(str(e))
    args.build = os.path.abspath(args.build or build_dir(REPO, args.mpi, args.prefix))
    args.out = os.path.abspath(args.out or "peers-mpi-shm-" + os.path.basename(args.prefix))
    args.collectives = [c for c in args.collectives.split(",") if c]
    for c in args.collectives:
        if c not in ALL_COLLS:
            p.error("--collectives: unknown '%s' (known: %s)" % (c, ", ".join(ALL_COLLS)))
    args.buffers = [b for b in args.buffers.split(",") if b]
    for b in args.buffers:
        if b not in BUFFERS:
            p.error("--buffers: unknown '%s' (plain, registered)" % b)
    args.mcb = {"allreduce": args.mcb_allreduce.split(","), "reduce": args.mcb_reduce.split(","),
                "bcast": args.mcb_bcast.split(",")}
    args.mcb.update({c: DEFAULT_MCB[c].split(",") for c in NEW_COLLS})
    args.sizes = {c: args.sizes for c in SHM_COLLS + ("reduce_scatter_block", "reduce_scatter")}
    args.check_sizes_text = {c: args.check_sizes for c in SHM_COLLS + ("reduce_scatter_block", "reduce_scatter")}
    for c in ("allgather", "allgatherv", "allgather_shm") + ROOTED_COLLS:
        args.sizes[c] = args.allgather_sizes
        args.check_sizes_text[c] = args.check_allgather_sizes
    try:
        args.sizes_list = {c: sizes_of(v) for c, v in args.sizes.items()}
        args.check_sizes = {c: sizes_of(v) for c, v in args.check_sizes_text.items()}
    except ValueError:
        p.error("sizes: a,b,c or MIN:MAX")
    args.check_ranks = [int(x) for x in args.check_ranks.split(",") if x]
    args.check_hosts = [h for h in args.check_hosts.split(";") if h]
    for c in args.collectives:
        if c == "allgather" and args.mpi != "openmpi":
            continue  # compared with Open MPI's coll/tuned only: one line, no run
        binary = os.path.join(args.build, "src", BINARY[c])
        if not os.access(binary, os.X_OK):
            p.error("%s: not built (cmake --build %s --target %s)" % (binary, args.build, BINARY[c]))
        try:
            require_prefix_library(binary, args.prefix)
        except MpiToolError as e:
            p.error("%s" % e)
    # Every Open MPI peer's proof reads the trace (coll/sm's and HAN's
    # functions, coll/tuned's allgather algorithm): without the library the
    # proofs would find no calls and every peer "cannot run".
    if args.mpi == "openmpi" and not os.path.isfile(os.path.join(args.build, TRACE_LIBRARY)):
        p.error("%s: not built (cmake --build %s --target mcb_ompi_coll_trace): the Open MPI peers' proofs need it"
                % (os.path.join(args.build, TRACE_LIBRARY), args.build))
    if args.mpi == "mpich" and args.yield_shim is None:
        shim = os.path.join(args.build, "tests", "libmcb_mpich_yield.so")
        args.yield_shim = shim if os.path.isfile(shim) else ""
    if args.settle and not os.path.isfile(args.settle):
        p.error("--settle %s: no such file" % args.settle)
    if args.settle and args.check:
        p.error("--settle and --check: one at a time")
    if args.settle_launches < 1:
        p.error("--settle-launches %d: expected at least 1" % args.settle_launches)
    args.timeout_mcb = 0
    args.version = mpi_version(args.mpi, args.launcher)
    return args


def describe_mpi(args):
    """What the header says of the MPI, and what the configurations need from its tools."""
    if args.mpi == "openmpi":
        ompi_info = tool_beside(args.launcher, "ompi_info")
        comps = re.findall(r"MCA coll: (\w+) \(MCA [^,]*, API [^,]*, Component v([\d.]+)\)", run_tool([ompi_info]))
        args.mpi_detail = "coll components: %s" % ", ".join("%s v%s" % c for c in comps
                                                            if c[0] in ("sm", "han", "tuned"))
        args.ompi_params = {}
        for comp, param in (("sm", "coll_sm_priority"), ("han", "coll_han_priority")):
            text = run_tool([ompi_info, "--param", "coll", comp, "--level", "9", "--parsable"])
            args.ompi_params[param] = ("mca:coll:%s:param:%s:" % (comp, param)) in text
        text = run_tool([ompi_info, "--param", "coll", "tuned", "--level", "9", "--parsable"])
        args.ompi_tuned, args.ompi_tuned_listed = {}, {}
        for tuned in sorted(set(TUNED_COLL.values())):
            enum = parse_ompi_enum(text, "coll_tuned_%s_algorithm" % tuned)
            args.ompi_tuned[tuned] = {name: str(v) for v, name in enum if v}
            args.ompi_tuned_listed[tuned] = ", ".join("%d %s" % (v, n) for v, n in enum if v) or "nothing"
        args.mpich_device = None
    else:
        text = run_tool([tool_beside(args.launcher, "mpichversion")])
        device = re.search(r"MPICH Device:\s*(\S+)", text)
        conf = re.search(r"MPICH configure:\s*(.*)", text)
        args.mpich_device = device.group(1) if device else None
        shm = re.search(r"--with-ch4-shmmods=(\S+)", conf.group(1) if conf else "")
        args.mpi_detail = "device %s%s" % (args.mpich_device or "?", ", --with-ch4-shmmods=%s" % shm.group(1)
                                           if shm else "")
        args.mpivars = run_tool([tool_beside(args.launcher, "mpivars")], clean_env("mpich"))


args_global = None


def paired_from(path):
    """The ratio tables of a finished run's runs.csv, paired per launch
    (paired_ratio): for runs.csv files written before the report paired
    them (2026-12-02)."""
    runs = read_runs(path)
    launches = by_launch(runs)
    groups = []
    for r in runs:
        g = (r["collective"], r["buffers"], r["peer"])
        if g not in groups:
            groups.append(g)
    print("# %s: per size, the median over runs of mcb's median_us / the MPI's in the same launch" % path)
    for coll, buffers, peer in groups:
        algos = sorted({r["algorithm"] for r in runs if (r["collective"], r["buffers"], r["peer"]) ==
                        (coll, buffers, peer)} - {"system"})
        if not algos:
            continue
        print("\n## %s, %s buffers: %s" % (coll, buffers, peer))
        width = max(len(a) for a in algos) + 8
        print("%10s" % "size" + "".join(("%s ratio" % a).rjust(width) for a in algos))
        for size in sorted({r["size_bytes"] for r in runs if (r["collective"], r["buffers"], r["peer"]) ==
                            (coll, buffers, peer)}):
            cells = []
            for a in algos:
                x = paired_ratio(launches, coll, buffers, peer, a, size)
                cells.append("-" if x is None else "%.2f%s" % (x, "*" if x > 1.0 else ""))
            print("%10s" % human(size) + "".join(c.rjust(width) for c in cells))
    return 0


def finish(args, out, start, name):
    """The report's lines with the wall time since `start`, on the console and in OUT/name."""
    text = "\n".join(out + ["", "# wall time %.0f s" % (time.monotonic() - start)]) + "\n"
    print(text, end="")
    with open(os.path.join(args.out, name), "w") as f:
        f.write(text)


def main(argv=None):
    global args_global
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 2 and argv[0] == "--paired-from":
        return paired_from(argv[1])
    args = args_global = parse_args(argv)
    describe_mpi(args)
    os.makedirs(args.out, exist_ok=True)
    args.logs = os.path.join(args.out, "logs")
    os.makedirs(args.logs, exist_ok=True)
    tmp = os.path.join(args.out, "tmp")
    os.makedirs(tmp, exist_ok=True)
    confs = ompi_configs(args) if args.mpi == "openmpi" else mpich_configs(args)
    args.peer_trace = os.path.join(args.build, TRACE_LIBRARY) if args.mpi == "openmpi" else None
    start = time.monotonic()
    if args.check:
        out = []
        header(args, out, check=True)
        out.append("# check sizes: %s (allgather %s), -i %d -x 1"
                   % (args.check_sizes_text["allreduce"], args.check_sizes_text["allgather"], args.check_iterations))
        failures, lines = check(args, confs, tmp)
        out += [""] + lines
        out.append("")
        out.append("# %d failures; wall time %.0f s" % (failures, time.monotonic() - start))
        text = "\n".join(out) + "\n"
        print(text, end="")
        with open(os.path.join(args.out, "check.txt"), "w") as f:
            f.write(text)
        return 1 if failures else 0
    if args.settle:
        # The forcing was proved in the sweep's run; each launch checks it again (launch_once).
        out, rows = settle(args, confs, tmp)
        finish(args, out, start, "settle.txt")
        write_csv(os.path.join(args.out, "settle.csv"), rows,
                  ["mpi", "mpi_version", "collective", "buffers", "peer", "forced", "mcb_algorithm", "size_bytes",
                   "sweep_ratio", "ratio_median", "ratio_min", "ratio_max", "launches", "mcb_ahead", "verdict",
                   "ratios"])
        return 0
    for conf in confs:
        if conf.peer != "default":
            log("[proof] %s" % conf.label)
            prove(args, conf, tmp)
            log("  " + ("CANNOT RUN: " + conf.refused if conf.refused else conf.note))
    results, params, runs = timed(args, confs, tmp)
    out, rows = report(args, confs, results, params, runs)
    finish(args, out, start, "report.txt")
    write_csv(os.path.join(args.out, "ratios.csv"), rows,
              ["mpi", "mpi_version", "collective", "buffers", "peer", "forced", "mcb_algorithm", "mcb_params",
               "size_bytes", "mcb_median_us", "peer_median_us", "ratio", "mcb_min_us", "peer_min_us",
               "default_median_us", "runs", "excluded", "proof"])
    write_csv(os.path.join(args.out, "runs.csv"), runs,
              ["mpi", "mpi_version", "collective", "buffers", "peer", "forced", "algorithm", "params",
               "size_bytes", "run", "median_us", "avg_us"])
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (PeerError, MpiToolError) as e:
        print("mpi_shm.py: error: %s" % e, file=sys.stderr)
        sys.exit(1)
