#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 13 ("Dane, various sizes, 32 nodes,
Hierarchical Timing Breakdown"): the time of each phase of the hierarchical
alltoall (gather, repack, inter-node alltoall among the leaders, scatter) as
stacked bars against bytes per process (4 B to 4 KiB), one panel per inner
exchange (pairwise, nonblocking), on the largest node count; a black tick
marks the whole operation's time. Each phase timed alone between barriers
(phase_mode "isolated", as the paper measured; locality_common.PHASE_MODE);
each bar is the run with the smallest total (the paper plots the minimum of
its runs).

Data: breakdown_hierarchical-*.csv from scripts/alltoall_breakdown.sbatch.
    /usr/bin/python3 plots/locality_fig13.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

NAME = "locality_fig13"
FIGURES = {NAME: "breakdown_hierarchical-*.csv (scripts/alltoall_breakdown.sbatch)"}


def make(directory, outdir):
    locality_common.breakdown_by_inner(directory, outdir, NAME, "hierarchical", "Hierarchical timing breakdown")


if __name__ == "__main__":
    mcbplot.main(make)
