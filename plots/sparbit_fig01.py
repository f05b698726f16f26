#!/usr/bin/env python3
"""allgather-sparbit, Figure 1: categorical heat map of the fastest classic
allgather algorithm (ring, neighbor exchange, recursive doubling, Bruck) per
process count (x) and block size (y, 1 B to 1 MiB in the paper), block
(sequential) rank order, smallest average time. As in the paper, whose
Figure 1 motivates Sparbit before introducing it, Sparbit is not a category
here (Figure 5, sparbit_fig05.py, adds it); set WITH_SPARBIT to include it.
The cells come from scripts/compare/compare_best.py (load() and compare(), the
same as allgather_sparbit-cells.csv): its `best_other` is the fastest
algorithm other than Sparbit. Legend: every classic algorithm measured.

Data: allgather_sparbit-{block,cyclic}-n{P}-run{r}.csv from scripts/batch/allgather_sparbit.sbatch.
    /usr/bin/python3 plots/sparbit_fig01.py RESULTS_DIR [-o OUTDIR]
"""
import glob
import os
import sys

import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
import pandas as pd
from matplotlib.patches import Patch, Rectangle


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from compare import compare_best  # noqa: E402

FIGURES = {"sparbit_fig01": "allgather_sparbit-block-n*-run*.csv (scripts/batch/allgather_sparbit.sbatch)"}
WITH_SPARBIT = False
CLASSIC = [a for a in compare_best.PAPER if a != "sparbit"]


def cells(directory):
    """compare_best's per-(cell, statistic) comparison of the paper's
    algorithms over every allgather_sparbit run file, and the algorithms
    measured per rank order. Shared with sparbit_fig05.py and sparbit_tables.py."""
    pattern = os.path.join(directory, "allgather_sparbit-*-n*-run*.csv")
    paths = sorted(glob.glob(pattern) + glob.glob(pattern + ".gz"))
    if not paths:
        raise mcbplot.Skip(f"no allgather_sparbit-*-n*-run*.csv in {directory} (run scripts/batch/allgather_sparbit.sbatch)")
    try:
        times = compare_best.load(paths, "paper")
    except SystemExit as e:  # compare_best's own reason: no allgather or no sparbit rows
        raise mcbplot.Skip(str(e)) from None
    times = times[times["in_place"] == 0]
    measured = {o: set(t["algorithm"]) for o, t in times.groupby("rank_order")}
    result = compare_best.compare(times)
    if result.empty:
        raise mcbplot.Skip("allgather_sparbit files: no cell has Sparbit and another algorithm")
    return result, measured


def source(directory):
    """What produced the runs, for titles: the MPI (or SimGrid SMPI and its
    platform) of the first run file."""
    pattern = os.path.join(directory, "allgather_sparbit-*-n*-run*.csv")
    paths = sorted(glob.glob(pattern) + glob.glob(pattern + ".gz"))
    return mcbplot.describe(pd.read_csv(paths[0], nrows=1)) if paths else ""


def grid(ax, view, colors):
    """Draws one rectangle per cell of `view` (ranks x size_bytes), coloured
    by `colors` (a sequence aligned with view's rows); process counts in
    column order, block sizes bottom up."""
    ranks, sizes = sorted(view["ranks"].unique()), sorted(view["size_bytes"].unique())
    for (p, size), color in zip(zip(view["ranks"], view["size_bytes"]), colors):
        ax.add_patch(Rectangle((ranks.index(p), sizes.index(size)), 1, 1, facecolor=color, edgecolor="white", lw=0.3))
    ax.set_xlim(0, len(ranks))
    ax.set_ylim(0, len(sizes))
    step = (len(ranks) + 23) // 24
    ax.set_xticks([i + 0.5 for i in range(0, len(ranks), step)], [str(p) for p in ranks[::step]], rotation=90)
    ax.set_yticks([i + 0.5 for i in range(len(sizes))], [mcbplot.size_label(s) for s in sizes])
    ax.set_xlabel("processes")
    ax.set_ylabel("block size")
    ax.grid(False)


def make(directory, outdir):
    result, measured = cells(directory)
    view = result[(result["rank_order"] == "block") & (result["stat"] == "avg")]
    if view.empty:
        raise mcbplot.Skip("allgather_sparbit files have no block-order runs")
    column = "best" if WITH_SPARBIT else "best_other"
    shown = [a for a in compare_best.PAPER if a in measured["block"] and (WITH_SPARBIT or a != "sparbit")]
    fig, (ax,) = mcbplot.panels(1, width=max(5.0, 0.12 * view["ranks"].nunique() + 2.5),
                                height=max(3.5, 0.22 * view["size_bytes"].nunique() + 1.5))
    grid(ax, view, [mcbplot.color(a) for a in view[column]])
    ax.legend(handles=[Patch(color=mcbplot.color(a), label=mcbplot.NAMES[a]) for a in shown],
              loc="upper left", bbox_to_anchor=(1.01, 1))
    mcbplot.finish(fig, "sparbit_fig01", outdir, series=len(shown),
                   title=f"Fastest allgather algorithm per cell (average time, block order)\n{source(directory)}")


if __name__ == "__main__":
    mcbplot.main(make)
