#!/usr/bin/env python3
"""Checks --save-iterations against the rows of the same run: one row per
(configuration, size, iteration, rank), exactly one slowest rank per
iteration holding the iteration's maximum, and the statistics recomputed
from the saved times equal the CSV's: avg_us, median_us and max_us are
those of the slowest series, osu_avg_us the mean over ranks of each rank's
mean (to the printed precision).

  check_iterations.py ITERATIONS.csv ROWS.csv RANKS ITERATIONS
"""
import sys

import pandas as pd


def main(it_path, rows_path, ranks, iterations):
    ranks, iterations = int(ranks), int(iterations)
    it = pd.read_csv(it_path)
    rows = pd.read_csv(rows_path)
    rows = rows[rows.phase == "total"]
    failures = []
    key = ["algorithm", "params", "nodes", "phase_mode", "size_bytes"]
    groups = it.groupby(key)
    if len(groups) != len(rows):
        failures.append(f"{len(groups)} configurations x sizes saved, {len(rows)} total rows in the CSV")
    for k, g in groups:
        if len(g) != ranks * iterations or sorted(g.iteration.unique()) != list(range(iterations)):
            failures.append(f"{k}: {len(g)} rows, expected {ranks} x {iterations}")
            continue
        per_iter = g.groupby("iteration")
        if (per_iter.slowest.sum() != 1).any():
            failures.append(f"{k}: not exactly one slowest rank per iteration")
        slow = g[g.slowest == 1].sort_values("iteration").set_index("iteration").time_us
        if ((per_iter.time_us.max() - slow).abs() > 1e-9).any():
            failures.append(f"{k}: a slowest row is not the iteration's maximum")
        row = rows.set_index(key).loc[k]
        tol = 2e-3 + 1e-3 * row.avg_us
        for name, value in (("avg_us", slow.mean()), ("median_us", slow.median()), ("max_us", slow.max()),
                            ("osu_avg_us", g.groupby("rank").time_us.mean().mean())):
            if abs(value - row[name]) > tol:
                failures.append(f"{k}: {name} {row[name]} in the CSV, {value:.3f} from the saved iterations")
    for f in failures:
        print("FAIL:", f)
    print(f"iterations: {len(it)} rows, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
