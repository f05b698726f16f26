#!/usr/bin/env python3
"""allreduce-multi-process-per-gpu, Figure 5 (a ping-pong benchmark using
multiple active processes per GPU; the paper's panels are Delta with host
copies, and Tuolumne's MI300A in SPX and CPX modes, i.e. three runs): two
nodes, every GPU's message split among 1, 2, 4, ... active processes, each
exchanging its slice with its counterpart on the other node; one-way time
(round trip / 2) against a GPU's message size, one line per number of active
processes per GPU. Time rather than bandwidth: the paper reads its result as
the speedup of 16 processes over one at the largest size. Mean of the runs,
error bars from the fastest to the slowest run (the paper's run-to-run
variation).

Data: pingpong_ppg-N2-n{ranks}-run*.csv from scripts/batch/pingpong_ppg.sbatch.
    /usr/bin/python3 plots/ppg_fig05.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot
import ppg_common as ppg

FIGURES = {"ppg_fig05": "pingpong_ppg-*.csv (scripts/batch/pingpong_ppg.sbatch)"}


def make(directory, outdir):
    df = mcbplot.load(directory, "pingpong_ppg-*.csv", "scripts/batch/pingpong_ppg.sbatch")
    df["active"] = df["params"].map(lambda p: mcbplot.param(p, "active"))
    df = df.dropna(subset=["active"])
    if df.empty:
        raise mcbplot.Skip("pingpong_ppg-*.csv: no rows with active=N in params")
    df["active"] = df["active"].astype(int)
    fig, (ax,) = mcbplot.panels(1, width=6, height=4.5)
    for i, (active, rows) in enumerate(sorted(df.groupby("active"))):
        ppg.plot_series(ax, rows, "size_bytes", f"{active} active process{'es' if active > 1 else ''} per GPU",
                        color=mcbplot.PALETTE[i % len(mcbplot.PALETTE)], marker=mcbplot.MARKERS[i % len(mcbplot.MARKERS)])
    mcbplot.log2_axis(ax, "x", "message size per GPU", sizes=True)
    mcbplot.time_axis(ax, "one-way time (us)")
    ax.legend()
    ax.set_title(f"{ppg.runs(df)}", fontsize=8)
    mcbplot.finish(fig, "ppg_fig05", outdir, title=ppg.title(df, "Multi-PPG ping-pong, 2 nodes"))


if __name__ == "__main__":
    mcbplot.main(make)
