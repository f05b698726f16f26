#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 15 ("Dane, 1024 Integer Message Size, 2
to 32 nodes, Pairwise Node Aware"): the time of each phase of the node-aware
alltoall with a pairwise inner exchange (inter-node, repack, intra-node) as
stacked bars against the number of nodes, at 4096 bytes (1024 ints) per
process; a black tick marks the whole operation's time. Phases timed alone
(isolated), the run with the smallest total (see locality_common.py).

Data: breakdown_nodes-*.csv from scripts/alltoall_breakdown.sbatch (one
launch with mcb --nodes: the nodes column varies inside a file).
    /usr/bin/python3 plots/locality_fig15.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
from locality_common import pairwise_at, phase_bars

NAME = "locality_fig15"
FIGURES = {NAME: "breakdown_nodes-*.csv (scripts/alltoall_breakdown.sbatch)"}
SIZE = 4096


def make(directory, outdir):
    df = pairwise_at(directory, "nodes", SIZE)
    if df["nodes"].nunique() < 2:
        raise mcbplot.Skip(f"breakdown_nodes-*.csv has one node count ({df['nodes'].iloc[0]}): "
                           "node scaling needs several")
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=4.2)
    phase_bars(ax, df, "nodes", ticks=str)
    ax.set_xlabel("nodes")
    nodes = sorted(df["nodes"].unique())
    ax.set_title(f"Node-aware (pairwise) timing breakdown, {mcbplot.size_label(SIZE)}, {nodes[0]} to {nodes[-1]} "
                 f"nodes x {df['ranks_per_node'].iloc[0]} ranks;\n{mcbplot.describe(df)}")
    mcbplot.finish(fig, NAME, outdir)


if __name__ == "__main__":
    mcbplot.main(make)
