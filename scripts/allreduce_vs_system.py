#!/usr/bin/env python3
"""The shared-memory allreduces against the system MPI's MPI_Allreduce and
MPI_Allreduce_init, one node (allreduce-shared-memory-multiradix,
Figures 9-12): runs mcb_allreduce and mcb_copy_bw, prints per size the
system times divided by each shared-memory algorithm's (above 1: ours is
faster), checks the target (at least --target times faster than both from
64 KiB to 4 MiB) and gives the time at 4 MiB as a multiple of one memcpy
of 4 MiB (a copy-in design moves about three memcpys' worth of data).

Usage:
    /usr/bin/python3 scripts/allreduce_vs_system.py [-n RANKS] [--build build] [-m 8:16777216]
        [--algorithms shm_recursive_exchange] [--runs 3] [--csv OUT.csv] [--target 1.5]

It launches with scripts/local-run.sh (MCB_MPI picks Open MPI or MPICH)
or, under Slurm, srun. Each configuration keeps the minimum over --runs
runs of the median. Not a test: timings on a shared machine vary; with more
ranks than cores they mean little.
"""
import argparse
import io
import os
import subprocess
import sys

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))


def launch(n, argv):
    if os.environ.get("SLURM_JOB_ID"):
        cmd = ["srun", "-n", str(n)] + argv
    else:
        cmd = [os.path.join(HERE, "local-run.sh"), "-n", str(n)] + argv
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"allreduce_vs_system: {' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=2, help="ranks (default 2)")
    p.add_argument("--build", default="build", help="build directory (default build)")
    p.add_argument("-m", default="8:16777216", help="vector sizes in bytes (default 8:16777216)")
    p.add_argument("--algorithms", default="shm_recursive_exchange", help="the algorithms to compare")
    p.add_argument("--runs", type=int, default=3, help="runs, the minimum kept (default 3)")
    p.add_argument("--csv", help="keep the rows of every run in this file")
    p.add_argument("--target", type=float, default=1.5, help="speedup to check from 64 KiB to 4 MiB (default 1.5)")
    p.add_argument("extra", nargs="*", help="more mcb_allreduce arguments (after --)")
    args = p.parse_args()

    binary = os.path.join(args.build, "src", "mcb_allreduce")
    ours = args.algorithms.split(",")
    frames = []
    for run in range(args.runs):
        out = os.path.join(args.build, f"allreduce_vs_system.{run}.csv")
        launch(args.n, [binary, "--algorithm", ",".join(["system", "system_persistent"] + ours), "-c", "-m", args.m,
                        "--csv", out] + args.extra)
        frames.append(pd.read_csv(out))
    rows = pd.concat(frames, ignore_index=True)
    if args.csv:
        rows.to_csv(args.csv, index=False)
    if (rows["validation"] == "fail").any():
        sys.exit("allreduce_vs_system: a validation failed; see the CSV")
    total = rows[rows["phase"] == "total"]
    best = total.groupby(["algorithm", "params", "size_bytes"])["median_us"].min().reset_index()
    best["label"] = best["algorithm"].where(best["algorithm"].isin(["system", "system_persistent"]),
                                            best["algorithm"] + " " + best["params"])
    table = best.pivot(index="size_bytes", columns="label", values="median_us")
    copy = subprocess.run([os.path.join(args.build, "src", "mcb_copy_bw"), "-m", "4194304:4194304"], capture_output=True,
                          text=True, check=True).stdout
    memcpy_us = pd.read_csv(io.StringIO(copy), sep=r"\s+", comment="#", header=None).iloc[0, 1]

    first = total.iloc[0]
    print(f"# {first['mpi_library']} {first['mpi_version']}, {args.n} ranks, {first['nodes']} node(s), "
          f"{first['datatype']}, median us, minimum over {args.runs} run(s)")
    labels = [c for c in table.columns if c not in ("system", "system_persistent")]
    print("# per algorithm three columns: its time, system / it, system_persistent / it; in order: " +
          "; ".join(labels))
    print(f"{'size (B)':>10}{'system':>12}{'persistent':>12}" +
          "".join(f"{'time':>10}{'sys/ours':>10}{'pers/ours':>10}" for _ in labels))
    for size, row in table.iterrows():
        line = f"{size:>10}{row['system']:>12.2f}{row['system_persistent']:>12.2f}"
        for lab in labels:
            line += f"{row[lab]:>10.2f}{row['system'] / row[lab]:>10.2f}{row['system_persistent'] / row[lab]:>10.2f}"
        print(line)
    for lab in labels:
        print(f"# {lab}")
        band = table[(table.index >= 65536) & (table.index <= 4194304)]
        if not band.empty:
            worst = min((band["system"] / band[lab]).min(), (band["system_persistent"] / band[lab]).min())
            verdict = "met" if worst >= args.target else "missed"
            print(f"  64 KiB..4 MiB: smallest speedup over system and system_persistent {worst:.2f} "
                  f"(target {args.target}: {verdict})")
        if 4194304 in table.index:
            print(f"  4 MiB: {table.loc[4194304, lab]:.1f} us = {table.loc[4194304, lab] / memcpy_us:.2f} x one "
                  f"memcpy of 4 MiB ({memcpy_us:.1f} us, mcb_copy_bw)")


if __name__ == "__main__":
    main()
