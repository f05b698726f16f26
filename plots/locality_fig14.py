#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 14 ("Dane, various sizes, 32 nodes,
Node Aware Timing Breakdown"): the time of each phase of the node-aware
alltoall (inter-node alltoall on the lane, repack, intra-node alltoall) as
stacked bars against bytes per process (4 B to 4 KiB), one panel per inner
exchange (pairwise, nonblocking), on the largest node count; a black tick
marks the whole operation's time. Phases timed inside the run, the run with
the smallest total (see locality_fig13.py).

Data: breakdown_node_aware-*.csv from scripts/alltoall_breakdown.sbatch.
    /usr/bin/python3 plots/locality_fig14.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
from locality_fig13 import breakdown, phase_bars

NAME = "locality_fig14"
FIGURES = {NAME: "breakdown_node_aware-*.csv (scripts/alltoall_breakdown.sbatch)"}


def make(directory, outdir):
    df = breakdown(directory, "node_aware", ["params", "size_bytes", "nodes"])
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    inners = sorted(df["params"].unique(), key=mcbplot.inner_style)  # pairwise first
    fig, axes = mcbplot.panels(len(inners), ncols=2, width=4.6, height=4, sharey=True)
    for i, (ax, params) in enumerate(zip(axes, inners)):
        phase_bars(ax, df[df["params"] == params], "size_bytes", legend=i == len(inners) - 1)
        ax.set_xlabel("bytes per process")
        ax.set_ylabel(ax.get_ylabel() if i == 0 else "")
        ax.set_title(f"{mcbplot.param(params, 'inner') or params} inner alltoall")
    mcbplot.finish(fig, NAME, outdir, title=f"Node-aware timing breakdown, {nodes} nodes x "
                   f"{df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")


if __name__ == "__main__":
    mcbplot.main(make)
