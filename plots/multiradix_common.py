"""Shared part of the allreduce-shared-memory-multiradix figure scripts
(multiradix_fig*.py): the series, their style and the time-against-size
panel. Not a figure script (no FIGURES): plots/all.py leaves it alone.

Series: the system MPI's MPI_Allreduce (black) and its persistent
MPI_Allreduce_init (grey), the shared-memory algorithms through the
persistent interface (solid) and the blocking one (dashed), and the classic
point-to-point algorithms (dotted, thin: the ones MPICH and Open MPI choose
between, standing in for the paper's second MPI library).
"""
import mcbplot

SYSTEM = ["system", "system_persistent"]
SHM = ["shm_recursive_exchange", "shm_cyclic_shift", "shm_tree"]
P2P = ["recursive_doubling", "rabenseifner", "ring"]
ORDER = SYSTEM + SHM + P2P
INNER = {"system": "MPI", "recursive_exchange": "recursive exchange"}


def is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def largest_prime(n):
    """The largest prime <= n (the paper's worst-case task count)."""
    return max((p for p in range(2, n + 1) if is_prime(p)), default=None)


def label(algorithm, params, inner=False):
    """'SHM tree, persistent' (+ ', registered' for a copy path other than
    copy-in, + ', recursive exchange between nodes')."""
    text = mcbplot.NAMES.get(algorithm, algorithm)
    interface = mcbplot.param(params, "interface")
    if interface:
        text += f", {interface}"
    copy = mcbplot.param(params, "copy")
    if copy and copy != "copy-in":
        text += f", {copy}"
    if inner and mcbplot.param(params, "inner"):
        text += f", {INNER.get(mcbplot.param(params, 'inner'), mcbplot.param(params, 'inner'))} between nodes"
    return text


def style(algorithm, params, dashed_inner=None):
    """Line style: blocking interface (or inner == dashed_inner) dashed,
    point-to-point dotted, else solid."""
    if algorithm in P2P:
        return ":"
    if mcbplot.param(params, "interface") == "blocking":
        return "--"
    if dashed_inner and mcbplot.param(params, "inner") == dashed_inner:
        return "--"
    return "-"


def keep(df, algorithms=ORDER):
    return df[df["algorithm"].isin(algorithms)]


def plot_series(ax, df, x="size_bytes", stat="avg_us", inner=False, dashed_inner=None):
    """One line per (algorithm, params) of df against x, the minimum of the
    runs (the scripts run 3 and keep the best, as the paper)."""
    best = mcbplot.best_of_runs(df, ["algorithm", "params", x], stat)
    groups = sorted(best.groupby(["algorithm", "params"]), key=lambda kv: (
        ORDER.index(kv[0][0]) if kv[0][0] in ORDER else len(ORDER), style(*kv[0], dashed_inner), kv[0][1]))
    for (algorithm, params), s in groups:
        i = ORDER.index(algorithm) if algorithm in ORDER else len(ORDER)
        ax.plot(s[x], s[stat], style(algorithm, params, dashed_inner), marker=mcbplot.MARKERS[i % len(mcbplot.MARKERS)],
                color=mcbplot.color(algorithm, i), lw=0.9 if algorithm in P2P else None,
                label=label(algorithm, params, inner))


def legend(ax):
    """The legend right of the (top) panel, clear of the lines."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))


def size_axes(ax, ylabel="time (us)"):
    mcbplot.log2_axis(ax, "x", "message size", sizes=True)
    mcbplot.time_axis(ax, ylabel)


def one_per_ranks(df, what):
    """{ranks: rows} of a frame, with a clear Skip when it has no rows."""
    if df.empty:
        raise mcbplot.Skip(f"{what}: none of the paper's algorithms")
    return {int(r): s for r, s in df.groupby("ranks")}


def in_place(directory, outdir, name):
    """Figure 12: Figures 9-11's top panel run in place, one panel per task count."""
    df = mcbplot.load(directory, "allreduce_node_inplace-*.csv", "scripts/batch/allreduce_node.sbatch")
    if not (df["in_place"] == 1).all():
        raise mcbplot.Skip("allreduce_node_inplace-*.csv holds rows not run in place (in_place 0)")
    parts = one_per_ranks(keep(df), "allreduce_node_inplace-*.csv")
    fig, axes = mcbplot.panels(len(parts), ncols=1, width=9, height=3.8)
    for ax, (P, rows) in zip(axes, sorted(parts.items())):
        plot_series(ax, rows)
        size_axes(ax)
        ax.set_title(f"{P} tasks, in place")
    legend(axes[0])
    mcbplot.finish(fig, name, outdir, title=f"Allreduce on 1 node, in place (MPI_IN_PLACE); {mcbplot.describe(df)}")


def several_nodes(directory, outdir, name):
    """Figure 13: one panel per (nodes, tasks per node) of several nodes."""
    df = keep(mcbplot.load(directory, "allreduce_nodes-*.csv", "scripts/batch/allreduce_nodes.sbatch"))
    df = df[df["nodes"] > 1]
    if df.empty:
        raise mcbplot.Skip("allreduce_nodes-*.csv: no run of the paper's algorithms on several nodes")
    parts = sorted(df.groupby(["nodes", "ranks_per_node"]))
    fig, axes = mcbplot.panels(len(parts), ncols=1, width=11.5, height=4)
    for ax, ((nodes, ppn), rows) in zip(axes, parts):
        plot_series(ax, rows, inner=True, dashed_inner="recursive_exchange")
        size_axes(ax)
        ax.set_title(f"{nodes} nodes x {ppn} tasks per node")
    legend(axes[0])
    mcbplot.finish(fig, name, outdir, title=f"Allreduce on several nodes; {mcbplot.describe(df)}")
