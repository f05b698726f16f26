#!/usr/bin/python3
"""CP2K's H2O-32 system, written for mcb, and the summary of cp2k.sh's runs.

  cp2k_h2o.py input --molecules 32 --steps 2 --out h2o.inp
      A CP2K input of the standard QS benchmark's kind: N water molecules
      (32: the H2O-32 system) at liquid density in a cubic cell, BLYP with
      GTH pseudopotentials and the DZVP basis, 280 Ry cutoff, OT with DIIS
      and the full single inverse preconditioner, EPS_SCF 1e-6, NVE
      molecular dynamics (0.5 fs steps at 300 K). The coordinates are made
      here, not copied: oxygens on an fcc lattice (32 = 2 x 2 x 2 cells of 4),
      each molecule's orientation drawn from a seeded generator (the same
      file on every machine), O-H 0.9572 A, H-O-H 104.52 degrees.
  cp2k_h2o.py summary DIR
      Reads DIR/<config>-<rep>.out (CP2K's output) and, if present,
      DIR/<config>-<rep>.report (the preload's report); with --check, each
      report must show the four collectives called and served, the calls
      left to the MPI only for a zero count or the program's own reduction
      operations. Prints per
      configuration the energies (every MD step's potential energy: equal
      across configurations to the last printed digit, or the difference),
      CP2K's total time (its timing report's CP2K line, total time of the
      slowest rank) and the collective routines' times (mp_sum_*,
      mp_bcast_*, mp_alltoall_*, mp_allgather_*, mp_max/min/prod/sum_*:
      CP2K's own timers) as median and range over the repetitions, and the
      ratio of medians against the first configuration.
"""
import argparse
import math
import random
import re
import statistics
import sys
from pathlib import Path

DENSITY_G_CM3 = 0.997  # liquid water at 298 K
WATER_G_MOL = 18.015
AVOGADRO = 6.02214076e23


def water_coordinates(molecules, seed=56):
    """Oxygens on an fcc lattice filling a cubic cell; random orientations."""
    cells = round((molecules / 4) ** (1 / 3))
    if 4 * cells**3 != molecules:
        raise SystemExit(f"cp2k_h2o.py: --molecules must be 4 k^3 (4, 32, 108, ...), not {molecules}")
    volume_a3 = molecules * WATER_G_MOL / AVOGADRO / DENSITY_G_CM3 * 1e24
    box = volume_a3 ** (1 / 3)
    a = box / cells
    basis = [(0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5)]
    rng = random.Random(seed)
    r_oh, angle = 0.9572, math.radians(104.52)
    atoms = []
    for i in range(cells):
        for j in range(cells):
            for k in range(cells):
                for b in basis:
                    o = [(i + b[0] + 0.25) * a, (j + b[1] + 0.25) * a, (k + b[2] + 0.25) * a]
                    # A random orthonormal frame (u, v): the molecule's plane.
                    while True:
                        u = [rng.gauss(0, 1) for _ in range(3)]
                        n = math.sqrt(sum(x * x for x in u))
                        if n > 1e-3:
                            u = [x / n for x in u]
                            break
                    while True:
                        w = [rng.gauss(0, 1) for _ in range(3)]
                        d = sum(x * y for x, y in zip(w, u))
                        v = [x - d * y for x, y in zip(w, u)]
                        n = math.sqrt(sum(x * x for x in v))
                        if n > 1e-3:
                            v = [x / n for x in v]
                            break
                    h1 = [o[t] + r_oh * (math.cos(angle / 2) * u[t] + math.sin(angle / 2) * v[t]) for t in range(3)]
                    h2 = [o[t] + r_oh * (math.cos(angle / 2) * u[t] - math.sin(angle / 2) * v[t]) for t in range(3)]
                    atoms += [("O", o), ("H", h1), ("H", h2)]
    return box, atoms


def write_input(args):
    box, atoms = water_coordinates(args.molecules)
    coords = "\n".join(f"      {el} {x:12.6f} {y:12.6f} {z:12.6f}" for el, (x, y, z) in atoms)
    text = f"""# H2O-{args.molecules} for mcb (scripts/apps/cp2k_h2o.py): {args.molecules} water molecules at
# {DENSITY_G_CM3} g/cm^3, BLYP/GTH/DZVP, 280 Ry, OT DIIS, NVE MD of {args.steps} steps.
&GLOBAL
  PROJECT H2O-{args.molecules}-mcb
  RUN_TYPE MD
  PRINT_LEVEL LOW
  &TIMINGS
    THRESHOLD 0.0
  &END TIMINGS
&END GLOBAL
&FORCE_EVAL
  METHOD QS
  &DFT
    BASIS_SET_FILE_NAME BASIS_SET
    POTENTIAL_FILE_NAME GTH_POTENTIALS
    &MGRID
      CUTOFF 280
      NGRIDS 4
    &END MGRID
    &QS
      EPS_DEFAULT 1.0E-12
    &END QS
    &SCF
      SCF_GUESS ATOMIC
      EPS_SCF 1.0E-6
      MAX_SCF 50
      &OT ON
        MINIMIZER DIIS
        PRECONDITIONER FULL_SINGLE_INVERSE
      &END OT
      &OUTER_SCF
        EPS_SCF 1.0E-6
        MAX_SCF 10
      &END OUTER_SCF
    &END SCF
    &XC
      &XC_FUNCTIONAL BLYP
      &END XC_FUNCTIONAL
    &END XC
  &END DFT
  &SUBSYS
    &CELL
      ABC {box:.4f} {box:.4f} {box:.4f}
    &END CELL
    &COORD
{coords}
    &END COORD
    &KIND H
      BASIS_SET DZVP-GTH-BLYP
      POTENTIAL GTH-BLYP-q1
    &END KIND
    &KIND O
      BASIS_SET DZVP-GTH-BLYP
      POTENTIAL GTH-BLYP-q6
    &END KIND
  &END SUBSYS
&END FORCE_EVAL
&MOTION
  &MD
    ENSEMBLE NVE
    STEPS {args.steps}
    TIMESTEP 0.5
    TEMPERATURE 300
  &END MD
&END MOTION
"""
    Path(args.out).write_text(text)


ENERGY_RE = re.compile(r"ENERGY\| Total FORCE_EVAL \( QS \) energy \[a\.u\.\]:\s+(\S+)")
# CP2K's timing report: SUBROUTINE CALLS ASD SELF-AVG SELF-MAX TOTAL-AVG TOTAL-MAX
TIMING_RE = re.compile(r"^ (\S+)\s+(\d+)\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(\S+)\s*$")
# CP2K's compute kernels (no MPI inside: collocation and integration on the
# grids, DBCSR's local multiplications, the local 3-D FFTs): the control.
# The preload cannot change their time; when their ratio moves with the
# total's, the machine's speed moved between the runs.
COMPUTE = ("grid_collocate_task_list", "grid_integrate_task_list", "multiply_cannon_multrec", "fft3d_ps")

# CP2K's message-passing timers by collective family (mp_sum_l, mp_max_d,
# mp_bcast_i, mp_alltoall_z22v, mp_allgather_i34, ...): leaves of its call tree.
FAMILIES = {
    "reductions": re.compile(r"^mp_(sum|max|min|prod|maxloc|minloc|isum|lor|land)(_\w+)?$"),
    "bcast": re.compile(r"^mp_(i?bcast)(_\w+)?$"),
    "alltoall": re.compile(r"^mp_(i?alltoall)(_\w+)?$"),
    "allgather": re.compile(r"^mp_(i?allgather)(_\w+)?$"),
}


def read_run(path):
    """Energies, CP2K's total, and seconds per collective family (slowest rank)."""
    text = path.read_text(errors="replace")
    energies = ENERGY_RE.findall(text)
    total = None
    families = {f: 0.0 for f in FAMILIES}
    families["compute"] = 0.0
    in_timing = False
    for line in text.splitlines():
        if "T I M I N G" in line:
            in_timing = True
            continue
        m = TIMING_RE.match(line) if in_timing else None
        if not m:
            continue
        name, self_max, total_max = m.group(1), float(m.group(3)), float(m.group(4))
        if name == "CP2K":
            total = total_max
        if name in COMPUTE:
            families["compute"] += self_max
        for family, regex in FAMILIES.items():
            if regex.match(name):
                families[family] += total_max
    return energies, total, families


def spread(values):
    if not values:
        return "-"
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def spread3(values):
    if not values:
        return "-"
    return f"{statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]"


def config_order(d, found):
    """The configurations in the order cp2k.sh ran them (its README.txt)."""
    order = []
    readme = d / "README.txt"
    if readme.exists():
        order = [m.group(1) for m in re.finditer(r"^# config (\S+?):", readme.read_text(), re.M)]
    return [c for c in order if c in found] + sorted(c for c in found if c not in order)


def summary(args):
    d = Path(args.dir)
    runs = {}
    for out in sorted(d.glob("*-[0-9]*.out")):
        config, rep = out.stem.rsplit("-", 1)
        runs.setdefault(config, []).append((int(rep), out))
    if not runs:
        raise SystemExit(f"cp2k_h2o.py: no <config>-<rep>.out in {d}")
    configs = config_order(d, runs)
    base_energies = None
    rows = []
    ok = True
    for config in configs:
        energies, totals, fams, by_rep = [], [], {f: [] for f in list(FAMILIES) + ["compute"]}, {}
        for rep, out in sorted(runs[config]):
            e, total, families = read_run(out)
            if total is None:
                print(f"{out}: no timing report (the run did not finish)")
                ok = False
                continue
            energies.append(e)
            totals.append(total)
            by_rep[rep] = (total, families["compute"])
            for f, t in families.items():
                fams[f].append(t)
        distinct = {tuple(e) for e in energies}
        if len(distinct) > 1:
            print(f"{config}: the repetitions' energies differ among themselves: {sorted(distinct)}")
        e0 = energies[0] if energies else []
        if base_energies is None:
            base_energies = e0
        same = e0 == base_energies and len(distinct) <= 1
        if e0 != base_energies:
            ok = False
            diffs = [float(a) - float(b) for a, b in zip(e0, base_energies)]
            print(f"{config}: energies differ from {configs[0]}'s by {diffs}")
        rows.append((config, totals, fams, same, by_rep))
    print(f"# CP2K H2O runs in {d}: seconds of CP2K's own timing report (TOTAL TIME of the slowest rank),")
    print("# median [min-max] over the repetitions; ratio: of medians, against the first configuration;")
    print("# collective families: CP2K's mp_sum/max/min/prod_*, mp_bcast_*, mp_alltoall_*, mp_allgather_* timers summed")
    head = f"{'configuration':<12} {'reps':>4} {'CP2K total':>22} {'ratio':>6}"
    for f in FAMILIES:
        head += f" {f:>20}"
    print(head + "  energies")
    base_total = statistics.median(rows[0][1]) if rows[0][1] else float("nan")
    for config, totals, fams, same, _ in rows:
        ratio = statistics.median(totals) / base_total if totals else float("nan")
        line = f"{config:<12} {len(totals):>4} {spread(totals):>22} {ratio:>6.3f}"
        for f in FAMILIES:
            line += f" {spread(fams[f]):>20}"
        print(line + ("  identical" if same else "  DIFFER"))
    # Paired: each repetition's run against the first configuration's run of
    # the same repetition (they ran one after the other), total and compute.
    print(f"# paired ratios against {configs[0]}, run by run of the same repetition: median [min-max];")
    print("# compute: CP2K's MPI-free kernels (" + ", ".join(COMPUTE) + "), the control for the machine's speed;")
    print("# corrected: total ratio / compute ratio of the same pair (the machine's speed divided out)")
    print(f"{'configuration':<12} {'total':>22} {'compute':>22} {'corrected':>22}  per repetition (total/compute)")
    base = rows[0][4]
    for config, _, _, _, by_rep in rows[1:]:
        reps = sorted(r for r in by_rep if r in base)
        tr = [by_rep[r][0] / base[r][0] for r in reps]
        cr = [by_rep[r][1] / base[r][1] for r in reps if base[r][1] > 0]
        pairs = [r for r in reps if base[r][1] > 0 and by_rep[r][1] > 0]
        corrected = [(by_rep[r][0] / base[r][0]) / (by_rep[r][1] / base[r][1]) for r in pairs]
        each = " ".join(f"{by_rep[r][0] / base[r][0]:.3f}/{by_rep[r][1] / base[r][1]:.3f}" for r in pairs)
        print(f"{config:<12} {spread3(tr):>22} {spread3(cr):>22} {spread3(corrected):>22}  {each}")
    if base_energies:
        print(f"# potential energy per force evaluation [a.u.] ({configs[0]}): " + " ".join(base_energies))
    for config in configs:
        reports = sorted(d.glob(f"{config}-*.report"))
        if reports:
            print(f"# the preload's report of {config}, {reports[-1].name} (rank 0):")
            print(reports[-1].read_text().rstrip())
            if args.check:
                for report in reports:
                    ok &= check_report(report)
    return 0 if ok else 1


# Fallback reasons that are the program's own choice (nothing an algorithm
# could serve): a zero count, its own reduction operations.
EXPECTED_REASONS = {"empty", "user_op", "non_commutative_op"}


def check_report(path):
    """Every intercepted collective called and served, and the calls left to
    the MPI only for the reasons above."""
    text = path.read_text()
    ok = True
    for coll in ("MPI_Alltoall", "MPI_Allgather", "MPI_Allreduce", "MPI_Bcast"):
        m = re.search(rf"^mcb_preload: {coll} algorithm=\S+ calls=(\d+) served=(\d+) fallback=(\d+) ", text, re.M)
        if not m:
            print(f"{path}: no {coll} line")
            ok = False
            continue
        calls, served, fallback = map(int, m.groups())
        if served == 0 or calls != served + fallback:
            print(f"{path}: {coll} calls={calls} served={served} fallback={fallback}")
            ok = False
        for reason, n in re.findall(rf"^mcb_preload: {coll} fallback reason=(\S+) calls=(\d+)", text, re.M):
            if reason not in EXPECTED_REASONS:
                print(f"{path}: {coll}: {n} calls left to the MPI for {reason}")
                ok = False
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("input")
    i.add_argument("--molecules", type=int, default=32)
    i.add_argument("--steps", type=int, default=2)
    i.add_argument("--out", required=True)
    s = sub.add_parser("summary")
    s.add_argument("dir")
    s.add_argument("--check", action="store_true",
                   help="also fail unless every report shows each of the four collectives served, "
                   "with fallbacks only for " + ", ".join(sorted(EXPECTED_REASONS)))
    args = p.parse_args()
    if args.cmd == "input":
        write_input(args)
        return 0
    return summary(args)


if __name__ == "__main__":
    sys.exit(main())
