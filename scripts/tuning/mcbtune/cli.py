"""The command line and main(): the arguments checked (bad input is one
line and exit status 2), the MPI found from the binaries, then a sweep, a
choice from --measurements, or --verify; the report printed and written
to report.txt, and the tuning file written."""

import argparse
import json
import os
import sys

from lib.mpi_tools import (LIBRARY_NAME, MpiToolError, build_dir, find_launcher, linked_mpi, mpi_version,
                           prefix_mpi, require_prefix_library)

from .choose import choose
from .common import COLLECTIVES, TuneError, binary, fail_input
from .launch import usage_line
from .mpich import mpich_base_tree, mpich_params, mpich_tree
from .openmpi import OMPI_UNTUNED, ompi_rules, ompi_untuned_text
from .report import command_line, report
from .sweep import read_measurements, sweep, write_measurements
from .verify import verify

# scripts/tuning/mcbtune/cli.py -> the repository
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2, like tune.py's own."""

    def error(self, message):
        fail_input(message)


def parse_args(argv):
    p = OneLineParser(
        description="Tune the system MPI's alltoall, allgather, allreduce, reduce_scatter_block, reduce_scatter, "
        "allgatherv, gather, gatherv, scatter and scatterv selection from mcb measurements: "
        "forces each of the MPI's algorithms, keeps the ones that beat its default beyond the noise, writes an "
        "Open MPI rules file or an MPICH JSON tuning file, and verifies one (--verify).")
    p.add_argument("--build", help="mcb build directory (default: build, build-mpich with --mpi mpich, "
                   "build-mpi-NAME with --mpi-prefix .../NAME)")
    p.add_argument("--mpi", choices=sorted(LIBRARY_NAME), help="the MPI (default: from the binaries' libraries)")
    p.add_argument("--mpi-prefix", metavar="PREFIX", help="an MPI installed in a prefix of its own "
                   "(scripts/mpi/build-mpi.sh: /opt/mcb/openmpi-5.0.7, /opt/mcb/mpich-4.2.1): launcher "
                   "PREFIX/bin/mpiexec, its ompi_info or mpivars beside it, the MPI told by them")
    p.add_argument("--collectives", help="comma-separated (default all ten; Open MPI: all but gatherv and "
                   "scatterv, which coll/tuned cannot select: named, they are refused)")
    p.add_argument("-n", "--ranks", default="2", help="process counts, one launch each: a list a,b,c (default 2)")
    p.add_argument("-m", "--message-size", help="sizes, as mcb -m (default 1:1048576; 4:1048576 for allreduce, "
                   "whose floats make 4 B the smallest)")
    p.add_argument("-i", "--iterations", type=int, help="mcb -i (default: mcb's)")
    p.add_argument("-x", "--warmup", type=int, help="mcb -x (default: mcb's)")
    p.add_argument("--repeats", type=int, default=3, help="launches per configuration, interleaved (default 3; "
                   "the spread over them is the noise)")
    p.add_argument("--threshold", type=float, default=0.05, help="a forced algorithm's slowest repetition must "
                   "beat the default's fastest by this fraction (default 0.05)")
    p.add_argument("--mcb", action="store_true", help="also run mcb's own algorithms (every one --list names but "
                   "system*) and advise where one beats the tuned MPI")
    p.add_argument("--segment-size", type=int, default=0, help="Open MPI: coll_tuned_<coll>_algorithm_segmentsize "
                   "for the forced runs and the rules (default 0: Open MPI's)")
    p.add_argument("--out", default="tune-out", help="directory for measurements.csv, report.txt and the file "
                   "(default tune-out)")
    p.add_argument("--measurements", help="choose from this measurements.csv instead of running")
    p.add_argument("--mpich-base-json", help="MPICH: the selection tree to start from (default: the one compiled "
                   "into libmpich, read from the library)")
    p.add_argument("--verify", metavar="FILE", help="check FILE: loaded, its algorithms run, and their speed")
    p.add_argument("--launcher", help="MPI launcher (default PREFIX/bin/mpiexec with --mpi-prefix, else "
                   "mpirun.openmpi or mpiexec.mpich)")
    p.add_argument("--launcher-args", default="", help="extra launcher arguments (one string)")
    p.add_argument("--mcb-args", default="", help="extra mcb arguments (one string), e.g. '--nodes 1,2 "
                   "--ranks-per-node 2'")
    p.add_argument("--preload", help="LD_PRELOAD for every run (e.g. build-mpich/tests/libmcb_mpich_yield.so "
                   "for oversubscribed MPICH: correctness only)")
    p.add_argument("--timeout", type=float, default=900, help="seconds per launch (default 900)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every command")
    args = p.parse_args(argv)

    parse_collectives(args)
    try:
        args.ranks = sorted({int(x) for x in args.ranks.split(",") if x.strip()})
    except ValueError:
        fail_input("-n %s: expected process counts a,b,c" % args.ranks)
    if not args.ranks or min(args.ranks) < 1:
        fail_input("-n: process counts must be at least 1")
    if args.repeats < 1:
        fail_input("--repeats must be at least 1")
    if args.iterations is not None and args.iterations < 1:
        fail_input("-i must be at least 1")
    if args.warmup is not None and args.warmup < 0:
        fail_input("-x must be at least 0")
    if args.segment_size < 0:
        fail_input("--segment-size must be at least 0")
    if args.timeout <= 0:
        fail_input("--timeout must be positive")
    if not 0 <= args.threshold < 10:
        fail_input("--threshold must be in [0, 10)")
    if args.measurements and args.verify:
        fail_input("--measurements and --verify do not go together")
    if args.mpi_prefix:
        args.mpi_prefix = os.path.abspath(args.mpi_prefix)
        try:
            from_prefix = prefix_mpi(args.mpi_prefix)
        except MpiToolError as e:
            fail_input(str(e))
        if args.mpi and args.mpi != from_prefix:
            fail_input("--mpi %s, but --mpi-prefix %s holds %s" % (args.mpi, args.mpi_prefix,
                                                                   LIBRARY_NAME[from_prefix]))
        args.mpi = from_prefix
    if args.measurements:
        return args
    if args.build is None:
        args.build = build_dir(REPO, args.mpi, args.mpi_prefix)
    for c in args.collectives:
        b = binary(args, c)
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            fail_input("%s not found (build mcb first, or give --build)" % b)
    first = binary(args, args.collectives[0])
    detected = detect_mpi(first)
    if args.mpi and detected != args.mpi:
        fail_input("--mpi %s, but %s is linked against %s" % (args.mpi, first, LIBRARY_NAME[detected]))
    args.mpi = detected
    ompi_tunable(args, args.collectives)
    try:
        if args.mpi_prefix:
            require_prefix_library(first, args.mpi_prefix)
        args.launcher = find_launcher(args.mpi, args.launcher, args.mpi_prefix)
        args.mpi_version = mpi_version(args.mpi, args.launcher)  # Open MPI 5: its launch line, its rules format
    except MpiToolError as e:
        fail_input(str(e))
    return args


def parse_collectives(args):
    """--collectives as a list (default: all), and whether it was given."""
    args.collectives_given = args.collectives is not None
    args.collectives = [c.strip() for c in (args.collectives or ",".join(COLLECTIVES)).split(",") if c.strip()]
    for c in args.collectives:
        if c not in COLLECTIVES:
            fail_input("--collectives %s: expected alltoall, allgather, allreduce, reduce_scatter_block, "
                       "reduce_scatter, allgatherv, gather, gatherv, scatter or scatterv" % c)
    if not args.collectives:
        fail_input("--collectives: none given")


def ompi_tunable(args, colls):
    """Open MPI cannot tune gatherv and scatterv (openmpi.OMPI_UNTUNED): named in
    --collectives, they end tune.py with one line; by default they are left
    out, and the report (or --verify's output) says so in one line
    (args.left_out). `colls`: those that would run (or were measured)."""
    args.left_out = ""
    untuned = [c for c in colls if c in OMPI_UNTUNED]
    if args.mpi != "openmpi" or not untuned:
        return
    if args.collectives_given:
        fail_input(ompi_untuned_text(untuned))
    args.left_out = "# left out: %s" % ompi_untuned_text(untuned)
    args.collectives = [c for c in args.collectives if c not in OMPI_UNTUNED]


def detect_mpi(path):
    """openmpi or mpich, from the library the binary loads; anything else is refused."""
    try:
        mpi, library = linked_mpi(path)
    except MpiToolError as e:
        fail_input("cannot inspect %s with ldd: %s" % (path, e))
    if mpi is None:
        fail_input("%s: the MPI is neither Open MPI nor MPICH (%s); only those two have a tuning file format here"
                   % (path, library))
    return mpi


def write_file(args, table, mpi, version, out_dir):
    """The tuning file, in the format of the MPI version measured."""
    if mpi == "openmpi":
        path = os.path.join(out_dir, "openmpi_rules.txt")
        with open(path, "w") as f:
            f.write(ompi_rules(table, args.segment_size, version))
    else:
        base, known = mpich_base_tree(args)
        path = os.path.join(out_dir, "mpich_tuning.json")
        tree = mpich_tree(table, base, known, mpich_params(args, table))
        with open(path, "w") as f:
            json.dump(tree, f, indent=1)
            f.write("\n")
    return path


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        if args.verify:
            return verify(args)
        if args.measurements:
            rows = read_measurements(args.measurements)
            mpi = rows[0]["mpi"]
            args.mpi = mpi
            ompi_tunable(args, sorted({r["collective"] for r in rows if r["collective"] in args.collectives}))
            if mpi == "mpich" and not args.mpich_base_json:
                if args.build is None:
                    args.build = build_dir(REPO, mpi, args.mpi_prefix)
        else:
            os.makedirs(args.out, exist_ok=True)
            rows = sweep(args, lambda r: write_measurements(os.path.join(args.out, "measurements.csv"), r))
            mpi = args.mpi
        wanted = [r for r in rows if r["collective"] in args.collectives]
        if not wanted:
            fail_input("no measurements for %s" % ", ".join(args.collectives))
        os.makedirs(args.out, exist_ok=True)
        table = choose(wanted, args.threshold)
        version = wanted[0]["mpi_version"]
        with open(os.path.join(args.out, "report.txt"), "w") as f:
            head = "# tune.py: %s %s, %s, threshold %.0f%%" % (LIBRARY_NAME[mpi], version,
                                                             ", ".join(sorted({c for c, _ in table})),
                                                             args.threshold * 100)
            print(head)
            f.write(head + "\n" + command_line() + "\n")
            if getattr(args, "left_out", ""):
                print(args.left_out)
                f.write(args.left_out + "\n")
            text = report(table, mpi, args.threshold, sys.stdout, None if args.measurements else os.cpu_count())
            f.write(text)
            path = write_file(args, table, mpi, version, args.out)
            tail = "\n# wrote %s\n# use: %s\n" % (path, usage_line(mpi, path))
            print(tail, end="")
            f.write(tail)
        return 0
    except TuneError as e:
        print("tune.py: error: %s" % str(e).splitlines()[0], file=sys.stderr)
        rest = str(e).splitlines()[1:]
        if rest and e.status == 1:
            print("\n".join(rest), file=sys.stderr)
        return e.status
