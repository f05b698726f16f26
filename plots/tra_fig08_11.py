#!/usr/bin/env python3
"""alltoall-tunable-radix-tra, Figures 8 (Theta) and 11 (Polaris): TRA's time
against its radix r, one panel per process count P (columns) and block size
S (rows). Mean over the iterations with the standard deviation as error
bars (the paper's), a red circle on the best radix and a green one on
r = ceil(sqrt(P)) where that is not the best. The machine is the one the
files come from: the same script makes Figure 8 or 11.

Data: tra_radix-N*-n*-run*.csv from scripts/batch/tra_radix.sbatch (one file per P,
params "radix=R"); several runs of a point: the mean of their means and stddevs.
    /usr/bin/python3 plots/tra_fig08_11.py RESULTS_DIR [-o OUTDIR]
"""
import math

import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
from matplotlib.ticker import FuncFormatter


FIGURES = {"tra_fig08_11": "tra_radix-N*-n*-run*.csv (scripts/batch/tra_radix.sbatch)"}


def make(directory, outdir):
    df = mcbplot.load(directory, "tra_radix-N*-n*-run*.csv", "scripts/batch/tra_radix.sbatch")
    df = df[df["algorithm"] == "tra"].copy()
    if df.empty:
        raise mcbplot.Skip("tra_radix-*.csv has no tra rows")
    title = f"TRA against the radix\n{mcbplot.describe(df)}"
    df["radix"] = df["params"].map(lambda p: mcbplot.param(p, "radix")).astype(int)
    df = df.groupby(["ranks", "size_bytes", "radix"], as_index=False)[["avg_us", "stddev_us"]].mean()
    counts, sizes = sorted(df["ranks"].unique()), sorted(df["size_bytes"].unique())
    fig, axes = mcbplot.panels(len(counts) * len(sizes), ncols=len(counts), width=3.4, height=2.6)
    for i, (size, p) in enumerate((s, p) for s in sizes for p in counts):
        ax, s = axes[i], df[(df["ranks"] == p) & (df["size_bytes"] == size)].sort_values("radix")
        if s.empty:
            ax.set_visible(False)
            continue
        ax.plot(s["radix"], s["avg_us"], marker="o", color=mcbplot.color("tra"), label="TRA")
        if s["stddev_us"].fillna(0).gt(0).any():  # none from a single iteration
            ax.errorbar(s["radix"], s["avg_us"], yerr=s["stddev_us"].fillna(0), fmt="none", capsize=2,
                        ecolor=mcbplot.color("tra"))
        best = s.loc[s["avg_us"].idxmin()]
        ax.plot(best["radix"], best["avg_us"], "o", ms=11, mfc="none", mec="red", mew=1.5, label="best r")
        root = s[s["radix"] == math.isqrt(p - 1) + 1]
        if not root.empty and root["radix"].iloc[0] != best["radix"]:
            ax.plot(root["radix"], root["avg_us"], "o", ms=11, mfc="none", mec="green", mew=1.5,
                    label=r"$r = \lceil\sqrt{P}\rceil$")
        mcbplot.log2_axis(ax, "x", "radix r")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.set_ylabel("time (us)")
        ax.set_title(f"P = {p}, S = {mcbplot.size_label(size)}")
    handles = {h.get_label(): h for ax in axes for h in ax.get_legend_handles_labels()[0]}
    axes[0].legend(handles.values(), handles.keys())
    mcbplot.finish(fig, "tra_fig08_11", outdir, title=title)


if __name__ == "__main__":
    mcbplot.main(make)
