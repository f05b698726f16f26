#!/usr/bin/env python3
"""allreduce-shared-memory-multiradix, Figures 9, 10 and 11 (allreduce on one
node: 2 AMD EPYC CPUs, 128 and 127 tasks; one Grace CPU, 72 and 71; 4 Grace
CPUs, 288 and 283): time against message size (float sums), top on all the
tasks, bottom on the largest prime task count that fits (the paper's best
and worst cases). Series: the system MPI (MPI_Allreduce, and
MPI_Allreduce_init as system_persistent), the shared-memory recursive
exchange, cyclic shift and tree through the persistent (solid) and blocking
(dashed) interfaces, and the point-to-point recursive doubling, Rabenseifner
and ring (dotted); the minimum of the runs. One figure per all-tasks count
found: multiradix_fig09_11-n{P} (the same experiment on the three CPU shapes
is three sbatch runs).

Data: allreduce_node-N1-n{P}-run*.csv and allreduce_node_prime-N1-n{P'}-run*.csv
from scripts/batch/allreduce_node.sbatch (no prime file: the top panel alone).
    /usr/bin/python3 plots/multiradix_fig09_11.py RESULTS_DIR [-o OUTDIR]
"""
import sys

import mcbplot
import multiradix_common as mr

FIGURES = {"multiradix_fig09_11": "allreduce_node{,_prime}-*.csv (scripts/batch/allreduce_node.sbatch); "
                                  "one figure multiradix_fig09_11-n{P} per task count"}
SCRIPT = "scripts/batch/allreduce_node.sbatch"


def make(directory, outdir):
    full = mr.one_per_ranks(mr.keep(mcbplot.load(directory, "allreduce_node-*.csv", SCRIPT)), "allreduce_node-*.csv")
    try:
        prime = mr.one_per_ranks(mr.keep(mcbplot.load(directory, "allreduce_node_prime-*.csv", SCRIPT)), "prime files")
    except mcbplot.Skip:
        prime = {}
    for P, df in sorted(full.items()):
        p = mr.largest_prime(P)  # as scripts/batch/batch.sh's largest_prime
        parts = [(df, f"{P} tasks (all cores)")]
        if p in prime:
            parts.append((prime[p], f"{p} tasks (largest prime)"))
        else:
            print(f"warning: no allreduce_node_prime-N1-n{p}-*.csv: figure n{P} without its bottom panel", file=sys.stderr)
        fig, axes = mcbplot.panels(len(parts), ncols=1, width=9, height=3.6)
        for ax, (rows, title) in zip(axes, parts):
            mr.plot_series(ax, rows)
            mr.size_axes(ax)
            ax.set_title(title)
        mr.legend(axes[0])
        tasks = " and ".join(t.split(" (")[0] for _, t in parts)
        mcbplot.finish(fig, f"multiradix_fig09_11-n{P}", outdir,
                       title=f"Allreduce on 1 node, {tasks}; {mcbplot.describe(df)}")


if __name__ == "__main__":
    mcbplot.main(make)
