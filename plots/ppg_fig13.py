#!/usr/bin/env python3
"""allreduce-multi-process-per-gpu, Figure 13 (standard and multi-lane
algorithms with multiple processes per GPU of 2^27 floats on Delta, varying
node counts): the standard allreduce, the multi-lane one (system MPI
between nodes) and the multi-lane one with the ring between nodes, with 1
process per GPU (dashed, open markers) and the largest PPG of the files
(solid; 16 in the paper), time at the node-scaling buffer against the node
count. Mean of the runs, error bars from the fastest to the slowest run.

Data: allreduce_ppg_nodes-p{PPG}-*.csv (PPG 1 and another) from scripts/allreduce_ppg.sbatch.
    /usr/bin/python3 plots/ppg_fig13.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import ppg_common as ppg

FIGURES = {"ppg_fig13": "allreduce_ppg_nodes-p*-*.csv, 2 PPG or more (scripts/allreduce_ppg.sbatch)"}


def make(directory, outdir):
    ppg.one_vs_most(directory, outdir, "ppg_fig13", "nodes")


if __name__ == "__main__":
    mcbplot.main(make)
