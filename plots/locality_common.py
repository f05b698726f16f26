"""Shared by the locality paper's figures (alltoall-manycore-locality): the
series against size with the processes per leader or group varying
(Figures 7-9), node scaling (11, 12) and the stacked phase bars of
mcb_breakdown (13-16). Figures 7-9 and 11-14 are rows of plots/figure.py's
TABLE (a helper below and its arguments), the others plots/locality_fig*.py.
Not a figure script itself (no FIGURES), so plots/all.py leaves it alone.
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
import numpy as np


# The paper's series of Figures 10-12: the system MPI and Algorithms 3-5.
PAPER = ["system", "hierarchical", "multileader", "node_aware", "locality_aware", "multileader_node_aware"]
# One colour per number of processes per leader or group (the same in Figures 7 to 9).
K_COLORS = ["tab:orange", "tab:red", "tab:purple", "tab:cyan", "tab:olive", "tab:pink"]


def style(algorithm, params, k, ks, algorithms, unit):
    """Line style, marker, colour and legend label of one series."""
    kw = {"linestyle": mcbplot.inner_style(params), "label": mcbplot.label(algorithm, params)}
    if algorithm == algorithms[-1]:
        i = ks.index(k)
        kw.update(marker=mcbplot.MARKERS[i + 1], color=K_COLORS[i % len(K_COLORS)],
                  label=kw["label"].replace(" (", f", {k} {unit} (", 1))
    else:
        kw.update(marker="o", color=mcbplot.color(algorithm))
        if algorithm != "system":  # open and on top: it can coincide with the largest k
            kw.update(mfc="none", ms=7, zorder=3)
    return kw


def by_leaders(directory, outdir, name, title, algorithms, key, unit):
    """Figures 7-9: time against size of `algorithms` (the reference, then the
    one whose processes per leader or group, params `key`, vary: one series per
    value and inner exchange) on the largest node count."""
    df = mcbplot.load(directory, "alltoall_leaders-*.csv", "scripts/batch/alltoall_leaders.sbatch")
    df = df[df["algorithm"].isin(algorithms)]
    if algorithms[-1] not in set(df["algorithm"]):
        raise mcbplot.Skip(f"alltoall_leaders-*.csv has no {algorithms[-1]} rows")
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    best = mcbplot.best_of_runs(df, ["algorithm", "params", "size_bytes"])
    best["k"] = best["params"].map(lambda p: int(mcbplot.param(p, key) or 0))
    ks = sorted(best.loc[best["algorithm"] == algorithms[-1], "k"].unique())
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=5.5)
    series = best.groupby(["algorithm", "k", "params"])
    for (algorithm, k, params), s in sorted(series, key=lambda kv: (algorithms.index(kv[0][0]), kv[0][1],
                                                                    mcbplot.inner_style(kv[0][2]))):
        ax.plot(s["size_bytes"], s["avg_us"], **style(algorithm, params, k, ks, algorithms, unit))
    mcbplot.log2_axis(ax, "x", "bytes per process", sizes=True)
    mcbplot.time_axis(ax)
    ax.legend(ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    ax.set_title(f"{title}, {nodes} nodes x {df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")
    mcbplot.finish(fig, name, outdir)



def node_scaling(directory, outdir, name, size):
    """Figures 11 and 12: the paper's algorithms at `size` bytes per process
    against the node count (one launch of mcb --nodes)."""
    df = mcbplot.load(directory, "alltoall_nodes-*.csv", "scripts/batch/alltoall_nodes.sbatch")
    df = df[df["algorithm"].isin(PAPER) & (df["size_bytes"] == size)]
    if df.empty:
        raise mcbplot.Skip(f"alltoall_nodes-*.csv has no {size} B rows of the paper's algorithms")
    nodes = sorted(df["nodes"].unique())
    if len(nodes) < 2:
        raise mcbplot.Skip(f"alltoall_nodes-*.csv has one node count ({nodes[0]}): node scaling needs several")
    best = mcbplot.best_of_runs(df, ["algorithm", "params", "nodes"])
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=5)
    for (algorithm, params), s in sorted(best.groupby(["algorithm", "params"]),
                                         key=lambda kv: (PAPER.index(kv[0][0]), mcbplot.inner_style(kv[0][1]))):
        ax.plot(s["nodes"], s["avg_us"], mcbplot.inner_style(params), marker="o",
                color=mcbplot.color(algorithm), label=mcbplot.label(algorithm, params))
    mcbplot.log2_axis(ax, "x", "nodes")
    ax.set_xticks(nodes, [str(n) for n in nodes])
    ax.minorticks_off()
    mcbplot.time_axis(ax)
    ax.legend(ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    ax.set_title(f"{mcbplot.size_label(size)} per process, {nodes[0]} to {nodes[-1]} nodes x "
                 f"{df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")
    mcbplot.finish(fig, name, outdir)



# Breakdowns (Figures 13-16): each phase timed alone between barriers (phase_mode
# "isolated", as the paper measured: the total is the sum of the phases); in the
# "embedded" mode each phase is its own maximum over ranks inside the run, so a
# stack can rise above the total.
PHASE_MODE = "isolated"
# The phases in the order they run, with one colour each across Figures 13 to 16.
PHASES = {"gather": "tab:blue", "repack": "tab:gray", "inter_node": "tab:orange", "intra_node": "tab:green",
          "scatter": "tab:red", "alltoall": "tab:purple"}


def breakdown(directory, kind, keys):
    """Every phase of breakdown_{kind}-*.csv in PHASE_MODE, for each combination
    of `keys` only the run (file) whose total is the smallest."""
    df = mcbplot.load(directory, f"breakdown_{kind}-*.csv", "scripts/batch/alltoall_breakdown.sbatch", phase=None)
    df = df[df["phase_mode"] == PHASE_MODE]
    if df.empty:
        raise mcbplot.Skip(f"breakdown_{kind}-*.csv has no {PHASE_MODE} phase rows")
    total = df[df["phase"] == "total"]
    best = total.loc[total.groupby(keys)["avg_us"].idxmin(), keys + ["file"]]
    return df.merge(best, on=keys + ["file"])


def pairwise_at(directory, kind, size):
    """Figures 15 and 16: breakdown_{kind}'s phases at `size` bytes with a
    pairwise inner exchange."""
    df = breakdown(directory, kind, ["params", "size_bytes", "nodes"])
    df = df[(df["size_bytes"] == size) & (df["params"].map(lambda p: mcbplot.param(p, "inner")) == "pairwise")]
    if df.empty:
        raise mcbplot.Skip(f"breakdown_{kind}-*.csv has no {size} B rows with a pairwise inner exchange")
    return df


def phase_bars(ax, d, x, ticks=mcbplot.size_label, legend=True):
    """Stacked bars of d's phases against the column x (tick labels ticks(x)),
    a black tick at the total; `legend`: on the right, the phases top down."""
    table = d.pivot_table(index=x, columns="phase", values="avg_us", aggfunc="min").sort_index()
    phases = [p for p in PHASES if p in table] + sorted(set(table) - set(PHASES) - {"total"})
    pos, bottom = np.arange(len(table)), np.zeros(len(table))
    for i, p in enumerate(phases):
        h = table[p].fillna(0).to_numpy()
        ax.bar(pos, h, 0.7, bottom=bottom, color=PHASES.get(p, mcbplot.PALETTE[i]), label=p.replace("_", "-"))
        bottom += h
    ax.plot(pos, table["total"], "k_", ms=22, mew=2, label="total (whole alltoall)")
    ax.set_xticks(pos, [ticks(v) for v in table.index])
    ax.set_ylabel(f"time (us), {PHASE_MODE} phases")
    ax.grid(axis="x", visible=False)
    if legend:
        handles, labels = ax.get_legend_handles_labels()  # the total first, then the phases bottom up
        ax.legend(handles[:0:-1] + handles[:1], labels[:0:-1] + labels[:1], loc="upper left",
                  bbox_to_anchor=(1.01, 1))


def breakdown_by_inner(directory, outdir, name, kind, title):
    """Figures 13 and 14: the phases of breakdown_{kind} against size, one
    panel per inner exchange, on the largest node count."""
    df = breakdown(directory, kind, ["params", "size_bytes", "nodes"])
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    inners = sorted(df["params"].unique(), key=mcbplot.inner_style)  # pairwise first
    fig, axes = mcbplot.panels(len(inners), ncols=2, width=4.6, height=4, sharey=True)
    for i, (ax, params) in enumerate(zip(axes, inners)):
        phase_bars(ax, df[df["params"] == params], "size_bytes", legend=i == len(inners) - 1)
        ax.set_xlabel("bytes per process")
        ax.set_ylabel(ax.get_ylabel() if i == 0 else "")
        ax.set_title(f"{mcbplot.param(params, 'inner') or params} inner alltoall")
    mcbplot.finish(fig, name, outdir, title=f"{title}, {nodes} nodes x "
                   f"{df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")



def by_size(directory, outdir, name):
    """Figure 10: every algorithm of the paper (PAPER) against size on the
    largest node count, the minimum of the runs."""
    df = mcbplot.load(directory, "alltoall_sizes-*.csv", "scripts/batch/alltoall_sizes.sbatch")
    df = df[df["algorithm"].isin(PAPER)]
    if df.empty:
        raise mcbplot.Skip("alltoall_sizes-*.csv holds none of the paper's algorithms")
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes]
    best = mcbplot.best_of_runs(df, ["algorithm", "params", "size_bytes"])
    fig, (ax,) = mcbplot.panels(1, width=6, height=4.5)
    for (algorithm, params), s in sorted(best.groupby(["algorithm", "params"]),
                                         key=lambda kv: PAPER.index(kv[0][0])):
        ax.plot(s["size_bytes"], s["avg_us"], mcbplot.inner_style(params), marker="o",
                color=mcbplot.color(algorithm), label=mcbplot.label(algorithm, params))
    mcbplot.log2_axis(ax, "x", "bytes per process", sizes=True)
    mcbplot.time_axis(ax)
    ax.legend(ncol=2)
    r = df.iloc[0]
    ax.set_title(f"Various sizes, {nodes} nodes x {r['ranks_per_node']} ranks; {mcbplot.describe(df)}")
    mcbplot.finish(fig, name, outdir)


def phases_by_nodes(directory, outdir, name, size):
    """Figure 15: node-aware's phases (pairwise inner) at `size` against the
    node count (breakdown_nodes: one launch with mcb --nodes)."""
    df = pairwise_at(directory, "nodes", size)
    if df["nodes"].nunique() < 2:
        raise mcbplot.Skip(f"breakdown_nodes-*.csv has one node count ({df['nodes'].iloc[0]}): "
                           "node scaling needs several")
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=4.2)
    phase_bars(ax, df, "nodes", ticks=str)
    ax.set_xlabel("nodes")
    nodes = sorted(df["nodes"].unique())
    ax.set_title(f"Node-aware (pairwise) timing breakdown, {mcbplot.size_label(size)}, {nodes[0]} to {nodes[-1]} "
                 f"nodes x {df['ranks_per_node'].iloc[0]} ranks;\n{mcbplot.describe(df)}")
    mcbplot.finish(fig, name, outdir)


def phases_by_group(directory, outdir, name, size):
    """Figure 16: locality-aware's phases (pairwise inner) at `size` against
    the processes per group on the largest node count (a group of a whole
    node is node-aware)."""
    df = pairwise_at(directory, "groups", size)
    nodes = df["nodes"].max()
    df = df[df["nodes"] == nodes].copy()
    df["ppg"] = df["params"].map(lambda p: int(mcbplot.param(p, "procs-per-group") or 0))
    if df["ppg"].nunique() < 2:
        raise mcbplot.Skip("breakdown_groups-*.csv has one group size: the figure compares several")
    ppn = df["ranks_per_node"].iloc[0]
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=4.2)
    phase_bars(ax, df, "ppg", ticks=lambda k: f"{k}\n(node-aware)" if k == ppn else str(k))
    ax.set_xlabel("processes per group")
    ax.set_title(f"Locality-aware (pairwise) timing breakdown, {mcbplot.size_label(size)}, {nodes} nodes x "
                 f"{ppn} ranks;\n{mcbplot.describe(df)}")
    mcbplot.finish(fig, name, outdir)
