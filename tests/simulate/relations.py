#!/usr/bin/env python3
"""Relations the papers report and the model predicts, asserted on simulated
times (deterministic under SMPI), on a simulated cluster of NODES x K ranks:

  1. node_aware sends fewer inter-node messages than pairwise: faster at 4 B;
  2. tra with radix ~sqrt(P) has fewer rounds than radix P: faster at 4 B;
  3. tra with radix ~sqrt(P) moves less data than radix 2: faster at 4 KiB;
  4. tra2 (two layers: intra-node, then across nodes) beats the one-layer
     pairwise at 4 B;
  5. the same run twice gives the same times to the last digit.

  relations.py SIMULATE_PY BUILD PLATFORM NODES K OUTDIR
"""
import math
import os
import sys

import simrun


def simulate(py, build, platform, nodes, k, out, algo_args):
    rows, _ = simrun.simulate(py, build, platform, nodes, k, out, ["-m", "4,4096", "-i", "2", "-x", "1", "-c"] + algo_args)
    return {(a, p, size): float(r["avg_us"]) for (a, p, size, phase), r in rows.items() if phase == "total"}


def main():
    py, build, platform, nodes, k, out = sys.argv[1:7]
    nodes, k = int(nodes), int(k)
    p = nodes * k
    sqrt_p = max(2, round(math.sqrt(p)))
    algos = ["--algorithm", "pairwise,node_aware,tra,tra2", "--inner", "pairwise",
             "--radix", f"2,{sqrt_p},{p}", "--radix-intra", str(k), "--radix-inter", str(nodes)]
    first = simulate(py, build, platform, nodes, k, os.path.join(out, "a"), algos)
    second = simulate(py, build, platform, nodes, k, os.path.join(out, "b"), algos)

    def t(algo, params, size):
        for (a, prm, s), v in first.items():
            if a == algo and s == size and all(x in prm.split(".") for x in params):
                return v
        sys.exit(f"FAIL: no row for {algo} {params} {size} B in {sorted(first)}")

    checks = [
        ("node_aware < pairwise at 4 B (fewer inter-node messages)",
         t("node_aware", ["inner=pairwise"], 4), t("pairwise", [], 4)),
        (f"tra radix {sqrt_p} < tra radix {p} at 4 B (fewer rounds)",
         t("tra", [f"radix={sqrt_p}"], 4), t("tra", [f"radix={p}"], 4)),
        (f"tra radix {sqrt_p} < tra radix 2 at 4096 B (less data)",
         t("tra", [f"radix={sqrt_p}"], 4096), t("tra", ["radix=2"], 4096)),
        ("tra2 < pairwise at 4 B (two layers)", t("tra2", [], 4), t("pairwise", [], 4)),
    ]
    failed = 0
    for what, ours, other in checks:
        ok = ours < other
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {ours:.2f} us vs {other:.2f} us")
    if first != second:
        diff = [k for k in first if first[k] != second.get(k)]
        print(f"FAIL: two runs differ in {len(diff)} rows, e.g. {diff[:3]}")
        failed += 1
    else:
        print(f"ok   two runs give identical times ({len(first)} rows)")
    print("all relations hold" if not failed else f"{failed} relations failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
