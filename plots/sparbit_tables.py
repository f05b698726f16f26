#!/usr/bin/env python3
"""allgather-sparbit, Tables I and II, rendered as a figure (and printed as
text): per rank order (block, the paper's sequential, and cyclic),
Table I: the cells where Sparbit is the fastest on the minimum, average or
maximum time, as the exclusive sets and intersections (share of the union);
Table II: the mean, median and highest improvement over the second best per
statistic, where Sparbit is the fastest. Both are scripts/compare/compare_best.py's
own tables (table1, table2), also printed as it prints them.

Data: allgather_sparbit-{block,cyclic}-n{P}-run{r}.csv from scripts/batch/allgather_sparbit.sbatch.
    /usr/bin/python3 plots/sparbit_tables.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot  # first: it says which library is missing (scripts/lib/needs.py)
import matplotlib.pyplot as plt

import sparbit_fig01
from sparbit_fig01 import compare_best

FIGURES = {"sparbit_tables": "allgather_sparbit-{block,cyclic}-n*-run*.csv (scripts/batch/allgather_sparbit.sbatch)"}
ORDERS = {"block": "Sequential (block)", "cyclic": "Cyclic"}
SETS = ["Min", "Avg", "Max", "Min Avg", "Min Max", "Avg Max", "Min Avg Max"]


def make(directory, outdir):
    result, _ = sparbit_fig01.cells(directory)
    orders = [o for o in ORDERS if o in set(result["rank_order"])]
    if not orders:
        raise mcbplot.Skip("allgather_sparbit files have neither block nor cyclic runs")
    table1, table2 = [], []
    for order in orders:
        group = result[result["rank_order"] == order]
        print(f"# rank order {order}")
        compare_best.print_table1(group)
        compare_best.print_table2(group)
        union, total, sets = compare_best.table1(group)
        share = {name: f"{n} ({100.0 * n / union if union else 0.0:.2f}%)" for name, n in sets.items()}
        table1.append([f"{ORDERS[order]} ({union} of {total})"] + [share[s] for s in SETS])
        for stat, (cases, *values) in compare_best.table2(group).items():
            numbers = ["-" if v is None else f"{v:.2f}" for v in values]
            table2.append([ORDERS[order] if stat == "min" else "", stat.capitalize(), str(cases)] + numbers)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9.5, 0.25 * (len(table1) + len(table2)) + 1.6),
                                   gridspec_kw={"height_ratios": [len(table1) + 2, len(table2) + 2]})
    for ax, title, header, rows in (
            (ax1, "Table I: cells where Sparbit is the fastest (share of the union)", ["Mapping (union of total)"] + SETS, table1),
            (ax2, "Table II: Sparbit's improvement over the second best (%)",
             ["Mapping", "Metric", "Cases", "Mean", "Median", "Highest"], table2)):
        ax.axis("off")
        ax.set_title(title)
        table = ax.table(cellText=rows, colLabels=header, loc="upper center", cellLoc="center")
        table.auto_set_font_size(False)
        table.set_fontsize(7.5)
        table.auto_set_column_width(list(range(len(header))))
    mcbplot.finish(fig, "sparbit_tables", outdir, series=len(orders), title=sparbit_fig01.source(directory))


if __name__ == "__main__":
    mcbplot.main(make)
