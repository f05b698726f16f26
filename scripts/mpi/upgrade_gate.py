#!/usr/bin/env python3
"""The MPI upgrade, gated: every collective's `system` and the ping-pong of
two builds of mcb, each against its own MPI, measured interleaved and
compared by scripts/compare/compare.py.

Usage:
    /usr/bin/python3 scripts/mpi/upgrade_gate.py BASE_BUILD NEW_BUILD OUT
        [--reps 5] [--max-size 1048576] [--benchmarks alltoall,...] [--timeout S]
        [--labels BASE,NEW] [--iterations N] [--sizes MIN:MAX]

e.g. scripts/mpi/upgrade_gate.py build-ci-openmpi build-mpi-openmpi-5.0.7 runs/ompi4-to-5

BASE_BUILD and NEW_BUILD are mcb build directories (CMake's); each runs
with the mpiexec and the MPI library it was configured with (its
CMakeCache.txt). Per repetition r = 1..REPS, both sides run in turn (BASE
first on odd r, NEW first on even r), and on each side every benchmark:
mcb_alltoall, mcb_allgather, mcb_allreduce, mcb_reduce, mcb_bcast and
issue 71's mcb_reduce_scatter(_block), mcb_allgatherv, mcb_gather(v),
mcb_scatter(v) (their v-forms on equal counts, as OSU's) with
`--algorithm system`, and mcb_pingpong (two virtual nodes of one rank),
at 2 ranks bound to cores, OSU's sizes (from the element's size doubling
to --max-size, 1 MiB as OSU's collectives' default), validated (-c). The CSVs and their
metadata records go to OUT/LABEL/BENCH-rR.csv, LABEL the side's MPI and
version (openmpi-4.1.4, openmpi-5.0.7, mpich-4.0.2, mpich-4.2.1; --labels
names them instead, for two builds of mcb on one MPI). Then
scripts/compare/compare.py OUT/BASE_LABEL OUT/NEW_LABEL writes OUT/report.txt and
OUT/report.html (its exit status is this script's: 0 no regression, 1
regression or missing rows, 2 bad input). Every launch line is in
OUT/commands.txt.

Why flagged: scripts/mpi/which_algorithm.py names the algorithm each MPI
chose at a size (docs/mpi-versions.md).
"""
import argparse
import csv as csvlib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from lib import mpi_tools  # noqa: E402  (scripts/lib: launch lines shared with tune.py and compare_selectors.py)
BENCHMARKS = ["alltoall", "allgather", "allreduce", "reduce", "bcast", "reduce_scatter_block", "reduce_scatter",
              "allgatherv", "gather", "gatherv", "scatter", "scatterv", "pingpong"]


class Side:
    """One build of mcb and the MPI it was configured with."""

    def __init__(self, build):
        self.build = os.path.abspath(build)
        cache = os.path.join(self.build, "CMakeCache.txt")
        try:
            text = open(cache).read()
        except OSError:
            sys.exit("upgrade_gate: %s has no CMakeCache.txt (not an mcb build directory)" % build)
        m = re.search(r"^MPIEXEC_EXECUTABLE:FILEPATH=(.*)$", text, re.M)
        if not m or not os.access(m.group(1), os.X_OK):
            sys.exit("upgrade_gate: %s names no runnable MPIEXEC_EXECUTABLE" % cache)
        self.mpiexec = m.group(1)
        version = subprocess.run([self.mpiexec, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 universal_newlines=True).stdout
        if "Open MPI" in version or "OpenRTE" in version or "prte" in version.lower():
            self.mpi = "openmpi"
        elif "HYDRA" in version or "MPICH" in version:
            self.mpi = "mpich"
        else:
            sys.exit("upgrade_gate: %s --version names neither Open MPI nor MPICH" % self.mpiexec)
        self.label = None  # from the first CSV's metadata: the library's own version

    def binary(self, bench):
        path = os.path.join(self.build, "src", "mcb_" + bench)
        if not os.access(path, os.X_OK):
            sys.exit("upgrade_gate: %s is missing (cmake --build %s)" % (path, self.build))
        return path

    def command(self, bench, sizes, csv, iterations=0):
        """The launch line: 2 ranks, each bound to a core."""
        cmd = mpi_tools.launcher(self.mpi, 2, {}, bind="core", cmd=self.mpiexec)
        cmd += [self.binary(bench), "-m", sizes, "-c", "--csv", csv]
        cmd += ["-i", str(iterations)] if iterations else []
        cmd += ["--ranks-per-node", "1"] if bench == "pingpong" else ["--algorithm", "system"]
        return cmd


def library_label(csv):
    """openmpi-5.0.7 / mpich-4.2.1 from the mpi_library and mpi_version columns of mcb's CSV."""
    with open(csv, newline="") as f:
        fields = next(csvlib.DictReader(l for l in f if not l.startswith("#")), {})
    name = fields.get("mpi_library", "mpi").lower().replace(" ", "")
    return "%s-%s" % (name, fields.get("mpi_version", "unknown"))


def run(cmd, env, log):
    log.write(" ".join(cmd) + "\n")
    log.flush()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode != 0:
        lines = proc.stdout.splitlines()
        tail = "\n".join([l for l in lines if ": error: " in l or ": timeout: " in l][:1] + lines[-3:])
        print("upgrade_gate: exit %d: %s\n%s" % (proc.returncode, " ".join(cmd), tail), file=sys.stderr)
    return proc.returncode


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base")
    p.add_argument("new")
    p.add_argument("out")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--max-size", type=int, default=1 << 20)
    p.add_argument("--benchmarks", default=",".join(BENCHMARKS))
    p.add_argument("--timeout", type=float, default=0, help="mcb's --timeout per size (0: none)")
    p.add_argument("--labels", help="BASE,NEW: folder names instead of the MPIs' (two builds on one MPI)")
    p.add_argument("--iterations", type=int, default=0,
                   help="timed iterations per size for every benchmark (mcb's -i; default: mcb's own, 1000 and 100 "
                        "above 8 KiB): more to settle a row flagged or noisy at small sizes")
    p.add_argument("--sizes", help="mcb's -m for every benchmark instead of OSU's sizes up to --max-size, e.g. 1:2048")
    args = p.parse_args()
    if args.iterations < 0:
        sys.exit("upgrade_gate: --iterations %d: expected a positive count" % args.iterations)
    if args.sizes is not None and not re.fullmatch(r"\d+(:\d+)?", args.sizes):
        sys.exit("upgrade_gate: --sizes %s: expected MIN:MAX or one size in bytes" % args.sizes)
    benches = args.benchmarks.split(",")
    for b in benches:
        if b not in BENCHMARKS:
            sys.exit("upgrade_gate: unknown benchmark %s (known: %s)" % (b, ",".join(BENCHMARKS)))
    sides = [Side(args.base), Side(args.new)]
    if args.labels:
        names = args.labels.split(",")
        if len(names) != 2 or not all(re.fullmatch(r"[\w.+-]+", n) for n in names) or names[0] == names[1]:
            sys.exit("upgrade_gate: --labels %s: two different names, BASE,NEW" % args.labels)
        sides[0].label, sides[1].label = names
    # Nothing forced: each MPI's own choice (clean_env drops the forcing
    # variables, and allows root where a side is Open MPI).
    env = mpi_tools.clean_env("openmpi" if "openmpi" in (s.mpi for s in sides) else "mpich")
    os.makedirs(args.out, exist_ok=True)
    tmp = os.path.join(args.out, ".pending")
    os.makedirs(tmp, exist_ok=True)
    failures = 0
    start = time.time()
    with open(os.path.join(args.out, "commands.txt"), "a") as log:
        for rep in range(1, args.reps + 1):
            order = sides if rep % 2 else sides[::-1]
            for side in order:
                for bench in benches:
                    csv = os.path.join(tmp, "%s-side%d-r%d.csv" % (bench, sides.index(side), rep))
                    # MAX alone: from the element's size up, doubling (OSU's sizes)
                    cmd = side.command(bench, args.sizes or str(args.max_size), csv, args.iterations)
                    if args.timeout:
                        cmd += ["--timeout", str(args.timeout)]
                    failures += run(cmd, env, log) != 0
                    if not os.path.exists(csv):
                        continue
                    side.label = side.label or library_label(csv)
                    dest = os.path.join(args.out, side.label)
                    os.makedirs(dest, exist_ok=True)
                    for suffix in ("", ".meta.json"):
                        if os.path.exists(csv + suffix):
                            os.replace(csv + suffix, os.path.join(dest, "%s-r%d.csv%s" % (bench, rep, suffix)))
            print("upgrade_gate: repetition %d of %d done (%.0f s)" % (rep, args.reps, time.time() - start), flush=True)
    os.rmdir(tmp) if not os.listdir(tmp) else None
    if None in (sides[0].label, sides[1].label):
        sys.exit("upgrade_gate: a side wrote no CSV at all (see the lines above)")
    if sides[0].label == sides[1].label:
        sys.exit("upgrade_gate: both builds run %s: nothing to compare" % sides[0].label)
    base, new = (os.path.join(args.out, s.label) for s in sides)
    compare = [sys.executable, os.path.join(REPO, "scripts", "compare", "compare.py"), base, new,
               "--html", os.path.join(args.out, "report.html")]
    with open(os.path.join(args.out, "report.txt"), "w") as f:
        rc = subprocess.run(compare, stdout=f, stderr=subprocess.STDOUT).returncode
    print("upgrade_gate: %s -> %s: %d runs failed; compare.py exit %d; %s/report.txt, report.html (%.0f s)"
          % (sides[0].label, sides[1].label, failures, rc, args.out, time.time() - start))
    return rc


if __name__ == "__main__":
    sys.exit(main())
