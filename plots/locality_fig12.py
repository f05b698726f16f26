#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 12 ("Message Size 4096 bytes, Node
Scaling"): every alltoall algorithm of the paper against the system MPI at
4096 bytes per process, time against the number of nodes (2 to 32 in the
paper), pairwise inner exchanges solid, nonblocking dashed, 4 processes per
leader or group, the minimum of the runs.

Data: alltoall_nodes-*.csv from scripts/alltoall_nodes.sbatch (one launch
with mcb --nodes: the nodes column varies inside a file).
    /usr/bin/python3 plots/locality_fig12.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

NAME = "locality_fig12"
FIGURES = {NAME: "alltoall_nodes-*.csv (scripts/alltoall_nodes.sbatch)"}


def make(directory, outdir):
    locality_common.node_scaling(directory, outdir, NAME, 4096)


if __name__ == "__main__":
    mcbplot.main(make)
