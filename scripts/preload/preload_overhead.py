#!/usr/bin/env python3
"""What libmcb_preload.so costs per call: mcb_alltoall, mcb_allgather and
mcb_allreduce with --algorithm system (the MPI's own collective, called
through MPI_Alltoall and friends) run three ways, interleaved, --runs times
(the order of the three turned every run):

  direct   no preload: the MPI's own collective;
  loaded   the preload in LD_PRELOAD, its variable unset: the call passes
           through the wrapper to PMPI_* (one load and one test);
  served   MCB_<COLL>=system: every call goes through the preload's checks,
           its cache lookups (communicator attribute, call shape, plan) and
           the mcb "system" plan, which calls PMPI_* itself.

Per collective and size it prints each mode's average latency and the
per-call cost, loaded - direct and served - direct in microseconds, and
served / direct. Small sizes show the cost best; it is a constant per call,
not per byte. --in-place times MPI_IN_PLACE calls (allgather, allreduce:
CP2K's allreduces are 95% in place; alltoall has no in-place form here).

--statistic paired (the default): each mode's median over runs, and each
difference and ratio the median over runs of that run's (a run is the three
launches next to each other, so a launch in another of the machine's speed
states moves one run's difference, not the verdict); the noise column is
the median over run pairs of |direct(run 2k) - direct(run 2k + 1)|: the
MPI's own call against itself, what a difference must exceed to mean
anything. --statistic min: the minimum over runs of each mode (the old
reading; one fast launch decides it).

Not a test: timings on a shared machine vary; run 2 ranks bound to cores
(the default) on an idle machine. Bad input: one line, exit 2.

    /usr/bin/python3 scripts/preload/preload_overhead.py [--build DIR] [--mpi openmpi|mpich]
        [--mpi-prefix PREFIX] [-n 2] [-m 8:1024] [--runs 10] [-i 20000] [--in-place]
        [--collectives LIST] [--statistic paired|min] [--csv FILE]

--mpi-prefix runs an MPI of its own prefix (scripts/mpi/build-mpi.sh NAME):
its bin/mpiexec, and by default mcb's build for it (build-mpi-NAME, as
ci/test-mpi.sh builds it).
"""
import argparse
import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))  # scripts/: lib
from lib import needs  # noqa: E402
from lib import mpi_tools  # noqa: E402

needs.need("pandas")
import pandas as pd  # noqa: E402

COLLECTIVES = {"alltoall": "MCB_ALLTOALL", "allgather": "MCB_ALLGATHER", "allreduce": "MCB_ALLREDUCE"}
MODES = ["direct", "loaded", "served"]


def die(msg):
    print(f"preload_overhead: {msg}", file=sys.stderr)
    sys.exit(2)


def command(args, coll, mode, csv):
    binary = os.path.join(args.build, "src", f"mcb_{coll}")
    lib = os.path.abspath(os.path.join(args.build, "src", "preload", "libmcb_preload.so"))
    env = {}
    if mode != "direct":
        env["LD_PRELOAD"] = lib
    if mode == "served":
        env[COLLECTIVES[coll]] = "system"
    bench = [binary, "--algorithm", "system", "-m", args.m, "-i", str(args.iterations), "-x",
             str(max(1, args.iterations // 10)), "--csv", csv] + (["--in-place"] if args.in_place else [])
    return mpi_tools.launcher(args.mpi, args.n, env, cmd=args.launcher, version=args.version) + bench


def statistic(data, how):
    """Per (collective, size): the modes' times, the differences to direct
    and served / direct, and the noise (None below 2 runs), as the module's
    docstring says for --statistic paired or min."""
    keys = ["collective", "size"]
    wide = data.pivot_table(index=keys + ["run"], columns="mode", values="avg_us")
    if how == "min":
        t = wide.groupby(level=keys).min()
        cost = pd.DataFrame({"loaded-direct": t["loaded"] - t["direct"], "served-direct": t["served"] - t["direct"],
                             "served/direct": t["served"] / t["direct"]})
    else:
        t = wide.groupby(level=keys).median()
        cost = pd.DataFrame({"loaded-direct": wide["loaded"] - wide["direct"],
                             "served-direct": wide["served"] - wide["direct"],
                             "served/direct": wide["served"] / wide["direct"]}).groupby(level=keys).median()
    direct = wide["direct"].reset_index()
    pairs = direct.assign(k=direct["run"] // 2, half=direct["run"] % 2).pivot_table(
        index=keys + ["k"], columns="half", values="direct")
    noise = (pairs[0] - pairs[1]).abs().dropna().groupby(level=keys).median() if 1 in pairs else None
    return t, cost, noise


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", help="mcb's build directory (default build, or build-mpi-NAME with --mpi-prefix)")
    p.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    p.add_argument("--mpi-prefix", help="an MPI of its own prefix (scripts/mpi/build-mpi.sh NAME); its kind "
                                        "replaces --mpi")
    p.add_argument("-n", type=int, default=2, help="ranks (default 2, bound to cores)")
    p.add_argument("-m", default="8:1024", help="sizes in bytes, as mcb's -m (default 8:1024)")
    p.add_argument("--runs", type=int, default=10, help="interleaved runs per mode (default 10)")
    p.add_argument("-i", "--iterations", type=int, default=20000, help="iterations per size (default 20000)")
    p.add_argument("--collectives", help="default: alltoall,allgather,allreduce (--in-place: allgather,allreduce)")
    p.add_argument("--in-place", action="store_true", help="MPI_IN_PLACE calls (mcb's -l)")
    p.add_argument("--statistic", choices=["paired", "min"], default="paired",
                   help="paired (default): medians over runs, each run's differences; min: each mode's minimum")
    p.add_argument("--csv", help="write every run's numbers to this file")
    args = p.parse_args()
    if args.runs < 1:
        die("--runs: at least 1")
    if args.iterations < 1:
        die("--iterations: at least 1")
    if args.n < 1:
        die("-n: at least 1")
    if args.collectives is None:
        args.collectives = "allgather,allreduce" if args.in_place else ",".join(COLLECTIVES)
    colls = args.collectives.split(",")
    for c in colls:
        if c not in COLLECTIVES:
            die(f"--collectives {c}: expected alltoall, allgather or allreduce")
        if c == "alltoall" and args.in_place:
            die("--in-place: alltoall has no in-place form here (allgather, allreduce)")
    args.launcher, args.version = None, None
    if args.mpi_prefix:
        try:
            args.mpi = mpi_tools.prefix_mpi(args.mpi_prefix)
            args.launcher = mpi_tools.prefix_launcher(args.mpi_prefix)
        except mpi_tools.MpiToolError as e:
            die(str(e))
        args.version = mpi_tools.mpi_version(args.mpi, args.launcher)
    if args.build is None:
        args.build = mpi_tools.build_dir(os.path.dirname(os.path.dirname(HERE)), args.mpi, args.mpi_prefix) \
            if args.mpi_prefix else "build"
    lib = os.path.join(args.build, "src", "preload", "libmcb_preload.so")
    if not os.path.isfile(lib):
        die(f"{lib} not found (build the project first, --build DIR)")
    for c in colls:
        binary = os.path.join(args.build, "src", f"mcb_{c}")
        if not os.access(binary, os.X_OK):
            die(f"{binary}: not built (cmake --build {args.build} --target mcb_{c})")
    env = mpi_tools.clean_env(args.mpi)

    rows = []
    csv = os.path.join(args.build, "preload_overhead.tmp.csv")
    for run in range(args.runs):
        for coll in colls:
            for mode in MODES[run % 3:] + MODES[:run % 3]:
                cmd = command(args, coll, mode, csv)
                proc = subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
                if proc.returncode != 0:
                    said = [ln for ln in (proc.stderr + proc.stdout).splitlines() if ln.strip("-= \t")]
                    die(f"{' '.join(cmd)} failed (exit {proc.returncode}): {said[0] if said else 'no output'}")
                df = pd.read_csv(csv)
                df = df[df["phase"] == "total"] if "phase" in df else df
                for _, r in df.iterrows():
                    rows.append({"mpi": args.mpi, "collective": coll, "in_place": int(args.in_place), "mode": mode,
                                 "run": run, "size": int(r["size_bytes"]), "avg_us": float(r["avg_us"])})
    os.remove(csv)
    data = pd.DataFrame(rows)
    if args.csv:
        data.to_csv(args.csv, index=False)
    t, cost, noise = statistic(data, args.statistic)
    how = ("medians over %d interleaved runs, each difference the median of the runs' own" % args.runs
           if args.statistic == "paired" else "minimum of %d interleaved runs" % args.runs)
    print(f"# libmcb_preload.so per-call cost: {args.n} ranks, {args.mpi}"
          f"{' ' + args.version if args.version else ''}, --algorithm system, {args.iterations} iterations"
          f"{', in place' if args.in_place else ''}; average latency (us), {how}")
    print("# noise: the median over run pairs of |direct(2k) - direct(2k+1)| (us): a difference below it is "
          "not resolved")
    out = io.StringIO()
    out.write(f"{'collective':<10} {'size':>6} {'direct':>9} {'loaded':>9} {'served':>9} "
              f"{'loaded-direct':>14} {'served-direct':>14} {'served/direct':>14} {'noise':>7}\n")
    for (coll, size), r in t.iterrows():
        c = cost.loc[(coll, size)]
        nz = f"{noise.loc[(coll, size)]:>7.3f}" if noise is not None and (coll, size) in noise.index else f"{'-':>7}"
        out.write(f"{coll:<10} {size:>6} {r['direct']:>9.3f} {r['loaded']:>9.3f} {r['served']:>9.3f} "
                  f"{c['loaded-direct']:>14.3f} {c['served-direct']:>14.3f} {c['served/direct']:>14.3f} {nz}\n")
    print(out.getvalue(), end="")
    for coll in colls:
        c = cost.loc[coll]
        line = (f"# {coll}: median over sizes of served - direct = {c['served-direct'].median():.3f} us, "
                f"loaded - direct = {c['loaded-direct'].median():.3f} us")
        if noise is not None:
            line += f", noise {noise.loc[coll].median():.3f} us"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
