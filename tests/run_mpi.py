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
  --expect-timeout RE  the run must end by mcb's --timeout: every rank exits
                       with 3 (the launcher may end some first: then none
                       exits 0), and stderr holds exactly one line matching
                       '<binary>: timeout: RE' (rank 0 only) and no error line
  --expect-none-left   no process the launcher started (ranks, daemons) is
                       left once it exits (found by a tag in their
                       environment), checked before the cleanup kills them
  --expect-csv-sizes FILE ALGORITHM SIZES
                       FILE's rows of ALGORITHM have exactly the sizes SIZES
                       (a,b,c; '-': none); FILE is removed before the run
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
import csv
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid


def openmpi_major(mpiexec):
    """4 for Open MPI 4.x's mpirun (ORTE), 5 for 5.x's (PRRTE's prterun)."""
    out = subprocess.run([mpiexec, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True).stdout
    m = re.search(r"Open MPI\)? v?(\d+)\.", out)
    return int(m.group(1)) if m else 4


def launch_env(args, base):
    """The environment of every launch (the ranks' and a singleton's), with
    defaults that change nothing a test checks but the time a launch takes
    (issue 55; mpirun of an empty program on 7 ranks, this 2-core machine).
    A value already in the environment, or given by --env, wins.
    - hwloc's I/O discovery (PCI devices) in the launcher and in every rank,
      which neither mcb nor the MPI uses on one machine: Open MPI 0.51 ->
      0.37 s, MPICH 0.33 -> 0.21 s. Not where the run brings a topology of
      its own (HWLOC_SYNTHETIC, HWLOC_XMLFILE): HWLOC_COMPONENTS would
      replace it.
    - Open MPI's pml: ob1, which it selects anyway (Debian's
      openmpi-mca-params.conf leaves out ucx; cm has no MTL here), without
      opening cm, whose psm and psm2 MTLs look for Omni-Path in every rank:
      0.36 -> 0.16 s.
    - Open MPI 4's session directory under BASE, this run's own: ORTE makes
      /tmp/ompi.HOST.UID when a job starts and removes it when the last one
      ends, and two jobs starting at once race on that mkdir ("File exists",
      a failed launch: CTest runs tests side by side)."""
    env = dict(os.environ)
    given = set(env) | {kv.split("=", 1)[0] for kv in args.env}
    if not given & {"HWLOC_SYNTHETIC", "HWLOC_XMLFILE"}:
        env.setdefault("HWLOC_COMPONENTS", "-linuxio,-pci")
    if args.mpi == "openmpi":
        env.setdefault("OMPI_MCA_pml", "ob1")
        env.setdefault("OMPI_MCA_orte_tmpdir_base", base)
    return env


def launcher_command(args, rcdir):
    cmd = [] if args.no_mpi else [args.mpiexec]
    env = launch_env(args, rcdir)
    prrte = not args.no_mpi and args.mpi == "openmpi" and openmpi_major(args.mpiexec) >= 5
    if args.no_mpi:
        pass
    elif args.mpi == "openmpi":
        # Let every rank finish after one exits non-zero (each records its
        # status): ORTE's MCA parameter, PRRTE's runtime option.
        keep = (["--runtime-options", "error-nonzero-status=false"] if prrte
                else ["--mca", "orte_abort_on_non_zero_status", "0"])
        cmd += ["--oversubscribe", "--bind-to", "none"] + keep
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
        # The daemons' parameters are ORTE's (--mca plm_rsh_agent) or
        # PRRTE's (--prtemca plm_ssh_agent); the MPI's stay --mca. PRRTE's
        # daemons drop loopback whenever another interface exists, even one
        # named in oob_tcp_if_include: they talk over this machine's own.
        daemon = (["--prtemca", "plm_ssh_agent", os.path.abspath(agent)]
                  if prrte else ["--mca", "plm_rsh_agent", os.path.abspath(agent), "--mca", "oob_tcp_if_include", "lo"])
        cmd += ["--hostfile", hostfile, "--map-by", "slot"] + daemon + [
                "--mca", "btl_tcp_if_include", "lo", "--mca", "mpi_yield_when_idle", "1"]
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


TAG = "MCB_RUN_MPI_TAG"
TIMEOUT_STATUS = 3  # mcb's --timeout (src/harness/watchdog.hpp)


def tagged(tag):
    """The live processes whose environment holds TAG=tag: "pid cmdline"."""
    mark = f"{TAG}={tag}".encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue  # a zombie runs nothing
            with open(f"/proc/{pid}/environ", "rb") as f:
                if mark not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            found.append(f"{pid} {command}")
        except (OSError, IndexError):
            continue  # gone meanwhile, or not ours to read
    return found


def left_over(tag, wait):
    """The tagged processes still there after up to `wait` seconds."""
    end = time.monotonic() + wait
    while True:
        found = tagged(tag)
        if not found or time.monotonic() > end:
            return found
        time.sleep(0.2)


def check_csv_sizes(path, algorithm, sizes):
    want = [] if sizes == "-" else sorted(int(x) for x in sizes.split(","))
    if not os.path.exists(path):
        return [f"{path}: no such file (expected rows of {algorithm})"]
    with open(path, newline="") as f:
        got = sorted({int(r["size_bytes"]) for r in csv.DictReader(f) if r["algorithm"] == algorithm})
    return [] if got == want else [f"{path}: rows of {algorithm} at sizes {got}, expected {want}"]


def kill_session(proc, tag):
    """The launcher's process group, and every process with the run's tag:
    Open MPI's local ranks leave the launcher's group."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for entry in tagged(tag):
        try:
            os.kill(int(entry.split()[0]), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
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
    p.add_argument("--reject-stdout", action="append", default=[], help="a regex that stdout must not match")
    p.add_argument("--expect-error")
    p.add_argument("--expect-exit", type=int)
    p.add_argument("--expect-timeout")
    p.add_argument("--expect-none-left", action="store_true")
    p.add_argument("--expect-csv-sizes", nargs=3, action="append", default=[], metavar=("FILE", "ALGORITHM", "SIZES"))
    p.add_argument("--error-from", help="the program named in the --expect-error line (default: PROGRAM's name)")
    p.add_argument("--preload", default="", help="a library first in the ranks' LD_PRELOAD")
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE for the ranks")
    p.add_argument("--hosts", help="fake hosts h1:K1,h2:K2, one shared-memory node per host (MPICH: -launcher fork; Open MPI: ci/mpi-host-agent.sh)")
    p.add_argument("program", nargs=argparse.REMAINDER)
    args = p.parse_args()
    if args.program and args.program[0] == "--":
        args.program = args.program[1:]
    if not args.no_mpi and not args.mpiexec:
        p.error("--mpiexec is required (or --no-mpi)")
    if args.no_mpi:
        args.n = 1
    failures = []

    for path in {c[0] for c in args.expect_csv_sizes}:
        if os.path.exists(path):
            os.remove(path)  # a file of an earlier run proves nothing
    with tempfile.TemporaryDirectory() as rcdir:
        cmd, env = launcher_command(args, rcdir)
        for kv in args.env:
            k, v = kv.split("=", 1)
            env[k] = v
        tag = uuid.uuid4().hex
        env[TAG] = tag
        print("+", " ".join(cmd), flush=True)
        start = time.monotonic()
        # The launcher leads a session of its own: at the end everything it
        # started (daemons of fake hosts included, and what left its session:
        # found by the tag) is killed, pass or fail.
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            kill_session(proc, tag)
            out, _ = proc.communicate()
            sys.stdout.write(out)
            print(f"FAIL: no result after {args.timeout} s (hang?)")
            return 1
        elapsed = time.monotonic() - start
        if args.expect_none_left:
            left = left_over(tag, 10)
            if left:
                failures.append("processes left 10 s after the launcher exited:\n  " + "\n  ".join(left))
        kill_session(proc, tag)
        rcs = []
        for name in os.listdir(rcdir):
            if not name.startswith("rc."):
                continue
            with open(os.path.join(rcdir, name)) as f:
                rcs.append(int(f.read().strip() or -1))
    sys.stdout.write(out)
    sys.stdout.write("--- stderr ---\n" + err)
    print(f"--- launcher exit {proc.returncode}, rank exits {sorted(rcs)}, {elapsed:.1f} s")

    # A launcher that ends the job on the first exit may take the other
    # ranks, their exit codes unrecorded, when mcb's --timeout ends it.
    if len(rcs) != args.n and not (args.expect_timeout is not None and 0 < len(rcs) < args.n):
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
        with tempfile.TemporaryDirectory() as base:  # Open MPI's singleton starts an orted too
            listing = subprocess.run([args.program[0], "--list"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, timeout=60, env=launch_env(args, base)).stdout
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
    for rex in args.reject_stdout:
        if m := re.search(rex, out, re.M):
            failures.append(f"stdout matches {rex!r}: {m.group(0)!r}")
    for rex in args.expect_stderr:
        if not re.search(rex, err, re.M):
            failures.append(f"stderr does not match {rex!r}")
    if re.search(r"MPI_ABORT|MPI_Abort|Segmentation|core dumped|terminate called|Assertion", out + err):
        failures.append("an abort, crash or uncaught exception was reported")
    for path, algorithm, sizes in args.expect_csv_sizes:
        failures += check_csv_sizes(path, algorithm, sizes)
    kind, regex = ("timeout", args.expect_timeout) if args.expect_timeout is not None else ("error", args.expect_error)
    if regex is not None:
        # Open MPI's launcher reports 0 under orte_abort_on_non_zero_status=0,
        # which it needs to let every rank finish: there the rank codes decide.
        if proc.returncode == 0 and (args.no_mpi or args.mpi != "openmpi"):
            failures.append("the launcher exited 0, expected failure")
        if any(rc == 0 for rc in rcs):
            failures.append(f"some ranks exited 0: {sorted(rcs)}")
        binary = args.error_from or os.path.basename(args.program[0])
        lines = [l for l in err.splitlines() if l.startswith(f"{binary}: {kind}: ")]
        if len(lines) != 1:
            failures.append(f"{len(lines)} {kind} lines from {binary}, expected exactly one (rank 0): {lines}")
        elif not re.search(regex, lines[0]):
            failures.append(f"{kind} line {lines[0]!r} does not match {regex!r}")
    if kind == "timeout":
        # Rank 0 exits 3 after its line; the others exit 3 on their own
        # watchdog, are killed by the launcher (above 128), or, where a peer
        # on another host vanished first, are ended by the MPI's own fatal
        # error handler (Open MPI 5's TCP BTL: "Socket closed", exit 14).
        if TIMEOUT_STATUS not in rcs or any(rc == 0 for rc in rcs):
            failures.append(f"rank exit codes {sorted(rcs)}, expected {TIMEOUT_STATUS} on rank 0 and none 0")
        elif not args.hosts and any(rc != TIMEOUT_STATUS for rc in rcs if rc < 128):
            failures.append(f"rank exit codes {sorted(rcs)}, expected {TIMEOUT_STATUS} (or a signal) on one host")
        if any(l.startswith(f"{binary}: error: ") for l in err.splitlines()):
            failures.append("an error line beside the timeout")
    elif regex is None:
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
