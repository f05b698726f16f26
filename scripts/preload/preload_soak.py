#!/usr/bin/env python3
"""The long soak of libmcb_preload.so: tests/preload/preload_soak.c (random
alltoall, allgather and allreduce calls of every shape, type and op the
preload serves, in place or not, on sub-communicators made and freed, every
result checked) run for --seconds under the preload, with a progress line
every --every seconds. Writes the progress as CSV (t_s, calls, checks,
rss_kib, mappings, fds, shm, served, fallback, comms; maxima over ranks for
rss, mappings and fds, rank 0's preload counters) and, with matplotlib, a
figure of resident memory, mappings and descriptors and of the calls served
and fallen back against time; prints the first and last values and the
growth. Exit status: the soak client's (non-zero on a wrong result).

CI runs the same client for 600 calls (ctest -R preload_soak); this is the
hour-long version:

    /usr/bin/python3 scripts/preload/preload_soak.py --build build --seconds 3600 --every 30 \\
        --out plots/preload-soak/soak-openmpi
    /usr/bin/python3 scripts/preload/preload_soak.py --build build-mpich --mpi mpich ...

The algorithms are the environment's MCB_ALLTOALL, MCB_ALLGATHER and
MCB_ALLREDUCE, or by default tra, sparbit and shm_recursive_exchange.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import needs  # noqa: E402
from lib.mpi_tools import launcher  # noqa: E402

needs.need("matplotlib")

DEFAULTS = {"MCB_ALLTOALL": "tra", "MCB_ALLGATHER": "sparbit", "MCB_ALLREDUCE": "shm_recursive_exchange"}
FIELDS = ["t_s", "calls", "checks", "rss_kib", "mappings", "fds", "shm", "served", "fallback", "comms"]
LINE = re.compile(r"^preload_soak: (end )?t=([0-9.]+) " + " ".join(f"{f}=(-?[0-9]+)" for f in FIELDS[1:]) + r"\s*$")


def command(args, env):
    client = os.path.join(args.build, "tests", "preload_soak")
    soak = [client, "--calls", "0", "--seconds", str(args.seconds), "--every", str(args.every), "--seed",
            str(args.seed), "--max-bytes", str(args.max_bytes)]
    return launcher(args.mpi, args.n, env, bind=None) + soak


def plot(rows, path, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [r["t_s"] / 60 for r in rows]
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.6))
    ax[0].plot(t, [r["rss_kib"] / 1024 for r in rows])
    ax[0].set_ylabel("resident memory (MiB, max over ranks)")
    for key in ["mappings", "fds", "shm"]:
        ax[1].plot(t, [r[key] for r in rows], label=key)
    ax[1].set_ylabel("held (max over ranks; shm: /dev/shm entries)")
    ax[1].legend()
    for key in ["served", "fallback"]:
        ax[2].plot(t, [r[key] for r in rows], label=key)
    ax[2].set_ylabel("calls of rank 0")
    ax[2].legend()
    for a in ax:
        a.set_xlabel("minutes")
        a.set_ylim(bottom=0)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="build directory (default build)")
    p.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("-n", type=int, default=3, help="ranks (default 3)")
    p.add_argument("--seconds", type=float, default=3600, help="how long (default 3600)")
    p.add_argument("--every", type=float, default=30, help="seconds between progress lines (default 30)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-bytes", type=int, default=1 << 20, help="largest block or vector (default 1 MiB)")
    p.add_argument("--out", default="preload-soak", help="PREFIX: writes PREFIX.csv, PREFIX.log, PREFIX.png")
    args = p.parse_args()
    lib = os.path.abspath(os.path.join(args.build, "src", "preload", "libmcb_preload.so"))
    client = os.path.join(args.build, "tests", "preload_soak")
    for path in (lib, client):
        if not os.path.isfile(path):
            sys.exit(f"preload_soak: {path} not found (build the project first, --build DIR)")
    if args.seconds <= 0 or args.every <= 0 or args.n < 1:
        sys.exit("preload_soak: --seconds, --every and -n must be positive")
    env = {name: os.environ.get(name, value) for name, value in DEFAULTS.items()}
    env.update({"LD_PRELOAD": lib, "MCB_PRELOAD_REPORT": "stdout"})
    if "MCB_PRELOAD_CACHE" in os.environ:
        env["MCB_PRELOAD_CACHE"] = os.environ["MCB_PRELOAD_CACHE"]
    cmd = command(args, env)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    rows = []
    start = time.time()
    with open(args.out + ".log", "w") as log:
        log.write("# " + " ".join(cmd) + "\n")
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            log.write(line)
            log.flush()
            m = LINE.match(line)
            if m:
                rows.append(dict(zip(FIELDS, [float(m.group(2))] + [int(x) for x in m.groups()[2:]])))
                print(line.rstrip(), flush=True)
            elif "checks" in line or "FAIL" in line or "error" in line:
                print(line.rstrip(), flush=True)
        rc = proc.wait()
    wall = time.time() - start
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    algos = " ".join(f"{k}={env[k]}" for k in DEFAULTS)
    print(f"preload_soak: {args.mpi}, {args.n} ranks, {algos}: {wall:.0f} s of wall time, exit status {rc}")
    if len(rows) >= 2:
        a, b = rows[0], rows[-1]
        for key in ["rss_kib", "mappings", "fds", "shm"]:
            print(f"preload_soak: {key}: {a[key]} at t={a['t_s']:.0f} s, {b[key]} at t={b['t_s']:.0f} s "
                  f"({b[key] - a[key]:+d})")
        print(f"preload_soak: calls {b['calls']}, served {b['served']}, fallback {b['fallback']}, "
              f"checks {b['checks']}")
        plot(rows, args.out + ".png", f"preload soak: {args.mpi}, {args.n} ranks (oversubscribed on a 2-core "
             f"machine), {algos}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
