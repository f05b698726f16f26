#!/usr/bin/env python3
"""Stacked per-phase bars from an mcb_breakdown (or mcb_alltoall) CSV: the
alltoall paper's Figures 13-16 (time of gather, inter-node, intra-node,
scatter and repack per message size, node count or group size).

Usage:
    /usr/bin/python3 plots/breakdown.py BREAKDOWN.csv -o breakdown.png
        [--x size_bytes|nodes|params] [-m BYTES] [--stat median_us] [--mode embedded|isolated]

One panel per phase mode present in the file (or only --mode). The x axis
is the column that varies (size, then nodes, then params) unless --x names
it; every other varying column must have one value per panel, else the
script stops and says which to filter.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from lib import needs  # noqa: E402 (one line, not a traceback, when a library is missing)

needs.need("matplotlib", "pandas")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv")
    p.add_argument("-o", "--output", default="breakdown.png")
    p.add_argument("--x", choices=["size_bytes", "nodes", "params"])
    p.add_argument("--stat", default="median_us")
    p.add_argument("--mode", choices=["embedded", "isolated"])
    p.add_argument("-m", "--size", type=int, help="keep only rows of this block size (bytes)")
    args = p.parse_args()

    df = pd.read_csv(args.csv)
    if args.size:
        df = df[df["size_bytes"] == args.size]
    if df.empty:
        sys.exit("breakdown.py: no rows left to plot")
    if args.mode:
        df = df[df["phase_mode"] == args.mode]
    if df["algorithm"].nunique() != 1:
        sys.exit(f"breakdown.py: the file holds algorithms {sorted(df['algorithm'].unique())}; one at a time")
    x = args.x or next((c for c in ("size_bytes", "nodes", "params") if df[c].nunique() > 1), "size_bytes")
    for c in ("size_bytes", "nodes", "params"):
        if c != x and df[c].nunique() > 1:
            sys.exit(f"breakdown.py: {c} varies too ({sorted(df[c].unique())}); filter the CSV or pick --x {c}")
    if x == "params":  # label bars with the parameters that vary, in run order
        parts = df["params"].str.split(";")
        varying = {kv.split("=")[0] for kv in set(sum(parts.tolist(), [])) if parts.map(lambda ps: kv in ps).nunique() > 1}
        df["params"] = parts.map(lambda ps: ";".join(kv for kv in ps if kv.split("=")[0] in varying) or "none")
        df["params"] = pd.Categorical(df["params"], categories=list(dict.fromkeys(df["params"])), ordered=True)
    modes = list(dict.fromkeys(df["phase_mode"]))
    phases = [ph for ph in dict.fromkeys(df["phase"]) if ph != "total"]
    fig, axes = plt.subplots(1, len(modes), figsize=(6 * len(modes), 4.5), squeeze=False)
    for ax, mode in zip(axes[0], modes):
        d = df[df["phase_mode"] == mode]
        table = d[d["phase"] != "total"].pivot_table(index=x, columns="phase", values=args.stat, aggfunc="min",
                                                     observed=True)
        table = table[[ph for ph in phases if ph in table.columns]]
        table.plot.bar(stacked=True, ax=ax, width=0.8)
        total = d[d["phase"] == "total"].groupby(x, observed=True)[args.stat].min()
        ax.plot(range(len(total)), total.reindex(table.index).values, "k_", markersize=20, label="total")
        ax.set_title(f"{d['algorithm'].iloc[0]}, {mode} phases")
        ax.set_xlabel({"size_bytes": "bytes per block", "nodes": "nodes", "params": "parameters"}[x])
        ax.set_ylabel(f"{args.stat.replace('_us', '')} time (us)")
        ax.tick_params(axis="x", labelrotation=30 if x == "params" else 0)
        ax.legend(fontsize=8)
    first = df.iloc[0]
    fig.suptitle(f"{first['mpi_library']} {first['mpi_version']}, {first['ranks_per_node']} ranks per node")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
