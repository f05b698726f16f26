#!/usr/bin/env python3
"""The paper-scale set (data/paper-scale/) as a list of independent
simulations, regenerated locally or as a Slurm job array, resumable.

  scripts/sim/paper_scale.py list [--parts tra,sparbit] [--models shm]      # the points, done or not, and estimates
  scripts/sim/paper_scale.py run -j 2 [--parts ...] [--models ...]          # every point not done, 2 at a time
  scripts/sim/paper_scale.py run --index 7                                  # one point (a job array task)
  scripts/sim/paper_scale.py slurm --account A --partition P --time 4:00:00 [--submit [--wait]]   # a job array
  scripts/sim/paper_scale.py merge                                          # what needs every point (Sparbit's cells)

A point is one simulate.py launch of one mcb binary (directly, or through a
figure script of scripts/ with MCB_LAUNCHER=sim:PLATFORM and one node or
process count) and the CSV files it writes into
data/paper-scale/PART-PLATFORM/ (gzip once written). A point is done when
its files are there, so every command skips what is done and a cut-short
run resumes where it stopped. Each finished point's wall time goes into
data/paper-scale/walltimes.tsv, from which `list` estimates the rest.

Parts (the papers' figures at their own scale; --parts):
  tra       the TRA paper on theta-256x64 (64 ranks per node): Figure 8
            (TRA's time against its radix, P = 512, 1024, 2048; S = 16, 128,
            1024, 8192 B), Figure 9 (TRA2's phases against r1 and r2, same
            P), Figure 10 (system, TRA, TRA2 against S, P = 64 to 2048; at
            16, 32 and 64 B also up to P = 4096, 8192 and 16,384) and
            the paper's stated points at P = 2048 (TRA radix 2 and 46 at 128
            B; system, TRA, TRA2 at 32 B: calibrate.py's runs); on the node
            model Figure 10's cells up to P = 512 and 1024 also as launches
            of their own (fig10-N8, fig10-N16).
            Hours per P from 1024 on (Figure 8 at P = 2048: about 8 h).
  locality  the locality paper on dane-32x112: Figure 10 at 32 x 112 (3584
            ranks; every algorithm of the figure that SMPI can finish at
            this scale, 4 per leader or group, both inner exchanges, 4, 64,
            1024 and 4096 B; the gather-based ones at 4096 B with SMPI's
            linear gather and scatter, as its binomial ones keep P x 4 KiB
            per rank in private memory; the standalone nonblocking exchange,
            12.8 million messages in flight at once, left out: see
            docs/claims.md; on the node model one point per inner and
            size), Figures 7-9 at 4 B (4, 8 and 16 processes per
            leader or group), Figure 13 (hierarchical, isolated phases, 8
            nodes) and Figure 16 (locality-aware's phases at 4096 B, 2 to 16
            processes per group, beside node-aware; 32 nodes).
  nodes     its Figures 11 and 12: the algorithms of Figure 10 (not the
            standalone exchanges) on 2, 4 and 8 nodes x 112 in one launch
            (mcb --nodes), 4 and 4096 B; 16 nodes in two launches, 4 B with
            every algorithm and 4096 B with system, node-aware and
            locality-aware only (memory); the 32-node points are Figure 10's.
            Written into locality-PLATFORM/.
  sparbit   the Sparbit paper's Figure 5 and Tables I-II: every allgather, 1 B
            to 1 MiB, the paper's process counts (5, 13, 21, ... and 8, 16,
            24, ...) in block order and cyclic (dealt over the nodes, as the
            paper's Open MPI --map-by node), on yahoo-16x8 (P up to 128) and cervino-5x32 (P up to
            160), one point per count; `merge` (run at the end of `run`)
            writes allgather_sparbit-cells.csv and compare_best.txt.
  polaris   the TRA paper's Figures 11 (TRA against its radix, P = 512,
            1024, 2048; S = 16, 128, 1024, 8192 B) and 12 (system, TRA, TRA2
            on 1 to 16 nodes, 16 to 4096 B) on polaris-64x32 (32 ranks per
            node); written into tra-PLATFORM/.
  tuolumne  the locality paper's Figure 18 on tuolumne-32x96 (3072 ranks):
            node-aware, locality-aware, multi-leader + node-aware and system,
            4 to 4096 B (locality-aware and multi-leader + node-aware one
            point per inner and size); written into
            locality-PLATFORM/.
Some committed files predate this list (other names, the tra2 and
calibration runs): they are kept, and claims.py reads every CSV of a
directory. Models (--models; the platform variants
of scripts/sim/platforms/make_platforms.py): costs (NAME: per-message costs),
nocost (NAME-nocost), shm (NAME-shm: the node's memory, its cores and
local work), shm-half and shm-double (NAME-shm with the local-work and
memory costs halved or doubled: the claims' sensitivity). Default: every
part, models costs, nocost and shm.

Simulated times are a model's (SimGrid SMPI), not the machines': see
docs/simulation.md. Buffers of 64 KiB and more are SMPI's shared pages, so
nothing is validated here (tests/simulate validates the same code small).
"""
import argparse
import gzip
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = {"costs": "", "nocost": "-nocost", "shm": "-shm", "shm-half": "-shm-half", "shm-double": "-shm-double"}
DEFAULT_MODELS = ("costs", "nocost", "shm")
PARTS = ("tra", "locality", "nodes", "sparbit", "polaris", "tuolumne")
MCB_ARGS = "-i 1 -x 0 --sim-shared-malloc 65536 --progress 120"
LOCALITY_ALGORITHMS = ("node_aware", "locality_aware", "multileader_node_aware", "hierarchical", "multileader",
                       "system", "pairwise")
FAMILY = ["--inner", "pairwise,nonblocking", "--procs-per-leader", "4", "--procs-per-group", "4"]
# SMPI's binomial gather and scatter keep P x 4 KiB temporaries per rank in
# private memory (more than 24 GB at 3584 ranks); the linear ones do not.
LINEAR_GATHERS = ["--cfg", "smpi/gather:ompi_basic_linear", "--cfg", "smpi/scatter:ompi_basic_linear"]


class Point:
    """One simulation: `cmd` (run from the repository root with `env`)
    writes `outputs` (names in `out`, the part's directory)."""

    def __init__(self, part, model, platform, name, cmd, outputs, env=None, estimate=600, directory=None):
        self.part, self.model, self.platform, self.name = part, model, platform, name
        self.cmd, self.outputs, self.env, self.estimate = cmd, outputs, env or {}, estimate
        self.out = os.path.join("data", "paper-scale", directory or f"{part}-{platform}")
        self.id = f"{part}-{platform}/{name}"

    def log(self, root):
        return os.path.join(root, self.out, "." + self.name + ".log")

    def done(self, root):
        """Its files are there (gzip, or plain as some committed ones) and no
        log of a run that failed or was cut short (removed on success)."""
        return not os.path.isfile(self.log(root)) and all(
            os.path.isfile(os.path.join(root, self.out, f + ".gz")) or os.path.isfile(os.path.join(root, self.out, f))
            for f in self.outputs)


def launch(platform, nodes, per_node, binary, args, csv, cfg=()):
    return ([sys.executable, os.path.join(HERE, "simulate.py"), "--platform", platform, "--nodes", str(nodes),
             "--ranks-per-node", str(per_node), "--timeout", "86400", "--launch"] + list(cfg) +
            ["--", os.path.join("{bin}", binary)] + list(args) + ["--csv", csv] + shlex.split(MCB_ARGS))


def figure_script(script, platform, out, nodes, per_node, **env):
    """A figure script of scripts/ through the simulator (batch.sh's sim:)."""
    e = {"MCB_LAUNCHER": f"sim:{platform}", "MCB_RESULTS": out, "MCB_NODES": str(nodes),
         "MCB_RANKS_PER_NODE": str(per_node), "MCB_VALIDATE": "0", "MCB_RUNS": "1", "MCB_ARGS": MCB_ARGS,
         "MCB_SIM_TIMEOUT": "86400"}
    e.update({k: str(v) for k, v in env.items()})
    return [os.path.join(HERE, "..", "batch", script)], e


GATHER_BASED = ("hierarchical", "multileader", "multileader_node_aware")
INNERS = ("pairwise", "nonblocking")
# Every leader's or group's exchanges posted at once (hundreds of thousands of
# messages in flight): at 3072-3584 ranks these did not finish here (15 and 28
# minutes without a first result); estimated at an hour, to a cluster's limit.
UNFINISHED = {("locality_aware", "nonblocking"), ("multileader", "nonblocking")}


def radix_point(part, model, platform, base, nodes, per_node, name, estimate, directory=None):
    """TRA's time against its radix on `nodes` nodes (tra_radix.sbatch; the
    TRA paper's Figures 8 and 11), S = 16, 128, 1024, 8192 B."""
    cmd, env = figure_script("tra_radix.sbatch", platform, base, nodes, per_node, MCB_NODE_COUNTS=nodes,
                             MCB_SIZES="16,128,1024,8192")
    return Point(part, model, platform, name, cmd, [f"tra_radix-N{nodes}-n{nodes * per_node}-run1.csv"], env,
                 estimate=estimate, directory=directory)


def sizes_points(part, model, platform, base, nodes, per_node, algorithm, figure, estimate, directory=None,
                 split=False):
    """One algorithm of the locality paper's Figures 10 and 18 against the
    size, 4 to 4096 B, both inners (FAMILY); the gather-based ones at
    4096 B apart, with SMPI's linear gather and scatter. `split`: one
    point per inner and size, or per size for the algorithms without an
    inner exchange (two cores share them, a cut-short run keeps what
    finished, and `--only` runs the sizes a claim needs first)."""
    linear = algorithm in GATHER_BASED
    if split and algorithm in ("system", "pairwise"):
        runs = [(f"{s}:{s}", f"{s}B-", None, ()) for s in (4, 64, 1024, 4096)]
    elif split:
        runs = [(f"{s}:{s}", f"{inner}-{s}B-{'lineargather-' if linear and s == 4096 else ''}", inner,
                 LINEAR_GATHERS if linear and s == 4096 else ()) for inner in INNERS for s in (4, 64, 1024, 4096)]
    elif linear:
        runs = [("4,64,1024", "", None, ()), ("4096:4096", "4096B-lineargather-", None, LINEAR_GATHERS)]
    else:
        runs = [("4,64,1024,4096", "", None, ())]
    out = []
    for sizes, tag, inner, cfg in runs:
        name = f"alltoall_sizes-{algorithm}-{tag}N{nodes}-n{nodes * per_node}-run1.csv"
        family = FAMILY if inner is None else ["--inner", inner] + FAMILY[2:]
        cmd = launch(platform, nodes, per_node, "mcb_alltoall", ["--algorithm", algorithm] + family + ["-m", sizes],
                     os.path.join(base, name), cfg)
        out.append(Point(part, model, platform, f"{figure}-{algorithm}{'-' + tag[:-1] if tag else ''}", cmd, [name],
                         estimate=3600 if (algorithm, inner) in UNFINISHED else estimate, directory=directory))
    return out


def points(parts, models, small=False):
    """Every point of `parts` x `models`, in a fixed order (a job array's
    index is a position in it). `small`: the CI smoke set (yahoo-16x8,
    two small process counts, two sizes)."""
    out = []
    for model in models:
        suffix = MODELS[model]
        if small:
            platform = "yahoo-16x8" + suffix
            base = os.path.join("data", "paper-scale", f"sparbit-{platform}")
            for p in (5, 8):
                cmd, env = figure_script("allgather_sparbit.sbatch", platform, base, 2, 8, MCB_PROCS=p, MCB_SIZES="1:4",
                                         MCB_CELLS=0)
                names = [f"allgather_sparbit-{order}-n{p}-run1.csv" for order in ("block", "cyclic")]
                out.append(Point("sparbit", model, platform, f"n{p}", cmd, names, env, estimate=2))
            continue
        if "tra" in parts:
            platform = "theta-256x64" + suffix
            base = os.path.join("data", "paper-scale", f"tra-{platform}")
            for n in (8, 16, 32):
                ranks = n * 64
                out.append(radix_point("tra", model, platform, base, n, 64, f"fig8-N{n}",
                                       {8: 1500, 16: 7200, 32: 28800}[n]))
                cmd, env = figure_script("tra2_radix.sbatch", platform, base, n, 64, MCB_NODE_COUNTS=n)
                out.append(Point("tra", model, platform, f"fig9-N{n}", cmd,
                                 [f"tra2_radix_{w}-N{n}-n{ranks}-run1.csv" for w in ("intra", "inter")], env,
                                 estimate={8: 150, 16: 210, 32: 660}[n]))
            # The paper's stated points at P = 2048 (scripts/sim/calibrate.py's runs):
            # TRA radix 2 and 46 at 128 B; system, TRA and TRA2 at 32 B.
            for tag, args in (("128B", ["-m", "128:128", "--algorithm", "tra", "--radix", "2,46"]),
                              ("32B", ["-m", "32:32", "--algorithm", "system,tra,tra2", "--radix", "46",
                                       "--radix-intra", "8", "--radix-inter", "32"])):
                name = f"calibrate_tra_{tag}-N32-n2048-run1.csv"
                out.append(Point("tra", model, platform, f"p2048-{tag}", launch(platform, 32, 64, "mcb_alltoall", args,
                                                                               os.path.join(base, name)),
                                 [name], estimate=300))
            cmd, env = figure_script("tra_compare.sbatch", platform, base, 32, 64, MCB_SIZES="16:4096")
            out.append(Point("tra", model, platform, "fig10", cmd, ["tra_compare-N32-n2048-run1.csv"], env,
                             estimate=21600))
            if suffix.startswith("-shm"):
                # On the node model Figure 10 in one launch is hours (its
                # P = 2048 system is P^2 messages from 256 B): its cells up
                # to P = 512 and 1024 first, as launches of their own.
                for n in (8, 16):
                    cmd, env = figure_script("tra_compare.sbatch", platform, base, n, 64, MCB_SIZES="16:4096")
                    out.append(Point("tra", model, platform, f"fig10-N{n}", cmd,
                                     [f"tra_compare-N{n}-n{n * 64}-run1.csv"], env, estimate={8: 150, 16: 1200}[n]))
            # Figure 10 beyond P = 2048 (the paper goes to 16,384), at its
            # small blocks (SMPI's system alltoall is Bruck there; from a few
            # hundred bytes it is P^2 messages, hours per size at P = 4096).
            for n in (64, 128, 256):
                cmd, env = figure_script("tra_compare.sbatch", platform, base, n, 64, MCB_SIZES="16,32,64")
                out.append(Point("tra", model, platform, f"fig10-N{n}-small", cmd,
                                 [f"tra_compare-N{n}-n{n * 64}-run1.csv"], env,
                                 estimate={64: 1800, 128: 7200, 256: 28800}[n]))
        if "locality" in parts:
            platform = "dane-32x112" + suffix
            base = os.path.join("data", "paper-scale", f"locality-{platform}")
            # On the node model one point per inner and size (system and the
            # standalone exchange: per size): its many-messages-at-once
            # cases (nonblocking inners, the system's scatter-destination
            # windows at 1 KiB) take hours there, its pairwise ones minutes.
            for algorithm in LOCALITY_ALGORITHMS:
                split = model.startswith("shm")
                out += sizes_points("locality", model, platform, base, 32, 112, algorithm, "fig10",
                                    2400 if algorithm == "pairwise" else 300 if split else 900, split=split)
            # Figures 7-9 at 4 B: 4, 8 and 16 processes per leader or group.
            for algorithm in ("hierarchical", "multileader", "node_aware", "locality_aware", "multileader_node_aware"):
                name = f"alltoall_leaders-{algorithm}-4B-N32-n3584-run1.csv"
                cmd = launch(platform, 32, 112, "mcb_alltoall", ["--algorithm", algorithm, "--inner",
                                                                 "pairwise,nonblocking", "--procs-per-leader", "4,8,16",
                                                                 "--procs-per-group", "4,8,16", "-m", "4:4"],
                             os.path.join(base, name))
                out.append(Point("locality", model, platform, f"fig7-9-{algorithm}", cmd, [name], estimate=900))
            # Figures 7-9 from 64 B up (Figure 7's claim at large sizes; Figure
            # 8's at most sizes): one point per algorithm, inner and size
            # (Figure 7's claim needs hierarchical's and multileader's at
            # 4096 B: `--only 4096B`; 25-184 s each with per-message costs,
            # 90-774 s on the node model; multileader's and locality-aware's
            # nonblocking inners, hundreds of thousands of messages in flight
            # at once, do not finish here); the gather-based ones with SMPI's
            # linear gather and scatter (within 0.1% of the binomial ones at
            # 4-1024 B, and the only ones that fit at 4096 B).
            for algorithm in ("hierarchical", "multileader", "node_aware", "locality_aware", "multileader_node_aware"):
                cfg = LINEAR_GATHERS if algorithm in GATHER_BASED else ()
                sweeps = algorithm not in ("hierarchical", "node_aware")  # 4, 8 and 16 per leader or group
                for inner in INNERS:
                    for size in (64, 1024, 4096):
                        name = f"alltoall_leaders-{algorithm}-{inner}-{size}B-N32-n3584-run1.csv"
                        cmd = launch(platform, 32, 112, "mcb_alltoall",
                                     ["--algorithm", algorithm, "--inner", inner, "--procs-per-leader", "4,8,16",
                                      "--procs-per-group", "4,8,16", "-m", f"{size}:{size}"],
                                     os.path.join(base, name), cfg)
                        estimate = 3600 if (algorithm, inner) in UNFINISHED else 900 if sweeps else 300
                        out.append(Point("locality", model, platform, f"fig7-9-{algorithm}-{inner}-{size}B", cmd,
                                         [name], estimate=estimate))
            name = "breakdown_hierarchical-N8-n896-run1.csv"
            cmd = launch(platform, 8, 112, "mcb_alltoall", ["--algorithm", "hierarchical", "--inner",
                                                            "pairwise,nonblocking", "--phase-mode", "isolated", "-m",
                                                            "4,64,256,1024,4096"], os.path.join(base, name))
            out.append(Point("locality", model, platform, "fig13", cmd, [name], estimate=300))
            # Figure 16: locality-aware's phases at 1024 integers (4096 B), 2 to
            # 16 processes per group, beside node-aware (the paper's 1 per group).
            name = "breakdown_locality_aware-4096B-N32-n3584-run1.csv"
            cmd = launch(platform, 32, 112, "mcb_alltoall", ["--algorithm", "locality_aware,node_aware", "--inner",
                                                             "pairwise", "--procs-per-group", "2,4,8,16", "-m",
                                                             "4096:4096"], os.path.join(base, name))
            out.append(Point("locality", model, platform, "fig16", cmd, [name], estimate=3600))
        if "nodes" in parts:
            platform = "dane-32x112" + suffix
            base = os.path.join("data", "paper-scale", f"locality-{platform}")
            every = "system,hierarchical,multileader,node_aware,locality_aware,multileader_node_aware"
            for tag, n, args in (("N8-n896", 8, ["--algorithm", every, "-m", "4,4096", "--nodes", "2,4,8"]),
                                 ("4B-N16-n1792", 16, ["--algorithm", every, "-m", "4:4"]),
                                 ("4096B-N16-n1792", 16, ["--algorithm", "system,node_aware,locality_aware", "-m",
                                                          "4096:4096"])):
                name = f"alltoall_nodes-{tag}-run1.csv"
                cmd = launch(platform, n, 112, "mcb_alltoall", args + FAMILY, os.path.join(base, name))
                out.append(Point("nodes", model, platform, f"fig11-{tag}", cmd, [name], estimate=1200,
                                 directory=f"locality-{platform}"))
        if "sparbit" in parts:
            for machine, nodes, per_node in (("yahoo-16x8", 16, 8), ("cervino-5x32", 5, 32)):
                platform = machine + suffix
                base = os.path.join("data", "paper-scale", f"sparbit-{platform}")
                total = nodes * per_node
                for p in sorted(list(range(5, total + 1, 8)) + list(range(8, total + 1, 8))):
                    cmd, env = figure_script("allgather_sparbit.sbatch", platform, base, nodes, per_node, MCB_PROCS=p,
                                             MCB_CELLS=0)
                    names = [f"allgather_sparbit-{order}-n{p}-run1.csv" for order in ("block", "cyclic")]
                    out.append(Point("sparbit", model, platform, f"n{p}", cmd, names, env,
                                     estimate=max(5, p * p // 400)))
        if "polaris" in parts:
            # The TRA paper's Figures 11 (TRA against its radix, P = 512, 1024,
            # 2048) and 12 (system, TRA, TRA2 against P, weak scaling) on Polaris,
            # 32 ranks per node.
            platform = "polaris-64x32" + suffix
            base = os.path.join("data", "paper-scale", f"tra-{platform}")
            for n in (16, 32, 64):
                out.append(radix_point("polaris", model, platform, base, n, 32, f"fig11-N{n}",
                                       {16: 1500, 32: 7200, 64: 28800}[n], directory=f"tra-{platform}"))
            cmd, env = figure_script("tra_compare.sbatch", platform, base, 16, 32, MCB_SIZES="16:4096")
            out.append(Point("polaris", model, platform, "fig12-N16", cmd, ["tra_compare-N16-n512-run1.csv"], env,
                             estimate=3600, directory=f"tra-{platform}"))
        if "tuolumne" in parts:
            # The locality paper's Figure 18: node-aware, locality-aware,
            # multi-leader + node-aware and the system MPI on 32 nodes of
            # Tuolumne (96 cores), 4 to 4096 B.
            platform = "tuolumne-32x96" + suffix
            base = os.path.join("data", "paper-scale", f"locality-{platform}")
            # Locality-aware and multi-leader + node-aware as one point per
            # inner and size (locality-aware's nonblocking inner, every group
            # of the machine at once, does not finish here).
            for algorithm in ("node_aware", "locality_aware", "multileader_node_aware", "system"):
                split = algorithm in ("locality_aware", "multileader_node_aware")
                out += sizes_points("tuolumne", model, platform, base, 32, 96, algorithm, "fig18",
                                    300 if split else 900, directory=f"locality-{platform}", split=split)
    return out


def walltimes(root):
    """{point id: seconds} of the points run so far (the last time each ran)."""
    path = os.path.join(root, "data", "paper-scale", "walltimes.tsv")
    seen = {}
    if os.path.isfile(path):
        for line in open(path):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and not line.startswith("#"):
                seen[parts[0]] = float(parts[1])
    return seen


def expected(pt, seen):
    """(seconds, how known) of a point: its own recorded wall time, else the
    longest recorded for the same point on another model of the machine
    (the node model's sisters -half and -double run alike), else the
    static estimate."""
    if pt.id in seen:
        return seen[pt.id], "took"
    machine = pt.platform
    for suffix in sorted(MODELS.values(), key=len, reverse=True):
        if suffix and machine.endswith(suffix):
            machine = machine[:-len(suffix)]
            break
    sisters = [seen.get(f"{pt.part}-{machine}{suffix}/{pt.name}") for suffix in MODELS.values()]
    sisters = [t for t in sisters if t is not None]
    if sisters:
        return max(sisters), "as another model took"
    return pt.estimate, "estimate"


def run_point(pt, root, build, dry):
    """Runs one point unless done; gzips its outputs; records its wall time.
    Returns (status, seconds): status 'done' (already), 'ok' or 'FAIL ...'."""
    if pt.done(root):
        return "done", 0.0
    binaries = os.path.abspath(os.path.join(root, build, "src"))
    cmd = [c.replace("{bin}", binaries) for c in pt.cmd]
    # A job array task runs the simulation itself: the figure scripts must not
    # take the task's one-core allocation for the simulated machine.
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    env.update({k: v.replace("{bin}", binaries) for k, v in pt.env.items()}, MCB_BIN=binaries)
    if dry:
        print(f"[paper_scale] {pt.id}: " + " ".join(f"{k}={shlex.quote(v)}" for k, v in pt.env.items()) + " " +
              " ".join(shlex.quote(c) for c in cmd), flush=True)
        return "dry", 0.0
    os.makedirs(os.path.join(root, pt.out), exist_ok=True)
    print(f"[paper_scale] {pt.id}: start", flush=True)
    start = time.time()
    log = pt.log(root)
    with open(log, "w") as f:
        # The first line names the files being written, which scripts/claims/claims.py
        # leaves out while the log is there (in progress, or failed).
        f.write(f"# paper_scale: {pt.id} in progress, writing: {' '.join(pt.outputs)}\n")
        f.flush()
        rc = subprocess.run(cmd, cwd=root, env=env, stdout=f, stderr=subprocess.STDOUT).returncode
    wall = time.time() - start
    missing = [o for o in pt.outputs if not os.path.isfile(os.path.join(root, pt.out, o)) and
               not os.path.isfile(os.path.join(root, pt.out, o + ".gz"))]
    if rc != 0 or missing:
        tail = open(log, errors="replace").read()[-1500:]
        why = f"exit {rc}" if rc else f"no {', '.join(missing)}"
        return f"FAIL ({why}; log {log}):\n{tail}", wall
    for o in pt.outputs:
        path = os.path.join(root, pt.out, o)
        if os.path.isfile(path):
            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)
    os.remove(log)
    with open(os.path.join(root, "data", "paper-scale", "walltimes.tsv"), "a") as f:
        f.write(f"{pt.id}\t{wall:.1f}\t{time.strftime('%Y-%m-%dT%H:%M:%S')}\n")
    return "ok", wall


def merge(root, pts):
    """What needs every point of a directory: Sparbit's best-algorithm cells
    (scripts/compare/compare_best.py over every process count), made again once
    every point of the directory is done."""
    for out_dir in sorted({pt.out for pt in pts if pt.part == "sparbit"}):
        group = [pt for pt in pts if pt.out == out_dir]
        if not all(pt.done(root) for pt in group):
            continue
        out = os.path.join(root, out_dir)
        cells = os.path.join(out, "allgather_sparbit-cells.csv")
        files = sorted(os.path.join(out, f) for pt in group for o in pt.outputs
                       for f in (o, o + ".gz") if os.path.isfile(os.path.join(out, f)))
        with open(os.path.join(out, "compare_best.txt"), "w") as f:
            best = os.path.join(HERE, "..", "compare", "compare_best.py")
            subprocess.run([sys.executable, best] + files + ["--cells", cells], stdout=f, check=True)
        print(f"[paper_scale] merged {out_dir}: allgather_sparbit-cells.csv, compare_best.txt", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["list", "run", "slurm", "merge"])
    p.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated: {', '.join(PARTS)}")
    p.add_argument("--models", default=",".join(DEFAULT_MODELS), help=f"comma-separated: {', '.join(MODELS)}")
    p.add_argument("--small", action="store_true", help="the CI smoke set: yahoo-16x8, 5 and 8 ranks, 1-4 B")
    p.add_argument("--only", help="only the points whose id (list's column) contains this text, e.g. yahoo or fig8")
    p.add_argument("--root", default=ROOT, help="where data/paper-scale/ is (default: this repository)")
    p.add_argument("--build", default="build-sim", help="the simulation build, relative to --root or absolute")
    p.add_argument("-j", "--jobs", type=int, default=1, help="run: points at once (each one simulation process)")
    p.add_argument("--index", type=int, help="run: only the point at this position of `list` (a job array task)")
    p.add_argument("--dry-run", action="store_true", help="run: print the commands, run nothing")
    p.add_argument("--account", help="slurm: the account (sbatch -A)")
    p.add_argument("--partition", help="slurm: the partition (sbatch -p)")
    p.add_argument("--time", default="24:00:00", help="slurm: the time limit of each task (sbatch -t)")
    p.add_argument("--submit", action="store_true", help="slurm: submit the array (default: print the script)")
    p.add_argument("--wait", action="store_true", help="slurm: with --submit, wait for the array to end (sbatch --wait)")
    args = p.parse_args()
    parts = [x for x in args.parts.split(",") if x]
    models = [x for x in args.models.split(",") if x]
    for x in parts:
        if x not in PARTS:
            sys.exit(f"paper_scale.py: no part '{x}' (parts: {', '.join(PARTS)})")
    for x in models:
        if x not in MODELS:
            sys.exit(f"paper_scale.py: no model '{x}' (models: {', '.join(MODELS)})")
    if args.jobs < 1:
        sys.exit(f"paper_scale.py: -j {args.jobs}: expected a positive count")
    root = os.path.abspath(args.root)
    pts = [pt for pt in points(parts, models, args.small) if not args.only or args.only in pt.id]
    seen = walltimes(root)
    if args.command == "list":
        todo = 0.0
        for i, pt in enumerate(pts):
            done = pt.done(root)
            est, how = expected(pt, seen)
            todo += 0 if done else est
            took = f"took {est:.0f} s" if how == "took" else f"about {est:.0f} s ({how})"
            print(f"{i:4d}  {'done' if done else 'todo':4s}  {pt.id:60s} {took}")
        print(f"# {sum(not pt.done(root) for pt in pts)} of {len(pts)} points to run, about {todo / 3600:.1f} h "
              f"on one core (recorded wall times where a point or its sister on another model has run, estimates "
              f"elsewhere)")
        return 0
    if args.command == "merge":
        merge(root, pts)
        return 0
    if args.command == "slurm":
        sel = [f"--parts {','.join(parts)}", f"--models {','.join(models)}"] + (["--small"] if args.small else []) + (
            [f"--only {shlex.quote(args.only)}"] if args.only else [])
        opts = [f"#SBATCH --array=0-{len(pts) - 1}", "#SBATCH --ntasks=1", f"#SBATCH --time={args.time}",
                "#SBATCH --job-name=mcb-paper-scale", "#SBATCH --output=mcb-paper-scale-%A_%a.out"]
        opts += [f"#SBATCH --account={args.account}"] if args.account else []
        opts += [f"#SBATCH --partition={args.partition}"] if args.partition else []
        script = "\n".join(["#!/usr/bin/env bash"] + opts + [
            "# One simulation per task (scripts/sim/paper_scale.py); done points are skipped, so the array can be",
            "# submitted again to resume. Then: scripts/sim/paper_scale.py merge.",
            f"exec {shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} run --root "
            f"{shlex.quote(root)} --build {shlex.quote(args.build)} {' '.join(sel)} --index \"$SLURM_ARRAY_TASK_ID\""]) + "\n"
        if not args.submit:
            sys.stdout.write(script)
            return 0
        path = os.path.join(root, "data", "paper-scale", "array.sbatch")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(script)
        return subprocess.run(["sbatch"] + (["--wait"] if args.wait else []) + [path], cwd=root).returncode
    # run
    if args.index is not None:
        if not 0 <= args.index < len(pts):
            sys.exit(f"paper_scale.py: --index {args.index}: the selection has points 0-{len(pts) - 1}")
        pts = [pts[args.index]]
    todo = [pt for pt in pts if not pt.done(root)]
    est = sum(expected(pt, seen)[0] for pt in todo)
    print(f"[paper_scale] {len(todo)} of {len(pts)} points to run (about {est / 3600:.1f} h on one core, "
          f"{est / 3600 / args.jobs:.1f} h with -j {args.jobs})", flush=True)
    start, failed = time.time(), 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for pt, (status, wall) in zip(todo, pool.map(lambda q: run_point(q, root, args.build, args.dry_run), todo)):
            if status.startswith("FAIL"):
                failed += 1
                print(f"[paper_scale] {pt.id}: {status}", flush=True)
            elif status == "ok":
                print(f"[paper_scale] {pt.id}: done in {wall:.1f} s", flush=True)
    if not args.dry_run and args.index is None:
        merge(root, pts)
    print(f"[paper_scale] {len(todo) - failed} of {len(todo)} points run, {failed} failed, "
          f"{time.time() - start:.0f} s of wall time", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
