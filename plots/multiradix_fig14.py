#!/usr/bin/env python3
"""allreduce-shared-memory-multiradix, Figure 14 (allreduce initialisation on
1 Grace socket, 72 tasks, and 1 node, 288 tasks): the setup cost of the
persistent allreduces (the init: shared segments, schedule; column setup_us,
max over ranks) against message size: the shared-memory recursive exchange,
cyclic shift and tree and the system MPI's MPI_Allreduce_init; the minimum
of the runs. One panel per task count found, the all-cores runs and the
largest-prime ones (the paper shows the all-cores counts of two runs).

Data: allreduce_node-N1-n{P}-run*.csv (and allreduce_node_prime-*.csv when
present) from scripts/batch/allreduce_node.sbatch.
    /usr/bin/python3 plots/multiradix_fig14.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
import pandas as pd

import multiradix_common as mr

FIGURES = {"multiradix_fig14": "allreduce_node{,_prime}-*.csv (scripts/batch/allreduce_node.sbatch)"}
SCRIPT = "scripts/batch/allreduce_node.sbatch"


def persistent(df):
    return df[(df["algorithm"] == "system_persistent") |
              (df["algorithm"].isin(mr.SHM) & (df["params"].map(lambda p: mcbplot.param(p, "interface")) == "persistent"))]


def make(directory, outdir):
    frames = [mcbplot.load(directory, "allreduce_node-*.csv", SCRIPT)]
    try:
        frames.append(mcbplot.load(directory, "allreduce_node_prime-*.csv", SCRIPT))
    except mcbplot.Skip:
        pass
    df = pd.concat(frames, ignore_index=True)
    if "setup_us" not in df.columns:
        raise mcbplot.Skip("allreduce_node-*.csv has no setup_us column (written by an older mcb)")
    parts = mr.one_per_ranks(persistent(df.dropna(subset=["setup_us"])), "allreduce_node-*.csv (persistent, with setup_us)")
    fig, axes = mcbplot.panels(len(parts), ncols=min(len(parts), 2), width=6.5, height=4)
    for ax, (P, rows) in zip(axes, sorted(parts.items(), reverse=True)):
        mr.plot_series(ax, rows, stat="setup_us")
        mr.size_axes(ax, "setup time (us)")
        prime = rows["file"].str.startswith("allreduce_node_prime").all()
        ax.set_title(f"{P} tasks ({'largest prime' if prime else 'all cores'})")
    axes[0].legend()
    mcbplot.finish(fig, "multiradix_fig14", outdir, title=f"Allreduce initialisation on 1 node; {mcbplot.describe(df)}")


if __name__ == "__main__":
    mcbplot.main(make)
