#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 8 ("Node-Aware vs Locality-Aware"): the
node-aware alltoall (one group per node) against locality-aware aggregation
(Algorithm 4) with 4, 8 and 16 processes per group, and the system MPI as
the reference, time against bytes per process (4 B to 4 KiB) on the largest
node count, pairwise inner exchanges solid, nonblocking dashed, the minimum
of the runs.

Data: alltoall_leaders-*.csv from scripts/alltoall_leaders.sbatch.
    /usr/bin/python3 plots/locality_fig08.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

NAME = "locality_fig08"
FIGURES = {NAME: "alltoall_leaders-*.csv (scripts/alltoall_leaders.sbatch)"}
# The reference, the one-group algorithm, and the algorithm whose groups vary.
ALGORITHMS = ["system", "node_aware", "locality_aware"]


def make(directory, outdir):
    locality_common.by_leaders(directory, outdir, NAME, "Node-aware vs locality-aware", ALGORITHMS, "procs-per-group", "procs/group")


if __name__ == "__main__":
    mcbplot.main(make)
