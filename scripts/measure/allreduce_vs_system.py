#!/usr/bin/env python3
"""The shared-memory allreduces against the system MPI's MPI_Allreduce, one
node, on each copy path (issue 21; allreduce-shared-memory-multiradix,
Figures 9-12), with a roofline.

Each run launches mcb_allreduce twice, side by side:
  plain buffers:      system, system_persistent and the algorithms with
                      --copy copy-in,cma (the path any buffer takes);
  registered buffers: the same with --buffers registered --copy registered
                      (mcb::shm_allocate: peers read and write in place).
Runs are interleaved; every configuration keeps the minimum over --runs of
its median. The speedup of a path is the system's time in the same kind of
buffers divided by the path's (above 1: ours is faster).

The roofline: mcb_copy_bw on one and on all cores with buffers far larger
than the last-level cache gives the machine's memory bandwidth as the
allreduce counts its traffic (bytes read plus written: memcpy, and the
allreduce's own k-way sum into one and into two destinations; the best of
the three is the roof). The allreduce's buffers (send, receive, segment, on
every rank) must be far larger than the last-level cache for its rate to
be held against that roof: smaller vectors run (partly) in cache and
exceed it. Each row of
mcb_allreduce carries mem_traffic_bytes, the bytes one rank moves per call
counted from the algorithm's schedule; ranks x that / time is the rate the
node reaches, printed for sizes from 4 MiB as a fraction of the roof.

Targets checked (issue 21): registered at least 1.8x over MPI_Allreduce
from 1 to 4 MiB and 1.5x from 8 to 512 KiB; cma at least 1.2x from 256 KiB
to 4 MiB and never slower than copy-in; the fastest path at 4 MiB and above
at least 70% of the roof.

Usage:
    /usr/bin/python3 scripts/measure/allreduce_vs_system.py [-n 2] [--build build] [-m 8:16777216]
        [--algorithms shm_recursive_exchange,shm_tree] [--runs 3] [--bind core|none]
        [--roof-size 134217728] [--csv OUT.csv] [-- more mcb_allreduce arguments]

MCB_MPI=mpich uses MPICH's mpiexec, else Open MPI's mpirun; under Slurm,
srun. Not a test: timings on a shared machine vary; with more ranks than
cores they mean little (the script then binds nothing and says so).
"""
import argparse
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import needs  # noqa: E402

needs.need("pandas")
import pandas as pd  # noqa: E402

SYSTEMS = ["system", "system_persistent"]


def launcher(n, bind):
    if os.environ.get("SLURM_JOB_ID"):
        return ["srun", "-n", str(n)] + ([f"--cpu-bind={'cores' if bind == 'core' else 'none'}"])
    if os.environ.get("MCB_MPI", "openmpi") == "mpich":
        return ["mpiexec.mpich", "-bind-to", bind, "-n", str(n)]
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return ["mpirun.openmpi", "--oversubscribe", "--bind-to", bind, "-n", str(n)]


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"allreduce_vs_system: {' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def copy_bw(build, size, threads):
    out = run([os.path.join(build, "src", "mcb_copy_bw"), "-m", str(size), "-i", "10", "-t", threads])
    row = pd.read_csv(io.StringIO(out), sep=r"\s+", comment="#", header=None).iloc[0]
    first = out.splitlines()[0]
    return {"copy": row[3], "sum": row[5], "push": row[7], "header": first}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=2, help="ranks (default 2)")
    p.add_argument("--build", default="build", help="build directory (default build)")
    p.add_argument("-m", default="8:16777216", help="vector sizes in bytes (default 8:16777216)")
    p.add_argument("--algorithms", default="shm_recursive_exchange,shm_tree", help="the algorithms to compare")
    p.add_argument("--runs", type=int, default=3, help="runs, the minimum kept (default 3)")
    p.add_argument("--bind", choices=["core", "none"], help="binding (default core, none when oversubscribed)")
    p.add_argument("--roof-size", type=int, default=128 << 20,
                   help="bytes per buffer of mcb_copy_bw, far above the last-level cache (default 128 MiB)")
    p.add_argument("--csv", help="keep the rows of every run in this file")
    p.add_argument("extra", nargs="*", help="more mcb_allreduce arguments (after --)")
    args = p.parse_args()

    cores = os.cpu_count() or 1
    oversubscribed = args.n > cores
    bind = args.bind or ("none" if oversubscribed else "core")
    binary = os.path.join(args.build, "src", "mcb_allreduce")
    ours = args.algorithms.split(",")
    launches = {"plain": ["--copy", "copy-in,cma"], "registered": ["--buffers", "registered", "--copy", "registered"]}
    frames = []
    for r in range(args.runs):
        for kind, extra in launches.items():
            out = os.path.join(args.build, f"allreduce_vs_system.{kind}.{r}.csv")
            run(launcher(args.n, bind) + [binary, "--algorithm", ",".join(SYSTEMS + ours), "-c", "-m", args.m,
                                          "--csv", out] + extra + args.extra)
            frame = pd.read_csv(out)
            frame["launch"] = kind
            frames.append(frame)
    rows = pd.concat(frames, ignore_index=True)
    if args.csv:
        rows.to_csv(args.csv, index=False)
    if (rows["validation"] == "fail").any():
        sys.exit("allreduce_vs_system: a validation failed; see the CSV")
    total = rows[rows["phase"] == "total"].copy()
    total["path"] = total["params"].str.extract(r"copy=([a-z-]+)")[0].fillna("")
    total["label"] = total["algorithm"].where(total["algorithm"].isin(SYSTEMS),
                                              total["algorithm"] + " " + total["path"])
    best = total.groupby(["launch", "label", "size_bytes"]).agg(
        median_us=("median_us", "min"), traffic=("mem_traffic_bytes", "max"),
        rpn=("ranks_per_node", "first")).reset_index()
    time = best.pivot_table(index="size_bytes", columns=["launch", "label"], values="median_us")

    one = copy_bw(args.build, args.roof_size, "1")
    every = copy_bw(args.build, args.roof_size, "all")
    roof = max(every["copy"], every["sum"], every["push"])

    first = total.iloc[0]
    print(f"# {first['mpi_library']} {first['mpi_version']}, {args.n} ranks on {first['nodes']} node(s), "
          f"bind {bind}{' (oversubscribed: times mean little)' if oversubscribed else ''}, {first['datatype']}; "
          f"median us, minimum over {args.runs} run(s)")
    print("# speedup = the system's time on the same kind of buffers / the path's (above 1: ours is faster)")
    paths = [(k, lab) for k, lab in time.columns if lab not in SYSTEMS]
    head = f"{'size (B)':>10}{'system':>10}{'sys(reg)':>10}"
    for k, lab in paths:
        head += f"  {lab + (' [registered buffers]' if k == 'registered' and not lab.endswith('registered') else '')}"
    print(head)
    print(f"{'':>10}{'us':>10}{'us':>10}" + "".join(f"  {'us':>9} {'speedup':>8}" for _ in paths))
    for size, row in time.iterrows():
        line = f"{size:>10}{row[('plain', 'system')]:>10.2f}{row[('registered', 'system')]:>10.2f}"
        for k, lab in paths:
            line += f"  {row[(k, lab)]:>9.2f} {row[(k, 'system')] / row[(k, lab)]:>8.2f}"
        print(line)

    print(f"\n# roofline: mcb_copy_bw at {args.roof_size >> 20} MiB per buffer, GB/s of bytes read plus written: one "
          f"core copy {one['copy']:.1f}, sum {one['sum']:.1f}, push {one['push']:.1f}; all {cores} cores copy "
          f"{every['copy']:.1f}, sum {every['sum']:.1f}, push {every['push']:.1f}; roof (the best) {roof:.1f}. Vectors "
          f"whose buffers fit the last-level cache exceed it")
    print(f"{'size (B)':>10}  {'path':<40}{'traffic/rank (B)':>18}{'node GB/s':>11}{'of roof':>9}")
    fractions = {}
    for (k, lab, size), g in best.set_index(["launch", "label", "size_bytes"]).iterrows():
        if lab in SYSTEMS or size < 4 << 20 or g["traffic"] <= 0:
            continue
        rate = g["traffic"] * g["rpn"] / g["median_us"] * 1e-3
        fractions[(k, lab, size)] = rate / roof
        print(f"{size:>10}  {lab:<40}{int(g['traffic']):>18}{rate:>11.1f}{rate / roof:>8.0%}")

    print("\n# targets (issue 21)")
    def band(lo, hi):
        return time[(time.index >= lo) & (time.index <= hi)]
    verdicts = []
    for lab in ours:
        reg, cma, cin = (("registered", f"{lab} registered"), ("plain", f"{lab} cma"), ("plain", f"{lab} copy-in"))
        if reg in time.columns:
            for lo, hi, target in [(1 << 20, 4 << 20, 1.8), (8 << 10, 512 << 10, 1.5)]:
                b = band(lo, hi)
                if not b.empty:
                    worst = (b[("registered", "system")] / b[reg]).min()
                    verdicts.append((f"{lab} registered {lo}..{hi} B: smallest speedup {worst:.2f}", worst >= target,
                                     target))
        if cma in time.columns:
            b = band(256 << 10, 4 << 20)
            if not b.empty:
                worst = (b[("plain", "system")] / b[cma]).min()
                verdicts.append((f"{lab} cma 262144..4194304 B: smallest speedup {worst:.2f}", worst >= 1.2, 1.2))
            if cin in time.columns:
                worst = (time[cin] / time[cma]).min()
                verdicts.append((f"{lab} cma against copy-in, every size: smallest copy-in/cma {worst:.2f}",
                                 worst >= 1.0, 1.0))
    for size in sorted({s for _, _, s in fractions}):
        fastest = min(((k, lab) for k, lab, s in fractions if s == size), key=lambda c: time.loc[size, c])
        f = fractions[fastest + (size,)]
        verdicts.append((f"{size} B: fastest path {fastest[1]} at {f:.0%} of the roof", f >= 0.7, 0.7))
    for text, ok, target in verdicts:
        print(f"  {text} (target {target}: {'met' if ok else 'missed'})")


if __name__ == "__main__":
    main()
