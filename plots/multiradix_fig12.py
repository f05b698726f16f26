#!/usr/bin/env python3
"""allreduce-shared-memory-multiradix, Figure 12 (allreduce on 1 node with 4
Grace CPUs, 288 tasks, in-place operation): Figures 9-11's top panel with
MPI_IN_PLACE as the send buffer: time against message size (float sums) of
the system MPI (MPI_Allreduce, MPI_Allreduce_init), the shared-memory
recursive exchange, cyclic shift and tree through the persistent (solid)
and blocking (dashed) interfaces, and the point-to-point recursive
doubling, Rabenseifner and ring (dotted); the minimum of the runs. One panel
per task count found.

Data: allreduce_node_inplace-N1-n{P}-run*.csv from scripts/allreduce_node.sbatch.
    /usr/bin/python3 plots/multiradix_fig12.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import multiradix_common as mr

FIGURES = {"multiradix_fig12": "allreduce_node_inplace-*.csv (scripts/allreduce_node.sbatch)"}


def make(directory, outdir):
    df = mcbplot.load(directory, "allreduce_node_inplace-*.csv", "scripts/allreduce_node.sbatch")
    if not (df["in_place"] == 1).all():
        raise mcbplot.Skip("allreduce_node_inplace-*.csv holds rows not run in place (in_place 0)")
    parts = mr.one_per_ranks(mr.keep(df), "allreduce_node_inplace-*.csv")
    fig, axes = mcbplot.panels(len(parts), ncols=1, width=9, height=3.8)
    for ax, (P, rows) in zip(axes, sorted(parts.items())):
        mr.plot_series(ax, rows)
        mr.size_axes(ax)
        ax.set_title(f"{P} tasks, in place")
    mr.legend(axes[0])
    mcbplot.finish(fig, "multiradix_fig12", outdir, title=f"Allreduce on 1 node, in place (MPI_IN_PLACE); {mcbplot.describe(df)}")


if __name__ == "__main__":
    mcbplot.main(make)
