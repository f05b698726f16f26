#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 10 ("Various Sizes, 32 Nodes"): every
alltoall algorithm against the system MPI, time against bytes per process
(4 B to 4 KiB), pairwise inner exchanges solid, nonblocking dashed, 4
processes per leader or group, the minimum of the runs.

Data: alltoall_sizes-*.csv from scripts/alltoall_sizes.sbatch.
    /usr/bin/python3 plots/locality_fig10.py RESULTS_DIR [-o OUTDIR]
"""
import locality_common
import mcbplot

FIGURES = {"locality_fig10": "alltoall_sizes-*.csv (scripts/alltoall_sizes.sbatch)"}
ALGORITHMS = locality_common.PAPER  # the system MPI and Algorithms 3-5


def make(directory, outdir):
    df = mcbplot.load(directory, "alltoall_sizes-*.csv", "scripts/alltoall_sizes.sbatch")
    df = df[df["algorithm"].isin(ALGORITHMS)]
    if df.empty:
        raise mcbplot.Skip("alltoall_sizes-*.csv holds none of the paper's algorithms")
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    best = mcbplot.best_of_runs(df, ["algorithm", "params", "size_bytes"])
    fig, (ax,) = mcbplot.panels(1, width=6, height=4.5)
    for (algorithm, params), s in sorted(best.groupby(["algorithm", "params"]),
                                         key=lambda kv: ALGORITHMS.index(kv[0][0])):
        ax.plot(s["size_bytes"], s["avg_us"], mcbplot.inner_style(params), marker="o",
                color=mcbplot.color(algorithm), label=mcbplot.label(algorithm, params))
    mcbplot.log2_axis(ax, "x", "bytes per process", sizes=True)
    mcbplot.time_axis(ax)
    ax.legend(ncol=2)
    r = df.iloc[0]
    ax.set_title(f"Various sizes, {nodes} nodes x {r['ranks_per_node']} ranks; {mcbplot.describe(df)}")
    mcbplot.finish(fig, "locality_fig10", outdir)


if __name__ == "__main__":
    mcbplot.main(make)
