#!/usr/bin/env python3
"""allreduce-multi-process-per-gpu, Figure 9 (multi-lane GPU-aware
performance of 2^27 floats on Delta, varying node counts): the standard
MPI_Allreduce (ppg_standard) against the multi-lane allreduce (ppg_lane
with the system MPI's allreduce between nodes), one process per GPU, all
GPUs of every node, time of the node-scaling buffer against the node count
(1, 2, 4, ... nodes of one launch, mcb --nodes). Mean of the runs, error
bars from the fastest to the slowest run (the paper's run-to-run variation).

Data: allreduce_ppg_nodes-p1-*.csv from scripts/allreduce_ppg.sbatch.
    /usr/bin/python3 plots/ppg_fig09.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import ppg_common as ppg

FIGURES = {"ppg_fig09": "allreduce_ppg_nodes-p1-*.csv (scripts/allreduce_ppg.sbatch)"}


def make(directory, outdir):
    ppg.standard_vs_lane(directory, outdir, "ppg_fig09", "nodes")


if __name__ == "__main__":
    mcbplot.main(make)
