#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 13 ("Dane, various sizes, 32 nodes,
Hierarchical Timing Breakdown"): the time of each phase of the hierarchical
alltoall (gather, repack, inter-node alltoall among the leaders, scatter) as
stacked bars against bytes per process (4 B to 4 KiB), one panel per inner
exchange (pairwise, nonblocking), on the largest node count; a black tick
marks the whole operation's time. Each phase timed alone between barriers
(phase_mode "isolated", PHASE_MODE below, as the paper measured: the total
is the sum of the phases); each bar is the run with the smallest total (the
paper plots the minimum of its runs). In the "embedded" mode each phase is
its own maximum over ranks inside the run, so a stack can rise above the
total.

Data: breakdown_hierarchical-*.csv from scripts/alltoall_breakdown.sbatch.
    /usr/bin/python3 plots/locality_fig13.py RESULTS_DIR [-o OUTDIR]
Figures 14 to 16 (locality_fig14.py ...) use breakdown() and phase_bars().
"""
import numpy as np

import mcbplot

NAME = "locality_fig13"
FIGURES = {NAME: "breakdown_hierarchical-*.csv (scripts/alltoall_breakdown.sbatch)"}
PHASE_MODE = "isolated"
# The phases in the order they run, with one colour each across Figures 13 to 16.
PHASES = {"gather": "tab:blue", "repack": "tab:gray", "inter_node": "tab:orange", "intra_node": "tab:green",
          "scatter": "tab:red", "alltoall": "tab:purple"}


def breakdown(directory, kind, keys):
    """Every phase of breakdown_{kind}-*.csv in PHASE_MODE, for each combination
    of `keys` only the run (file) whose total is the smallest."""
    df = mcbplot.load(directory, f"breakdown_{kind}-*.csv", "scripts/alltoall_breakdown.sbatch", phase=None)
    df = df[df["phase_mode"] == PHASE_MODE]
    if df.empty:
        raise mcbplot.Skip(f"breakdown_{kind}-*.csv has no {PHASE_MODE} phase rows")
    total = df[df["phase"] == "total"]
    best = total.loc[total.groupby(keys)["avg_us"].idxmin(), keys + ["file"]]
    return df.merge(best, on=keys + ["file"])


def phase_bars(ax, d, x, ticks=mcbplot.size_label, legend=True):
    """Stacked bars of d's phases against the column x (tick labels ticks(x)),
    a black tick at the total; `legend`: on the right, the phases top down."""
    table = d.pivot_table(index=x, columns="phase", values="avg_us", aggfunc="min").sort_index()
    phases = [p for p in PHASES if p in table] + sorted(set(table) - set(PHASES) - {"total"})
    pos, bottom = np.arange(len(table)), np.zeros(len(table))
    for i, p in enumerate(phases):
        h = table[p].fillna(0).to_numpy()
        ax.bar(pos, h, 0.7, bottom=bottom, color=PHASES.get(p, mcbplot.PALETTE[i]), label=p.replace("_", "-"))
        bottom += h
    ax.plot(pos, table["total"], "k_", ms=22, mew=2, label="total (whole alltoall)")
    ax.set_xticks(pos, [ticks(v) for v in table.index])
    ax.set_ylabel(f"time (us), {PHASE_MODE} phases")
    ax.grid(axis="x", visible=False)
    if legend:
        handles, labels = ax.get_legend_handles_labels()  # the total first, then the phases bottom up
        ax.legend(handles[:0:-1] + handles[:1], labels[:0:-1] + labels[:1], loc="upper left",
                  bbox_to_anchor=(1.01, 1))


def make(directory, outdir):
    df = breakdown(directory, "hierarchical", ["params", "size_bytes", "nodes"])
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    inners = sorted(df["params"].unique(), key=mcbplot.inner_style)  # pairwise first
    fig, axes = mcbplot.panels(len(inners), ncols=2, width=4.6, height=4, sharey=True)
    for i, (ax, params) in enumerate(zip(axes, inners)):
        phase_bars(ax, df[df["params"] == params], "size_bytes", legend=i == len(inners) - 1)
        ax.set_xlabel("bytes per process")
        ax.set_ylabel(ax.get_ylabel() if i == 0 else "")
        ax.set_title(f"{mcbplot.param(params, 'inner') or params} inner alltoall")
    mcbplot.finish(fig, NAME, outdir, title=f"Hierarchical timing breakdown, {nodes} nodes x "
                   f"{df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")


if __name__ == "__main__":
    mcbplot.main(make)
