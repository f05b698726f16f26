#!/usr/bin/env python3
"""What libmcb_preload.so costs per call: mcb_alltoall, mcb_allgather and
mcb_allreduce with --algorithm system (the MPI's own collective, called
through MPI_Alltoall and friends) run three ways, interleaved, --runs times:

  direct   no preload: the MPI's own collective;
  loaded   the preload in LD_PRELOAD, its variable unset: the call passes
           through the wrapper to PMPI_* (one load and one test);
  served   MCB_<COLL>=system: every call goes through the preload's checks,
           its cache lookups (communicator attribute, call shape, plan) and
           the mcb "system" plan, which calls PMPI_* itself.

Per collective and size it prints the minimum over runs of the average
latency of each, and the differences loaded - direct and served - direct in
microseconds (the per-call cost), and served / direct. Small sizes show the
cost best; it is a constant per call, not per byte. --in-place times
MPI_IN_PLACE calls (allgather, allreduce: CP2K's allreduces are 95% in
place; alltoall has no in-place form here). Not a test: timings on
a shared machine vary; run 2 ranks bound to cores (the default) on an idle
machine.

    /usr/bin/python3 scripts/preload/preload_overhead.py [--build build] [--mpi openmpi|mpich]
        [-n 2] [-m 8:1024] [--runs 5] [-i 20000] [--in-place] [--collectives LIST]
"""
import argparse
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: needs, mpi_tools
import needs  # noqa: E402
from mpi_tools import launcher  # noqa: E402

needs.need("pandas")
import pandas as pd  # noqa: E402

COLLECTIVES = {"alltoall": "MCB_ALLTOALL", "allgather": "MCB_ALLGATHER", "allreduce": "MCB_ALLREDUCE"}
MODES = ["direct", "loaded", "served"]


def command(args, coll, mode, csv):
    binary = os.path.join(args.build, "src", f"mcb_{coll}")
    lib = os.path.abspath(os.path.join(args.build, "src", "preload", "libmcb_preload.so"))
    env = {}
    if mode != "direct":
        env["LD_PRELOAD"] = lib
    if mode == "served":
        env[COLLECTIVES[coll]] = "system"
    bench = [binary, "--algorithm", "system", "-m", args.m, "-i", str(args.iterations), "-x",
             str(args.iterations // 10), "--csv", csv] + (["--in-place"] if args.in_place else [])
    return launcher(args.mpi, args.n, env) + bench


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="build directory (default build)")
    p.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("-n", type=int, default=2, help="ranks (default 2, bound to cores)")
    p.add_argument("-m", default="8:1024", help="sizes in bytes, as mcb's -m (default 8:1024)")
    p.add_argument("--runs", type=int, default=5, help="interleaved runs per mode, the minimum kept (default 5)")
    p.add_argument("-i", "--iterations", type=int, default=20000, help="iterations per size (default 20000)")
    p.add_argument("--collectives", help="default: alltoall,allgather,allreduce (--in-place: allgather,allreduce)")
    p.add_argument("--in-place", action="store_true", help="MPI_IN_PLACE calls (mcb's -l)")
    args = p.parse_args()
    if args.collectives is None:
        args.collectives = "allgather,allreduce" if args.in_place else ",".join(COLLECTIVES)
    lib = os.path.join(args.build, "src", "preload", "libmcb_preload.so")
    if not os.path.isfile(lib):
        sys.exit(f"preload_overhead: {lib} not found (build the project first, --build DIR)")
    colls = args.collectives.split(",")
    for c in colls:
        if c not in COLLECTIVES:
            sys.exit(f"preload_overhead: --collectives {c}: expected alltoall, allgather or allreduce")
        if c == "alltoall" and args.in_place:
            sys.exit("preload_overhead: --in-place: alltoall has no in-place form here (allgather, allreduce)")

    rows = []
    csv = os.path.join(args.build, "preload_overhead.tmp.csv")
    for run in range(args.runs):
        for coll in colls:
            for mode in MODES:
                cmd = command(args, coll, mode, csv)
                proc = subprocess.run(cmd, capture_output=True, text=True)
                if proc.returncode != 0:
                    sys.exit(f"preload_overhead: {' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
                df = pd.read_csv(csv)
                df = df[df["phase"] == "total"] if "phase" in df else df
                for _, r in df.iterrows():
                    rows.append({"collective": coll, "mode": mode, "run": run, "size": int(r["size_bytes"]),
                                 "avg_us": float(r["avg_us"])})
    os.remove(csv)
    data = pd.DataFrame(rows)
    best = data.groupby(["collective", "size", "mode"])["avg_us"].min().unstack("mode")
    print(f"# libmcb_preload.so per-call cost: {args.n} ranks, {args.mpi}, --algorithm system, "
          f"{args.iterations} iterations{', in place' if args.in_place else ''}, minimum of {args.runs} interleaved runs of the average latency (us)")
    out = io.StringIO()
    out.write(f"{'collective':<10} {'size':>6} {'direct':>9} {'loaded':>9} {'served':>9} "
              f"{'loaded-direct':>14} {'served-direct':>14} {'served/direct':>14}\n")
    for (coll, size), r in best.iterrows():
        out.write(f"{coll:<10} {size:>6} {r['direct']:>9.3f} {r['loaded']:>9.3f} {r['served']:>9.3f} "
                  f"{r['loaded'] - r['direct']:>14.3f} {r['served'] - r['direct']:>14.3f} "
                  f"{r['served'] / r['direct']:>14.3f}\n")
    print(out.getvalue(), end="")
    for coll in colls:
        b = best.loc[coll]
        print(f"# {coll}: median over sizes of served - direct = {(b['served'] - b['direct']).median():.3f} us, "
              f"loaded - direct = {(b['loaded'] - b['direct']).median():.3f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
