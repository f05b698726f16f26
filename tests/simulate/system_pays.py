#!/usr/bin/env python3
"""The simulation build's `system` alltoall and allgather against mcb's
implementation of what SMPI's MPICH selector runs (docs/simulation.md, "What
system pays in the simulation build"), on one node of K ranks (K >= 8, a
power of two): alltoall blocks of 64 B (bruck), 4096 B (scatter_dest) and
65536 B (pairwise); allgather on K ranks at 64 B (recursive_doubling) and on
K - 4 (not a power of two) at 64 B (bruck) and 16384 B (ring):

  1. per-message model (PLATFORM, no per-core rates): `system` is SMPI's own
     collective, and mcb's implementation of the same choice takes the same
     simulated time within 3% (they send the same messages; SMPI's moves its
     own block as a message to itself, mcb copies it);
  2. full model (PLATFORM-shm: local work charged): `system` is mcb's
     implementation of that choice, paying its local work: its time equals
     that algorithm's own run within 1%, the header says so, and at 64 B it
     is no faster than mcb's bruck (the issue's check: SMPI's own bruck,
     paying nothing, ran 0.76x of mcb's).

  system_pays.py SIMULATE_PY BUILD PLATFORM K OUTDIR
"""
import os
import sys

import simrun

# (binary, ranks, {block size: what SMPI runs}), with K ranks.
def cases(k):
    return [("mcb_alltoall", k, {64: "bruck", 4096: "scatter_dest", 65536: "pairwise"}),
            ("mcb_allgather", k, {64: "recursive_doubling"}),
            ("mcb_allgather", k - 4, {64: "bruck", 16384: "ring"})]


def times(py, build, platform, binary, k, sizes, out):
    algos = ",".join(["system"] + sorted(set(sizes.values())))
    rows, stdout = simrun.simulate(py, build, platform, 1, k, out,
                                   ["-m", ",".join(map(str, sorted(sizes))), "-i", "2", "-x", "1", "-c",
                                    "--algorithm", algos], binary=binary)
    return {(a, s): float(r["avg_us"]) for (a, _, s, phase), r in rows.items() if phase == "total"}, stdout


def main():
    py, build, platform, k, out = sys.argv[1:6]
    k = int(k)
    failed = 0

    def check(ok, what):
        nonlocal failed
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}")

    for binary, p, sizes in cases(k):
        where = os.path.join(out, f"{binary}-{p}")
        plain, _ = times(py, build, platform, binary, p, sizes, os.path.join(where, "plain"))
        full, stdout = times(py, build, platform + "-shm", binary, p, sizes, os.path.join(where, "shm"))
        for size, name in sizes.items():
            s, m = plain[("system", size)], plain[(name, size)]
            check(abs(s - m) <= 0.03 * s,
                  f"{binary}, {p} ranks, {platform}, {size} B: SMPI's system {s:.2f} us, mcb's {name} {m:.2f} us")
            s, m = full[("system", size)], full[(name, size)]
            check(abs(s - m) <= 0.01 * m,
                  f"{binary}, {p} ranks, {platform}-shm, {size} B: system {s:.2f} us = mcb's {name} {m:.2f} us")
        check("system: MPICH's selection as SMPI makes it" in stdout,
              f"{binary}: the full model's header names what system runs")
        if binary == "mcb_alltoall":
            check(full[("system", 64)] >= 0.99 * full[("bruck", 64)],
                  f"alltoall, {platform}-shm, 64 B: system {full[('system', 64)]:.2f} us no faster than bruck "
                  f"{full[('bruck', 64)]:.2f} us")
    print("the system reference pays its local work" if not failed else f"{failed} checks failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
