#!/usr/bin/env python3
"""alltoall-tunable-radix-tra, Figure 10 (Theta): TRA (r = ceil(sqrt(P)),
blue), TRA2 (r1 = ceil(sqrt(Q)), r2 = N, green) and the system MPI_Alltoall
(pink, as in the paper) against the block size S, one panel per process
count P; mean over the iterations with the standard deviation as error bars.

Data: tra_compare-*.csv from scripts/batch/tra_compare.sbatch (one launch with
mcb --nodes: `nodes` and `ranks` vary within a file); several runs of a
point: the mean of their values.
    /usr/bin/python3 plots/tra_fig10.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
from matplotlib.ticker import FuncFormatter


FIGURES = {"tra_fig10": "tra_compare-*.csv (scripts/batch/tra_compare.sbatch)"}
ALGORITHMS = ["system", "tra", "tra2"]
COLORS = {"system": "tab:pink", "tra": "tab:blue", "tra2": "tab:green"}  # the paper's


def load(directory):
    """tra_compare's rows of the three algorithms, and their mean and stddev
    per (algorithm, params, ranks, size); shared with Figure 12 (by_ranks)."""
    df = mcbplot.load(directory, "tra_compare-*.csv", "scripts/batch/tra_compare.sbatch")
    df = df[df["algorithm"].isin(ALGORITHMS)]
    if df.empty or df["algorithm"].nunique() < 2:
        raise mcbplot.Skip("tra_compare-*.csv lacks system, tra or tra2 rows")
    keys = ["algorithm", "params", "ranks", "size_bytes"]
    return df, df.groupby(keys, as_index=False)[["avg_us", "stddev_us"]].mean()


def radix_text(algorithm, params):
    """ "TRA r=8", "TRA2 r1=3, r2=8" from the params column."""
    short = params.replace("radix-intra", "r1").replace("radix-inter", "r2").replace("radix", "r")
    return f"{mcbplot.NAMES[algorithm]} {short.replace(';', ', ')}"


def axes_style(ax, x, values):
    """Log2 x axis ticked at the measured `values` (at most 6 ticks), log time
    axis in plain numbers."""
    sizes = x == "size_bytes"
    mcbplot.log2_axis(ax, "x", "block size S" if sizes else "processes P", sizes=sizes)
    values = sorted(values)
    ax.set_xticks(values[::(len(values) + 5) // 6])
    if not sizes:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    mcbplot.time_axis(ax)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))

    def minor(v, _):  # 2 and 5 between the powers of ten, on a narrow axis only
        lo, hi = ax.get_ylim()
        return f"{v:g}" if hi < 30 * lo and f"{v:.0e}"[0] in "25" else ""
    ax.yaxis.set_minor_formatter(FuncFormatter(minor))


def plot(ax, s, x, algorithm):
    """One series: mean with stddev error bars (none from a single iteration)."""
    s = s.sort_values(x)
    ax.plot(s[x], s["avg_us"], marker="o", color=COLORS[algorithm], label=mcbplot.NAMES[algorithm])
    if s["stddev_us"].fillna(0).gt(0).any():
        ax.errorbar(s[x], s["avg_us"], yerr=s["stddev_us"].fillna(0), fmt="none", capsize=2, ecolor=COLORS[algorithm])


def make(directory, outdir):
    raw, df = load(directory)
    counts = sorted(df["ranks"].unique())
    fig, axes = mcbplot.panels(len(counts), ncols=min(len(counts), 3), width=3.8, height=3.2)
    for ax, p in zip(axes, counts):
        radices = []
        for algorithm in ALGORITHMS:
            s = df[(df["algorithm"] == algorithm) & (df["ranks"] == p)]
            if not s.empty:
                plot(ax, s, "size_bytes", algorithm)
                if algorithm != "system":
                    radices.append(radix_text(algorithm, s["params"].iloc[0]))
        axes_style(ax, "size_bytes", df["size_bytes"].unique())
        nodes = raw[raw["ranks"] == p]["nodes"].iloc[0]
        ax.set_title(f"P = {p} ({nodes} node{'s' if nodes > 1 else ''})\n{'; '.join(radices)}")
    axes[0].legend()
    mcbplot.finish(fig, "tra_fig10", outdir, title=f"TRA, TRA2 and MPI_Alltoall against S; {mcbplot.describe(raw)}")



def by_ranks(directory, outdir, name):
    """Figure 12 (Polaris, weak scaling): the same data against P, one panel per S."""
    raw, df = load(directory)
    if df["ranks"].nunique() < 2:
        raise mcbplot.Skip("tra_compare-*.csv has one process count: Figure 12 needs several (mcb --nodes)")
    sizes = sorted(df["size_bytes"].unique())
    fig, axes = mcbplot.panels(len(sizes), ncols=min(len(sizes), 3), width=3.8, height=3.0)
    for ax, size in zip(axes, sizes):
        for algorithm in ALGORITHMS:
            s = df[(df["algorithm"] == algorithm) & (df["size_bytes"] == size)]
            if not s.empty:
                plot(ax, s, "ranks", algorithm)
        axes_style(ax, "ranks", df["ranks"].unique())
        ax.set_title(f"S = {mcbplot.size_label(size)}")
    axes[0].legend()
    q = raw["ranks_per_node"].iloc[0]
    mcbplot.finish(fig, name, outdir,
                   title=f"TRA, TRA2 and MPI_Alltoall against P ({q} ranks per node); {mcbplot.describe(raw)}")

if __name__ == "__main__":
    mcbplot.main(make)
