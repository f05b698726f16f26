#!/usr/bin/env python3
"""Writes crafted mcb CSV files (schema version 1, every column) whose
comparison by scripts/compare/compare.py has a known answer.

  make_csvs.py WORKDIR

Scenarios (each a BASE and a NEW, file or directory, under WORKDIR):
  ok/          new within the threshold, bruck faster at 1 KiB and 4 KiB, a
               per-phase row 2x slower (ignored: phase total only), one size
               only in new. Expected: exit 0, 0 regressions.
  regression/  tra radix=4 1.5x slower at 1 KiB and 4 KiB, bruck 1.8x slower at
               4 B with a very noisy row (stddev/avg 0.9, capped at 0.5:
               flagged, 1.8 > 1 + 0.10 + 0.5, but hidden by --max-noise 1),
               pairwise 1.11x at 64 B with noise 0.02 (below 1 + 0.10 + 0.02).
               Expected: exit 1, exactly REGRESSIONS flagged.
  noisy/       three repetitions per side (directories of three files):
               pairwise at 4 KiB has median 110 -> 130 us (1.18x) but the
               repetitions spread 100..130 and 100..140 (noise 30/110 = 0.27,
               40/130 = 0.31): not flagged; with --max-noise 0 it is.
  hang/        new's run ends at tra radix=2 1024 B (a hang there): that row
               and the 5 after it are missing (HANG_LACKS), the 10 before are
               unchanged. Expected: exit 1 with --missing fail (the default),
               0 with --missing warn.
  report/      the --html page's case, Open MPI 4.1.4 -> 5.0.7 with run
               metadata (FILE.csv.meta.json; UCX_TLS rc -> tcp) and two
               collectives: alltoall (the base grid) with tra radix=4 1.5x
               slower at 4 KiB (REPORT_REGRESSIONS) and bruck 0.7x at 1 KiB
               (REPORT_FASTER); allgather ring and bruck, whose NEW lacks
               bruck at 4 KiB (REPORT_LACKS). Expected: exit 1.
  mismatch/    new has 8 ranks, base 4: nothing matches, exit 2.
  badcols.csv  a CSV without the schema's columns, exit 2.
"""
import csv
import json
import os
import shutil
import sys

COLUMNS = ["schema_version", "benchmark", "mcb_version", "collective", "algorithm", "params", "mpi_library",
           "mpi_version", "ranks", "nodes", "ranks_per_node", "rank_order", "region", "mem", "datatype",
           "phase_mode", "size_bytes", "count", "phase", "iterations", "warmup", "avg_us", "median_us", "min_us",
           "max_us", "stddev_us", "validation", "host", "start_time", "in_place", "setup_us", "gpus_per_node",
           "procs_per_gpu", "gpu_aware", "platform"]
OMPI = ("Open MPI", "4.1.4", "vm-a")
MPICH = ("MPICH", "4.0.2", "vm-b")
ALGOS = [("pairwise", "none"), ("bruck", "none"), ("tra", "radix=2"), ("tra", "radix=4")]
SIZES = [4, 64, 1024, 4096]
# Flagged rows of the regression scenario: (algorithm, params, size).
REGRESSIONS = {("tra", "radix=4", 1024), ("tra", "radix=4", 4096), ("bruck", "none", 4)}
# The hang scenario: the rows new lacks, (algorithm, params, size).
HANG_LACKS = {("tra", "radix=2", 1024), ("tra", "radix=2", 4096)} | {("tra", "radix=4", s) for s in SIZES}
# The report scenario: (collective, algorithm, params, size).
OMPI5 = ("Open MPI", "5.0.7", "vm-b")
ALLGATHER = [("ring", "none"), ("bruck", "none")]
REPORT_REGRESSIONS = {("alltoall", "tra", "radix=4", 4096)}
REPORT_FASTER = {("alltoall", "bruck", "none", 1024)}
REPORT_LACKS = {("allgather", "bruck", "none", 4096)}
LIBRARY_STRING = {"4.1.4": "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022",
                  "5.0.7": "Open MPI v5.0.7, package: Open MPI root@vm-b Distribution, ident: 5.0.7, repo rev: "
                           "v5.0.7, Feb 14, 2025"}


def base_time(algo, params, size):
    t0 = {"pairwise": 20.0, "bruck": 15.0, "tra": 18.0, "ring": 22.0}[algo]
    return t0 * (1 + size / 256) * (1.1 if "4" in params else 1)


def row(mpi, algo, params, size, median, cv=0.02, phase="total", ranks=4, start="2026-11-21T10:00:00Z",
        collective="alltoall"):
    lib, version, host = mpi
    avg = median * 1.02
    return {"schema_version": 1, "benchmark": f"mcb_{collective}", "mcb_version": "0.1.0", "collective": collective,
            "algorithm": algo, "params": params, "mpi_library": lib, "mpi_version": version, "ranks": ranks,
            "nodes": 2, "ranks_per_node": ranks // 2, "rank_order": "block", "region": "none", "mem": "host",
            "datatype": "char", "phase_mode": "embedded", "size_bytes": size, "count": size, "phase": phase,
            "iterations": 100, "warmup": 10, "avg_us": f"{avg:.3f}", "median_us": f"{median:.3f}",
            "min_us": f"{median * 0.97:.3f}", "max_us": f"{median * 1.3:.3f}", "stddev_us": f"{avg * cv:.3f}",
            "validation": "pass", "host": host, "start_time": start, "in_place": 0, "setup_us": "12.500",
            "gpus_per_node": ranks // 2, "procs_per_gpu": 1, "gpu_aware": 1,
            "platform": "none"}


def write(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)


def grid(mpi, factor=lambda a, p, s: 1.0, cv=lambda a, p, s: 0.02, sizes=SIZES, ranks=4, phases=False,
         algos=ALGOS, collective="alltoall"):
    out = []
    for algo, params in algos:
        for size in sizes:
            t = base_time(algo, params, size) * factor(algo, params, size)
            if phases:  # an embedded per-phase row before the total, as mcb writes them
                out.append(row(mpi, algo, params, size, t * 0.6, phase="exchange", ranks=ranks,
                               collective=collective))
            out.append(row(mpi, algo, params, size, t, cv(algo, params, size), ranks=ranks, collective=collective))
    return out


def write_meta(csv_path, mpi, env):
    """A run metadata record beside csv_path, as mcb writes it (the fields
    compare.py reads)."""
    rec = {"record": "mcb run metadata", "version": 1, "benchmark": "mcb_alltoall", "mcb_version": "0.1.0",
           "git_commit": "83174be", "compiler": "GNU 12.2.0", "build_type": "Release",
           "mpi_library_string": LIBRARY_STRING[mpi[1]], "environment": env,
           "placement": {"ranks": 4, "nodes": 2, "ranks_per_node": 2, "rank_order": "block", "mem": "host"},
           "hardware": {"cpu_model": "crafted CPU", "packages": 1, "numa_nodes": 1, "cores": 2, "pus": 2}}
    with open(csv_path + ".meta.json", "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1)


def report(work):
    """The report scenario (see the docstring)."""
    def alltoall(a, p, s):
        return 1.5 if (a, p, s) == ("tra", "radix=4", 4096) else 0.7 if (a, s) == ("bruck", 1024) else 1.0
    for side, mpi, factor, tls in (("base", OMPI, lambda a, p, s: 1.0, "rc"), ("new", OMPI5, alltoall, "tcp")):
        rows = grid(mpi, factor) + grid(mpi, algos=ALLGATHER, collective="allgather")
        if side == "new":
            rows = [r for r in rows if (r["collective"], r["algorithm"], r["params"], r["size_bytes"])
                    not in REPORT_LACKS]
        write(f"{work}/report/{side}.csv", rows)
        write_meta(f"{work}/report/{side}.csv", mpi, {"UCX_TLS": tls, "OMPI_MCA_pml": "ucx"})


def main():
    work = sys.argv[1]
    if os.path.isdir(work):
        shutil.rmtree(work)
    base = grid(OMPI, phases=True)
    write(f"{work}/base.csv", base)

    # ok: within 10 % + noise everywhere, bruck 0.7x at 1 KiB and 4 KiB; the
    # exchange phase of pairwise 2x slower (not compared by default); 8 KiB
    # only in new.
    ok = {("pairwise", 4): 1.08, ("pairwise", 64): 0.93, ("tra", 4096): 1.05, ("bruck", 1024): 0.7,
          ("bruck", 4096): 0.7}
    rows = grid(MPICH, lambda a, p, s: ok.get((a, s), 1.0), phases=True)
    for r in rows:
        if r["phase"] == "exchange" and r["algorithm"] == "pairwise":
            r["median_us"] = f"{float(r['median_us']) * 2:.3f}"
    rows += grid(MPICH, sizes=[8192])[:1]
    write(f"{work}/ok/new.csv", rows)

    # regression
    def slow(a, p, s):
        if a == "tra" and p == "radix=4" and s >= 1024:
            return 1.5
        if a == "bruck" and s == 4:
            return 1.8
        if a == "pairwise" and s == 64:
            return 1.11
        return 1.0
    write(f"{work}/regression/new.csv",
          grid(MPICH, slow, cv=lambda a, p, s: 0.9 if (a == "bruck" and s == 4) else 0.02, phases=True))

    # noisy: three repetitions per side, in directories.
    reps_base, reps_new = [100.0, 130.0, 110.0], [130.0, 140.0, 100.0]
    for side, mpi, reps in (("base", OMPI, reps_base), ("new", MPICH, reps_new)):
        for i, t in enumerate(reps):
            rows = grid(mpi, lambda a, p, s, i=i: 1.0 + 0.01 * i)  # repetitions agree within 2 % elsewhere
            for r in rows:
                if r["algorithm"] == "pairwise" and r["size_bytes"] == 4096:
                    r["median_us"] = f"{t:.3f}"
            write(f"{work}/noisy/{side}/rep{i + 1}.csv", rows)
    # hang: the run of new ends at tra radix=2 1024 B; that row and the ones after it are missing.
    rows = grid(MPICH)
    cut = next(i for i, r in enumerate(rows) if (r["algorithm"], r["params"], r["size_bytes"]) == ("tra", "radix=2",
                                                                                                    1024))
    write(f"{work}/hang/new.csv", rows[:cut])
    report(work)
    write(f"{work}/mismatch/new.csv", grid(MPICH, ranks=8))
    with open(f"{work}/badcols.csv", "w") as f:
        f.write("algorithm,size_bytes,time\nbruck,4,1.0\n")
    print(f"make_csvs: wrote {work}")


if __name__ == "__main__":
    main()
