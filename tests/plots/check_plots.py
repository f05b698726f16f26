#!/usr/bin/env python3
"""Test of plots/: runs plots/all.py on plots/sample and checks that
  - every figure of EXPECTED was made, with its expected number of series
    (read from the scripts' own summary lines), and nothing was skipped or
    failed;
  - each figure's PNG is a real, non-trivial PNG and its PDF a PDF;
  - every plot named in scripts/batch/figures.md (`NAME.py`, a script of plots/,
    or `figure.py NAME`, a row of plots/figure.py's table) exists and made a
    figure, and `plots/figure.py --list` names every figure.

    check_plots.py ROOT OUTDIR
"""
import os
import re
import subprocess
import sys

# Figure -> series on plots/sample (a legend entry, or a heat map's category).
EXPECTED = {
    "locality_fig07": 9,  # system, hierarchical, multileader x 3 leader sizes, pairwise and nonblocking
    "locality_fig08": 9,
    "locality_fig09": 7,
    "locality_fig10": 11,
    "locality_fig11": 11,
    "locality_fig12": 11,
    "locality_fig13": 5,  # gather, repack, inter-node, scatter, total
    "locality_fig14": 4,
    "locality_fig15": 4,
    "locality_fig16": 4,
    "locality_fig17_18": 7,  # per system: dragonfly and gpu16x4
    "tra_fig04": 3,  # K, D, the ceil(sqrt(P)) marks
    "tra_fig08_11": 3,  # time, best radix, sqrt(P) where it is not the best (simulated: deterministic)
    "tra_fig09": 3,
    "tra_fig10": 3,  # system, TRA, TRA2
    "tra_fig12": 3,
    "tra_fig13": 6,  # system, TRA, TRA2: transposes and compute each
    "sparbit_fig01": 4,  # the four classic algorithms (the paper's Figure 1 precedes Sparbit)
    "sparbit_fig05": 5,
    "sparbit_tables": 2,  # block and cyclic
    "multiradix_fig09_11": 11,  # system (2), shm_* persistent and blocking (6), 3 point-to-point
    "multiradix_fig12": 11,
    "multiradix_fig13": 11,
    "multiradix_fig14": 4,  # system_persistent, 3 shm_* persistent
    "multiradix_fig15_17": 3,  # system, shm_tree persistent and blocking
    "multiradix_set": 11,  # the algorithms' names over the eight panels (system, persistent, classic, shm)
    "ppg_fig05": 3,  # active 1, 2, 4 (PPG 4 in the sample)
    "ppg_fig08": 2,  # standard, lane
    "ppg_fig09": 2,
    "ppg_fig10": 3,  # PPG 1, 2, 4
    "ppg_fig11": 3,
    "ppg_fig12": 6,  # standard, lane, lane + ring at PPG 1 and 4
    "ppg_fig13": 6,
}


def main():
    root, outdir = sys.argv[1], sys.argv[2]
    proc = subprocess.run([sys.executable, os.path.join(root, "plots", "all.py"), os.path.join(root, "plots", "sample"),
                           "-o", outdir, "--strict"], capture_output=True, text=True, timeout=600)
    print(proc.stdout + proc.stderr)
    errors = []
    if proc.returncode != 0:
        errors.append(f"all.py exited {proc.returncode}")
    made = {}
    for name, series, paths in re.findall(r"^figure (\S+): (\d+) series, \d+ panels, \d+ points: (.*)$", proc.stdout,
                                          re.M):
        made[name] = int(series)
        for path in paths.split():
            with open(path, "rb") as f:
                head = f.read(8)
            size = os.path.getsize(path)
            if path.endswith(".png") and (head != b"\x89PNG\r\n\x1a\n" or size < 10000):
                errors.append(f"{path}: not a PNG of a figure ({size} bytes)")
            if path.endswith(".pdf") and (not head.startswith(b"%PDF") or size < 2000):
                errors.append(f"{path}: not a PDF of a figure ({size} bytes)")
    for name, series in EXPECTED.items():
        base = [m for m in made if m == name or m.startswith(name + "-")]
        if not base:
            errors.append(f"{name}: not made")
        for m in base:
            if made[m] != series:
                errors.append(f"{m}: {made[m]} series, expected {series}")
    for m in made:
        if not any(m == n or m.startswith(n + "-") for n in EXPECTED):
            errors.append(f"{m}: made but not in this test's EXPECTED: add it")
    with open(os.path.join(root, "scripts", "batch", "figures.md")) as f:
        table = f.read()
    listing = subprocess.run([sys.executable, os.path.join(root, "plots", "figure.py"), "--list"],
                             capture_output=True, text=True, timeout=120).stdout
    listed = dict(re.findall(r"^(\S+) .*\n .*; in (\S+)$", listing, re.M))  # name -> where
    for script, name in sorted(set(re.findall(r"`(\w+)\.py(?: (\w+))?`", table))):
        if script in ("all", "compare_best"):
            continue
        if script == "figure":
            if listed.get(name) != "plots/figure.py":
                errors.append(f"scripts/batch/figures.md names `figure.py {name}`, which plots/figure.py's table lacks")
        elif not os.path.isfile(os.path.join(root, "plots", script + ".py")):
            errors.append(f"scripts/batch/figures.md names plots/{script}.py, which does not exist")
        if (name or script) not in EXPECTED:
            errors.append(f"scripts/batch/figures.md names {name or script}, which this test does not check")
    for name in EXPECTED:
        if name not in listed:
            errors.append(f"plots/figure.py --list does not name {name}")
    for e in errors:
        print("FAIL:", e)
    print(f"plots: {len(made)} figures checked, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
