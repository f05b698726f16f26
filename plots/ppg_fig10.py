#!/usr/bin/env python3
"""allreduce-multi-process-per-gpu, Figure 10 (a standard MPI_Allreduce with
multiple processes per GPU on Delta): the standard allreduce (ppg_standard:
each of a GPU's PPG processes allreduces its slice of the buffer) with PPG
1, 2, 4, 8, 16, one line per PPG, time against the node count at the
node-scaling buffer (2^27 floats in the paper). Against node count because
the paper's text reads this figure that way (speedups growing with the node
count, over 1.7x at 32 nodes); Figure 12 gives the sizes. Mean of the runs,
error bars from the fastest to the slowest run.

Data: allreduce_ppg_nodes-p{PPG}-*.csv (at least two PPG) from scripts/allreduce_ppg.sbatch.
    /usr/bin/python3 plots/ppg_fig10.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import ppg_common as ppg

FIGURES = {"ppg_fig10": "allreduce_ppg_nodes-p*-*.csv, 2 PPG or more (scripts/allreduce_ppg.sbatch)"}


def make(directory, outdir):
    ppg.by_ppg(directory, outdir, "ppg_fig10", "nodes", "ppg_standard")


if __name__ == "__main__":
    mcbplot.main(make)
