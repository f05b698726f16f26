#!/usr/bin/env python3
"""alltoall-tunable-radix-tra, Figure 13 (Theta, Polaris): a 1-D complex FFT
(mcb_fft, local FFTs by FFTW) whose three transposes use the system
MPI_Alltoall (Default-Strategy, green), TRA (orange) or TRA2 (pink), one
group of bars per process count P; the darker bottom of each bar is the
transposes' time (phase transpose), the lighter top the rest (compute:
packing, local FFTs, twiddle factors). One panel per size: 16 B per peer
(N = P^2) and 1024 B (N = 64 P^2). Mean over iterations of each phase (the
slowest rank per iteration), then the mean of repeated runs.

Data: tra_fft-*.csv from scripts/batch/tra_fft.sbatch (one launch with mcb_fft
--nodes: `nodes` and `ranks` vary within a file).
    /usr/bin/python3 plots/tra_fig13.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
import numpy as np


FIGURES = {"tra_fig13": "tra_fft-*.csv (scripts/batch/tra_fft.sbatch)"}
ALGORITHMS = ["system", "tra", "tra2"]
COLORS = {"system": "tab:green", "tra": "tab:orange", "tra2": "tab:pink"}  # the paper's
LABELS = {"system": "Default (MPI_Alltoall)", "tra": "TRA", "tra2": "TRA2"}


def make(directory, outdir):
    raw = mcbplot.load(directory, "tra_fft-*.csv", "scripts/batch/tra_fft.sbatch", phase=None)
    raw = raw[raw["algorithm"].isin(ALGORITHMS) & raw["phase"].isin(["transpose", "total"])]
    if raw.empty or raw["phase"].nunique() < 2:
        raise mcbplot.Skip("tra_fft-*.csv lacks the transpose and total rows of system, tra or tra2")
    df = raw.groupby(["algorithm", "ranks", "size_bytes", "phase"], as_index=False)["avg_us"].mean()
    sizes = sorted(df["size_bytes"].unique())
    fig, axes = mcbplot.panels(len(sizes), ncols=len(sizes), width=4.6, height=3.4)
    for ax, size in zip(axes, sizes):
        s = df[df["size_bytes"] == size]
        counts = sorted(s["ranks"].unique())
        algorithms = [a for a in ALGORITHMS if a in set(s["algorithm"])]
        width = 0.8 / len(algorithms)
        for i, algorithm in enumerate(algorithms):
            a = s[s["algorithm"] == algorithm].pivot(index="ranks", columns="phase", values="avg_us").reindex(counts)
            x = np.arange(len(counts)) + (i - (len(algorithms) - 1) / 2) * width
            transpose, total = a["transpose"].to_numpy(), a["total"].to_numpy()
            ax.bar(x, transpose, width, color=COLORS[algorithm], label=f"{LABELS[algorithm]}: transposes")
            ax.bar(x, total - transpose, width, bottom=transpose, color=COLORS[algorithm], alpha=0.35,
                   label=f"{LABELS[algorithm]}: compute")
        ax.set_xticks(np.arange(len(counts)), [f"{p}" for p in counts])
        ax.set_xlabel("processes P")
        ax.set_ylabel("time per FFT (us)")
        points = "P^2" if size == 16 else f"{size // 16} P^2"
        ax.set_title(f"N = {points} ({mcbplot.size_label(size)} per peer and transpose)")
    axes[0].legend()
    mcbplot.finish(fig, "tra_fig13", outdir, title=f"FFT with each alltoall as its transposes; {mcbplot.describe(raw)}")


if __name__ == "__main__":
    mcbplot.main(make)
