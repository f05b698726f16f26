#!/usr/bin/env python3
"""allreduce-multi-process-per-gpu, Figure 11 (the multi-lane all-reduce with
multiple processes per GPU on Delta): the multi-lane allreduce (ppg_lane,
the system MPI's allreduce between nodes) with PPG 1, 2, 4, 8, 16, one line
per PPG, time against the node count at the node-scaling buffer (2^27
floats in the paper), as Figure 10 (the paper's 1.39x is read at 8 nodes).
Mean of the runs, error bars from the fastest to the slowest run.

Data: allreduce_ppg_nodes-p{PPG}-*.csv (at least two PPG) from scripts/allreduce_ppg.sbatch.
    /usr/bin/python3 plots/ppg_fig11.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import ppg_common as ppg

FIGURES = {"ppg_fig11": "allreduce_ppg_nodes-p*-*.csv, 2 PPG or more (scripts/allreduce_ppg.sbatch)"}


def make(directory, outdir):
    ppg.by_ppg(directory, outdir, "ppg_fig11", "nodes", "ppg_lane", "system")


if __name__ == "__main__":
    mcbplot.main(make)
