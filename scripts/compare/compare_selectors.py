#!/usr/bin/env python3
"""Compare mcb's baseline alltoall algorithms with the same algorithm inside the MPI.

Usage:
    python3 scripts/compare/compare_selectors.py [--mpi openmpi|mpich] [--mpi-prefix PREFIX]
        [--binary PATH] [-n RANKS] [-m SIZES] [-i ITERS] [-x WARMUP] [--repeats R] [--csv OUT]

Examples:
    python3 scripts/compare/compare_selectors.py --mpi openmpi
    python3 scripts/compare/compare_selectors.py --mpi mpich -m 1:4096 -i 500 --csv mpich.csv
    python3 scripts/compare/compare_selectors.py --mpi-prefix /opt/mcb/openmpi-5.0.7

For each pair it runs mcb_alltoall twice under the same launcher:
  ours:  --algorithm pairwise,bruck,nonblocking (no forcing)
  MPI:   --algorithm system, with the MPI's selector forced to the same algorithm
    Open MPI: --mca coll_tuned_use_dynamic_rules 1
              --mca coll_tuned_alltoall_algorithm N, N the number that the MPI's own
              ompi_info (--parsable) gives pairwise | modified_bruck | linear
    MPICH:    MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLLECTIVE_FALLBACK=error
              MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pairwise | brucks | nb, each checked
              against the values the MPI's own mpivars lists
plus an unforced `system` run for reference. The pairs are by name (PAIRS);
an MPI that lacks one of the names stops the script with one line before
any run. Every configuration runs --repeats
times, interleaved (ours, then each MPI configuration, order reversed on odd
repeats); per size the script keeps the minimum over repeats of the median (and,
separately, of the average) of the "total" rows, and prints ours/MPI on the
median. The target is ratio <= 1.10 at 2 ranks.

Defaults: --binary is build/src/mcb_alltoall (openmpi), build-mpich/src/mcb_alltoall
(mpich) or, with --mpi-prefix .../NAME, build-mpi-NAME/src/mcb_alltoall, relative to
the repository root (the parent of scripts/). Open MPI runs through mpirun.openmpi
(or mpirun), MPICH through mpiexec.mpich, an MPI in a prefix through PREFIX/bin/mpiexec
(its ompi_info or mpivars beside it; the MPI is told by them: ompi_info is Open MPI's,
mpichversion MPICH's); --launcher overrides. As root, the Open MPI variables
OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) are set; ranks are bound to cores while they fit,
else oversubscribed (Open MPI 4: --oversubscribe, 5: --map-by :OVERSUBSCRIBE;
--bind-to none): scripts/lib/mpi_tools.py's launcher(), shared with tune.py.

Safety checks (any failure stops the script with exit status 1):
  * a non-zero exit status of any run;
  * Open MPI's "An invalid value was supplied for an enum variable" (Open MPI
    then silently runs its default algorithm and exits 0). Open MPI sometimes
    loses that message (only "ORTE_ERROR_LOG ... show_help.c" remains, or
    nothing), so before any run each forced value is also checked with
    ompi_info (OMPI_MCA_* variables set; its current value, --parsable, must be
    the expected algorithm name), and a run whose output mentions show_help.c fails;
  * every run's CSV must have ranks == -n (a binary started by the other MPI's
    launcher runs as N silent singletons) and the expected MPI library.

Note: MPICH busy-polls, so -n larger than the number of cores (2 on the
shared dev machine) is very slow with --mpi mpich; keep -n <= cores there.

Standard library only; runs with any python3 (3.6+).
"""

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib.mpi_tools import (LIBRARY_NAME, OMPI_INVALID_ENUM, MpiToolError, binding, build_dir, clean_env,  # noqa: E402
                           find_launcher, launcher, mpi_version, mpivars_output, ompi_algorithms_from,
                           ompi_tuned_params, parse_mpivars_algorithms, parse_ompi_value, prefix_mpi,
                           require_prefix_library, shell_line, tool_beside)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET_RATIO = 1.10
# Open MPI sometimes loses the help message above and prints only this.
OMPI_LOST_HELP = "show_help.c"

# Per MPI: (our algorithm, the MPI's name for the same algorithm). The value
# that forces it is looked up in the MPI actually used (forcing_values):
# Open MPI's coll_tuned_alltoall_algorithm number from its ompi_info (the
# numbers are not fixed across versions), MPICH's MPIR_CVAR_ALLTOALL_INTRA_
# ALGORITHM value, checked against its mpivars.
PAIRS = {
    "openmpi": [("pairwise", "pairwise"), ("bruck", "modified_bruck"), ("nonblocking", "linear")],
    "mpich": [("pairwise", "pairwise"), ("bruck", "brucks"), ("nonblocking", "nb")],
}


class BenchError(Exception):
    """A run failed or produced results that cannot be trusted."""


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Compare mcb's pairwise/bruck/nonblocking alltoall with the same algorithm forced "
        "inside the MPI library (ratio ours/MPI on the median; target <= %.2f at 2 ranks)." % TARGET_RATIO)
    p.add_argument("--mpi", choices=sorted(PAIRS), help="MPI library (default openmpi, or the one of --mpi-prefix)")
    p.add_argument("--mpi-prefix", metavar="PREFIX", help="an MPI installed in a prefix of its own "
                   "(scripts/mpi/build-mpi.sh: /opt/mcb/openmpi-5.0.7, /opt/mcb/mpich-4.2.1): launcher "
                   "PREFIX/bin/mpiexec, ompi_info or mpivars beside it, binary build-mpi-NAME/src/mcb_alltoall")
    p.add_argument("--binary", help="mcb_alltoall to run (default: build/src/mcb_alltoall for openmpi, "
                   "build-mpich/src/mcb_alltoall for mpich, build-mpi-NAME/src/mcb_alltoall with --mpi-prefix "
                   ".../NAME, relative to the repository root)")
    p.add_argument("--launcher", help="MPI launcher (default: PREFIX/bin/mpiexec with --mpi-prefix, else "
                   "mpirun.openmpi or mpirun; mpiexec.mpich)")
    p.add_argument("-n", "--ranks", type=int, default=2, help="number of ranks (default 2; MPICH is very slow "
                   "with more ranks than cores)")
    p.add_argument("-m", "--message-size", default="1:65536", help="sizes, as mcb_alltoall -m (default 1:65536)")
    p.add_argument("-i", "--iterations", type=int, default=1000, help="timed iterations per size (default 1000)")
    p.add_argument("-x", "--warmup", type=int, default=100, help="warm-up iterations per size (default 100)")
    p.add_argument("--repeats", type=int, default=3, help="runs per configuration; the min of the medians "
                   "across repeats is kept (default 3)")
    p.add_argument("--csv", help="write the comparison table to this CSV file")
    p.add_argument("--timeout", type=float, default=600, help="seconds per mpirun before giving up (default 600)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every command before running it")
    args = p.parse_args(argv)
    if args.ranks < 1 or args.iterations < 1 or args.warmup < 0 or args.repeats < 1:
        p.error("-n, -i and --repeats must be >= 1, -x >= 0")
    try:
        if args.mpi_prefix:
            args.mpi_prefix = os.path.abspath(args.mpi_prefix)
            found = prefix_mpi(args.mpi_prefix)
            if args.mpi and args.mpi != found:
                p.error("--mpi %s, but --mpi-prefix %s holds %s" % (args.mpi, args.mpi_prefix, LIBRARY_NAME[found]))
            args.mpi = found
        args.mpi = args.mpi or "openmpi"
        args.launcher = find_launcher(args.mpi, args.launcher, args.mpi_prefix)
    except MpiToolError as e:
        p.error(str(e))
    if args.binary is None:
        args.binary = os.path.join(build_dir(REPO, args.mpi, args.mpi_prefix), "src", "mcb_alltoall")
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        p.error("--binary %s: not an executable file (build it first)" % args.binary)
    try:
        if args.mpi_prefix:
            require_prefix_library(args.binary, args.mpi_prefix)
    except MpiToolError as e:
        p.error("--binary %s" % e)
    args.version = mpi_version(args.mpi, args.launcher)
    return args


# ----------------------------------------------------------------------------
# Configurations: what to launch, with which forcing


def forcing_values(mpi, names, tool, text, version):
    """[(ours, name, value)]: each pair's forcing value in the MPI's own list
    (`text`: ompi_info --parsable of coll tuned, or mpivars). A name the MPI
    lacks is a BenchError (one line)."""
    try:
        if mpi == "openmpi":
            have = {name: str(v) for name, v in ompi_algorithms_from(text, "alltoall")}
            listed = ", ".join("%s %s" % (v, n) for n, v in sorted(have.items(), key=lambda kv: int(kv[1])))
        else:
            have = {name: name for name in parse_mpivars_algorithms(text, "alltoall")}
            listed = ", ".join(have)
    except MpiToolError as e:
        raise BenchError("%s: %s" % (tool, e))
    pairs = []
    for ours, name in names:
        if name not in have:
            raise BenchError("%s %s has no alltoall algorithm '%s' to compare with mcb's %s (%s lists: %s)"
                             % (LIBRARY_NAME[mpi], version, name, ours, os.path.basename(tool), listed))
        pairs.append((ours, name, have[name]))
    return pairs


def mpi_pairs(args):
    """The pairs with the forcing values of the MPI in use (its ompi_info or mpivars beside the launcher)."""
    name = "ompi_info" if args.mpi == "openmpi" else "mpivars"
    tool = tool_beside(args.launcher, name)
    if tool is None:
        raise BenchError("%s not found beside %s or on PATH: the forcing values come from it" % (name, args.launcher))
    try:
        text = ompi_tuned_params(tool, base_env(args.mpi)) if args.mpi == "openmpi" else \
            mpivars_output(tool, base_env(args.mpi))
    except MpiToolError as e:
        raise BenchError(str(e))
    return forcing_values(args.mpi, PAIRS[args.mpi], tool, text, args.version)


def configurations(mpi, pairs):
    """Returns [(key, label, mcb --algorithm, MCA parameters, extra env)], ours first."""
    confs = [("ours", "mcb pairwise,bruck,nonblocking", ",".join(o for o, _, _ in pairs), [], {})]
    for ours, name, value in pairs:
        if mpi == "openmpi":
            mca = [("coll_tuned_use_dynamic_rules", "1"), ("coll_tuned_alltoall_algorithm", value)]
            env = {}
        else:
            mca = []
            env = {"MPIR_CVAR_DEVICE_COLLECTIVES": "none", "MPIR_CVAR_COLLECTIVE_FALLBACK": "error",
                   "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM": value}
        confs.append(("mpi:" + name, "system forced to %s" % name, "system", mca, env))
    confs.append(("default", "system, unforced (reference)", "system", [], {}))
    return confs


def launch_command(args, mca, env, algorithm, csv_path):
    cmd = launcher(args.mpi, args.ranks, env, binding(args.ranks), args.launcher, args.version, mca)
    cmd += [args.binary, "--algorithm", algorithm, "-m", args.message_size, "-i", str(args.iterations),
            "-x", str(args.warmup), "--csv", csv_path]
    return cmd


def base_env(mpi):
    return clean_env(mpi)  # forcing variables come only from the configuration


# ----------------------------------------------------------------------------
# Running and parsing


def run_once(args, conf, csv_path):
    """Runs one configuration; returns {algorithm: {size: (avg, median)}} from its CSV."""
    key, label, algorithm, mca, env_extra = conf
    cmd = launch_command(args, mca, env_extra, algorithm, csv_path)
    env = base_env(args.mpi)
    if args.verbose:
        print("+ " + shell_line(cmd, {}), file=sys.stderr)
    try:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise BenchError("%s: timed out after %.0f s: %s" % (label, args.timeout, shell_line(cmd, {})))
    output = proc.stdout + proc.stderr
    errors = tail(proc.stderr if proc.stderr.strip() else proc.stdout)
    if proc.returncode != 0:
        raise BenchError("%s: exit status %d: %s\n%s" % (label, proc.returncode, shell_line(cmd, {}), errors))
    if OMPI_INVALID_ENUM in output or (args.mpi == "openmpi" and OMPI_LOST_HELP in output):
        raise BenchError("%s: Open MPI rejected an MCA value (or lost a help message) and may have silently "
                         "run its default: %s\n%s" % (label, shell_line(cmd, {}), errors))
    return parse_csv(csv_path, args, label, algorithm.split(","))


def tail(text, lines=20):
    return "\n".join(text.rstrip().splitlines()[-lines:])


def parse_csv(path, args, label, algorithms):
    if not os.path.isfile(path):
        raise BenchError("%s: no CSV written to %s" % (label, path))
    results = {a: {} for a in algorithms}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["ranks"]) != args.ranks:
                raise BenchError("%s: CSV says ranks=%s, expected %d (binary started by the wrong MPI's "
                                 "launcher?)" % (label, row["ranks"], args.ranks))
            if row["mpi_library"] != LIBRARY_NAME[args.mpi]:
                raise BenchError("%s: CSV says MPI library '%s', expected '%s' (wrong --binary?)"
                                 % (label, row["mpi_library"], LIBRARY_NAME[args.mpi]))
            if row["phase"] != "total":
                continue
            if row["algorithm"] not in results:
                raise BenchError("%s: unexpected algorithm %s in %s" % (label, row["algorithm"], path))
            results[row["algorithm"]][int(row["size_bytes"])] = (float(row["avg_us"]), float(row["median_us"]))
    for a, sizes in results.items():
        if not sizes:
            raise BenchError("%s: no 'total' rows for algorithm %s in %s" % (label, a, path))
    return results


def check_openmpi_forcing(args, pairs):
    """Asks ompi_info whether each forced coll_tuned_alltoall_algorithm value is
    accepted: mpirun may swallow the invalid-value message and run the default."""
    ompi_info = tool_beside(args.launcher, "ompi_info")
    param = "coll_tuned_alltoall_algorithm"
    for _, name, value in pairs:
        env = base_env("openmpi")
        env.update({"OMPI_MCA_coll_tuned_use_dynamic_rules": "1", "OMPI_MCA_" + param: value})
        try:
            out = ompi_tuned_params(ompi_info, env)
        except MpiToolError as e:
            raise BenchError(str(e))
        current = parse_ompi_value(out, param)
        if OMPI_INVALID_ENUM in out or current != name:
            found = [l.strip() for l in out.splitlines() if OMPI_INVALID_ENUM in l]
            raise BenchError("Open MPI does not accept %s=%s as %s (ompi_info: %s)"
                             % (param, value, name, "; ".join(found) or "current value %s" % current))


def run_all(args):
    """Runs every configuration --repeats times, interleaved. Returns
    {(conf key, algorithm): {size: (min avg, min median)}} over repeats."""
    args.pairs = mpi_pairs(args)
    if args.mpi == "openmpi":
        check_openmpi_forcing(args, args.pairs)
    confs = configurations(args.mpi, args.pairs)
    best = {}
    with tempfile.TemporaryDirectory(prefix="mcb-compare-") as tmp:
        for r in range(args.repeats):
            order = confs if r % 2 == 0 else list(reversed(confs))
            for conf in order:
                print("[repeat %d/%d] %s" % (r + 1, args.repeats, conf[1]), file=sys.stderr, flush=True)
                path = os.path.join(tmp, "%s-%d.csv" % (conf[0].replace(":", "_"), r))
                for algorithm, sizes in run_once(args, conf, path).items():
                    slot = best.setdefault((conf[0], algorithm), {})
                    for size, (avg, med) in sizes.items():
                        old = slot.get(size)
                        slot[size] = (avg, med) if old is None else (min(old[0], avg), min(old[1], med))
    return best


# ----------------------------------------------------------------------------
# Report


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def compare(args, best):
    """Returns the comparison rows, one per (pair, size)."""
    rows = []
    for ours, name, value in args.pairs:
        mine, theirs = best[("ours", ours)], best[("mpi:" + name, "system")]
        default = best.get(("default", "system"), {})
        if set(mine) != set(theirs):
            raise BenchError("sizes differ between ours %s and MPI %s" % (ours, name))
        for size in sorted(mine):
            rows.append({
                "mpi": args.mpi, "ranks": args.ranks, "ours": ours, "mpi_algorithm": name, "forced": value,
                "size_bytes": size,
                "ours_avg_us": mine[size][0], "ours_median_us": mine[size][1],
                "mpi_avg_us": theirs[size][0], "mpi_median_us": theirs[size][1],
                "ratio_median": mine[size][1] / theirs[size][1],
                "default_median_us": default.get(size, (float("nan"), float("nan")))[1],
            })
    return rows


def print_report(args, rows):
    forcing = ("--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoall_algorithm N" if args.mpi == "openmpi"
               else "MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=NAME")
    print("# mcb alltoall vs the %s %s selector, %d ranks, sizes %s, -i %d -x %d, %d repeats"
          % (LIBRARY_NAME[args.mpi], args.version, args.ranks, args.message_size, args.iterations, args.warmup, args.repeats))
    print("# binary: %s, launcher: %s" % (os.path.relpath(args.binary, REPO), args.launcher))
    print("# MPI side forced with %s (%s)" % (forcing, ", ".join("%s=%s" % (n, v) for _, n, v in args.pairs)))
    print("# times in us: per size the minimum over repeats of each run's avg / median (of the per-iteration max "
          "over ranks)")
    print("# ratio = ours median / MPI median; target: ratio <= %.2f at 2 ranks ('*' marks a miss)" % TARGET_RATIO)
    print("# default = unforced system MPI_Alltoall median, for reference")
    summary = []
    for ours, name, value in args.pairs:
        pair = [r for r in rows if r["ours"] == ours]
        print()
        print("## ours %s vs %s %s (forced: %s)" % (ours, LIBRARY_NAME[args.mpi], name, value))
        print("%10s %12s %12s %12s %12s %9s %12s" % ("size", "ours avg", "ours med", "MPI avg", "MPI med",
                                                     "ratio(med)", "default med"))
        for r in pair:
            print("%10d %12.2f %12.2f %12.2f %12.2f %9.3f%s %12.2f" % (
                r["size_bytes"], r["ours_avg_us"], r["ours_median_us"], r["mpi_avg_us"], r["mpi_median_us"],
                r["ratio_median"], "*" if r["ratio_median"] > TARGET_RATIO else " ", r["default_median_us"]))
        g = geomean([r["ratio_median"] for r in pair])
        misses = sum(1 for r in pair if r["ratio_median"] > TARGET_RATIO)
        summary.append("geomean ratio (median) ours %s / %s %s over %d sizes: %.3f (%s; %d size(s) above %.2f)"
                       % (ours, LIBRARY_NAME[args.mpi], name, len(pair), g,
                          "meets target" if g <= TARGET_RATIO else "MISSES target", misses, TARGET_RATIO))
    print()
    for line in summary:
        print(line)


def write_csv(path, rows):
    fields = ["mpi", "ranks", "ours", "mpi_algorithm", "forced", "size_bytes", "ours_avg_us", "ours_median_us",
              "mpi_avg_us", "mpi_median_us", "ratio_median", "default_median_us"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("%.4f" % v if isinstance(v, float) else v) for k, v in r.items()})


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        rows = compare(args, run_all(args))
    except BenchError as e:
        print("compare_selectors.py: error: %s" % e, file=sys.stderr)
        return 1
    print_report(args, rows)
    if args.csv:
        write_csv(args.csv, rows)
        print("\n# wrote %s" % args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
