#!/usr/bin/env python3
"""Time of every algorithm configuration relative to the system MPI's own
collective, from mcb CSV files.

Usage:
    /usr/bin/python3 scripts/measure/relative_to_system.py RUN.csv [RUN2.csv ...]
        [--baseline system] [--stat median_us] [--sizes 4,4096] [--phase total]

Each configuration is (algorithm, params); with several CSV files (repeated
runs) the script keeps, per configuration and size, the minimum over files
of --stat (the paper plots the minimum of 3 runs). It prints one row per
configuration, one column per size: time/baseline, and the baseline's own
time in microseconds. Ratios below 1 mean faster than the baseline.
The rows must come from the same ranks, nodes and phase mode; the script
stops with an error when they do not.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import needs  # noqa: E402

needs.need("pandas")
import pandas as pd  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+")
    p.add_argument("--baseline", default="system", help="algorithm to divide by (default system)")
    p.add_argument("--stat", default="median_us", choices=["median_us", "min_us", "avg_us", "max_us"])
    p.add_argument("--sizes", help="comma-separated block sizes in bytes (default: all)")
    p.add_argument("--phase", default="total", help="phase to compare (default total)")
    args = p.parse_args()

    df = pd.concat([pd.read_csv(f) for f in args.csv], ignore_index=True)
    df = df[df["phase"] == args.phase]
    for col in ("ranks", "nodes", "phase_mode", "mpi_library"):
        if df[col].nunique() > 1:
            sys.exit(f"relative_to_system: the rows mix {col} values {sorted(df[col].unique())}; give one run's files")
    if args.sizes:
        df = df[df["size_bytes"].isin([int(s) for s in args.sizes.split(",")])]
    best = df.groupby(["algorithm", "params", "size_bytes"], sort=False)[args.stat].min().reset_index()
    base = best[best["algorithm"] == args.baseline].set_index("size_bytes")[args.stat]
    if base.empty:
        sys.exit(f"relative_to_system: no rows of the baseline '{args.baseline}'")
    sizes = sorted(best["size_bytes"].unique())
    first = df.iloc[0]
    print(f"# {first['mpi_library']} {first['mpi_version']}, {first['ranks']} ranks, {first['nodes']} nodes x "
          f"{first['ranks_per_node']}, phase {args.phase}, {args.stat} (min over {len(args.csv)} file(s)) / "
          f"{args.baseline}")
    label_width = max(len(f"{a} {q}") for a, q in best[["algorithm", "params"]].drop_duplicates().values)
    print(f"{'configuration':<{label_width}}" + "".join(f"{str(s) + ' B':>12}" for s in sizes))
    print(f"{args.baseline + ' (us)':<{label_width}}" + "".join(f"{base.get(s, float('nan')):>12.2f}" for s in sizes))
    for (algo, params), rows in best.groupby(["algorithm", "params"], sort=False):
        if algo == args.baseline:
            continue
        t = rows.set_index("size_bytes")[args.stat]
        label = algo if params == "none" else f"{algo} {params}"
        print(f"{label:<{label_width}}" + "".join(f"{t.get(s, float('nan')) / base.get(s, float('nan')):>12.2f}"
                                                   for s in sizes))


if __name__ == "__main__":
    main()
