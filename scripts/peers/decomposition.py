#!/usr/bin/env python3
"""Does the allreduce's decomposition cost anything? mcb's shared-memory
reduce_scatter_block followed by its shared-memory allgather of the parts,
against mcb's shared-memory allreduce of the same vector (issue 71's goal:
the two together no slower than the allreduce). The three are separate
launches of mcb_reduce_scatter_block, mcb_allgather and mcb_allreduce
(`--algorithm shm_recursive_exchange`, default factors and interface, -c),
run --runs times interleaved (the order turned every run); per vector size
and run the ratio (reduce_scatter_block + allgather) / allreduce of the
runs' avg_us, and its median and range over the runs. <= 1: the
decomposition costs nothing.

The allgather runs in place by default (`-l`: each rank's part already at
its place in the result vector, as the decomposition leaves it: Rabenseifner's
allreduce and an application that calls MPI_Reduce_scatter_block into its
part of the vector, then MPI_Allgather with MPI_IN_PLACE); `--allgather
out-of-place` copies each rank's own part too (one more copy of the part).

    /usr/bin/python3 scripts/peers/decomposition.py [--build DIR] [--mpi openmpi|mpich]
        [-m 4096:16777216] [--runs 5] [--buffers plain|registered] [--type float]
        [--allgather in-place|out-of-place] [--csv FILE]

2 ranks bound to cores (the project's performance setting); -m is the
vector's bytes (the allgather's block is the vector / ranks). Not a test:
timings on a shared machine vary. Bad input: one line, exit 2.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))  # scripts/: lib
from lib import mpi_tools  # noqa: E402

RANKS = 2
PARTS = ("reduce_scatter_block", "allgather", "allreduce")


def die(msg):
    print(f"decomposition: {msg}", file=sys.stderr)
    sys.exit(2)


def sizes_of(text):
    lo, _, hi = text.partition(":")
    if not (lo.isdigit() and (hi or lo).isdigit()):
        die(f"-m {text}: expected MIN:MAX bytes")
    lo, hi = int(lo), int(hi or lo)
    if lo < 4 * RANKS or hi < lo:
        die(f"-m {text}: expected {4 * RANKS} <= MIN <= MAX")
    out, s = [], lo
    while s <= hi:
        out.append(s)
        s *= 2
    return out


def launch(args, part, sizes):
    """avg_us per vector size of one launch of `part`."""
    binary = os.path.join(args.build, "src", "mcb_" + part)
    m = [s // RANKS for s in sizes] if part == "allgather" else sizes
    path = os.path.join(tempfile.gettempdir(), f"mcb-decomposition-{os.getpid()}-{part}.csv")
    cmd = mpi_tools.launcher(args.mpi, RANKS, {}, bind="core") + [
        binary, "--algorithm", "shm_recursive_exchange", "-m", ",".join(map(str, m)), "-c", "--csv", path,
        "--buffers", args.buffers]
    if part != "allgather":
        cmd += ["-T", args.type]
    elif args.allgather == "in-place":
        cmd += ["-l"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=mpi_tools.clean_env(args.mpi))
    if r.returncode != 0 or not os.path.exists(path):
        die(f"{' '.join(cmd)}: exit {r.returncode}: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    with open(path, newline="") as f:
        rows = [row for row in csv.DictReader(l for l in f if not l.startswith("#")) if row["phase"] == "total"]
    for extra in (path, path + ".meta.json"):
        if os.path.exists(extra):
            os.remove(extra)
    got = {int(row["size_bytes"]): float(row["avg_us"]) for row in rows}
    return {s: got[s // RANKS if part == "allgather" else s] for s in sizes}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.error = die  # a bad option is one line too, not argparse's usage and error
    ap.add_argument("--build", default=None)
    ap.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    ap.add_argument("-m", default="4096:16777216")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--buffers", choices=["plain", "registered"], default="plain")
    ap.add_argument("--type", default="float")
    ap.add_argument("--allgather", choices=["in-place", "out-of-place"], default="in-place")
    ap.add_argument("--csv")
    args = ap.parse_args()
    if args.runs < 1:
        die("--runs: at least 1")
    sizes = sizes_of(args.m)
    args.build = os.path.abspath(args.build or mpi_tools.build_dir(REPO, args.mpi))
    for part in PARTS:
        if not os.access(os.path.join(args.build, "src", "mcb_" + part), os.X_OK):
            die(f"{args.build}/src/mcb_{part}: not built")
    runs = []  # per run: {part: {size: us}}
    for run in range(args.runs):
        order = PARTS[run % 3:] + PARTS[:run % 3]
        runs.append({part: launch(args, part, sizes) for part in order})
    print(f"# mcb shm_recursive_exchange, {RANKS} ranks bound, {args.mpi}, {args.buffers} buffers, {args.type}; "
          f"allgather {args.allgather}; {args.runs} interleaved runs; "
          "ratio = (reduce_scatter_block + allgather) / allreduce per run")
    print(f"{'bytes':>10} {'rs_block_us':>12} {'allgather_us':>13} {'allreduce_us':>13} {'ratio':>7} {'range':>15}")
    out = []
    for s in sizes:
        ratios = [(r["reduce_scatter_block"][s] + r["allgather"][s]) / r["allreduce"][s] for r in runs]
        med = {p: statistics.median(r[p][s] for r in runs) for p in PARTS}
        rng = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(f"{s:>10} {med['reduce_scatter_block']:>12.2f} {med['allgather']:>13.2f} {med['allreduce']:>13.2f} "
              f"{statistics.median(ratios):>7.2f} {rng:>15}")
        out.append([s, args.buffers] + [f"{med[p]:.3f}" for p in PARTS] + [
            f"{statistics.median(ratios):.4f}", f"{min(ratios):.4f}", f"{max(ratios):.4f}", args.allgather])
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["bytes", "buffers", "rs_block_us", "allgather_us", "allreduce_us", "ratio", "ratio_min",
                        "ratio_max", "allgather"])
            w.writerows(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
