#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 9 ("Multileader + Locality"): the
multi-leader node-aware alltoall (Algorithm 5) with 4, 8 and 16 processes
per leader, and the system MPI as the reference, time against bytes per
process (4 B to 4 KiB) on the largest node count, pairwise inner exchanges
solid, nonblocking dashed, the minimum of the runs.

Data: alltoall_leaders-*.csv from scripts/alltoall_leaders.sbatch.
    /usr/bin/python3 plots/locality_fig09.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

NAME = "locality_fig09"
FIGURES = {NAME: "alltoall_leaders-*.csv (scripts/alltoall_leaders.sbatch)"}
# The reference and the algorithm whose leaders vary, as in the paper (with one
# leader per node it is hierarchical, with every rank a leader node-aware).
ALGORITHMS = ["system", "multileader_node_aware"]


def make(directory, outdir):
    locality_common.by_leaders(directory, outdir, NAME, "Multi-leader + node-aware", ALGORITHMS, "procs-per-leader", "procs/leader")


if __name__ == "__main__":
    mcbplot.main(make)
