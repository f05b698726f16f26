#!/usr/bin/env python3
"""allreduce-multi-process-per-gpu, Figure 8 (multi-lane GPU-aware
performance on 8 nodes of Delta, varying buffer sizes): the standard
MPI_Allreduce (ppg_standard) against the multi-lane allreduce (ppg_lane
with the system MPI's allreduce between nodes), one process per GPU, all
GPUs of every node, time against the buffer size in floats, on all the
nodes of the run. Mean of the runs, error bars from the fastest to the
slowest run (the paper's run-to-run variation, 10 runs).

Data: allreduce_ppg_sizes-p1-*.csv from scripts/allreduce_ppg.sbatch.
    /usr/bin/python3 plots/ppg_fig08.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import ppg_common as ppg

FIGURES = {"ppg_fig08": "allreduce_ppg_sizes-p1-*.csv (scripts/allreduce_ppg.sbatch)"}


def make(directory, outdir):
    ppg.standard_vs_lane(directory, outdir, "ppg_fig08", "sizes")


if __name__ == "__main__":
    mcbplot.main(make)
