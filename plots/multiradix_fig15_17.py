#!/usr/bin/env python3
"""allreduce-shared-memory-multiradix, Figures 15, 16 and 17 (reduce, top,
and bcast, bottom, on 1 node: 2 AMD EPYC CPUs, 128 tasks; 4 Grace CPUs,
288 tasks; one Grace CPU, 72 tasks): time against message size of the
system MPI's MPI_Reduce (float sums to rank 0) and MPI_Bcast (from rank 0)
and the shared-memory tree through the persistent (solid) and blocking
(dashed) interfaces; the minimum of the runs. One figure per task count
found: multiradix_fig15_17-n{P} (the three figures are three sbatch runs).

Data: reduce-N1-n{P}-run*.csv and bcast-N1-n{P}-run*.csv from scripts/batch/reduce_bcast.sbatch.
    /usr/bin/python3 plots/multiradix_fig15_17.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import multiradix_common as mr

FIGURES = {"multiradix_fig15_17": "reduce-*.csv, bcast-*.csv (scripts/batch/reduce_bcast.sbatch); "
                                  "one figure multiradix_fig15_17-n{P} per task count"}
SCRIPT = "scripts/batch/reduce_bcast.sbatch"
ALGORITHMS = ["system", "system_persistent", "shm_tree"]


def make(directory, outdir):
    data = {c: mr.one_per_ranks(mr.keep(mcbplot.load(directory, f"{c}-N1-*.csv", SCRIPT), ALGORITHMS), f"{c}-N1-*.csv")
            for c in ("reduce", "bcast")}
    common = sorted(set(data["reduce"]) & set(data["bcast"]))
    if not common:
        raise mcbplot.Skip(f"no task count with both reduce and bcast files (reduce: {sorted(data['reduce'])}, "
                           f"bcast: {sorted(data['bcast'])})")
    for P in common:
        fig, axes = mcbplot.panels(2, ncols=1, width=8, height=3.6)
        for ax, c in zip(axes, ("reduce", "bcast")):
            mr.plot_series(ax, data[c][P])
            mr.size_axes(ax)
            ax.set_title(f"{'Reduce' if c == 'reduce' else 'Bcast'}, {P} tasks")
        mr.legend(axes[0])
        mcbplot.finish(fig, f"multiradix_fig15_17-n{P}", outdir,
                       title=f"Reduce (top) and bcast (bottom) on 1 node; {mcbplot.describe(data['reduce'][P])}")


if __name__ == "__main__":
    mcbplot.main(make)
