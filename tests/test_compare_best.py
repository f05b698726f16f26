#!/usr/bin/env python3
"""Checks scripts/compare/compare_best.py on crafted allgather rows whose answer is
known: the fastest per cell, Sparbit's improvement over the second, the
Table I split and the Table II statistics, and the candidate sets.

  test_compare_best.py SCRIPT WORKDIR
"""
import csv
import os
import subprocess
import sys

# (order, ranks, size) -> algorithm -> (min, avg, max) in us
CASES = {
    # Sparbit fastest on avg (20 % over bruck) and max (25 %), bruck on min.
    ("block", 4, 8): {"ring": (9, 10, 12), "bruck": (3, 5, 8), "sparbit": (4, 4, 6), "system": (1, 1, 1)},
    # Ring fastest everywhere.
    ("block", 4, 1024): {"ring": (9, 10, 12), "bruck": (19, 20, 30), "sparbit": (14, 15, 16), "system": (1, 1, 1)},
    # Sparbit fastest on all three: 50 %, 40 %, 10 % over neighbor_exchange.
    ("cyclic", 4, 8): {"neighbor_exchange": (8, 10, 10), "sparbit": (4, 6, 9), "system": (1, 1, 1)},
}


def run(script, *args):
    proc = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"compare_best.py {' '.join(args)} failed:\n{proc.stderr}")
    return proc.stdout


def main():
    script, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "crafted.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["collective", "algorithm", "phase", "rank_order", "in_place", "ranks", "size_bytes",
                    "min_us", "avg_us", "max_us"])
        for (order, ranks, size), algos in CASES.items():
            for algo, (lo, avg, hi) in algos.items():
                w.writerow(["allgather", algo, "total", order, 0, ranks, size, lo, avg, hi])
                w.writerow(["allgather", algo, "exchange", order, 0, ranks, size, 0, 0, 0])  # not the total: ignored
    out = run(script, path, "--cells", os.path.join(work, "cells.csv"))
    print(out)
    failures = []

    def expect(text, where=out):
        if text not in where:
            failures.append(f"missing: {text!r}")

    block, cyclic = out.split("# rank order cyclic")
    expect("         8   S 20", block)
    expect("      1024      R", block)
    expect("Table I: Sparbit fastest in 1 of 2 cells", block)
    expect("  Avg Max           1 (100.00%)", block)
    expect("  Min Avg Max       0 (0.00%)", block)
    expect("  avg          1    20.00    20.00    20.00", block)
    expect("  max          1    25.00    25.00    25.00", block)
    expect("  min          0        -", block)
    expect("         8   S 40", cyclic)
    expect("  Min Avg Max       1 (100.00%)", cyclic)
    expect("  min          1    50.00    50.00    50.00", cyclic)
    expect("  max          1    10.00    10.00    10.00", cyclic)

    with open(os.path.join(work, "cells.csv")) as f:
        cells = list(csv.DictReader(f))
    row = [c for c in cells if c["rank_order"] == "block" and c["size_bytes"] == "1024" and c["stat"] == "avg"][0]
    if row["best"] != "ring" or abs(float(row["improvement_pct"]) - (10 - 15) / 10 * 100) > 1e-9:
        failures.append(f"cells.csv block 1024 avg: {row}")

    # With the system MPI among the candidates it wins every cell ("Y").
    out_all = run(script, path, "--candidates", "all")
    expect("         8      Y", out_all)
    expect("Table I: Sparbit fastest in 0 of 2 cells", out_all)
    # A list of candidates: without bruck, sparbit wins min at 8 B too (ring second, 9 -> 4).
    out_list = run(script, path, "--candidates", "ring,sparbit", "--stat", "min")
    expect("         8   S 56", out_list)

    # Without sparbit among the candidates there is nothing to compare: one line, non-zero exit.
    bad = subprocess.run([sys.executable, script, path, "--candidates", "ring,bruck"], capture_output=True, text=True)
    if bad.returncode == 0 or "no sparbit rows among the candidates" not in bad.stderr:
        failures.append(f"--candidates ring,bruck: exit {bad.returncode}, stderr {bad.stderr!r}")

    for f in failures:
        print("FAIL:", f)
    print("compare_best:", "FAIL" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
