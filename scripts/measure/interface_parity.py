#!/usr/bin/env python3
"""The blocking interface against the persistent one (issue 57, item 2):
mcb's shared-memory allreduce (shm_recursive_exchange), reduce and bcast
(shm_tree), one size per launch, both interfaces in the same launch a
fraction of a second apart, the order turned every launch (the second
configuration of a launch is favoured on this machine:
docs/measurements/2026-12-02-peers/README.md), plain and registered
buffers, --copy auto.

    /usr/bin/python3 scripts/measure/interface_parity.py [--build build] [--mpi openmpi|mpich]
        [--mpi-prefix PREFIX] [--launches 10] [-m 4,64,...] [--collectives allreduce,reduce,bcast]
        [--buffers plain,registered] [--allreduce shm_recursive_exchange|shm_tree|shm_cyclic_shift] [--out DIR]

Per launch the ratio blocking / persistent of the two median_us (per
iteration the slowest rank, then the median over iterations); per cell the
median ratio over launches, its spread [min-max], how many launches were
within 5% (ratio <= 1.05), the median times and the copy path each
interface took. The launches of every cell are interleaved (launch i of
every cell, then launch i + 1). Not a test: on a shared 2-core machine run
it idle, and more than once (the machine's two speed states). Writes
report.txt and runs.csv to --out (default: a temporary folder, named).
Exit status 2 on bad input or a failed launch.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # small_path, beside it
sys.path.insert(0, os.path.join(HERE, ".."))  # scripts/: lib
from lib import mpi_tools  # noqa: E402
from small_path import ALGORITHM, TYPE  # noqa: E402  (each collective's algorithm and type)

REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SIZES = "4,64,1024,4096,8192,16384,65536,262144,1048576"


def die(msg):
    print(f"interface_parity: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", help="mcb's build folder (default: build, build-mpich or build-mpi-NAME)")
    p.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("--mpi-prefix", help="an MPI installed in a prefix of its own (scripts/mpi/build-mpi.sh)")
    p.add_argument("--launches", type=int, default=10)
    p.add_argument("-m", dest="sizes", default=DEFAULT_SIZES, help="sizes in bytes, comma-separated")
    p.add_argument("--collectives", default="allreduce,reduce,bcast")
    p.add_argument("--buffers", default="plain,registered")
    p.add_argument("--allreduce", default=ALGORITHM["allreduce"], help="the allreduce's algorithm")
    p.add_argument("--out", help="a folder for report.txt and runs.csv")
    args = p.parse_args(argv)
    if args.launches < 1:
        die("--launches: at least 1")
    try:
        args.size_list = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        die(f"-m {args.sizes}: expected sizes in bytes, comma-separated")
    if any(s < 1 for s in args.size_list):
        die(f"-m {args.sizes}: sizes are at least 1 byte")
    args.colls = args.collectives.split(",")
    if any(c not in ALGORITHM for c in args.colls):
        die(f"--collectives {args.collectives}: expected some of {','.join(ALGORITHM)}")
    if args.allreduce not in ("shm_recursive_exchange", "shm_tree", "shm_cyclic_shift"):
        die(f"--allreduce {args.allreduce}: expected shm_recursive_exchange, shm_tree or shm_cyclic_shift")
    args.algorithm = dict(ALGORITHM, allreduce=args.allreduce)
    args.buffer_list = args.buffers.split(",")
    if any(b not in ("plain", "registered") for b in args.buffer_list):
        die(f"--buffers {args.buffers}: expected plain, registered or both")
    try:
        if args.mpi_prefix:
            args.mpi = mpi_tools.prefix_mpi(args.mpi_prefix)
        args.launcher = mpi_tools.find_launcher(args.mpi, prefix=args.mpi_prefix)
    except mpi_tools.MpiToolError as e:
        die(str(e))
    args.build = args.build or mpi_tools.build_dir(REPO, args.mpi, args.mpi_prefix)
    return args


def launch(args, coll, buffers, size, order, csv_path):
    binary = os.path.join(args.build, "src", f"mcb_{coll}")
    if not os.access(binary, os.X_OK):
        die(f"{binary}: not built (cmake --build {args.build})")
    env = mpi_tools.clean_env(args.mpi, {"HWLOC_COMPONENTS": "-linuxio,-pci"})
    cmd = mpi_tools.launcher(args.mpi, 2, {}, cmd=args.launcher) + [
        binary, "--algorithm", args.algorithm[coll], "-T", TYPE[coll], "-m", f"{size}:{size}",
        "--interface", ",".join(order), "--csv", csv_path]
    if buffers == "registered":
        cmd += ["--buffers", "registered"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0:
        die(f"launch failed ({proc.returncode}): {mpi_tools.shell_line(cmd, {})}\n{proc.stderr[-2000:]}")
    times = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if row["phase"] != "total":
                continue
            params = dict(kv.split("=", 1) for kv in row["params"].split(";") if "=" in kv)
            times[params["interface"]] = (float(row["median_us"]), params.get("copy", "?"))
    if set(times) != {"persistent", "blocking"}:
        die(f"{csv_path}: expected a row per interface, got {sorted(times)}")
    return times, mpi_tools.shell_line(cmd, {})


def human(size):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def main(argv=None):
    args = parse_args(argv)
    out = args.out or tempfile.mkdtemp(prefix="interface_parity.")
    os.makedirs(out, exist_ok=True)
    start = time.time()
    cells = [(c, b, s) for c in args.colls for b in args.buffer_list for s in args.size_list]
    runs, example = [], None
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.launches):
            order = ("persistent", "blocking") if i % 2 == 0 else ("blocking", "persistent")
            for coll, buffers, size in cells:
                times, line = launch(args, coll, buffers, size, order, os.path.join(tmp, "run.csv"))
                example = example or line
                runs.append({"launch": i, "collective": coll, "buffers": buffers, "size_bytes": size,
                             "first": order[0], "persistent_us": times["persistent"][0],
                             "blocking_us": times["blocking"][0], "persistent_copy": times["persistent"][1],
                             "blocking_copy": times["blocking"][1],
                             "ratio": times["blocking"][0] / times["persistent"][0]})
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(runs[0]))
        w.writeheader()
        w.writerows(runs)
    lines = [f"# blocking / persistent, one size per launch, {args.launches} launches per cell, the order turned "
             f"each launch; 2 ranks bound to cores; {mpi_tools.LIBRARY_NAME[args.mpi]}"
             + (f" at {args.mpi_prefix}" if args.mpi_prefix else " (the system's)"),
             f"# e.g. {example}",
             f"# {time.time() - start:.0f} s",
             f"{'collective':10} {'buffers':10} {'size':>8} {'ratio':>6} {'[min-max]':>13} {'<=1.05':>7} "
             f"{'persistent us':>13} {'blocking us':>11}  copy (persistent / blocking)"]
    for coll, buffers, size in cells:
        rs = [r for r in runs if (r["collective"], r["buffers"], r["size_bytes"]) == (coll, buffers, size)]
        ratios = [r["ratio"] for r in rs]
        within = sum(1 for x in ratios if x <= 1.05)
        lines.append(f"{coll:10} {buffers:10} {human(size):>8} {statistics.median(ratios):6.2f} "
                     f"[{min(ratios):.2f}-{max(ratios):.2f}] {within:>3}/{len(rs):<3} "
                     f"{statistics.median(r['persistent_us'] for r in rs):13.3f} "
                     f"{statistics.median(r['blocking_us'] for r in rs):11.3f}  "
                     f"{rs[0]['persistent_copy']} / {rs[0]['blocking_copy']}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"interface_parity: {out}/report.txt, runs.csv", file=sys.stderr)


if __name__ == "__main__":
    main()
