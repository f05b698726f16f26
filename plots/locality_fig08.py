#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 8 ("Node-Aware vs Locality-Aware"): the
node-aware alltoall (one group per node) against locality-aware aggregation
(Algorithm 4) with 4, 8 and 16 processes per group, and the system MPI as
the reference, time against bytes per process (4 B to 4 KiB) on the largest
node count, pairwise inner exchanges solid, nonblocking dashed, the minimum
of the runs.

Data: alltoall_leaders-*.csv from scripts/alltoall_leaders.sbatch.
    /usr/bin/python3 plots/locality_fig08.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot

NAME = "locality_fig08"
FIGURES = {NAME: "alltoall_leaders-*.csv (scripts/alltoall_leaders.sbatch)"}
TITLE = "Node-aware vs locality-aware"
# The reference, the one-group algorithm, and the algorithm whose groups vary.
ALGORITHMS = ["system", "node_aware", "locality_aware"]
KEY, UNIT = "procs-per-group", "procs/group"
# One colour per number of processes per leader or group (the same in Figures 7 to 9).
K_COLORS = ["tab:orange", "tab:red", "tab:purple", "tab:cyan", "tab:olive", "tab:pink"]


def style(algorithm, params, k, ks):
    """Line style, marker, colour and legend label of one series."""
    kw = {"linestyle": mcbplot.inner_style(params), "label": mcbplot.label(algorithm, params)}
    if algorithm == ALGORITHMS[-1]:
        i = ks.index(k)
        kw.update(marker=mcbplot.MARKERS[i + 1], color=K_COLORS[i % len(K_COLORS)],
                  label=kw["label"].replace(" (", f", {k} {UNIT} (", 1))
    else:
        kw.update(marker="o", color=mcbplot.color(algorithm))
        if algorithm != "system":  # open and on top: it can coincide with the largest k
            kw.update(mfc="none", ms=7, zorder=3)
    return kw


def make(directory, outdir):
    df = mcbplot.load(directory, "alltoall_leaders-*.csv", "scripts/alltoall_leaders.sbatch")
    df = df[df["algorithm"].isin(ALGORITHMS)]
    if ALGORITHMS[-1] not in set(df["algorithm"]):
        raise mcbplot.Skip(f"alltoall_leaders-*.csv has no {ALGORITHMS[-1]} rows")
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    best = mcbplot.best_of_runs(df, ["algorithm", "params", "size_bytes"])
    best["k"] = best["params"].map(lambda p: int(mcbplot.param(p, KEY) or 0))
    ks = sorted(best.loc[best["algorithm"] == ALGORITHMS[-1], "k"].unique())
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=5.5)
    series = best.groupby(["algorithm", "k", "params"])
    for (algorithm, k, params), s in sorted(series, key=lambda kv: (ALGORITHMS.index(kv[0][0]), kv[0][1],
                                                                    mcbplot.inner_style(kv[0][2]))):
        ax.plot(s["size_bytes"], s["avg_us"], **style(algorithm, params, k, ks))
    mcbplot.log2_axis(ax, "x", "bytes per process", sizes=True)
    mcbplot.time_axis(ax)
    ax.legend(ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    ax.set_title(f"{TITLE}, {nodes} nodes x {df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")
    mcbplot.finish(fig, NAME, outdir)


if __name__ == "__main__":
    mcbplot.main(make)
