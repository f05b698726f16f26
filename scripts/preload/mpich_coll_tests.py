#!/usr/bin/env python3
"""MPICH's own tests of the collectives libmcb_preload.so serves (issue 71):
the reduce, reduce-scatter, allgatherv, gather and scatter programs of
MPICH's test/mpi/coll (tag v4.0.2), built against the MPI under test and
run at the rank counts of MPICH's testlist, plainly and under the preload
with each set of algorithms below. A program passes when it prints MPICH's
" No Errors"; the preload's report says how many of its calls were served.

  /usr/bin/python3 scripts/preload/mpich_coll_tests.py --mpich-src DIR [--mpi openmpi|mpich]
      [--build BUILD] [--work DIR] [--sets plain,shm,classic,system] [--tests NAME,...]
      [--max-ranks 10] [--timeout 300]

DIR holds MPICH's test/mpi (a release tarball of 4.0.2 unpacked, or
`git -C mpich archive v4.0.2 test/mpi | tar -x -C DIR`). The programs are
compiled with MPICH's util/mtest.c and three small headers written here
(mpitestconf.h, an empty mtest_mpix.h) by the MPI's mpicc; BUILD is the mcb
build whose src/preload/libmcb_preload.so is loaded (default build, or
build-mpich with --mpi mpich), and its MPICH yield shim keeps the
oversubscribed MPICH runs fast. Ranks beyond the cores are oversubscribed:
correctness only. Exit status 1 if a program failed, 2 on bad input.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))  # scripts/: lib
from lib import mpi_tools  # noqa: E402

# The programs (test/mpi/coll/NAME.c) and their rank counts in MPICH
# 4.0.2's testlist. red3 and red4 reduce with user-defined operations and
# redscatinter and redscatbkinter run on intercommunicators: the preload
# hands those calls to the MPI (reasons user_op, non_commutative_op,
# intercomm), which the runs prove right too.
TESTS = {
    "allgatherv2": [10], "allgatherv3": [10], "allgatherv4": [4],
    "gather": [4], "gather2": [4], "gatherv": [5],
    "scatter2": [4], "scatter3": [4], "scattern": [4], "scatterv": [4],
    "red3": [10], "red4": [10],
    "redscat": [4, 6], "redscat2": [4, 5, 10], "redscat3": [8],
    "red_scat_block": [4, 5, 8], "red_scat_block2": [4, 5, 10], "redscatblk3": [8, 10],
    "redscatinter": [8], "redscatbkinter": [8, 10],
}

# The algorithm sets: one variable per collective (docs/preload.md).
SETS = {
    "plain": {},
    "shm": {"MCB_REDUCE": "shm_tree", "MCB_REDUCE_SCATTER_BLOCK": "shm_recursive_exchange",
            "MCB_REDUCE_SCATTER": "shm_recursive_exchange", "MCB_ALLGATHERV": "shm_recursive_exchange",
            "MCB_GATHER": "shm_linear", "MCB_GATHERV": "shm_linear", "MCB_SCATTER": "shm_linear",
            "MCB_SCATTERV": "shm_linear"},
    "classic": {"MCB_REDUCE": "shm_tree:copy=copy-in", "MCB_REDUCE_SCATTER_BLOCK": "recursive_halving",
                "MCB_REDUCE_SCATTER": "ring", "MCB_ALLGATHERV": "ring", "MCB_GATHER": "linear",
                "MCB_GATHERV": "binomial", "MCB_SCATTER": "binomial", "MCB_SCATTERV": "linear"},
    "system": {"MCB_REDUCE": "system", "MCB_REDUCE_SCATTER_BLOCK": "system", "MCB_REDUCE_SCATTER": "pairwise",
               "MCB_ALLGATHERV": "system", "MCB_GATHER": "system", "MCB_GATHERV": "system",
               "MCB_SCATTER": "system", "MCB_SCATTERV": "system"},
}

CONF_H = """/* mpitestconf.h for MPICH's test/mpi outside its configure (mcb:
   scripts/preload/mpich_coll_tests.py): what Debian 12's C library has. */
#define HAVE_STDARG_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STRING_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_GETRUSAGE 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
"""


def die(msg):
    print(f"mpich_coll_tests: {msg}", file=sys.stderr)
    sys.exit(2)


def build(args, work, mpicc):
    """Each program compiled with mtest; the paths of those built."""
    t = os.path.join(args.mpich_src, "test", "mpi")
    with open(os.path.join(work, "mpitestconf.h"), "w") as f:
        f.write(CONF_H)
    with open(os.path.join(work, "mtest_mpix.h"), "w") as f:
        f.write("/* empty: the MPIX extensions these programs do not use */\n")
    util = [os.path.join(t, "util", u) for u in ("mtest.c", "mtest_common.c", "mtest_single.c")]
    built = {}
    for name in args.tests:
        exe = os.path.join(work, name)
        cmd = [mpicc, "-O1", "-w", "-I", work, "-I", os.path.join(t, "include"),
               os.path.join(t, "coll", name + ".c")] + util + ["-o", exe, "-lm"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die(f"{name}: compile failed:\n{r.stderr.strip()}")
        built[name] = exe
    return built


def served(report, variables):
    """served/calls of the report's lines for the collectives set, and the
    fallbacks' reasons."""
    out = []
    for line in report.splitlines():
        m = re.match(r"mcb_preload: (MPI_\w+) algorithm=\S+ calls=(\d+) served=(\d+) fallback=(\d+)", line)
        if m and int(m.group(2)) > 0:
            out.append(f"{m.group(1)} {m.group(3)}/{m.group(2)}")
        m = re.match(r"mcb_preload: MPI_\w+ fallback reason=(\w+) calls=(\d+)", line)
        if m and out:
            out[-1] += f" ({m.group(1)} {m.group(2)})"
    return ", ".join(out) if variables else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mpich-src", required=True, help="a tree with MPICH's test/mpi (tag v4.0.2)")
    ap.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi")
    ap.add_argument("--build", help="the mcb build (default build, build-mpich)")
    ap.add_argument("--work", default="/tmp/mcb-mpich-coll-tests")
    ap.add_argument("--sets", default="plain,shm,classic,system")
    ap.add_argument("--tests", default=",".join(TESTS))
    ap.add_argument("--max-ranks", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    args.mpich_src = os.path.abspath(args.mpich_src)
    args.work = os.path.abspath(args.work)
    if not os.path.isdir(os.path.join(args.mpich_src, "test", "mpi", "coll")):
        die(f"--mpich-src {args.mpich_src}: no test/mpi/coll there")
    args.tests = args.tests.split(",")
    for t in args.tests:
        if t not in TESTS:
            die(f"--tests: unknown program '{t}' (known: {', '.join(TESTS)})")
    sets = args.sets.split(",")
    for s in sets:
        if s not in SETS:
            die(f"--sets: unknown set '{s}' (known: {', '.join(SETS)})")
    build_dir = os.path.abspath(args.build or mpi_tools.build_dir(REPO, args.mpi))
    preload = os.path.join(build_dir, "src", "preload", "libmcb_preload.so")
    if not os.path.exists(preload):
        die(f"{preload}: not built (cmake --build {build_dir} --target mcb_preload)")
    mpicc = shutil.which("mpicc." + args.mpi) or die(f"mpicc.{args.mpi} not found")
    launch = mpi_tools.find_launcher(args.mpi)
    shim = os.path.join(build_dir, "tests", "libmcb_mpich_yield.so")
    os.makedirs(args.work, exist_ok=True)
    exes = build(args, args.work, mpicc)
    report = os.path.join(args.work, "report.txt")
    failures = 0
    print(f"# MPICH's test/mpi/coll under libmcb_preload.so, {args.mpi} ({launch}); "
          "ranks beyond the cores oversubscribed")
    print(f"{'program':<16} {'ranks':>5} {'set':<8} result     served/calls (rank 0)")
    for name in args.tests:
        for n in [r for r in TESTS[name] if r <= args.max_ranks]:
            for s in sets:
                env = dict(SETS[s])
                preloads = [preload] if env else []
                if args.mpi == "mpich" and os.path.exists(shim):
                    preloads.append(shim)
                if preloads:
                    env["LD_PRELOAD"] = ":".join(preloads)
                if SETS[s]:
                    env["MCB_PRELOAD_REPORT"] = report
                if os.path.exists(report):
                    os.remove(report)
                cmd = mpi_tools.launcher(args.mpi, n, env, bind=mpi_tools.binding(n), cmd=launch) + [exes[name]]
                try:
                    r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout,
                                       env=mpi_tools.clean_env(args.mpi), cwd=args.work)
                    ok = r.returncode == 0 and " No Errors" in r.stdout
                    result = "No Errors" if ok else f"FAIL ({r.returncode})"
                    text = r.stdout + r.stderr
                except subprocess.TimeoutExpired:
                    ok, result, text = False, "TIMEOUT", ""
                rep = open(report).read() if os.path.exists(report) else ""
                if ok and SETS[s] and not rep:  # the preload did not run (not loaded, or no MPI_Finalize)
                    ok, result = False, "NO REPORT"
                print(f"{name:<16} {n:>5} {s:<8} {result:<10} {served(rep, SETS[s])}", flush=True)
                if not ok:
                    failures += 1
                    print("  " + "\n  ".join(text.strip().splitlines()[-8:]))
    print(f"# {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
