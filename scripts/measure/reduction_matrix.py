#!/usr/bin/env python3
"""Every element type x reduction of mcb_allreduce (or mcb_reduce), validated
with -c against the results mcb computes itself, at several process counts:
which combinations the system MPI (or any algorithm list) gets right, gets
wrong, or refuses. Standard library only.

    scripts/measure/reduction_matrix.py --build build -n 2,3,4,7                  # system, Open MPI build
    scripts/measure/reduction_matrix.py --build build-mpich -n 2,3,4,7 --in-place
    scripts/measure/reduction_matrix.py --build build --algorithm all -n 7

One launch per (type, operation, process count); sizes of 1, 7, 1000 and
3000 elements (-m). Each cell is `pass`, `FAIL` (the first line mcb printed
about it follows the table), `refused` (mcb's one-line refusal, e.g. half on
an MPI without a 16-bit float) or `error` (the run died). Exit status 1 when
any cell failed or died, else 0. More than two processes on this 2-core
machine are oversubscribed: fine here, since nothing is timed.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import mpi_tools  # noqa: E402

TYPES = {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
         "float": 4, "double": 8, "int": 4, "half": 2, "bfloat16": 2}
OPS = ["sum", "prod", "min", "max", "band", "bor", "bxor"]
FLOATING = {"float", "double", "half", "bfloat16"}


def launch(mpi, cmd, version, n, argv, timeout):
    env = mpi_tools.allow_root(dict(os.environ), mpi)
    line = mpi_tools.launcher(mpi, n, {}, bind=None, cmd=cmd, version=version)
    try:
        r = subprocess.run(line + argv, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "error", "timed out after %d s" % timeout
    lines = (r.stdout + r.stderr).splitlines()
    refusal = [line for line in r.stderr.splitlines() if ": error: " in line]
    failed = [line for line in r.stderr.splitlines() if "validation failed" in line]
    if failed:
        return "FAIL", failed[0]
    if refusal and r.returncode != 0:
        return "refused", refusal[0]
    if r.returncode != 0:
        return "error", (lines[-1] if lines else "exit %d" % r.returncode)
    rows = [line for line in r.stdout.splitlines() if line and line[0].isdigit()]
    if not rows or any("pass" not in line for line in rows):
        return "error", "no passing rows"
    return "pass", ""


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True, help="an mcb build directory (its src/mcb_allreduce is run)")
    p.add_argument("--binary", default="mcb_allreduce", choices=["mcb_allreduce", "mcb_reduce"])
    p.add_argument("-n", default="2,3,4,7", help="process counts, comma-separated (default 2,3,4,7)")
    p.add_argument("--algorithm", default="system")
    p.add_argument("--in-place", action="store_true")
    p.add_argument("--types", default=",".join(TYPES))
    p.add_argument("--ops", default=",".join(OPS))
    p.add_argument("--timeout", type=int, default=300)
    a = p.parse_args()
    binary = os.path.join(a.build, "src", a.binary)
    if not os.access(binary, os.X_OK):
        sys.exit("reduction_matrix: no %s (build it: cmake --build %s --target %s)" % (binary, a.build, a.binary))
    try:
        counts = [int(x) for x in a.n.split(",")]
    except ValueError:
        sys.exit("reduction_matrix: -n %s: expected process counts like 2,3,4,7" % a.n)
    types, ops = a.types.split(","), a.ops.split(",")
    for t in types:
        if t not in TYPES:
            sys.exit("reduction_matrix: --types: unknown type %s (known: %s)" % (t, ", ".join(TYPES)))
    for o in ops:
        if o not in OPS:
            sys.exit("reduction_matrix: --ops: unknown operation %s (known: %s)" % (o, ", ".join(OPS)))
    try:
        mpi, cmd, version = mpi_tools.binary_launcher(binary)
    except mpi_tools.MpiToolError as e:
        sys.exit("reduction_matrix: %s" % e)
    print("# %s --algorithm %s -c%s on %s %s (%s, launched by %s), process counts %s" %
          (a.binary, a.algorithm, " --in-place" if a.in_place else "", mpi_tools.LIBRARY_NAME[mpi], version, binary,
           cmd, a.n))
    print("%-9s %-5s %s" % ("type", "op", " ".join("%-8s" % ("P=%d" % n) for n in counts)))
    notes, bad = [], False
    for t in types:
        for o in ops:
            if t in FLOATING and o in ("band", "bor", "bxor"):
                continue  # MPI does not define them (mcb refuses them: tested in CTest)
            b = TYPES[t]
            argv = [binary, "--algorithm", a.algorithm, "-c", "-T", t, "--op", o, "-i", "1", "-x", "0", "-m",
                    ",".join(str(b * c) for c in (1, 7, 1000, 3000))] + (["--in-place"] if a.in_place else [])
            cells = []
            for n in counts:
                verdict, why = launch(mpi, cmd, version, n, argv, a.timeout)
                cells.append(verdict)
                bad |= verdict in ("FAIL", "error")
                if why and (t, o, verdict) not in [(x[0], x[1], x[2]) for x in notes]:
                    notes.append((t, o, verdict, n, why))
            print("%-9s %-5s %s" % (t, o, " ".join("%-8s" % c for c in cells)), flush=True)
    for t, o, verdict, n, why in notes:
        print("# %s %s (%s, first at P=%d): %s" % (t, o, verdict, n, why))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
