#!/usr/bin/env python3
"""allreduce-shared-memory-multiradix, Figure 13 (allreduce on 4 nodes: 128
tasks per node on AMD EPYC, top; 288 on Grace, bottom): time against
message size (float sums) of the system MPI (MPI_Allreduce, and
MPI_Allreduce_init, which the paper's HPE MPI lacked), the shared-memory
recursive exchange, cyclic shift and tree (persistent interface) with the
system MPI's allreduce between the nodes (solid) or mcb's recursive
exchange (dashed; the paper's latency-optimal inter-node part), and the
point-to-point recursive doubling, Rabenseifner and ring over all the ranks
(dotted); the minimum of the runs. One panel per (nodes, tasks per node)
found: one sbatch run per machine.

Data: allreduce_nodes-N{nodes}-n{ranks}-run*.csv from scripts/allreduce_nodes.sbatch.
    /usr/bin/python3 plots/multiradix_fig13.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import multiradix_common as mr

FIGURES = {"multiradix_fig13": "allreduce_nodes-*.csv (scripts/allreduce_nodes.sbatch)"}


def make(directory, outdir):
    df = mr.keep(mcbplot.load(directory, "allreduce_nodes-*.csv", "scripts/allreduce_nodes.sbatch"))
    df = df[df["nodes"] > 1]
    if df.empty:
        raise mcbplot.Skip("allreduce_nodes-*.csv: no run of the paper's algorithms on several nodes")
    parts = sorted(df.groupby(["nodes", "ranks_per_node"]))
    fig, axes = mcbplot.panels(len(parts), ncols=1, width=11.5, height=4)
    for ax, ((nodes, ppn), rows) in zip(axes, parts):
        mr.plot_series(ax, rows, inner=True, dashed_inner="recursive_exchange")
        mr.size_axes(ax)
        ax.set_title(f"{nodes} nodes x {ppn} tasks per node")
    mr.legend(axes[0])
    mcbplot.finish(fig, "multiradix_fig13", outdir, title=f"Allreduce on several nodes; {mcbplot.describe(df)}")


if __name__ == "__main__":
    mcbplot.main(make)
