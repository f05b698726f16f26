"""Shared part of the allreduce-multi-process-per-gpu figures: loading the
allreduce_ppg files, picking a series, and lines with the paper's
run-to-run error bars. Figures 8-13 are rows of plots/figure.py's TABLE
(standard_vs_lane, by_ppg or one_vs_most and their arguments), Figure 5 is
plots/ppg_fig05.py. Not a figure script (no FIGURES): plots/all.py leaves
it alone.

A series is (algorithm, inner, PPG): ppg_standard has no inner; ppg_lane's
inner (system or ring) is the inter-node allreduce, which one node does not
run, so its one-node rows (params none) belong to both inners.
"""
import mcbplot

SCRIPT = "scripts/batch/allreduce_ppg.sbatch"
NAMES = {("ppg_standard", None): "Standard", ("ppg_lane", "system"): "Multi-lane",
         ("ppg_lane", "ring"): "Multi-lane (ring inter-node)"}
COLORS = {("ppg_standard", None): mcbplot.color("ppg_standard"), ("ppg_lane", "system"): mcbplot.color("ppg_lane"),
          ("ppg_lane", "ring"): "tab:green"}


def load(directory, kind, ppg="*"):
    """allreduce_ppg_{kind}-p{ppg}-*.csv (kind: sizes or nodes)."""
    return mcbplot.load(directory, f"allreduce_ppg_{kind}-p{ppg}-*.csv", SCRIPT)


def select(df, algorithm, inner=None, ppg=None):
    """The rows of one series; raises Skip when there are none."""
    s = df[df["algorithm"] == algorithm]
    if ppg is not None:
        s = s[s["procs_per_gpu"] == ppg]
    if inner is not None:
        s = s[s["params"].map(lambda p: mcbplot.param(p, "inner") in (inner, None))]
    if s.empty:
        raise mcbplot.Skip(f"no {algorithm}{f' inner={inner}' if inner else ''}"
                           f"{f' with PPG {ppg}' if ppg else ''} rows in {sorted(df['file'].unique())[:3]}...")
    return s


def ppgs(df, need=2):
    """The PPG values present; Skip when fewer than `need`."""
    values = sorted(int(v) for v in df["procs_per_gpu"].unique())
    if len(values) < need:
        raise mcbplot.Skip(f"the figure compares processes per GPU, but the files hold PPG {values} only "
                           f"(run {SCRIPT} with MCB_PPG=1,2,4,8,16 and enough ranks per node)")
    return values


def largest_size(df):
    """The rows of the largest buffer (the node-scaling runs have one, 2^27 floats)."""
    return df[df["size_bytes"] == df["size_bytes"].max()]


def errorbar_line(ax, x, spread, label, **style):
    """The mean of the runs as a line with markers, and bars from the
    minimum to the maximum run (one line broken by NaN, with caps, left out of
    the legend and of finish()'s point count)."""
    line, = ax.plot(x, spread["mean"], label=label, **style)
    bx, by = [], []
    for xi, lo, hi in zip(x, spread["lo"], spread["hi"]):
        bx += [xi, xi, float("nan")]
        by += [lo, hi, float("nan")]
    ax.plot(bx, by, "-", marker="_", markersize=6, lw=0.9, color=line.get_color(), label="_runs")
    return line


def plot_series(ax, rows, x, label, stat="avg_us", **style):
    """rows' mean over runs against column x, with run-to-run error bars."""
    spread = mcbplot.runs_spread(rows, [x], stat).sort_values(x)
    return errorbar_line(ax, spread[x], spread, label, **style)


def floats_axis(ax):
    mcbplot.log2_axis(ax, "x", "buffer size (floats)")


def nodes_axis(ax, nodes):
    mcbplot.log2_axis(ax, "x", "nodes")
    ax.set_xticks(sorted(nodes))
    ax.set_xticklabels([str(int(n)) for n in sorted(nodes)])
    ax.minorticks_off()


def memory(df):
    """'host copies' / 'GPU-aware' / 'host memory for GPU memory', for titles."""
    r = df.iloc[0]
    if r["mem"] == "host":
        return "host memory standing in for GPU memory"
    return f"{r['mem']} buffers, " + ("GPU-aware MPI" if int(r["gpu_aware"]) else "host copies")


def title(df, what):
    r = df.iloc[0]
    g = int(r["gpus_per_node"])
    return f"{what}\n{g} GPU{'s' if g > 1 else ''} per node, {memory(df)}; {mcbplot.describe(df)}"


def runs(df):
    n = df["run"].nunique()
    return f"mean of {n} runs, bars min-max" if n > 1 else "1 run"


# The figures: time against buffer size on all the nodes (kind "sizes") or
# against node count at the largest buffer (kind "nodes").
X = {"sizes": "count", "nodes": "nodes"}


def frame(directory, kind, ppg="*"):
    """The rows a figure of `kind` plots: the sizes runs on all their nodes,
    the node-scaling runs at their (largest) buffer."""
    df = load(directory, kind, ppg)
    return df[df["nodes"] == df["nodes"].max()] if kind == "sizes" else largest_size(df)


def axes_of(ax, kind, df):
    floats_axis(ax) if kind == "sizes" else nodes_axis(ax, df["nodes"].unique())
    mcbplot.time_axis(ax)


def where(df, kind):
    """'8 nodes' or '2^27 floats', for titles."""
    if kind == "sizes":
        return f"{df['nodes'].max()} nodes, varying buffer sizes"
    count = int(df["count"].max())
    exp = count.bit_length() - 1
    return f"{f'$2^{{{exp}}}$' if count == 1 << exp else count} floats, varying node counts"


def figure(df, kind, series, name, outdir, what):
    """One panel, one line per (label, rows, style) of `series`."""
    fig, (ax,) = mcbplot.panels(1, width=7.5, height=4.8)
    for label, rows, style in series:
        plot_series(ax, rows, X[kind], label, **style)
    axes_of(ax, kind, df)
    ax.legend()
    ax.set_title(runs(df), fontsize=8)
    mcbplot.finish(fig, name, outdir, title=title(df, f"{what}, {where(df, kind)}"))


def standard_vs_lane(directory, outdir, name, kind):
    """Figures 8 and 9: standard and multi-lane allreduce, PPG 1."""
    df = frame(directory, kind, 1)
    series = [(NAMES[a, i], select(df, a, i, 1), dict(color=COLORS[a, i], marker=m))
              for (a, i), m in ((("ppg_standard", None), "o"), (("ppg_lane", "system"), "s"))]
    figure(df, kind, series, name, outdir, "Standard and multi-lane allreduce, 1 process per GPU")


def by_ppg(directory, outdir, name, kind, algorithm, inner=None):
    """Figures 10 and 11: one allreduce with 1, 2, 4, ... processes per GPU."""
    df = frame(directory, kind)
    series = [(f"PPG {p}", select(df, algorithm, inner, p),
               dict(color=mcbplot.PALETTE[k % len(mcbplot.PALETTE)], marker=mcbplot.MARKERS[k % len(mcbplot.MARKERS)]))
              for k, p in enumerate(ppgs(df))]
    figure(df, kind, series, name, outdir, f"{NAMES[algorithm, inner]} allreduce with multiple processes per GPU")


def one_vs_most(directory, outdir, name, kind):
    """Figures 12 and 13: every algorithm, PPG 1 (dashed, open markers)
    against the largest PPG (solid)."""
    df = frame(directory, kind)
    values = ppgs(df)
    low, high = values[0], values[-1]
    series = []
    for (a, i), m in zip(NAMES, "os^"):
        for p in (low, high):
            style = dict(color=COLORS[a, i], marker=m, linestyle="-" if p == high else "--")
            if p == low:
                style["markerfacecolor"] = "white"
            series.append((f"{NAMES[a, i]}, PPG {p}", select(df, a, i, p), style))
    figure(df, kind, series, name, outdir, f"Standard and multi-lane allreduce, PPG {low} and {high}")
