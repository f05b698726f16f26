#!/usr/bin/env python3
"""allgather-sparbit, Figure 5: the paper's "hybrid" heat maps, one panel per
rank order (block, the paper's sequential, and cyclic), process counts (x)
against block sizes (y), smallest average time. A cell where Sparbit is the
fastest shows its improvement over the second best in grey scale, lighter
is better (the paper's scale; colour bar); any other cell the colour of the
fastest classic algorithm (ring, neighbor exchange, recursive doubling,
Bruck); cells not measured stay blank. The cells come from
scripts/compare/compare_best.py (via sparbit_fig01.cells()).

Data: allgather_sparbit-{block,cyclic}-n{P}-run{r}.csv from scripts/batch/allgather_sparbit.sbatch.
    /usr/bin/python3 plots/sparbit_fig05.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
import numpy as np
from matplotlib.cm import ScalarMappable
from matplotlib.colors import ListedColormap, Normalize
from matplotlib.patches import Patch
import matplotlib.pyplot as plt

import sparbit_fig01

FIGURES = {"sparbit_fig05": "allgather_sparbit-{block,cyclic}-n*-run*.csv (scripts/batch/allgather_sparbit.sbatch)"}
ORDERS = {"block": "sequential (block)", "cyclic": "cyclic"}
GREYS = ListedColormap(plt.get_cmap("Greys_r")(np.linspace(0.1, 0.92, 256)))  # lighter is better


def make(directory, outdir):
    result, measured = sparbit_fig01.cells(directory)
    result = result[result["stat"] == "avg"]
    orders = [o for o in ORDERS if o in set(result["rank_order"])]
    if not orders:
        raise mcbplot.Skip("allgather_sparbit files have neither block nor cyclic runs")
    won = result[result["best"] == "sparbit"]["improvement_pct"]
    norm = Normalize(0, max(1.0, won.max() if not won.empty else 0))
    columns = result["ranks"].nunique()
    fig, axes = mcbplot.panels(len(orders), ncols=1 if columns > 24 else len(orders), width=max(4.5, 0.12 * columns + 2.2),
                               height=max(4.2, 0.22 * result["size_bytes"].nunique() + 1.5))
    for ax, order in zip(axes, orders):
        view = result[result["rank_order"] == order]
        colors = [GREYS(norm(pct)) if best == "sparbit" else mcbplot.color(best)
                  for best, pct in zip(view["best"], view["improvement_pct"])]
        sparbit_fig01.grid(ax, view, colors)
        share = 100.0 * (view["best"] == "sparbit").mean()
        ax.set_title(f"{ORDERS[order]}: Sparbit fastest in {share:.1f}% of the cells")
    shown = [a for a in sparbit_fig01.CLASSIC if any(a in measured[o] for o in orders)]
    handles = [Patch(color=mcbplot.color(a), label=mcbplot.NAMES[a]) for a in shown]
    handles.append(Patch(facecolor=GREYS(0.6), edgecolor="black", label="Sparbit (grey scale)"))
    axes[0].legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.16), ncol=2)
    fig.colorbar(ScalarMappable(norm, GREYS), ax=axes[-1], label="Sparbit's improvement over the second (%)")
    mcbplot.finish(fig, "sparbit_fig05", outdir, series=len(handles),
                   title="Fastest allgather algorithm and Sparbit's improvement (average time)\n"
                   f"{sparbit_fig01.source(directory)}")


if __name__ == "__main__":
    mcbplot.main(make)
