#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 14 ("Dane, various sizes, 32 nodes,
Node Aware Timing Breakdown"): the time of each phase of the node-aware
alltoall (inter-node alltoall on the lane, repack, intra-node alltoall) as
stacked bars against bytes per process (4 B to 4 KiB), one panel per inner
exchange (pairwise, nonblocking), on the largest node count; a black tick
marks the whole operation's time. Phases timed alone (isolated), the run with
the smallest total (see locality_common.py).

Data: breakdown_node_aware-*.csv from scripts/alltoall_breakdown.sbatch.
    /usr/bin/python3 plots/locality_fig14.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

NAME = "locality_fig14"
FIGURES = {NAME: "breakdown_node_aware-*.csv (scripts/alltoall_breakdown.sbatch)"}


def make(directory, outdir):
    locality_common.breakdown_by_inner(directory, outdir, NAME, "node_aware", "Node-aware timing breakdown")


if __name__ == "__main__":
    mcbplot.main(make)
