#!/usr/bin/env python3
"""--sim-shared-malloc changes memory, not the model: the same runs with
private buffers (validated) and with every buffer of 1 KiB and more on SMPI's
shared pages give the same simulated times to the last digit, and the shared
run says that it validates nothing.

  shared_malloc.py SIMULATE_PY BUILD PLATFORM NODES K OUTDIR
"""
import os
import sys

import simrun


def simulate(py, build, platform, nodes, k, out, extra):
    rows, text = simrun.simulate(py, build, platform, nodes, k, out,
                                 ["-m", "4,4096", "-i", "2", "-x", "1", "--algorithm", "pairwise,nonblocking,node_aware,tra",
                                  "--inner", "pairwise"] + extra, timeout=120)
    return {key: (r["avg_us"], r["validation"]) for key, r in rows.items()}, text


def main():
    py, build, platform, nodes, k, out = sys.argv[1:7]
    private, _ = simulate(py, build, platform, nodes, k, os.path.join(out, "private"), ["-c"])
    shared, text = simulate(py, build, platform, nodes, k, os.path.join(out, "shared"), ["--sim-shared-malloc", "1024"])
    if "# validation: off (shared buffers" not in text:
        sys.exit("FAIL: the shared run does not say '# validation: off (shared buffers ...'")
    if set(private) != set(shared) or not private:
        sys.exit(f"FAIL: different rows: {sorted(set(private) ^ set(shared))}")
    bad = [(key, private[key][0], shared[key][0]) for key in private if private[key][0] != shared[key][0]]
    if bad:
        sys.exit(f"FAIL: simulated times differ with shared buffers: {bad[:5]}")
    if any(v != "pass" for _, v in private.values()) or any(v != "off" for _, v in shared.values()):
        sys.exit("FAIL: expected validation pass (private) and off (shared) in every row")
    print(f"shared buffers: {len(private)} rows, the same simulated times; validation off, as said")


if __name__ == "__main__":
    main()
