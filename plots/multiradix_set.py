#!/usr/bin/env python3
"""Issue 71's collectives on one node (not a paper figure: the multi-radix
paper's library, ext_mpi, runs them; the paper plots none): time against
size of every algorithm of reduce_scatter_block, reduce_scatter, allgather,
allgatherv, gather, gatherv, scatter and scatterv, one panel per
collective: the system MPI's call and persistent form, the classic
schedules and the shared-memory forms; the minimum of the runs. The
reduce-scatters' size is the vector, the others' one rank's block. One
figure per task count found: multiradix_set-n{P}.

Data: multiradix_set-{collective}-N1-n{P}-run*.csv from scripts/batch/multiradix_set.sbatch.
    /usr/bin/python3 plots/multiradix_set.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot

FIGURES = {"multiradix_set": "multiradix_set-*.csv (scripts/batch/multiradix_set.sbatch); "
                             "one figure multiradix_set-n{P} per task count"}
SCRIPT = "scripts/batch/multiradix_set.sbatch"
COLLECTIVES = ["reduce_scatter_block", "reduce_scatter", "allgather", "allgatherv", "gather", "gatherv", "scatter",
               "scatterv"]
VECTOR = ("reduce_scatter_block", "reduce_scatter")


def series(ax, df):
    """One line per algorithm, the minimum of the runs; the legend names the
    parameters of its largest size (a reduce-scatter of no elements has none)."""
    best = mcbplot.best_of_runs(df, ["algorithm", "size_bytes"])
    names = sorted(best["algorithm"].unique(), key=lambda a: (not a.startswith("system"), a))
    for i, algorithm in enumerate(names):
        s = best[best["algorithm"] == algorithm].sort_values("size_bytes")
        mine = df[df["algorithm"] == algorithm]
        params = str(mine.loc[mine["size_bytes"].idxmax(), "params"])
        shown = mcbplot.NAMES.get(algorithm, algorithm)
        ax.plot(s["size_bytes"], s["avg_us"], "-" if algorithm.startswith(("system", "shm")) else "--",
                marker=mcbplot.MARKERS[i % len(mcbplot.MARKERS)], color=mcbplot.color(algorithm, i),
                label=shown if params in ("none", "") else f"{shown} ({params.replace(';', ', ')})")


def make(directory, outdir):
    df = mcbplot.load(directory, "multiradix_set-*-N1-*.csv", SCRIPT)
    df = df[df["collective"].isin(COLLECTIVES)]
    if df.empty:
        raise mcbplot.Skip(f"multiradix_set-*.csv in {directory}: no rows of {', '.join(COLLECTIVES)}")
    for P in sorted(df["ranks"].unique()):
        mine = df[df["ranks"] == P]
        colls = [c for c in COLLECTIVES if c in set(mine["collective"])]
        fig, axes = mcbplot.panels(len(colls), ncols=min(len(colls), 4), width=4.4, height=3.4)
        for ax, c in zip(axes, colls):
            series(ax, mine[mine["collective"] == c])
            mcbplot.log2_axis(ax, "x", "vector (bytes)" if c in VECTOR else "block per rank (bytes)", sizes=True)
            mcbplot.time_axis(ax)
            ax.set_title(c)
            ax.legend(fontsize=6)
        mcbplot.finish(fig, f"multiradix_set-n{P}", outdir,
                       title=f"Issue 71's collectives on 1 node, {P} tasks; {mcbplot.describe(mine)}")


if __name__ == "__main__":
    mcbplot.main(make)
