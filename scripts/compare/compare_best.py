#!/usr/bin/env python3
"""The fastest allgather algorithm per (process count, block size) cell and
Sparbit's improvement over the best other one, from mcb_allgather CSV files:
the data of Figures 1 and 5 and Tables I and II of the Sparbit paper
(allgather-sparbit).

Usage:
    /usr/bin/python3 scripts/compare/compare_best.py RUN.csv [RUN2.csv ...]
        [--candidates paper|all|a,b,c] [--stat avg|min|max] [--cells CELLS.csv]

A cell is (rank order, in place, ranks, block size). Its candidates are the
paper's algorithms (ring, neighbor_exchange, recursive_doubling, bruck,
sparbit: `--candidates paper`, the default), every algorithm in the files
(`all`, which adds system and system_persistent) or a list. Each statistic
(min_us, avg_us, max_us: OSU's minimum, average and maximum over
iterations of the per-iteration max over ranks) is compared on its own; a
cell measured in several files keeps the smallest value of each.

Improvement of Sparbit in a cell where it is the fastest:
(second best - sparbit) / second best, in percent, as in the paper.

Printed, per rank order:
  - the map of the fastest algorithm per cell for --stat (Figures 1 and 5):
    rows are block sizes, columns process counts; a cell reads `S 23` when
    Sparbit is fastest, by 23 % over the second, else the initial of the
    fastest (R ring, N neighbor_exchange, D recursive_doubling, B bruck,
    Y system, P system_persistent);
  - Table I: the cells where Sparbit is fastest on min, avg or max, split
    into the exclusive sets and intersections;
  - Table II: mean, median and highest improvement per statistic.
--ratios also prints, per cell, Sparbit's --stat time divided by each
candidate's (below 1: Sparbit is faster).
--cells writes one row per (cell, statistic): the fastest, its time, the
fastest other than Sparbit, Sparbit's time and its improvement over the
best other algorithm (negative when Sparbit is slower), for plots.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import needs  # noqa: E402

needs.need("pandas")
import pandas as pd  # noqa: E402

PAPER = ["ring", "neighbor_exchange", "recursive_doubling", "bruck", "sparbit"]
INITIAL = {"ring": "R", "neighbor_exchange": "N", "recursive_doubling": "D", "bruck": "B", "sparbit": "S",
           "system": "Y", "system_persistent": "P"}
STATS = ["min_us", "avg_us", "max_us"]
CELL = ["rank_order", "in_place", "ranks", "size_bytes"]


def load(paths, candidates):
    df = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    if "in_place" not in df.columns:
        df["in_place"] = 0
    df = df[(df["phase"] == "total") & (df["collective"] == "allgather")]
    if df.empty:
        sys.exit("compare_best: no allgather rows (phase total) in the files")
    if candidates == "paper":
        wanted = PAPER
    elif candidates == "all":
        wanted = list(df["algorithm"].unique())
    else:
        wanted = candidates.split(",")
    df = df[df["algorithm"].isin(wanted)]
    if "sparbit" not in set(df["algorithm"]):
        sys.exit("compare_best: no sparbit rows among the candidates")
    return df.groupby(CELL + ["algorithm"], as_index=False)[STATS].min()


def compare(times):
    """One row per (cell, statistic): fastest, fastest other, improvement."""
    out = []
    for key, rows in times.groupby(CELL):
        for stat in STATS:
            ranked = rows.sort_values(stat)
            best = ranked.iloc[0]
            others = ranked[ranked["algorithm"] != "sparbit"]
            spar = ranked[ranked["algorithm"] == "sparbit"]
            if spar.empty or others.empty:
                continue
            s, o = spar.iloc[0][stat], others.iloc[0][stat]
            out.append(dict(zip(CELL, key), stat=stat.removesuffix("_us"), best=best["algorithm"],
                            best_us=best[stat], best_other=others.iloc[0]["algorithm"], best_other_us=o,
                            sparbit_us=s, improvement_pct=100.0 * (o - s) / o, candidates=len(ranked)))
    return pd.DataFrame(out)


def print_map(cells, stat):
    view = cells[cells["stat"] == stat]
    sizes = sorted(view["size_bytes"].unique())
    ranks = sorted(view["ranks"].unique())
    print(f"fastest per cell ({stat}; S nn: Sparbit, nn % faster than the second)")
    print(f"{'size (B)':>10}" + "".join(f"{p:>7}" for p in ranks))
    for size in sizes:
        line = f"{size:>10}"
        for p in ranks:
            c = view[(view["size_bytes"] == size) & (view["ranks"] == p)]
            if c.empty:
                line += f"{'-':>7}"
                continue
            c = c.iloc[0]
            text = f"S {c['improvement_pct']:.0f}" if c["best"] == "sparbit" else INITIAL.get(c["best"], c["best"][:1])
            line += f"{text:>7}"
        print(line)


def table1(cells):
    """Table I: (union, total cells, {set name: cells}) of the cells where
    Sparbit is fastest on min, avg or max, split into exclusive sets and
    intersections."""
    wins = {s: set(map(tuple, cells[(cells["stat"] == s) & (cells["best"] == "sparbit")][CELL].values))
            for s in ("min", "avg", "max")}
    union = wins["min"] | wins["avg"] | wins["max"]
    total = cells[CELL].drop_duplicates().shape[0]
    parts = {
        "Min": wins["min"] - wins["avg"] - wins["max"],
        "Avg": wins["avg"] - wins["min"] - wins["max"],
        "Max": wins["max"] - wins["min"] - wins["avg"],
        "Min Avg": (wins["min"] & wins["avg"]) - wins["max"],
        "Min Max": (wins["min"] & wins["max"]) - wins["avg"],
        "Avg Max": (wins["avg"] & wins["max"]) - wins["min"],
        "Min Avg Max": wins["min"] & wins["avg"] & wins["max"],
    }
    return len(union), total, {name: len(cases) for name, cases in parts.items()}


def table2(cells):
    """Table II: {stat: (cases, mean, median, highest)} of Sparbit's
    improvement where it is fastest (None values without cases)."""
    out = {}
    for stat in ("min", "avg", "max"):
        won = cells[(cells["stat"] == stat) & (cells["best"] == "sparbit")]["improvement_pct"]
        out[stat] = (0, None, None, None) if won.empty else (len(won), won.mean(), won.median(), won.max())
    return out


def print_table1(cells):
    union, total, parts = table1(cells)
    print(f"Table I: Sparbit fastest in {union} of {total} cells on min, avg or max")
    for name, n in parts.items():
        print(f"  {name:<12} {n:>6} ({100.0 * n / union if union else 0.0:.2f}%)")


def print_table2(cells):
    print("Table II: Sparbit's improvement over the second, where it is fastest (%)")
    print(f"  {'metric':<7}{'cases':>7}{'mean':>9}{'median':>9}{'highest':>9}")
    for stat, (cases, mean, median, highest) in table2(cells).items():
        if not cases:
            print(f"  {stat:<7}{0:>7}{'-':>9}{'-':>9}{'-':>9}")
        else:
            print(f"  {stat:<7}{cases:>7}{mean:>9.2f}{median:>9.2f}{highest:>9.2f}")


def print_ratios(times, stat):
    col = f"{stat}_us"
    table = times.pivot_table(index=["ranks", "size_bytes"], columns="algorithm", values=col)
    others = [a for a in table.columns if a != "sparbit"]
    print(f"sparbit / algorithm ({stat}; below 1: Sparbit faster)")
    print(f"{'ranks':>6}{'size (B)':>10}" + "".join(f"{a:>20}" for a in others))
    for (ranks, size), row in table.iterrows():
        print(f"{ranks:>6}{size:>10}" + "".join(f"{row['sparbit'] / row[a]:>20.2f}" if row[a] == row[a] else f"{'-':>20}" for a in others))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+")
    p.add_argument("--candidates", default="paper", help="paper (default), all, or a list a,b,c")
    p.add_argument("--stat", default="avg", choices=["min", "avg", "max"], help="statistic of the map (default avg)")
    p.add_argument("--cells", help="write the per-cell comparison to this CSV file")
    p.add_argument("--ratios", action="store_true", help="print Sparbit's time / each candidate's per cell")
    args = p.parse_args()

    times = load(args.csv, args.candidates)
    cells = compare(times)
    if cells.empty:
        sys.exit("compare_best: no cell has sparbit and another candidate")
    if args.cells:
        cells.to_csv(args.cells, index=False)
    for (order, in_place), group in cells.groupby(["rank_order", "in_place"]):
        counts = ", ".join(str(p) for p in sorted(group["ranks"].unique()))
        print(f"# rank order {order}{', in place' if in_place else ''}: processes {counts}; "
              f"{group['size_bytes'].nunique()} sizes; candidates: {args.candidates}")
        print_map(group, args.stat)
        print_table1(group)
        print_table2(group)
        if args.ratios:
            print_ratios(times[(times["rank_order"] == order) & (times["in_place"] == in_place)], args.stat)
        print()


if __name__ == "__main__":
    main()
