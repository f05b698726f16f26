#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 16 ("Dane, 1024 Integers, 32 Nodes,
Various Processes per Leader, Locality Aware Timing Breakdown"): the time of
each phase of the locality-aware alltoall with a pairwise inner exchange
(inter-node, repack, intra-node) as stacked bars against the processes per
group (1, 2, 4, 8, 16; a group of all the ranks of a node is node-aware), at
4096 bytes (1024 ints) per process on the largest node count; a black tick
marks the whole operation's time. Phases timed alone (isolated), the run with
the smallest total (see locality_common.py).

Data: breakdown_groups-*.csv from scripts/alltoall_breakdown.sbatch.
    /usr/bin/python3 plots/locality_fig16.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
from locality_common import pairwise_at, phase_bars

NAME = "locality_fig16"
FIGURES = {NAME: "breakdown_groups-*.csv (scripts/alltoall_breakdown.sbatch)"}
SIZE = 4096


def make(directory, outdir):
    df = pairwise_at(directory, "groups", SIZE)
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes].copy()
    df["ppg"] = df["params"].map(lambda p: int(mcbplot.param(p, "procs-per-group") or 0))
    if df["ppg"].nunique() < 2:
        raise mcbplot.Skip("breakdown_groups-*.csv has one group size: the figure compares several")
    ppn = df["ranks_per_node"].iloc[0]
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=4.2)
    phase_bars(ax, df, "ppg", ticks=lambda k: f"{k}\n(node-aware)" if k == ppn else str(k))
    ax.set_xlabel("processes per group")
    ax.set_title(f"Locality-aware (pairwise) timing breakdown, {mcbplot.size_label(SIZE)}, {nodes} nodes x "
                 f"{ppn} ranks;\n{mcbplot.describe(df)}")
    mcbplot.finish(fig, NAME, outdir)


if __name__ == "__main__":
    mcbplot.main(make)
