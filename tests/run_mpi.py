#!/usr/bin/env python3
"""Test driver: runs an MPI program under the configured launcher and checks
the outcome, so that every MPI test asserts something that can fail.

  run_mpi.py [options] -n N -- PROGRAM ARGS...

Checks, all optional:
  --expect-ranks       stdout's '# ranks: N' header must name exactly N
                       (a binary started by the other MPI's launcher runs as
                       N silent singletons)
  --expect-rows K      exactly K console rows ending in 'pass', none in 'fail'
  --expect-every-algorithm
                       every algorithm that `PROGRAM --list` offers (and this
                       MPI can run) ran, or was skipped with the reason, and no
                       row failed: a new algorithm is in the sweep unasked
  --expect-rows-per-block K
                       every table (one per algorithm configuration and phase
                       mode) has exactly K rows, each 'pass' (with --expect-
                       every-algorithm, instead of a total that an algorithm
                       more would change)
  --expect-stdout RE   regular expression that stdout must match
  --expect-stderr RE   regular expression that stderr must match
  --expect-error RE    the run must fail: the launcher and every rank exit
                       non-zero, and stderr holds exactly one line matching
                       '<binary>: error: RE' (rank 0 only), no MPI abort trace
  --expect-exit C      every rank exits with C
  --error-from NAME    the program named in --expect-error's line (default:
                       PROGRAM's file name; mcb_preload for the preload's)
Launch options: --no-mpi runs PROGRAM as one plain process (a tool that
needs no MPI, checked the same way); --env NAME=VALUE for the ranks;
--preload LIB puts LIB first in the ranks' LD_PRELOAD (only theirs: not the
launcher's, and kept with MPICH's yield shim);
--hosts h1:K1,h2:K2 starts K1 ranks on "host" h1 and so on, all on this
machine, each host its own node: MPICH's hydra with -launcher fork -hosts,
Open MPI with a hostfile and ci/mpi-host-agent.sh, which starts each host's
daemon in a UTS namespace of its own (shared memory inside a host, TCP
between hosts; needs root or user namespaces).
A run that takes longer than --timeout seconds fails (a hang is a failure);
whatever the launcher started is killed at the end, pass or fail.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile


def launcher_command(args, rcdir):
    cmd = [] if args.no_mpi else [args.mpiexec]
    env = dict(os.environ)
    if args.no_mpi:
        pass
    elif args.mpi == "openmpi":
        cmd += ["--oversubscribe", "--bind-to", "none", "--mca", "orte_abort_on_non_zero_status", "0"]
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
    elif args.mpi == "mpich" and args.yield_shim and args.n > 1:
        # MPICH polls without yielding; CTest runs two tests at once, so even
        # two ranks share the cores with another test.
        env["LD_PRELOAD"] = args.yield_shim
    if args.hosts and args.mpi == "mpich":
        cmd += ["-launcher", "fork", "-hosts", args.hosts]
    elif args.hosts and args.mpi == "openmpi":
        hostfile = os.path.join(rcdir, "hostfile")
        with open(hostfile, "w") as f:
            for entry in args.hosts.split(","):
                host, slots = entry.split(":")
                f.write(f"{host} slots={slots}\n")
        agent = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ci", "mpi-host-agent.sh")
        cmd += ["--hostfile", hostfile, "--map-by", "slot", "--mca", "plm_rsh_agent", os.path.abspath(agent),
                "--mca", "oob_tcp_if_include", "lo", "--mca", "btl_tcp_if_include", "lo",
                "--mca", "mpi_yield_when_idle", "1"]
    elif args.hosts:
        sys.exit("run_mpi.py: --hosts needs Open MPI or MPICH")
    if not args.no_mpi:
        cmd += ["-n", str(args.n)]
    # Each rank records its own exit status, so that "every rank exits
    # non-zero" is checked, not just the launcher's summary.
    wrapper = '"$@"; rc=$?; echo $rc > "%s/rc.$$"; exit $rc' % rcdir
    if args.preload:
        wrapper = 'LD_PRELOAD="%s${LD_PRELOAD:+:$LD_PRELOAD}" ' % args.preload + wrapper
    cmd += ["sh", "-c", wrapper, "sh"] + args.program
    return cmd, env


def kill_session(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mpiexec")
    p.add_argument("--no-mpi", action="store_true")
    p.add_argument("--mpi", choices=["openmpi", "mpich", "other"], default="other")
    p.add_argument("--yield-shim", default="")
    p.add_argument("-n", type=int, default=1)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--expect-ranks", action="store_true")
    p.add_argument("--expect-rows", type=int)
    p.add_argument("--expect-every-algorithm", action="store_true")
    p.add_argument("--expect-rows-per-block", type=int)
    p.add_argument("--expect-stdout", action="append", default=[])
    p.add_argument("--expect-stderr", action="append", default=[])
    p.add_argument("--expect-error")
    p.add_argument("--expect-exit", type=int)
    p.add_argument("--error-from", help="the program named in the --expect-error line (default: PROGRAM's name)")
    p.add_argument("--preload", default="", help="a library first in the ranks' LD_PRELOAD")
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE for the ranks")
    p.add_argument("--hosts", help="MPICH only: fake hosts h1:K1,h2:K2 (one shared-memory node per host)")
    p.add_argument("program", nargs=argparse.REMAINDER)
    args = p.parse_args()
    if args.program and args.program[0] == "--":
        args.program = args.program[1:]
    if not args.no_mpi and not args.mpiexec:
        p.error("--mpiexec is required (or --no-mpi)")
    if args.no_mpi:
        args.n = 1
    failures = []

    with tempfile.TemporaryDirectory() as rcdir:
        cmd, env = launcher_command(args, rcdir)
        for kv in args.env:
            k, v = kv.split("=", 1)
            env[k] = v
        print("+", " ".join(cmd), flush=True)
        # The launcher leads a session of its own: at the end everything it
        # started (daemons of fake hosts included) is killed, pass or fail.
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            kill_session(proc)
            out, _ = proc.communicate()
            sys.stdout.write(out)
            print(f"FAIL: no result after {args.timeout} s (hang?)")
            return 1
        kill_session(proc)
        rcs = []
        for name in os.listdir(rcdir):
            if not name.startswith("rc."):
                continue
            with open(os.path.join(rcdir, name)) as f:
                rcs.append(int(f.read().strip() or -1))
    sys.stdout.write(out)
    sys.stdout.write("--- stderr ---\n" + err)
    print(f"--- launcher exit {proc.returncode}, rank exits {sorted(rcs)}")

    if len(rcs) != args.n:
        failures.append(f"{len(rcs)} rank exit codes recorded, expected {args.n}")
    if args.expect_ranks:
        ranks = re.findall(r"^# ranks: (\d+)", out, re.M)
        if not ranks or any(int(r) != args.n for r in ranks):
            failures.append(f"'# ranks:' headers say {ranks}, expected {args.n}")
    if args.expect_rows is not None:
        passed = len(re.findall(r"^\d+\s.*\bpass\b", out, re.M))
        failed = len(re.findall(r"^\d+\s.*\bfail\b", out, re.M))
        if passed != args.expect_rows or failed:
            failures.append(f"{passed} rows passed and {failed} failed, expected {args.expect_rows} passed")
    if args.expect_every_algorithm:
        listing = subprocess.run([args.program[0], "--list"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, timeout=60).stdout
        offered = [m.group(1) for m in re.finditer(r"^  (\w+)  +(.*)$", listing, re.M)
                   if "[unavailable:" not in m.group(2)]
        ran = set(re.findall(r"^# \S+ \(mcb [^)]*\): [\w ]+, algorithm (\w+)", out, re.M))
        skipped = set(re.findall(r"^# skipping (\w+), not applicable", out, re.M))
        missing = [a for a in offered if a not in ran | skipped]
        if not offered:
            failures.append(f"{args.program[0]} --list offers no algorithm:\n{listing}")
        if missing:
            failures.append(f"algorithms of --list that neither ran nor were skipped: {', '.join(missing)}")
        if re.search(r"^\d+\s.*\bfail\b", out, re.M):
            failures.append("a row failed validation")
    if args.expect_rows_per_block is not None:
        blocks = re.split(r"^# \S+ \(mcb [^)]*\): ", out, flags=re.M)[1:]
        for block in blocks:
            rows = re.findall(r"^\d+\s.*$", block, re.M)
            good = [r for r in rows if re.search(r"\bpass\b", r)]
            if len(rows) != args.expect_rows_per_block or len(good) != len(rows):
                name = block.split("\n", 1)[0]
                failures.append(f"table '{name}': {len(good)} of {len(rows)} rows pass, expected "
                                f"{args.expect_rows_per_block}")
                break
        if not blocks:
            failures.append("no table")
    for rex in args.expect_stdout:
        if not re.search(rex, out, re.M):
            failures.append(f"stdout does not match {rex!r}")
    for rex in args.expect_stderr:
        if not re.search(rex, err, re.M):
            failures.append(f"stderr does not match {rex!r}")
    if re.search(r"MPI_ABORT|MPI_Abort|Segmentation|core dumped|terminate called|Assertion", out + err):
        failures.append("an abort, crash or uncaught exception was reported")
    if args.expect_error is not None:
        # Open MPI's launcher reports 0 under orte_abort_on_non_zero_status=0,
        # which it needs to let every rank finish: there the rank codes decide.
        if proc.returncode == 0 and (args.no_mpi or args.mpi != "openmpi"):
            failures.append("the launcher exited 0, expected failure")
        if any(rc == 0 for rc in rcs):
            failures.append(f"some ranks exited 0: {sorted(rcs)}")
        binary = args.error_from or os.path.basename(args.program[0])
        lines = [l for l in err.splitlines() if l.startswith(binary + ": error: ")]
        if len(lines) != 1:
            failures.append(f"{len(lines)} error lines from {binary}, expected exactly one (rank 0): {lines}")
        elif not re.search(args.expect_error, lines[0]):
            failures.append(f"error line {lines[0]!r} does not match {args.expect_error!r}")
    else:
        want = args.expect_exit if args.expect_exit is not None else 0
        if any(rc != want for rc in rcs):
            failures.append(f"rank exit codes {sorted(rcs)}, expected all {want}")
        if want == 0 and proc.returncode != 0:
            failures.append(f"launcher exited {proc.returncode}")

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
