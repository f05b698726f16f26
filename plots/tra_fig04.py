#!/usr/bin/env python3
"""alltoall-tunable-radix-tra, Figure 4 ("Mathematical simulation with varying
process counts"): the model only, no MPI run. For each process count P (the
paper's 1024, 2048, 4096 and 8192), the rounds K (orange, left axis) and the
data blocks D sent per process (blue, right axis) of the tunable-radix
alltoall against its radix r = 2 ... P (Propositions 3-4). Red circles mark
r = ceil(sqrt(P)), the paper's discontinuity and optimal radix. K and D do
not depend on the block size: one size_bytes of the file is used.

Data: tra_model.csv(.gz) from scripts/batch/tra_model.sh (mcb_tra_model --sweep --csv).
    /usr/bin/python3 plots/tra_fig04.py RESULTS_DIR [-o OUTDIR]
"""
import math

import mcbplot

FIGURES = {"tra_fig04": "tra_model.csv (scripts/batch/tra_model.sh)"}
K_COLOR, D_COLOR = "tab:orange", "tab:blue"


def make(directory, outdir):
    df = mcbplot.load(directory, "tra_model.csv", "scripts/batch/tra_model.sh")
    df = df[df["algorithm"] == "tra"]
    if df.empty:
        raise mcbplot.Skip("tra_model.csv has no tra rows (run scripts/batch/tra_model.sh)")
    df = df[df["size_bytes"] == df["size_bytes"].min()]
    counts = sorted(df["ranks"].unique())
    fig, axes = mcbplot.panels(len(counts), ncols=min(len(counts), 2), width=4.6, height=3.2)
    for ax, p in zip(axes, counts):
        s = df[df["ranks"] == p].sort_values("radix")
        right = ax.twinx()
        ax.plot(s["radix"], s["rounds"], color=K_COLOR, label="rounds K")
        right.plot(s["radix"], s["blocks"], color=D_COLOR, label="data blocks D")
        root = s[s["radix"] == math.isqrt(p - 1) + 1]  # ceil(sqrt(P))
        for a, col in ((ax, "rounds"), (right, "blocks")):
            a.plot(root["radix"], root[col], "o", mfc="none", mec="red", ms=9, mew=1.5,
                   label=r"$r = \lceil\sqrt{P}\rceil$" if a is ax else "_root")
        mcbplot.log2_axis(ax, "x", "radix r")
        ax.set_ylabel("rounds K", color=K_COLOR)
        right.set_ylabel("data blocks D", color=D_COLOR)
        right.grid(False)
        ax.set_title(f"P = {p}")
        if ax is axes[0]:
            handles = [h for a in (ax, right) for h in a.get_legend_handles_labels()[0]]
            ax.legend(handles, [h.get_label() for h in handles], loc="upper center")
    mcbplot.finish(fig, "tra_fig04", outdir, title="TRA model: rounds K and data blocks D against the radix")


if __name__ == "__main__":
    mcbplot.main(make)
