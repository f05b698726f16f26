#!/usr/bin/env python3
"""HPC Challenge (Debian's hpcc, linked against Open MPI) under
libmcb_preload.so: a small problem on 4 ranks whose MPI FFT (MPIFFT) calls
MPI_Alltoall, run with MCB_ALLTOALL=SPEC, must pass hpcc's own checks and
have every MPI_Alltoall served by the mcb algorithm.

  hpcc_check.py --workdir DIR --algorithm SPEC [--ranks-per-node K]
                [--n 200] [--grid 2x2] [--hpcc PATH] -- LAUNCHER ARGS...

LAUNCHER ARGS is a tests/run_mpi.py command line without the program (it
gets "-- hpcc"); it runs in DIR, where this script writes hpccinf.txt (HPL
N = 200, NB = 32, a 2 x 2 grid: MPIFFT is then a vector of 4096 complex
numbers; --n and --grid P x Q, with P x Q ranks, for larger timing runs)
and where hpcc writes hpccoutf.txt. --algorithm unset runs without
MCB_ALLTOALL (the MPI's own alltoall, not intercepted): the baseline.

Checks, from hpccoutf.txt: "Success=1" (hpcc's summary: no test failed:
HPL's residual, STREAM's validation, RandomAccess's errors, the FFTs'
errors), HPL "0 tests completed and failed residual checks", MPIFFT run
(MPIFFT_N > 0) with max(|x-x0|) below hpcc's own bound (threshold 16 x
epsilon x log N), and from the preload's report (MCB_PRELOAD_REPORT, a file
in DIR): MPI_Alltoall calls = served > 0, fallback = 0. Prints one summary
line: the MPIFFT times, Gflop/s and error. Exit 77 when hpcc is missing.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys

HPCCINF = """HPLinpack benchmark input file (tests/preload/hpcc_check.py)
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
{n:<12} Ns
1            # of NBs
32           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
{p:<12} Ps
{q:<12} Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                      		Number of additional problem sizes for PTRANS
1200 10000 30000        	values of N
0                       	number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64       	values of NB
"""
THRESHOLD = 16.0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workdir", required=True)
    p.add_argument("--algorithm", required=True, help="MCB_ALLTOALL's value, or unset")
    p.add_argument("--ranks-per-node", type=int, default=0)
    p.add_argument("--n", type=int, default=200, help="HPL's matrix order (default 200)")
    p.add_argument("--grid", default="2x2", help="HPL's process grid PxQ, P x Q ranks (default 2x2)")
    p.add_argument("--hpcc", default="hpcc")
    p.add_argument("launcher", nargs=argparse.REMAINDER)
    args = p.parse_args()
    launcher = args.launcher[1:] if args.launcher and args.launcher[0] == "--" else args.launcher
    hpcc = shutil.which(args.hpcc)
    if not hpcc:
        print(f"hpcc_check: {args.hpcc} not found (Debian: apt-get install hpcc); skipped")
        return 77

    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    with open(os.path.join(args.workdir, "hpccinf.txt"), "w") as f:
        grid = args.grid.split("x")
        f.write(HPCCINF.format(n=args.n, p=grid[0], q=grid[1]))
    report = os.path.join(os.path.abspath(args.workdir), "report.txt")
    env = dict(os.environ)
    for name in ("MCB_ALLTOALL", "MCB_ALLGATHER", "MCB_ALLREDUCE", "MCB_RANKS_PER_NODE"):
        env.pop(name, None)
    env["MCB_PRELOAD_REPORT"] = report
    if args.algorithm != "unset":
        env["MCB_ALLTOALL"] = args.algorithm
    if args.ranks_per_node:
        env["MCB_RANKS_PER_NODE"] = str(args.ranks_per_node)
    cmd = launcher + ["--", hpcc]
    print("+", " ".join(cmd), flush=True)
    rc = subprocess.call(cmd, cwd=args.workdir, env=env)
    failures = [] if rc == 0 else [f"the run failed (exit {rc})"]

    out_path = os.path.join(args.workdir, "hpccoutf.txt")
    text = open(out_path).read() if os.path.exists(out_path) else ""
    if not text:
        failures.append("no hpccoutf.txt")
    summary = dict(re.findall(r"^(\w+)=(\S+)$", text, re.M))
    if summary.get("Success") != "1":
        failures.append(f"hpcc's summary says Success={summary.get('Success')}")
    if not re.search(r"^\s*0 tests completed and failed residual checks", text, re.M):
        failures.append("HPL reports failed residual checks")
    n = int(summary.get("MPIFFT_N", "0"))
    err = float(summary.get("MPIFFT_maxErr", "nan"))
    eps = float(summary.get("HPL_eps", "1.11e-16"))
    bound = THRESHOLD * eps * math.log(n) if n > 1 else 0.0
    if n <= 0:
        failures.append("MPIFFT did not run (no MPIFFT_N)")
    elif not err <= bound:
        failures.append(f"MPIFFT max(|x-x0|) = {err:g} above {bound:g} (16 eps log N)")
    section = re.search(r"Begin of MPIFFT section\.(.*?)End of MPIFFT section\.", text, re.S)
    times = dict(re.findall(r"^(Generation time|Tuning|Computing|Inverse FFT):\s+(\S+)", section.group(1), re.M)) \
        if section else {}

    report_text = open(report).read() if os.path.exists(report) else ""
    sys.stdout.write(report_text)
    line = re.search(r"^mcb_preload: MPI_Alltoall (.*)$", report_text, re.M)
    if not line:
        failures.append("no MPI_Alltoall line in the preload's report")
    elif args.algorithm == "unset":
        if "unset" not in line.group(1):
            failures.append(f"MPI_Alltoall intercepted without MCB_ALLTOALL: {line.group(1)}")
    else:
        fields = dict(re.findall(r"(\w+)=(\S+)", line.group(1)))
        calls, served = int(fields.get("calls", 0)), int(fields.get("served", -1))
        if calls == 0 or served != calls or fields.get("fallback") != "0":
            failures.append(f"MPI_Alltoall not all served by {args.algorithm}: {line.group(1)}")

    ranks = int(summary.get("CommWorldProcs", "0"))
    oversubscribed = ranks > (os.cpu_count() or 1)
    print(f"hpcc_check: MCB_ALLTOALL={args.algorithm}"
          f"{' MCB_RANKS_PER_NODE=' + str(args.ranks_per_node) if args.ranks_per_node else ''}: "
          f"MPIFFT N={n} Gflop/s={summary.get('MPIFFT_Gflops')} max(|x-x0|)={err:g} (bound {bound:g}); "
          f"computing {times.get('Computing')} s, inverse {times.get('Inverse FFT')} s; "
          f"{ranks} ranks on {os.cpu_count()} cores{' (oversubscribed)' if oversubscribed else ''}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
