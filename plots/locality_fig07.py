#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 7 ("Hierarchical vs Multileader"): the
hierarchical alltoall (one leader per node) against multi-leader (Algorithm
3) with 4, 8 and 16 processes per leader, and the system MPI as the
reference, time against bytes per process (4 B to 4 KiB) on the largest
node count, pairwise inner exchanges solid, nonblocking dashed, the minimum
of the runs.

Data: alltoall_leaders-*.csv from scripts/alltoall_leaders.sbatch.
    /usr/bin/python3 plots/locality_fig07.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

NAME = "locality_fig07"
FIGURES = {NAME: "alltoall_leaders-*.csv (scripts/alltoall_leaders.sbatch)"}
# The reference, the one-leader algorithm, and the algorithm whose leaders vary.
ALGORITHMS = ["system", "hierarchical", "multileader"]


def make(directory, outdir):
    locality_common.by_leaders(directory, outdir, NAME, "Hierarchical vs multi-leader", ALGORITHMS, "procs-per-leader", "procs/leader")


if __name__ == "__main__":
    mcbplot.main(make)
