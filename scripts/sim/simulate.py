#!/usr/bin/env python3
"""Run an mcb binary of the simulation build on a simulated cluster (SimGrid SMPI).

  scripts/sim/simulate.py --platform manycore-32x112 --nodes 2,8,32 --ranks-per-node 112 \\
      -- mcb_alltoall -m 4,4096 -i 2 -x 1 --algorithm pairwise,node_aware

For each node count, the binary (from --build's src/, or a path) runs under
smpirun on the first N nodes of the platform (scripts/sim/platforms/NAME.xml or a
file), K ranks per node, and writes its CSV to --out; then the runner prints,
for every node count and size, the configurations from fastest to slowest.
A node is a host of K cores, or, on the NAME-shm platforms, a cluster of
single-core hosts sharing the node's memory (one rank per host).

Simulated times are deterministic: SMPI replays every message over the
platform's links (latency, bandwidth, sharing of a link by concurrent
messages). Local work is timed only where the platform gives per-core rates
(NAME-shm): mcb charges its copies, packs and reductions at those rates
(mcb/local_work.hpp); elsewhere, with smpi/simulate-computation:no, they cost
nothing. Simulated microseconds are a model's, not a machine's: see
docs/simulation.md.

As a launcher (--launch, for the figure scripts: MCB_LAUNCHER=sim:PLATFORM),
it runs the command once on --nodes N hosts as given, its own --csv included,
with the output streamed, and exits with the command's status:

  scripts/sim/simulate.py --platform manycore-32x112 --nodes 4 --ranks-per-node 8 --launch \\
      -- build-sim/src/mcb_alltoall -m 4 --csv out.csv

Speed (docs/simulation.md, "Speed at thousands of ranks", has the measurements):
unless --smpi-defaults, every run gets the settings of SPEED_SETTINGS below,
which make thousands of simulated ranks affordable on one core. Each run's
output is streamed as it comes, with its wall time at the end; a run fails
with one line when SMPI reports a deadlock, the run dies or times out, or its
CSV is missing.

Memory: every simulated rank is a context of one process holding its own
buffers (P x size per buffer and rank): for 3584 ranks x 4 KiB add
`--sim-shared-malloc 65536` to mcb's arguments, which folds big buffers onto
shared pages (no validation then).
"""
import argparse
import csv
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))

# SimGrid 3.32 settings for speed at scale, each measured (docs/simulation.md,
# "Speed at thousands of ranks"); --smpi-defaults leaves SMPI's own.
SPEED_SETTINGS = [
    # Small sends rendezvous like large ones: SMPI keeps detached (eager)
    # sends in one global list and removes each by a linear scan, so
    # thousands in flight cost O(n^2).
    "smpi/send-is-detached-thresh:0",
    # No reverse (ACK) flow per message in the bandwidth sharing.
    "network/crosstraffic:0",
    # 256 KiB stacks instead of 8 MiB for thousands of simulated ranks.
    "contexts/stack-size:256",
    # mcb --sim-shared-malloc: one mapping per 16 MiB block (mcb rounds its
    # shared buffers up to whole blocks), so that 3584 ranks' buffers stay
    # within the kernel's 65530 mappings per process.
    "smpi/shared-malloc-blocksize:16777216",
    # SMPI's SMP-aware binomial bcast (MPICH selection) sends to ranks of
    # other nodes when the ranks per node are not a power of two (leaked
    # messages with eager sends, a deadlock without); and Comm_create/split
    # bcast through the selected algorithm.
    "smpi/bcast:binomial_tree",
    # One copy of the binary for every simulated rank: SMPI's default
    # (dlopen) privatization loads a copy of the executable per rank, whose
    # code pages were 85% of the memory (896 ranks: 1.44 GB against 0.23 GB)
    # and cost a quarter of the wall time. mcb keeps its per-rank state per
    # simulated actor (mcb/local_work.hpp, the logger), not in globals.
    "smpi/privatization:no",
]
# mcb's untimed bookkeeping (agreement, the max over ranks) calls
# MPI_Allreduce and MPI_Reduce on each communicator; MPICH's selection first
# makes each communicator SMP-aware with a linear reduce, O(P^2) in SMPI.
# A binomial reduce and bcast (redbcast) sends 2(P - 1) messages per
# agreement, recursive doubling about P log2 P.
# Binaries whose `system` algorithm is not these collectives use simple
# algorithms instead.
BOOKKEEPING_SETTINGS = ["smpi/allreduce:redbcast", "smpi/reduce:binomial"]
TIMES_ALLREDUCE = ("mcb_allreduce", "mcb_reduce")


def platform_file(name):
    if os.path.isfile(name):
        return os.path.abspath(name)
    path = os.path.join(HERE, "platforms", name + ".xml")
    if not os.path.isfile(path):
        names = sorted(f[:-4] for f in os.listdir(os.path.join(HERE, "platforms")) if f.endswith(".xml"))
        sys.exit(f"simulate.py: no platform '{name}' (have: {', '.join(names)}, or give a file)")
    return path


def platform_nodes(path):
    """The platform's nodes, in order, each a list of (host, slots): a host
    of a <cluster> is a node of `core` slots, except in the clusters whose
    hosts carry the property mcb/node (make_platforms.py's NAME-shm: the
    clusters of one mcb/node value, one per socket, are one node, and each
    of their hosts one core, one slot)."""
    nodes = []
    by_node = {}  # mcb/node -> its hosts (a node of several sockets is several clusters)
    root = ET.parse(path).getroot()
    for cluster in root.iter("cluster"):
        prefix, suffix = cluster.get("prefix", ""), cluster.get("suffix", "")
        cores = int(cluster.get("core", "1"))
        hosts = []
        for part in cluster.get("radical", "").split(","):
            lo, _, hi = part.partition("-")
            hosts += [f"{prefix}{i}{suffix}" for i in range(int(lo), int(hi or lo) + 1)]
        node = [prop.get("value") for prop in cluster.iter("prop") if prop.get("id") == "mcb/node"]
        if node:
            if node[0] not in by_node:
                by_node[node[0]] = []
                nodes.append(by_node[node[0]])
            by_node[node[0]].extend((h, 1) for h in hosts)
        else:
            nodes += [[(h, cores)] for h in hosts]
    for host in root.iter("host"):
        nodes.append([(host.get("id"), int(host.get("core", "1")))])
    return nodes


def node_slots(node):
    return sum(slots for _, slots in node)


def hostfile_lines(node, ranks):
    """Hostfile lines for `ranks` ranks on `node`, its hosts filled in order."""
    lines = []
    for host, slots in node:
        take = min(slots, ranks)
        if take > 0:
            lines.append(f"{host}:{take}\n")
        ranks -= take
    return lines


def parse_list(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        sys.exit(f"simulate.py: '{text}': expected positive integers separated by commas")
    return values


def run(cmd, cwd, timeout, echo=True):
    """Runs cmd in a session of its own, its output (stderr merged) streamed
    line by line as it comes and kept; the session is killed at the end, pass
    or fail. Returns (exit status or None on timeout, output, wall seconds)."""
    start = time.time()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace", start_new_session=True)
    lines = []

    def pump():
        for line in proc.stdout:
            lines.append(line)
            if echo:
                sys.stdout.write(line)
                sys.stdout.flush()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        rc = None
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        reader.join(timeout=10)
    return rc, "".join(lines), time.time() - start


def failure(rc, out, timeout):
    """Why a finished run failed, in one line, or None."""
    if rc is None:
        return f"no result after {timeout:g} s"
    if "Deadlock detected" in out:
        when = re.search(r"^\[([0-9.]+)\] .*Deadlock detected", out, re.M)
        return "SMPI detected a deadlock" + (f" at simulated time {when.group(1)} s" if when else "") + f", exit {rc}"
    if rc != 0:
        return f"exit {rc}" + (f" (killed by signal {-rc})" if rc < 0 else "")
    return None


def ordering(rows):
    """{(nodes, size): [(avg_us, label)]} of the rows' totals, fastest first."""
    table = {}
    for r in rows:
        if r["phase"] != "total":
            continue
        label = r["algorithm"] + ("" if r["params"] in ("", "none") else f" ({r['params']})")
        table.setdefault((int(r["nodes"]), int(r["size_bytes"])), []).append((float(r["avg_us"]), label))
    return {k: sorted(v) for k, v in sorted(table.items())}


def platform_precision(path):
    """The platform's own time precision (its <config> prop surf/precision:
    the node model's, make_platforms.py), or None. smpirun sets SimGrid's
    1e-9 s on its command line, which a platform's <config> cannot override,
    so it is passed again after it."""
    for prop in ET.parse(path).getroot().iter("prop"):
        if prop.get("id") == "surf/precision":
            return prop.get("value")
    return None


def smpirun_command(args, platform, hostfile, tmp, np, binary):
    cfg = ["smpi/simulate-computation:no", "smpi/coll-selector:" + args.coll_selector, "smpi/tmpdir:" + tmp]
    precision = platform_precision(platform)
    if precision:
        cfg.append("surf/precision:" + precision)
    if not args.smpi_defaults:
        cfg += SPEED_SETTINGS
        if os.path.basename(binary) not in TIMES_ALLREDUCE:
            cfg += BOOKKEEPING_SETTINGS
    cfg += args.cfg
    cmd = [args.smpirun, "-np", str(np), "-platform", platform, "-hostfile", hostfile]
    return cmd + [f"--cfg={c}" for c in cfg] + ["--log=root.thresh:warning", os.path.abspath(binary)]


def launch(args, platform, hosts, per_node, binary, rest, ranks=None, dealt=None):
    """--launch: the command once, as given, streamed; its exit status (1 if
    SMPI reported a deadlock, 124 on timeout). With `ranks`, the hosts are
    filled in order, per_node each, the last one with the rest; with
    `dealt`, node i takes dealt[i] ranks."""
    ranks = ranks or len(hosts) * per_node
    counts = dealt or [min(per_node, ranks - i * per_node) for i in range(len(hosts))]
    with tempfile.TemporaryDirectory(prefix="mcb-sim-") as tmp:
        hostfile = os.path.join(tmp, "hosts")
        with open(hostfile, "w") as f:
            for node, k in zip(hosts, counts):
                f.writelines(hostfile_lines(node, k))
        rest = [os.path.abspath(a) if prev == "--csv" else a for prev, a in zip([""] + rest, rest)]
        cmd = smpirun_command(args, platform, hostfile, tmp, ranks, binary) + rest
        rc, out, wall = run(cmd, tmp, args.timeout)
    why = failure(rc, out, args.timeout)
    print(f"simulate.py: {'FAIL: ' + why if why else 'done'}, {wall:.1f} s of real time", file=sys.stderr, flush=True)
    if rc is None:
        return 124
    return rc if rc != 0 else (1 if why else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--platform", required=True, help="name in scripts/sim/platforms/ or an XML file")
    p.add_argument("--nodes", help="node counts, e.g. 2,8,32 (default 2)")
    p.add_argument("--ranks", type=int,
                   help="with --launch: this many ranks, --ranks-per-node on each host in order and the rest on the "
                        "last (the nodes it takes; a count that need not fill whole nodes)")
    p.add_argument("--deal", action="store_true",
                   help="with --launch, --ranks P and --nodes N: the P ranks dealt over the N nodes (counts differing "
                        "by at most one, as Open MPI's --map-by node; run mcb with --rank-order cyclic for its order)")
    p.add_argument("--ranks-per-node", type=int, help="ranks per host (default: the host's cores)")
    p.add_argument("--build", default="build-sim", help="the simulation build (cmake -DMCB_SIMULATE=ON)")
    p.add_argument("--out", default="results-sim", help="directory for the CSV files")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run; a run past it fails")
    p.add_argument("--smpirun", default=shutil.which("smpirun") or "smpirun")
    p.add_argument("--coll-selector", default="mpich",
                   help="SMPI's choice of algorithms for the 'system' collectives: mpich (default), ompi, ...")
    p.add_argument("--cfg", action="append", default=[], help="extra SimGrid --cfg=NAME:VALUE")
    p.add_argument("--smpi-defaults", action="store_true",
                   help="SMPI's own settings instead of the speed settings (SPEED_SETTINGS; slow at scale)")
    p.add_argument("--launch", action="store_true",
                   help="run the command once as given (one node count), output streamed, its exit status returned")
    p.add_argument("program", nargs=argparse.REMAINDER, help="-- mcb_BINARY ARGS...")
    args = p.parse_args()
    prog = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not prog:
        p.error("give the binary and its arguments after --")
    binary = prog[0] if os.path.sep in prog[0] else os.path.join(args.build, "src", prog[0])
    if not os.path.isfile(binary):
        sys.exit(f"simulate.py: {binary} not found: build it with cmake -DMCB_SIMULATE=ON -B {args.build}")
    if not args.launch and any(a == "--csv" or a.startswith("--csv=") for a in prog[1:]):
        sys.exit("simulate.py: the runner names the CSV files (--out)")
    platform = platform_file(args.platform)
    hosts = platform_nodes(platform)
    per_node = args.ranks_per_node or node_slots(hosts[0])
    dealt = None
    if args.deal:
        if not args.launch or args.ranks is None or not args.nodes or "," in args.nodes:
            sys.exit("simulate.py: --deal goes with --launch, --ranks P and one --nodes N")
        n = parse_list(args.nodes)[0]
        if args.ranks < 1:
            sys.exit(f"simulate.py: --ranks {args.ranks}: expected a positive count")
        dealt = [args.ranks // n + (1 if i < args.ranks % n else 0) for i in range(n)]
        dealt = [k for k in dealt if k > 0]
        per_node = max(dealt)
        args.nodes = str(len(dealt))
    elif args.ranks is not None:
        if not args.launch or args.nodes:
            sys.exit("simulate.py: --ranks goes with --launch and without --nodes")
        if args.ranks < 1:
            sys.exit(f"simulate.py: --ranks {args.ranks}: expected a positive count")
        args.nodes = str(-(-args.ranks // per_node))
    node_counts = parse_list(args.nodes or "2")
    os.makedirs(args.out, exist_ok=True)
    name = os.path.basename(binary)
    tag = os.path.splitext(os.path.basename(platform))[0]
    rows, failed = [], 0
    for nodes in node_counts:  # every count checked before anything runs
        if nodes > len(hosts):
            unit = "hosts" if len(hosts[0]) == 1 else "nodes"  # a node of single-core hosts (NAME-shm)
            sys.exit(f"simulate.py: --nodes {nodes}: platform {tag} has {len(hosts)} {unit}")
        if per_node > min(node_slots(n) for n in hosts[:nodes]):
            sys.exit(f"simulate.py: --ranks-per-node {per_node}: the nodes of {tag} have {node_slots(hosts[0])} cores")
    if args.launch:
        if len(node_counts) != 1:
            sys.exit("simulate.py: --launch takes one node count")
        return launch(args, platform, hosts[:node_counts[0]], per_node, binary, prog[1:], args.ranks, dealt)
    for nodes in node_counts:
        csv_path = os.path.abspath(os.path.join(args.out, f"{name}-{tag}-{nodes}x{per_node}.csv"))
        if os.path.exists(csv_path):
            os.remove(csv_path)  # a CSV after the run is this run's
        with tempfile.TemporaryDirectory(prefix="mcb-sim-") as tmp:
            hostfile = os.path.join(tmp, "hosts")
            with open(hostfile, "w") as f:
                for node in hosts[:nodes]:
                    f.writelines(hostfile_lines(node, per_node))
            cmd = smpirun_command(args, platform, hostfile, tmp, nodes * per_node, binary)
            cmd += prog[1:] + ["--csv", csv_path]
            print(f"== {tag}: {nodes} nodes x {per_node} ranks: {' '.join(cmd)}", flush=True)
            rc, out, wall = run(cmd, tmp, args.timeout)
        why = failure(rc, out, args.timeout)
        if not why and re.search(r"^\d+\s.*\bfail\b", out, re.M):
            why = "validation failed"
        if not why and not os.path.isfile(csv_path):
            why = f"exit 0 but no CSV ({csv_path})"
        if not why:
            # mcb's own node detection (MPI_COMM_TYPE_SHARED, or the hosts'
            # property mcb/node) must see the simulated nodes.
            want = f"ranks: {nodes * per_node}, nodes: {nodes}, ranks per node: {per_node}"
            seen = set(re.findall(r"^# (ranks: \d+, nodes: \d+, ranks per node: \d+)", out, re.M))
            if seen and seen != {want}:
                why = f"mcb reports {sorted(seen)}, launched {want}"
        print(f"== {nodes} nodes: {'FAIL: ' + why if why else 'done'}, {wall:.1f} s of real time", flush=True)
        if why:
            print(f"simulate.py: FAIL: {tag}, {nodes} nodes x {per_node} ranks: {why}", flush=True)
            failed += 1
            continue
        with open(csv_path, newline="") as f:
            rows += list(csv.DictReader(f))
    for (nodes, size), entries in ordering(rows).items():
        print(f"\n# simulated ordering on {tag}, {nodes} nodes, {size} B: fastest first (us)")
        for avg, label in entries:
            print(f"{avg:14.2f}  {label}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
