#!/usr/bin/env python3
"""What a new call shape costs under libmcb_preload.so: the first call of
an allreduce shape (count, type, op) on a communicator, which sets the shape
up (the layout's verdict, the plan, the agreement, and for the blocking
shared-memory algorithms their engine on the communicator's segment),
against the same call once set up, and against the system MPI's call
without the preload. Runs tests/preload/preload_client.c's "firstcall"
scenario (per size, 16 first calls of distinct counts and 64 repeated
calls, each after a barrier; medians of the slowest rank's time) plainly
and under the preload with each algorithm, interleaved, --runs times, and
prints per size the minimum over runs in microseconds:

  plain     the MPI's MPI_Allreduce, no preload (steady)
  first     ALGORITHM's first call of a shape
  steady    ALGORITHM's call of a shape set up before
  extra     first - steady: what setting the shape up costs

With --newcomm, what a new communicator costs instead (the client's
"newcomm" scenario: MPI_Comm_split, k in-place 8-byte sums, MPI_Comm_free,
for k = 1, 2, 4, 16, 64, 200 rounds each), per k the microseconds per
communicator plainly and under each algorithm, and their ratio to plain:
how many calls a new communicator needs before the preload's set-up (its
layout: private communicators and the algorithm's verdict) is paid back.

Not a test: run 2 ranks bound to cores on an idle machine.

    /usr/bin/python3 scripts/preload/preload_first_call.py [--build build] [--mpi openmpi|mpich]
        [--algorithms system,rabenseifner,shm_recursive_exchange] [--runs 3] [--newcomm]
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib.mpi_tools import launcher  # noqa: E402

LINE = re.compile(r"firstcall: count (\d+) first_us ([0-9.]+) steady_us ([0-9.]+)")
NEWCOMM = re.compile(r"newcomm: calls (\d+) per_communicator_us ([0-9.]+) per_call_us ([0-9.]+)")


def run(args, algorithm):
    client = os.path.join(args.build, "tests", "preload_client")
    lib = os.path.abspath(os.path.join(args.build, "src", "preload", "libmcb_preload.so"))
    env = {} if algorithm == "plain" else {"LD_PRELOAD": lib, "MCB_ALLREDUCE": algorithm}
    if args.setup and algorithm != "plain":
        env["MCB_PRELOAD_SETUP"] = str(args.setup)
    cmd = launcher(args.mpi, args.n, env)
    scenario = "newcomm" if args.newcomm else "firstcall"
    out = subprocess.run(cmd + [client, scenario], capture_output=True, text=True, timeout=600)
    if out.returncode != 0 or "checks passed" not in out.stdout:
        sys.exit(f"preload_first_call: {algorithm}: failed\n{out.stdout}{out.stderr}")
    if args.newcomm:  # (per communicator, per call) stands in for (first, steady)
        return {int(m.group(1)): (float(m.group(2)), float(m.group(3))) for m in NEWCOMM.finditer(out.stdout)}
    return {int(m.group(1)): (float(m.group(2)), float(m.group(3))) for m in LINE.finditer(out.stdout)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="build directory (default build)")
    p.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("-n", type=int, default=2, help="ranks (default 2, bound to cores)")
    p.add_argument("--algorithms", default="system,rabenseifner,shm_recursive_exchange")
    p.add_argument("--runs", type=int, default=3, help="interleaved runs, the minimum kept (default 3)")
    p.add_argument("--newcomm", action="store_true", help="what a new communicator costs (see above)")
    p.add_argument("--setup", type=int, help="MCB_PRELOAD_SETUP=N for the preload's runs (default: unset, 1)")
    args = p.parse_args()
    if args.setup is not None and args.setup < 1:
        sys.exit(f"preload_first_call: --setup {args.setup}: expected a positive integer")
    for path in ("tests/preload_client", "src/preload/libmcb_preload.so"):
        if not os.path.isfile(os.path.join(args.build, path)):
            sys.exit(f"preload_first_call: {os.path.join(args.build, path)} not found (--build DIR)")
    modes = ["plain"] + args.algorithms.split(",")
    best = {}
    for _ in range(args.runs):
        for mode in modes:
            for count, (first, steady) in run(args, mode).items():
                f, s = best.get((mode, count), (float("inf"), float("inf")))
                best[(mode, count)] = (min(f, first), min(s, steady))
    counts = sorted({c for (_, c) in best})
    if args.newcomm:
        setup = f", MCB_PRELOAD_SETUP={args.setup}" if args.setup else ""
        print(f"# preload_first_call --newcomm: {args.mpi}, {args.n} ranks{setup}; microseconds per communicator "
              f"(split, k in-place 8-byte sums, free), minimum of {args.runs} interleaved runs of the medians; "
              "ratio: to plain")
        print(f"{'k calls':>8} {'plain':>9} " + " ".join(f"{m:>24} {'ratio':>6}" for m in modes[1:]))
        for c in counts:
            plain = best[("plain", c)][0]
            print(f"{c:>8} {plain:>9.1f} " + " ".join(f"{best[(m, c)][0]:>24.1f} {best[(m, c)][0] / plain:>6.2f}"
                                                       for m in modes[1:]))
        return
    print(f"# preload_first_call: {args.mpi}, {args.n} ranks, MPI_INT sum; microseconds, minimum of {args.runs} "
          "interleaved runs of the medians")
    print(f"{'count':>8} {'plain':>8} " + " ".join(f"{m + ' first':>30} {'steady':>8} {'extra':>8}"
                                                 for m in modes[1:]))
    for c in counts:
        row = f"{c:>8} {best[('plain', c)][1]:>8.2f} "
        for m in modes[1:]:
            first, steady = best[(m, c)]
            row += f"{first:>30.2f} {steady:>8.2f} {first - steady:>8.2f} "
        print(row.rstrip())


if __name__ == "__main__":
    main()
