#!/usr/bin/env python3
"""alltoall-tunable-radix-tra, Figure 12 (Polaris, weak scaling): TRA
(r = ceil(sqrt(P)), blue), TRA2 (r1 = ceil(sqrt(Q)), r2 = N, green) and the
system MPI_Alltoall (pink) against the process count P, one panel per block
size S; mean over the iterations with the standard deviation as error bars.
The same data as Figure 10 (tra_fig10.py, whose loading and style it uses).

Data: tra_compare-*.csv from scripts/tra_compare.sbatch (mcb --nodes: P
varies within a file).
    /usr/bin/python3 plots/tra_fig12.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import tra_fig10

FIGURES = {"tra_fig12": "tra_compare-*.csv (scripts/tra_compare.sbatch)"}


def make(directory, outdir):
    raw, df = tra_fig10.load(directory)
    if df["ranks"].nunique() < 2:
        raise mcbplot.Skip("tra_compare-*.csv has one process count: Figure 12 needs several (mcb --nodes)")
    sizes = sorted(df["size_bytes"].unique())
    fig, axes = mcbplot.panels(len(sizes), ncols=min(len(sizes), 3), width=3.8, height=3.0)
    for ax, size in zip(axes, sizes):
        for algorithm in tra_fig10.ALGORITHMS:
            s = df[(df["algorithm"] == algorithm) & (df["size_bytes"] == size)]
            if not s.empty:
                tra_fig10.plot(ax, s, "ranks", algorithm)
        tra_fig10.axes_style(ax, "ranks", df["ranks"].unique())
        ax.set_title(f"S = {mcbplot.size_label(size)}")
    axes[0].legend()
    q = raw["ranks_per_node"].iloc[0]
    mcbplot.finish(fig, "tra_fig12", outdir,
                   title=f"TRA, TRA2 and MPI_Alltoall against P ({q} ranks per node); {mcbplot.describe(raw)}")


if __name__ == "__main__":
    mcbplot.main(make)
