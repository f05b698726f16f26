#!/usr/bin/env python3
"""Where the small path pays (issue 57): mcb's shared-memory allreduce,
reduce and bcast with the small path forced at every size (--small
1048576) against the same algorithm's stages (--small 0) and the MPI's own
collective (`system`, the reference measured in the same launch), per size,
persistent and blocking interface, plain buffers (--copy auto); and, with
--registered, registered buffers on the stages' registered path against
their copy-in path (--buffers registered --copy registered,copy-in --small
0), the two sides of --copy auto below 16 KiB.

    /usr/bin/python3 scripts/measure/small_path.py [--build build] [--mpi openmpi|mpich] [--runs 5]
        [-m 4:65536] [--collectives allreduce,reduce,bcast] [--registered] [--out DIR]

Each run is one launch per collective (2 ranks bound to cores), the
launches interleaved, every configuration inside one launch; per
(configuration, size) the median over runs of each run's median_us (per
iteration the slowest rank, then the median over iterations), with the
runs' spread [min-max]. Printed per collective and interface: system,
stages, small, and the ratios small/stages and small/system; then the
switch: the largest size up to which the small path is at most the stages'
time at every size (the default --small comes from it: allreduce and
reduce n x Q, bcast n). Not a test: timings on a shared 2-core machine
vary; run it on an idle machine, several times, in both of its speed
states (docs/allreduce.md, "The small path"). Exit status 2 on bad input
or a failed launch.
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
REPO = os.path.dirname(os.path.dirname(HERE))
ALGORITHM = {"allreduce": "shm_recursive_exchange", "reduce": "shm_tree", "bcast": "shm_tree"}
TYPE = {"allreduce": "float", "reduce": "float", "bcast": "char"}
FORCED = "1048576"


def die(msg):
    print(f"small_path: {msg}", file=sys.stderr)
    sys.exit(2)


def launcher(mpi):
    if mpi == "openmpi":
        cmd = ["mpirun.openmpi", "-n", "2", "--bind-to", "core", "--map-by", "core", "--mca", "pml", "ob1"]
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        return cmd
    return ["mpirun.mpich", "-n", "2", "-bind-to", "core"]


def launch(args, coll, registered, out_csv):
    binary = os.path.join(args.build, "src", f"mcb_{coll}")
    if not os.access(binary, os.X_OK):
        die(f"{binary}: not built (cmake --build {args.build})")
    cmd = launcher(args.mpi) + [binary, "-m", args.sizes, "-T", TYPE[coll], "--csv", out_csv]
    if args.iterations:
        cmd += ["-i", str(args.iterations), "-x", str(max(1, args.iterations // 10))]
    if registered:
        cmd += ["--algorithm", ALGORITHM[coll], "--buffers", "registered", "--copy", "registered,copy-in",
                "--small", "0", "--interface", "persistent,blocking"]
    else:
        cmd += ["--algorithm", "system," + ALGORITHM[coll], "--small", "0," + FORCED,
                "--interface", "persistent,blocking"]
    env = dict(os.environ, HWLOC_COMPONENTS="-linuxio,-pci")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        die(f"launch failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return " ".join(cmd)


def config_of(row, registered):
    params = dict(kv.split("=", 1) for kv in row["params"].split(";") if "=" in kv)
    if row["algorithm"] == "system":
        return None, "system"
    interface = params.get("interface", "persistent")
    if registered:
        return interface, params.get("copy", "?")
    return interface, "small" if params.get("path") == "small" else "stages"


def read(out_csv, registered, into):
    with open(out_csv) as f:
        for row in csv.DictReader(f):
            if row["phase"] != "total":
                continue
            interface, name = config_of(row, registered)
            size = int(row["size_bytes"])
            for i in ([interface] if interface else ["persistent", "blocking"]):
                into.setdefault((i, name, size), []).append(float(row["median_us"]))


def fmt(values):
    return f"{statistics.median(values):8.2f} [{min(values):.2f}-{max(values):.2f}]"


def report(coll, data, registered, sizes):
    lines = []
    names = ["registered", "copy-in"] if registered else ["system", "stages", "small"]
    for interface in ["persistent", "blocking"]:
        lines.append(f"## {coll}{' registered buffers' if registered else ''}, {interface}: median_us "
                     f"[min-max over runs]")
        head = f"{'size':>8} " + " ".join(f"{n:>24}" for n in names)
        head += "  registered/copy-in" if registered else "  small/stages  small/system"
        lines.append(head)
        switch, ok = 0, True
        for size in sizes:
            vals = [data.get((interface, n, size)) for n in names]
            if any(v is None for v in vals):
                continue
            meds = [statistics.median(v) for v in vals]
            line = f"{size:8d} " + " ".join(f"{fmt(v):>24}" for v in vals)
            if registered:
                line += f"  {meds[0] / meds[1]:18.2f}"
                if ok and meds[0] > meds[1]:
                    switch = size
                else:
                    ok = False
            else:
                line += f"  {meds[2] / meds[1]:12.2f}  {meds[2] / meds[0]:12.2f}"
                if ok and meds[2] <= meds[1]:
                    switch = size
                else:
                    ok = False
            lines.append(line)
        what = ("registered slower than copy-in up to" if registered else "small at most the stages up to")
        lines.append(f"# {coll} {interface}: {what} {switch} B")
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"))
    p.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("-m", dest="sizes", default="4:65536")
    p.add_argument("-i", dest="iterations", type=int, default=0, help="iterations (default: mcb's, OSU's)")
    p.add_argument("--collectives", default="allreduce,reduce,bcast")
    p.add_argument("--registered", action="store_true", help="registered buffers: registered against copy-in")
    p.add_argument("--out", help="a folder for report.txt and every run's CSV (default: a temporary one)")
    args = p.parse_args()
    colls = args.collectives.split(",")
    for c in colls:
        if c not in ALGORITHM:
            die(f"--collectives {c}: expected allreduce, reduce or bcast")
    if args.runs < 1:
        die(f"--runs {args.runs}: must be >= 1")
    out = args.out or tempfile.mkdtemp(prefix="small-path-")
    os.makedirs(out, exist_ok=True)
    data = {c: {} for c in colls}
    commands = {}
    start = time.time()
    for run in range(args.runs):
        order = colls if run % 2 == 0 else list(reversed(colls))
        for coll in order:
            path = os.path.join(out, f"{coll}{'-registered' if args.registered else ''}-{run + 1}.csv")
            commands[coll] = launch(args, coll, args.registered, path)
            read(path, args.registered, data[coll])
    lines = [f"# scripts/measure/small_path.py {' '.join(sys.argv[1:])}: {args.runs} runs, {time.time() - start:.0f} s, "
             f"{args.mpi}, 2 ranks bound, host {os.uname().nodename}"]
    for coll in colls:
        lines.append(f"# {coll}: {commands[coll]}")
        sizes = sorted({k[2] for k in data[coll]})
        lines += report(coll, data[coll], args.registered, sizes)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"# report and CSVs: {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
