#!/usr/bin/env python3
"""alltoall-tunable-radix-tra, Figure 9 (Theta): TRA2's two layers against
their radices, one panel per process count P (columns) and block size S
(rows): the intra-node phase's time against r1 (orange; r2 = N) and the
inter-node phase's time against r2 (purple; r1 = ceil(sqrt(Q))), mean with
the standard deviation as error bars, the best radix of each circled red.

Data: tra2_radix_intra-*.csv (r1 varies) and tra2_radix_inter-*.csv (r2
varies) from scripts/batch/tra2_radix.sbatch: phases intra_node and inter_node,
params "radix-intra=R1;radix-inter=R2"; several runs: the mean of their values.
    /usr/bin/python3 plots/tra_fig09.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
from matplotlib.ticker import FuncFormatter


FIGURES = {"tra_fig09": "tra2_radix_{intra,inter}-*.csv (scripts/batch/tra2_radix.sbatch)"}
SCRIPT = "scripts/batch/tra2_radix.sbatch"
# (file, the phase plotted, the radix varied, colour, label)
LAYERS = [("intra", "intra_node", "radix-intra", "tab:orange", "intra-node comm. (against r1)"),
          ("inter", "inter_node", "radix-inter", "tab:purple", "inter-node comm. (against r2)")]


def layer(directory, name, phase, key):
    df = mcbplot.load(directory, f"tra2_radix_{name}-*.csv", SCRIPT, phase=None)
    df = df[(df["algorithm"] == "tra2") & (df["phase"] == phase)].copy()
    if df.empty:
        raise mcbplot.Skip(f"tra2_radix_{name}-*.csv has no tra2 rows of phase {phase}")
    df["radix"] = df["params"].map(lambda p: mcbplot.param(p, key)).astype(int)
    return df


def make(directory, outdir):
    raw = [layer(directory, name, phase, key) for name, phase, key, _, _ in LAYERS]
    title = f"TRA2: intra- and inter-node time against r1 and r2\n{mcbplot.describe(raw[0])}"
    data = [(df.groupby(["ranks", "size_bytes", "radix"], as_index=False)[["avg_us", "stddev_us"]].mean(), c, lab)
            for df, (_, _, _, c, lab) in zip(raw, LAYERS)]
    counts = sorted(set(raw[0]["ranks"]) | set(raw[1]["ranks"]))
    sizes = sorted(set(raw[0]["size_bytes"]) | set(raw[1]["size_bytes"]))
    fig, axes = mcbplot.panels(len(counts) * len(sizes), ncols=len(counts), width=3.4, height=2.6)
    for ax, (size, p) in zip(axes, [(s, p) for s in sizes for p in counts]):
        for df, c, lab in data:
            s = df[(df["ranks"] == p) & (df["size_bytes"] == size)].sort_values("radix")
            if s.empty:
                continue
            ax.plot(s["radix"], s["avg_us"], marker="o", color=c, label=lab)
            if s["stddev_us"].fillna(0).gt(0).any():  # none from a single iteration
                ax.errorbar(s["radix"], s["avg_us"], yerr=s["stddev_us"].fillna(0), fmt="none", capsize=2, ecolor=c)
            best = s.loc[s["avg_us"].idxmin()]
            ax.plot(best["radix"], best["avg_us"], "o", ms=11, mfc="none", mec="red", mew=1.5, label="best radix")
        mcbplot.log2_axis(ax, "x", "radix (r1 or r2)")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.set_ylabel("time (us)")
        ax.set_title(f"P = {p}, S = {mcbplot.size_label(size)}")
    handles = {h.get_label(): h for ax in axes for h in ax.get_legend_handles_labels()[0]}
    handles["best radix"] = handles.pop("best radix")  # last
    axes[0].legend(handles.values(), handles.keys())
    mcbplot.finish(fig, "tra_fig09", outdir, title=title)


if __name__ == "__main__":
    mcbplot.main(make)
