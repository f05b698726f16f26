#!/usr/bin/env python3
"""Whether two builds of mcb print and write the same for the same runs,
apart from what is measured: for a refactoring that must not change
behaviour (issues 31, 42). Each command (a run of every binary of src/,
bad input, and every binary's `--help`) runs under each build's
binaries; the console output and every CSV written are compared with the
measured columns masked (times, bandwidths, setup, start time, host) and
the console's numbers after the size column masked.

  scripts/measure/same_output.py BUILD_BEFORE BUILD_AFTER [--np 4] [--launcher "mpirun ..."]

Exits 1 and prints the first difference of each command that differs.
"""
import argparse
import csv
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile

# The measured columns of docs/schema.md and what differs between two runs
# of the same command (the clock, the host).
MASKED = {"avg_us", "median_us", "min_us", "max_us", "stddev_us", "setup_us", "osu_avg_us", "osu_min_us",
          "osu_max_us", "p90_us", "p99_us", "algbw_gbps", "busbw_gbps", "start_time", "host", "mcb_version",
          "time_us", "rank_time_us"}
BINARIES = ["mcb_alltoall", "mcb_allgather", "mcb_allreduce", "mcb_reduce", "mcb_bcast", "mcb_pingpong", "mcb_breakdown",
            "mcb_fft", "mcb_copy_bw", "mcb_tra_model"]
# (binary, arguments[, ranks]): every binary of src/, bad input included.
RUNS = [
    ("mcb_alltoall", "-c -m 1,8,1000 -i 2 -x 1 --algorithm all --ranks-per-node 2"),
    ("mcb_alltoall", "-c -m 4,64 -i 1 -x 0 --algorithm node_aware,locality_aware,multileader_node_aware --inner "
                     "pairwise,tra --ranks-per-node 2 --rank-order cyclic --phase-mode isolated"),
    ("mcb_allgather", "-c -m 1,64,4096 -i 2 -x 1 --algorithm all"),
    ("mcb_allreduce", "-c -m 4,4096,65536 -i 2 -x 1 --algorithm all --ranks-per-node 2"),
    ("mcb_allreduce", "-c -m 8,1024 -i 1 -x 0 --algorithm system,ring -T double --in-place"),
    ("mcb_reduce", "-c -m 8,4096 -i 1 -x 0 --algorithm all"),
    ("mcb_bcast", "-c -m 8,4096 -i 1 -x 0 --algorithm all"),
    ("mcb_breakdown", "--algorithm locality_aware --inner pairwise --procs-per-group 1,2 --ranks-per-node 2 "
                      "--nodes 1,2 -m 4,4096 -i 1 -x 0 -c"),
    ("mcb_fft", "--algorithm all -c -m 16,96 -i 1 -x 0"),
    ("mcb_alltoall", "--algorithm tra --radix 1 -m 8"),  # bad input: the same one line
    ("mcb_pingpong", "-c -m 1,4096 -i 2 -x 1 --algorithm all --ranks-per-node 1", 2),
    ("mcb_copy_bw", "-m 4096,65536 -i 2", 1),  # its columns are all measured: the shape and sizes remain
    ("mcb_tra_model", "-p 64,512 --ranks-per-node 16 -m 16,1024 --sweep", 1),
] + [(b, "--help", 1) for b in BINARIES]  # every option and default, in the same words
NUMBER = re.compile(r"-?\d+\.\d+")
DOMINANT = re.compile(r"\S+ \d+%")  # mcb_breakdown's longest phase and its share: measured


NO_CSV = {"mcb_copy_bw"}  # prints its table only


def run(build, binary, args, launcher, np_, tmp):
    csv_path = os.path.join(tmp, "out.csv")
    if os.path.exists(csv_path):
        os.remove(csv_path)
    write = [] if binary in NO_CSV or args == "--help" else ["--csv", csv_path]
    cmd = shlex.split(launcher) + ["-np", str(np_), os.path.join(build, "src", binary)] + shlex.split(args) + write
    # stdout, then stderr: apart, so that the ranks' interleaving does not count
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    console = []
    for line in r.stdout.splitlines() + ["--- stderr"] + sorted(r.stderr.splitlines()):
        if line.strip().startswith("Process name:"):  # mpirun's: the first rank to exit, any of them
            continue
        if not line.startswith("#") or "mcb " in line or "start" in line or "host" in line:
            line = NUMBER.sub("N", DOMINANT.sub("* N%", line))  # the measured columns of the tables
        console.append(" ".join(line.split()))  # the columns' widths follow the numbers'
    rows = []
    if os.path.exists(csv_path):
        with open(csv_path, newline="") as f:
            for row in csv.DictReader(f):
                rows.append({k: ("*" if k in MASKED else v) for k, v in row.items()})
    return r.returncode, console, rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--np", type=int, default=4)
    p.add_argument("--launcher", default="mpirun --allow-run-as-root --oversubscribe")
    args = p.parse_args()
    differ = 0
    with tempfile.TemporaryDirectory(prefix="mcb-same-") as tmp:
        for binary, a, *ranks in RUNS:
            np_ = ranks[0] if ranks else args.np
            got = [run(b, binary, a, args.launcher, np_, tmp) for b in (args.before, args.after)]
            (rc0, c0, r0), (rc1, c1, r1) = got
            what = []
            if rc0 != rc1:
                what.append(f"exit {rc0} against {rc1}")
            for i, (x, y) in enumerate(zip(c0, c1)):
                if x != y:
                    what.append(f"console line {i + 1}:\n    {x}\n    {y}")
                    break
            if len(c0) != len(c1):
                what.append(f"console: {len(c0)} lines against {len(c1)}")
            if r0 != r1:
                first = next((i for i, (x, y) in enumerate(zip(r0, r1)) if x != y), min(len(r0), len(r1)))
                what.append(f"CSV: {len(r0)} rows against {len(r1)}, first difference at row {first + 1}")
            print(f"{'SAME' if not what else 'DIFFERS'}: {binary} {a} on {np_} ({len(c0)} console lines, {len(r0)} CSV rows)")
            for w in what:
                print("  " + w)
            differ += bool(what)
    print(f"same_output: {len(RUNS) - differ} of {len(RUNS)} runs the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
