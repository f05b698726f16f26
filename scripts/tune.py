#!/usr/bin/env python3
"""Tune the system MPI's own collective selection from mcb measurements.

For alltoall, allgather and allreduce, runs `mcb_<coll> --algorithm system`
with each of the MPI's algorithms forced in turn, picks per (communicator
size, message size) the fastest one where it beats the MPI's default beyond
the noise, and writes the file the MPI reads to use those choices:

  Open MPI 4.x  a coll/tuned dynamic rules file, used with
                --mca coll_tuned_use_dynamic_rules 1
                --mca coll_tuned_dynamic_rules_filename FILE
  MPICH 4.x     a complete collective-selection JSON tree, used with
                MPIR_CVAR_DEVICE_COLLECTIVES=none
                MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE

Usage:
  tune.py [--build DIR] [-n 2,4] [-m 1:1048576] [--collectives LIST]
          [--repeats 3] [--threshold 0.05] [--mcb] [--out DIR]
  tune.py --measurements DIR/measurements.csv [--out DIR]    (choose again)
  tune.py --verify FILE [--build DIR] [-n 2,4] [-m SIZES]     (check a file)

The choice: per size, the fastest forced algorithm is kept only if its
slowest repetition beats the default's fastest by more than --threshold
(the repetitions' spread is the noise); adjacent sizes with the same choice
merge into one range. Rules apply at the measured communicator sizes only
(other sizes, and messages above the largest measured, keep the MPI's own
choice). docs/tune.md describes the files, the units and the checks.

Forcing, and how an ignored force is caught:
  Open MPI: --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_<coll>_algorithm N
    for every N that ompi_info lists. A short extra run per configuration
    with libmcb_ompi_coll_trace.so preloaded records which coll/base function
    ran at every size: a forced value that did not run its function, or that
    Open MPI handed to another algorithm (a ring given fewer elements than
    ranks runs recursive doubling), is reported and never chosen.
  MPICH: MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLLECTIVE_FALLBACK=error
    MPIR_CVAR_<COLL>_INTRA_ALGORITHM=NAME for every NAME that mpivars lists;
    an algorithm that cannot run makes MPICH fail, and the size is reported.
  A forced run that fails (exit status, validation) is retried size by size;
  the sizes that fail are reported as refused.

Standard library only.
"""

import argparse
import collections
import copy
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_tools import LIBRARY_NAME, OMPI_INVALID_ENUM, allow_root, shell_line, tool_beside

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLLECTIVES = ("alltoall", "allgather", "allreduce")
DEFAULT_LAUNCHERS = {"openmpi": ["mpirun.openmpi", "mpirun"], "mpich": ["mpiexec.mpich", "mpiexec"]}
MEASUREMENT_FIELDS = ["mpi", "mpi_version", "collective", "ranks", "config", "algorithm", "value", "size_bytes",
                      "repeat", "median_us", "status", "observed", "note"]

# --- Open MPI 4.x coll/tuned ---------------------------------------------------------------
# Collective ids of the rules file (ompi/mca/coll/base/coll_base_functions.h, COLLTYPE).
OMPI_COLL_ID = {"allgather": 0, "allreduce": 2, "alltoall": 3}
# The coll/base function each algorithm name (as ompi_info prints it) runs.
OMPI_FUNCTIONS = {
    "alltoall": {"linear": "alltoall_intra_basic_linear", "pairwise": "alltoall_intra_pairwise",
                 "modified_bruck": "alltoall_intra_bruck", "linear_sync": "alltoall_intra_linear_sync",
                 "two_proc": "alltoall_intra_two_procs"},
    "allgather": {"linear": "allgather_intra_basic_linear", "bruck": "allgather_intra_bruck",
                  "recursive_doubling": "allgather_intra_recursivedoubling", "ring": "allgather_intra_ring",
                  "neighbor": "allgather_intra_neighborexchange", "two_proc": "allgather_intra_two_procs"},
    "allreduce": {"basic_linear": "allreduce_intra_basic_linear", "nonoverlapping": "allreduce_intra_nonoverlapping",
                  "recursive_doubling": "allreduce_intra_recursivedoubling", "ring": "allreduce_intra_ring",
                  "segmented_ring": "allreduce_intra_ring_segmented",
                  "rabenseifner": "allreduce_intra_redscat_allgather"},
}
TRACE_LIBRARY = "src/tune/libmcb_ompi_coll_trace.so"


def ompi_rule_bytes(coll, size_bytes, ranks):
    """The message size Open MPI's dynamic decision compares with a rule
    (coll_tuned_decision_dynamic.c): datatype size x count for allreduce,
    x communicator size for alltoall and allgather. mcb's size_bytes is the
    vector (allreduce) or one block (alltoall, allgather)."""
    return size_bytes if coll == "allreduce" else size_bytes * ranks


# --- MPICH 4.x collective selection -------------------------------------------------------------
# The size test MPICH's selection supports per collective (src/mpi/coll/src/csel.c:
# get_avg_msgsize has no allgather; get_total_msgsize = bytes x communicator size).
MPICH_SIZE_KEY = {"alltoall": "avg_msg_size", "allreduce": "avg_msg_size", "allgather": "total_msg_size"}


def mpich_rule_bytes(coll, size_bytes, ranks):
    return size_bytes * ranks if MPICH_SIZE_KEY[coll] == "total_msg_size" else size_bytes


def mpich_container(coll, value):
    """MPIR_CVAR_<COLL>_INTRA_ALGORITHM value -> the JSON container name."""
    title = coll.capitalize()
    return "MPIR_%s_allcomm_nb" % title if value == "nb" else "MPIR_%s_intra_%s" % (title, value)


def mpich_value(coll, container):
    title = coll.capitalize()
    if container == "MPIR_%s_allcomm_nb" % title:
        return "nb"
    prefix = "MPIR_%s_intra_" % title
    return container[len(prefix):] if container.startswith(prefix) else None


class TuneError(Exception):
    """Bad input, or a run that cannot be trusted: one line, exit status 2 (input) or 1."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def fail_input(message):
    raise TuneError(message, 2)


# ----------------------------------------------------------------------------------------------
# Command line


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2, like tune.py's own."""

    def error(self, message):
        fail_input(message)


def parse_args(argv):
    p = OneLineParser(
        description="Tune the system MPI's alltoall/allgather/allreduce selection from mcb measurements: "
        "forces each of the MPI's algorithms, keeps the ones that beat its default beyond the noise, writes an "
        "Open MPI rules file or an MPICH JSON tuning file, and verifies one (--verify).")
    p.add_argument("--build", help="mcb build directory (default: build, or build-mpich with --mpi mpich)")
    p.add_argument("--mpi", choices=sorted(LIBRARY_NAME), help="the MPI (default: from the binaries' libraries)")
    p.add_argument("--collectives", default=",".join(COLLECTIVES), help="comma-separated (default all three)")
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
    p.add_argument("--launcher", help="MPI launcher (default mpirun.openmpi or mpiexec.mpich)")
    p.add_argument("--launcher-args", default="", help="extra launcher arguments (one string)")
    p.add_argument("--mcb-args", default="", help="extra mcb arguments (one string), e.g. '--nodes 1,2 "
                   "--ranks-per-node 2'")
    p.add_argument("--preload", help="LD_PRELOAD for every run (e.g. build-mpich/tests/libmcb_mpich_yield.so "
                   "for oversubscribed MPICH: correctness only)")
    p.add_argument("--timeout", type=float, default=900, help="seconds per launch (default 900)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every command")
    args = p.parse_args(argv)

    args.collectives = [c.strip() for c in args.collectives.split(",") if c.strip()]
    for c in args.collectives:
        if c not in COLLECTIVES:
            fail_input("--collectives %s: expected alltoall, allgather or allreduce" % c)
    if not args.collectives:
        fail_input("--collectives: none given")
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
    if args.measurements:
        return args
    if args.build is None:
        args.build = os.path.join(REPO, "build-mpich" if args.mpi == "mpich" else "build")
    for c in args.collectives:
        b = binary(args, c)
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            fail_input("%s not found (build mcb first, or give --build)" % b)
    detected = detect_mpi(binary(args, args.collectives[0]))
    if args.mpi and detected != args.mpi:
        fail_input("--mpi %s, but %s is linked against %s" % (args.mpi, binary(args, args.collectives[0]),
                                                              LIBRARY_NAME[detected]))
    args.mpi = detected
    if args.launcher is None:
        args.launcher = next((l for l in DEFAULT_LAUNCHERS[args.mpi] if shutil.which(l)), None)
        if args.launcher is None:
            fail_input("no launcher for %s found (tried %s); use --launcher" % (
                LIBRARY_NAME[args.mpi], ", ".join(DEFAULT_LAUNCHERS[args.mpi])))
    return args


def sizes_text(args, coll):
    if args.message_size:
        return args.message_size
    return "4:1048576" if coll == "allreduce" else "1:1048576"


def binary(args, coll):
    return os.path.join(args.build, "src", "mcb_" + coll)


def detect_mpi(path):
    """openmpi or mpich, from the libraries the binary loads; anything else is refused."""
    try:
        out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        fail_input("cannot inspect %s with ldd: %s" % (path, e))
    if re.search(r"\blibmpi\.so", out):
        return "openmpi"
    if re.search(r"\blibmpich\.so", out):
        return "mpich"
    libs = ", ".join(sorted(set(re.findall(r"(lib\w*mpi\w*\.so[.\d]*)", out)))) or "no MPI library"
    fail_input("%s: the MPI is neither Open MPI nor MPICH (%s); only those two have a tuning file format here"
               % (path, libs))


def mpich_library(path):
    out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, universal_newlines=True).stdout
    m = re.search(r"libmpich\.so\S*\s+=>\s+(\S+)", out)
    if not m:
        raise TuneError("cannot find libmpich in ldd %s" % path)
    return m.group(1)


# ----------------------------------------------------------------------------------------------
# The MPI's algorithms


def ompi_info_path(args):
    return tool_beside(args.launcher, "ompi_info")


def ompi_algorithms(args, coll):
    """[(name, value)] of coll_tuned_<coll>_algorithm from ompi_info, 'ignore' (0) left out."""
    tool = ompi_info_path(args)
    if tool is None:
        raise TuneError("ompi_info not found beside %s or on PATH" % args.launcher)
    out = subprocess.run([tool, "--param", "coll", "tuned", "--level", "9"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True, timeout=120).stdout
    m = re.search(r'"coll_tuned_%s_algorithm".*?Valid values: ([^\n]*)' % coll, out, re.S)
    if not m:
        raise TuneError("ompi_info lists no coll_tuned_%s_algorithm (is coll/tuned built?)" % coll)
    found = [(name, int(v)) for v, name in re.findall(r'(\d+):"(\w+)"', m.group(1))]
    return [(name, v) for name, v in found if v != 0]


def ompi_version(args):
    out = subprocess.run([ompi_info_path(args) or "ompi_info", "--version"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True).stdout
    m = re.search(r"v(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else "unknown"


def mpich_algorithms(args, coll):
    """[(name, name)] of MPIR_CVAR_<COLL>_INTRA_ALGORITHM from mpivars, 'auto' left out."""
    tool = tool_beside(args.launcher, "mpivars")
    if tool is None:
        raise TuneError("mpivars not found beside %s or on PATH" % args.launcher)
    out = subprocess.run([tool], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                         timeout=120, env=mpi_env(args)).stdout
    m = re.search(r"MPIR_CVAR_%s_INTRA_ALGORITHM\s*=[^\n]*" % coll.upper(), out)
    if not m:
        raise TuneError("mpivars lists no MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper())
    # mpivars joins the lines of the description: "...FILE)brucks      - Force brucks
    # algorithmnb          - Force ...": every name is padded to one width W.
    entries = re.findall(r"([A-Za-z0-9_]+)( +)- ", m.group(0).split("=", 1)[1])
    entries = [(t, len(sp)) for t, sp in entries if not t.endswith("auto")]
    width = min((len(t) + n for t, n in entries), default=0)
    names = [t[len(t) - (width - n):] for t, n in entries if width - n > 0]
    if not names:
        raise TuneError("cannot read the values of MPIR_CVAR_%s_INTRA_ALGORITHM from mpivars" % coll.upper())
    return [(n, n) for n in names]


def mpich_version(args):
    tool = shutil.which("mpichversion")
    out = subprocess.run([tool], stdout=subprocess.PIPE, universal_newlines=True).stdout if tool else ""
    m = re.search(r"Version:\s*(\S+)", out)
    return m.group(1) if m else "unknown"


def mpich_base_tree(args):
    """MPICH's own MPIR-level selection tree, and the algorithm containers MPICH
    knows (None when not read from the library): from --mpich-base-json, or the
    JSON string compiled into libmpich (the one whose containers are MPIR_
    algorithms)."""
    if args.mpich_base_json:
        try:
            with open(args.mpich_base_json) as f:
                return json.load(f, object_pairs_hook=collections.OrderedDict), None
        except (OSError, ValueError) as e:
            fail_input("--mpich-base-json %s: %s" % (args.mpich_base_json, e))
    lib = mpich_library(binary(args, args.collectives[0]))
    with open(lib, "rb") as f:
        data = f.read()
    known = {m.decode() for m in re.findall(rb"algorithm=(MPIR_\w+)", data)}
    for blob in re.findall(rb'\{"collective=[\x20-\x7e]{1000,}', data):
        text = blob.decode()
        if '"algorithm=MPIR_' in text and '"composition=' not in text:
            try:
                return json.loads(text, object_pairs_hook=collections.OrderedDict), known
            except ValueError:
                continue
    raise TuneError("no MPIR selection tree found in %s; give --mpich-base-json (maint/tuning/coll/mpir/"
                    "generic.json of your MPICH's source)" % lib)


# ----------------------------------------------------------------------------------------------
# Running mcb


def mpi_env(args, extra=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("MPIR_CVAR_") or k.startswith("OMPI_MCA_coll"):
            del env[k]  # forcing comes only from the configuration
    allow_root(env, args.mpi)
    env.update(extra or {})
    return env


class Config:
    """One way to run the system collective: the MPI's default, a forced
    algorithm, a tuning file, or mcb's own algorithms (--algorithm all)."""

    def __init__(self, key, algorithm="", value="", mca=None, env=None, mcb_algorithm="system"):
        self.key, self.algorithm, self.value = key, algorithm, value
        self.mca, self.env, self.mcb_algorithm = mca or [], env or {}, mcb_algorithm


def forced_config(args, coll, name, value):
    if args.mpi == "openmpi":
        mca = [("coll_tuned_use_dynamic_rules", "1"), ("coll_tuned_%s_algorithm" % coll, str(value))]
        if args.segment_size:
            mca.append(("coll_tuned_%s_algorithm_segmentsize" % coll, str(args.segment_size)))
        return Config("forced:" + name, name, str(value), mca=mca)
    env = {"MPIR_CVAR_DEVICE_COLLECTIVES": "none", "MPIR_CVAR_COLLECTIVE_FALLBACK": "print",
           "MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper(): value}
    return Config("forced:" + name, name, value, env=env)


def file_config(args, path):
    if args.mpi == "openmpi":
        return Config("file", mca=[("coll_tuned_use_dynamic_rules", "1"),
                                   ("coll_tuned_dynamic_rules_filename", os.path.abspath(path))])
    return Config("file", env={"MPIR_CVAR_DEVICE_COLLECTIVES": "none",
                               "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": os.path.abspath(path)})


def usage_line(mpi, path):
    if mpi == "openmpi":
        return ("mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename %s ..."
                % os.path.abspath(path))
    return ("MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=%s mpiexec ..."
            % os.path.abspath(path))


def launch(args, coll, ranks, conf, sizes, csv_path, iterations=None, warmup=None, trace=None):
    """Runs mcb once; returns (exit status, output)."""
    cores = os.cpu_count() or 1
    cmd = [args.launcher, "-n", str(ranks)]
    env_extra = dict(conf.env)
    preload = [args.preload] if args.preload else []
    if trace:
        preload.append(os.path.join(args.build, TRACE_LIBRARY))
        env_extra["MCB_COLL_TRACE"] = trace
    if preload:
        env_extra["LD_PRELOAD"] = ":".join(preload)
    if args.mpi == "openmpi":
        cmd += ["--oversubscribe", "--bind-to", "none"] if ranks > cores else ["--bind-to", "core"]
        for k, v in conf.mca:
            cmd += ["--mca", k, v]
        for k in sorted(env_extra):
            cmd += ["-x", k]
    else:
        cmd += ["-bind-to", "core"] if ranks <= cores else []
    cmd += args.launcher_args.split()
    cmd += [binary(args, coll), "--algorithm", conf.mcb_algorithm, "-m", sizes, "-c", "--csv", csv_path]
    i = iterations if iterations is not None else args.iterations
    x = warmup if warmup is not None else args.warmup
    if i is not None:
        cmd += ["-i", str(i)]
    if x is not None:
        cmd += ["-x", str(x)]
    cmd += args.mcb_args.split()
    if args.verbose:
        print("+ " + shell_line(cmd, env_extra), file=sys.stderr, flush=True)
    try:
        proc = subprocess.run(cmd, env=mpi_env(args, env_extra), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise TuneError("timed out after %.0f s: %s" % (args.timeout, shell_line(cmd, env_extra)))
    if OMPI_INVALID_ENUM in proc.stdout:
        raise TuneError("Open MPI rejected a forced value (it would silently run its default): %s"
                        % shell_line(cmd, env_extra))
    return proc.returncode, proc.stdout, shell_line(cmd, env_extra)


def read_rows(path, args, ranks):
    """{(algorithm label, size): median_us} of the 'total' rows, and the MPI version."""
    out, version = {}, ""
    if not os.path.isfile(path):
        return out, version
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["mpi_library"] != LIBRARY_NAME[args.mpi]:
                raise TuneError("%s says MPI library '%s', expected %s" % (path, row["mpi_library"],
                                                                          LIBRARY_NAME[args.mpi]))
            if not args.mcb_args and int(row["ranks"]) != ranks:
                raise TuneError("%s says ranks=%s, expected %d (binary started by the other MPI's launcher?)"
                                % (path, row["ranks"], ranks))
            if row["phase"] != "total":
                continue
            label = row["algorithm"] if row["params"] in ("", "none") else "%s[%s]" % (row["algorithm"], row["params"])
            out[(int(row["ranks"]), label, int(row["size_bytes"]))] = float(row["median_us"])
            version = row["mpi_version"]
    return out, version


def first_error(output):
    """The most telling line of a failed run: an MPI error class if one is named."""
    m = re.search(r"\bMPI_ERR_[A-Z_]+\b", output)
    if m:
        return m.group(0)
    for marker in ("validation", "User set collective algorithm"):
        for line in output.splitlines():
            if marker in line:
                return re.sub(r"^\[[^]]*\]\s*", "", line.strip())[:200]
    for line in output.splitlines():
        l = line.strip()
        if re.search(r"error|abort|assert|fail|refus|invalid|cannot", l, re.I) and l:
            return l[:200]
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    return lines[-1][:200] if lines else "no output"


def run_config(args, coll, ranks, conf, sizes_text, sizes, tmp, tag):
    """One measurement launch; a failed launch is retried size by size.
    Returns ({(ranks, label, size): us}, {size: error}, version)."""
    path = os.path.join(tmp, "%s.csv" % tag)
    rc, out, line = launch(args, coll, ranks, conf, sizes_text, path)
    if rc == 0:
        rows, version = read_rows(path, args, ranks)
        if not rows:
            raise TuneError("no rows from %s" % line)
        return rows, {}, version
    if conf.key == "default" or conf.key == "file":
        raise TuneError("the unforced run failed (exit %d): %s\n%s" % (rc, line, first_error(out)))
    rows, refused, version = {}, {}, ""
    for s in sizes:
        one = os.path.join(tmp, "%s-%d.csv" % (tag, s))
        rc, out, _ = launch(args, coll, ranks, conf, "%d:%d" % (s, s), one)
        if rc == 0:
            r, version = read_rows(one, args, ranks)
            rows.update(r)
        else:
            refused[s] = first_error(out)
    return rows, refused, version


def read_trace(path, coll):
    """{bytes: {algorithm function: calls}} of rank 0 for this collective."""
    seen = collections.defaultdict(dict)
    if not os.path.isfile(path):
        return seen
    prefix = "ompi_coll_base_%s_" % coll
    with open(path) as f:
        for line in f:
            fields = dict(kv.split("=", 1) for kv in line.split())
            if fields.get("rank") != "0" or not fields.get("function", "").startswith(prefix):
                continue
            fn = fields["function"][len("ompi_coll_base_"):]
            seen[int(fields["bytes"])][fn] = seen[int(fields["bytes"])].get(fn, 0) + int(fields["calls"])
    return seen


def trace_config(args, coll, ranks, conf, sizes_text, sizes, tmp, tag):
    """Open MPI: which coll/base functions ran at each size ({size: {function: calls}});
    a launch that fails is traced size by size."""
    path = os.path.join(tmp, "%s.trace" % tag)
    rc, out, line = launch(args, coll, ranks, conf, sizes_text, os.path.join(tmp, "%s-t.csv" % tag), 2, 0, path)
    if rc == 0:
        t = read_trace(path, coll)
        return {s: t.get(s, {}) for s in sizes}
    result = {}
    for s in sizes:
        one = os.path.join(tmp, "%s-%d.trace" % (tag, s))
        rc, out, _ = launch(args, coll, ranks, conf, "%d:%d" % (s, s), one + ".csv", 2, 0, one)
        result[s] = read_trace(one, coll).get(s, {}) if rc == 0 else {}
    return result


def observed_text(functions):
    return "+".join(sorted(functions)) if functions else ""


def ompi_names(coll, observed):
    """coll/base functions as Open MPI's algorithm names: 'allreduce_intra_ring' -> 'ring'."""
    names = {f: n for n, f in OMPI_FUNCTIONS.get(coll, {}).items()}
    return "+".join(names.get(f, f) for f in observed.split("+")) if observed else ""


def ompi_check_forced(coll, name, functions):
    """(status, note) of a forced Open MPI algorithm at one size, from the trace."""
    want = OMPI_FUNCTIONS.get(coll, {}).get(name)
    if want is None:
        return "ok", "no function known for %s in this Open MPI version: not traced" % name
    if want not in functions:
        return "ignored", "forced %s but %s ran" % (name, observed_text(functions) or "no coll/base function")
    others = [f for f, n in functions.items() if f != want and n >= functions[want]]
    if others:
        return "fallback", "Open MPI handed %s to %s at this size" % (name, "+".join(sorted(others)))
    return "ok", ""


MPICH_FALLBACK = "User set collective algorithm is not usable for the provided arguments"
MPICH_CHECK_CALLS = 100


def mpich_check_forced(args, coll, ranks, conf, sizes, tmp, tag):
    """MPICH: {size: (status, note)} for the sizes where a forced algorithm does
    not run. MPIR_CVAR_COLLECTIVE_FALLBACK=print makes rank 0 print one line per
    call that falls back to MPICH's own choice ('error' would also fail MPICH's
    internal small allreduces, at every size). One launch per size, 100 calls:
    at least half of them printing means the measured calls fell back."""
    result = {}
    for s in sizes:
        rc, out, _ = launch(args, coll, ranks, conf, "%d:%d" % (s, s), os.path.join(tmp, "%s-%d.csv" % (tag, s)),
                            MPICH_CHECK_CALLS, 0)
        prints = out.count(MPICH_FALLBACK)
        if rc != 0:
            result[s] = ("refused", first_error(out))
        elif prints >= MPICH_CHECK_CALLS // 2:
            result[s] = ("fallback", "MPICH fell back to its own choice (%d fallback lines for %d calls: '%s')" % (
                prints, MPICH_CHECK_CALLS, MPICH_FALLBACK))
    return result


# ----------------------------------------------------------------------------------------------
# The sweep


def mcb_algorithms(args, coll):
    """mcb's own algorithms (--list without the system_* ones, which are the
    MPI's: MPICH 4.0's persistent allgather also fails validation, mpich#6423)."""
    out = subprocess.run([binary(args, coll), "--list"], stdout=subprocess.PIPE, universal_newlines=True,
                         env=mpi_env(args)).stdout
    names = [n for n in re.findall(r"^  ([a-z0-9_]+)\s", out, re.M) if not n.startswith("system")]
    if not names:
        raise TuneError("%s --list names no algorithm" % binary(args, coll))
    return ",".join(names)


def probe_sizes(args, coll, ranks, tmp):
    """The sizes mcb expands -m into (one short default run)."""
    path = os.path.join(tmp, "sizes-%s-%d.csv" % (coll, ranks))
    rc, out, line = launch(args, coll, ranks, Config("default"), sizes_text(args, coll), path, 1, 0)
    if rc != 0:
        raise TuneError("the unforced run failed (exit %d): %s\n%s" % (rc, line, first_error(out)))
    got, _ = read_rows(path, args, ranks)
    if not got:
        raise TuneError("no rows from %s" % line)
    return sorted({s for (_, _, s) in got})


def sweep(args, save):
    """Runs every configuration; returns the measurement rows, handing them to
    save() after each (collective, process count): a failure keeps what ran."""
    rows = []
    version = ompi_version(args) if args.mpi == "openmpi" else mpich_version(args)
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="mcb-tune-") as tmp:
        for coll in args.collectives:
            algos = ompi_algorithms(args, coll) if args.mpi == "openmpi" else mpich_algorithms(args, coll)
            confs = [Config("default")] + [forced_config(args, coll, n, v) for n, v in algos]
            if args.mcb:
                confs.append(Config("mcb", algorithm="mcb", mcb_algorithm=mcb_algorithms(args, coll)))
            for ranks in args.ranks:
                note = " (oversubscribed: %d ranks on %d cores, timings not meaningful for speed)" % (
                    ranks, cores) if ranks > cores else ""
                print("# %s, %d ranks: %s%s" % (coll, ranks, ", ".join(c.key for c in confs), note),
                      file=sys.stderr, flush=True)
                sizes = probe_sizes(args, coll, ranks, tmp)
                observed, refused_all, checked = {}, {}, {}
                for c in confs:
                    if args.mpi == "openmpi" and c.key != "mcb":
                        observed[c.key] = trace_config(args, coll, ranks, c, sizes_text(args, coll), sizes, tmp,
                                                       "trace-%s-%d-%s" % (coll, ranks, safe(c.key)))
                    elif args.mpi == "mpich" and c.key.startswith("forced:"):
                        checked[c.key] = mpich_check_forced(args, coll, ranks, c, sizes, tmp,
                                                            "check-%s-%d-%s" % (coll, ranks, safe(c.key)))
                for r in range(args.repeats):
                    for c in (confs if r % 2 == 0 else list(reversed(confs))):
                        if len(refused_all.get(c.key, {})) == len(sizes):
                            continue  # refused at every size in the first repeat
                        print("#   repeat %d/%d %s" % (r + 1, args.repeats, c.key), file=sys.stderr, flush=True)
                        got, refused, _ = run_config(args, coll, ranks, c, sizes_text(args, coll), sizes, tmp,
                                                     "%s-%d-%s-%d" % (coll, ranks, safe(c.key), r))
                        refused_all.setdefault(c.key, {}).update(refused)
                        for (comm, label, s), us in sorted(got.items()):
                            row = measurement(args, version, coll, comm, c, label, s, r, us, observed)
                            if row and s in checked.get(c.key, {}):
                                row["status"], row["note"] = checked[c.key][s]
                            if row:
                                rows.append(row)
                for c in confs:
                    for s, err in sorted(refused_all.get(c.key, {}).items()):
                        rows.append(dict(mpi=args.mpi, mpi_version=version, collective=coll, ranks=ranks,
                                         config=c.key, algorithm=c.algorithm, value=c.value, size_bytes=s,
                                         repeat="", median_us="", status="refused", observed="", note=err))
                save(rows)
    return rows


def safe(key):
    return re.sub(r"[^\w.-]", "_", key)


def measurement(args, version, coll, ranks, conf, label, size, repeat, us, observed):
    """One measurement row (None for the system rows of an mcb --algorithm all run)."""
    status, note, seen = "ok", "", ""
    algorithm, value = conf.algorithm, conf.value
    if conf.key == "mcb":
        if label == "system":
            return None
        algorithm = label
    elif args.mpi == "openmpi" and conf.key in observed:
        functions = observed[conf.key].get(size, {})
        seen = observed_text(functions)
        if conf.key.startswith("forced:"):
            status, note = ompi_check_forced(coll, conf.algorithm, functions)
    return dict(mpi=args.mpi, mpi_version=version, collective=coll, ranks=ranks, config=conf.key,
                algorithm=algorithm, value=value, size_bytes=size, repeat=repeat, median_us="%.3f" % us,
                status=status, observed=seen, note=note)


def write_measurements(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=MEASUREMENT_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(r)


def read_measurements(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in MEASUREMENT_FIELDS if c not in (reader.fieldnames or [])]
            if missing:
                fail_input("%s: not a tune.py measurements file (missing %s)" % (path, ", ".join(missing)))
            rows = list(reader)
    except OSError as e:
        fail_input("--measurements %s: %s" % (path, e.strerror))
    if not rows:
        fail_input("%s: no measurements" % path)
    mpis = {r["mpi"] for r in rows}
    if len(mpis) != 1 or not mpis <= set(LIBRARY_NAME):
        fail_input("%s: mpi column says %s; expected one of openmpi, mpich" % (path, ", ".join(sorted(mpis))))
    for r in rows:
        if r["collective"] not in COLLECTIVES:
            fail_input("%s: unknown collective %s" % (path, r["collective"]))
    return rows


# ----------------------------------------------------------------------------------------------
# The choice


class Choice:
    """One (collective, ranks, size): the default, the fastest forced algorithm, and the verdict."""

    def __init__(self, size):
        self.size = size
        self.default_best = self.default_worst = None
        self.best = None  # (algorithm, value, best us, worst us)
        self.kept = False
        self.excluded = []  # (algorithm, status, note)
        self.default_observed = ""
        self.same_as_default = False  # Open MPI: the trace shows the default runs the best one already
        self.mcb = None  # (label, best us, worst us)

    @property
    def speedup(self):
        return self.default_best / self.best[2] if self.best else float("nan")

    def chosen(self):
        return self.best[:2] if self.kept else None


def choose(rows, threshold):
    """{(collective, ranks): [Choice per size]} from measurement rows."""
    times = collections.defaultdict(list)
    meta = {}
    excluded = collections.defaultdict(dict)
    observed = {}
    for r in rows:
        key = (r["collective"], int(r["ranks"]), int(r["size_bytes"]))
        if r["observed"]:
            observed[key + (r["config"],)] = r["observed"]
        if r["status"] != "ok":
            excluded[key][r["algorithm"]] = (r["algorithm"], r["status"], r["note"])
            continue
        if not r["median_us"]:
            continue
        name = "mcb:" + r["algorithm"] if r["config"] == "mcb" else r["config"]
        times[key + (name,)].append(float(r["median_us"]))
        if r["config"].startswith("forced:"):
            meta[r["config"]] = (r["algorithm"], r["value"])
    by_size = collections.defaultdict(list)
    for k, v in times.items():
        by_size[k[:3]].append((k[3], v))
    result = collections.defaultdict(list)
    for key in sorted(by_size):
        coll, ranks, size = key
        ch = Choice(size)
        d = times.get(key + ("default",))
        if not d:
            fail_input("no default measurement for %s at %d ranks, %d B" % (coll, ranks, size))
        ch.default_best, ch.default_worst = min(d), max(d)
        ch.excluded = sorted(excluded[key].values())
        ch.default_observed = ompi_names(coll, observed.get(key + ("default",), ""))
        bad = set(excluded[key])
        for name, v in by_size[key]:
            if name.startswith("forced:"):
                alg, value = meta[name]
                if alg in bad:
                    continue  # refused, ignored or handed over at this size in some repeat
                cand = (alg, value, min(v), max(v))
                if ch.best is None or cand[2] < ch.best[2]:
                    ch.best = cand
            elif name.startswith("mcb:") and not name.startswith("mcb:system"):  # system*: still the MPI's
                cand = (name[4:], min(v), max(v))
                if ch.mcb is None or cand[1] < ch.mcb[1]:
                    ch.mcb = cand
        if ch.best is not None:
            ran = observed.get(key + ("forced:" + ch.best[0],))
            ch.same_as_default = bool(ran) and ran == observed.get(key + ("default",))
            ch.kept = ch.best[3] * (1 + threshold) < ch.default_best and not ch.same_as_default
        result[(coll, ranks)].append(ch)
    return result


def ranges(choices):
    """Adjacent sizes with the same choice merged: [(first size, last size, (algorithm, value) or None)]."""
    out = []
    for ch in choices:
        c = ch.chosen()
        if out and out[-1][2] == c:
            out[-1] = (out[-1][0], ch.size, c)
        else:
            out.append((ch.size, ch.size, c))
    return out


# ----------------------------------------------------------------------------------------------
# The files


def ompi_rules(table, segment_size=0):
    """The text of an Open MPI coll/tuned dynamic rules file for the chosen ranges."""
    colls = sorted({coll for coll, _ in table}, key=lambda c: OMPI_COLL_ID[c])
    lines = ["# Open MPI coll/tuned dynamic rules written by mcb's scripts/tune.py.",
             "# Use: --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE",
             "# Rule lines: message size (bytes; x communicator size for alltoall and allgather), algorithm",
             "# (0: Open MPI's fixed decision), fan in/out, segment size. Measured communicator sizes only.",
             "%d  # collectives" % len(colls)]
    for coll in colls:
        comm = sorted(r for c, r in table if c == coll)
        blocks = []  # (comm size, [msg rules])
        if comm[0] > 1:
            blocks.append((0, [(0, 0)]))
        for i, ranks in enumerate(comm):
            rules = []
            rs = ranges(table[(coll, ranks)])
            for j, (first, last, c) in enumerate(rs):
                start = 0 if j == 0 else ompi_rule_bytes(coll, first, ranks)
                alg = int(c[1]) if c else 0
                if not rules or rules[-1][1] != alg:
                    rules.append((start, alg))
            beyond = ompi_rule_bytes(coll, rs[-1][1], ranks) + 1
            if rules[-1][1] != 0:
                rules.append((beyond, 0))
            blocks.append((ranks, rules))
            if i + 1 == len(comm) or comm[i + 1] > ranks + 1:
                blocks.append((ranks + 1, [(0, 0)]))
        lines.append("%d  # %s" % (OMPI_COLL_ID[coll], coll))
        lines.append("%d  # communicator sizes" % len(blocks))
        for ranks, rules in blocks:
            lines.append("%d  # communicator size%s" % (ranks, "" if ranks in comm else " (Open MPI's decision)"))
            lines.append("%d  # message sizes" % len(rules))
            for start, alg in rules:
                seg = segment_size if alg else 0
                lines.append("%d %d 0 %d" % (start, alg, seg))
    return "\n".join(lines) + "\n"


def read_ompi_rules(path):
    """Parses a rules file as Open MPI 4.x does (numbers; '#' starts a comment).
    Returns {collective id: [(comm size, [(msg size, alg, faninout, segsize)])]}."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        fail_input("%s: %s" % (path, e.strerror))
    tokens = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for tok in line.split("#", 1)[0].split():
            if not re.fullmatch(r"[0-9]+", tok):
                raise TuneError("%s line %d: '%s' is not a non-negative number; Open MPI would ignore the whole "
                                "file and silently use its fixed decisions" % (path, lineno, tok))
            tokens.append(int(tok))
    pos = [0]

    def nxt(what):
        if pos[0] >= len(tokens):
            raise TuneError("%s: ends before %s; Open MPI would ignore the whole file" % (path, what))
        pos[0] += 1
        return tokens[pos[0] - 1]

    rules = {}
    for _ in range(nxt("the number of collectives")):
        cid = nxt("a collective id")
        if cid >= 22:
            raise TuneError("%s: collective id %d is out of range; Open MPI would ignore the file" % (path, cid))
        blocks = []
        for _ in range(nxt("a communicator-size count")):
            cs = nxt("a communicator size")
            msgs = []
            for k in range(nxt("a message-size count")):
                m = (nxt("a message size"), nxt("an algorithm"), nxt("a fan in/out"), nxt("a segment size"))
                if k == 0 and m[0] != 0:
                    raise TuneError("%s: the first rule of communicator size %d starts at %d, not 0; Open MPI "
                                    "would ignore the file" % (path, cs, m[0]))
                msgs.append(m)
            blocks.append((cs, msgs))
        rules[cid] = blocks
    return rules


def ompi_lookup(rules, coll, ranks, size_bytes):
    """The algorithm number Open MPI takes from the rules (0: its fixed decision)."""
    blocks = rules.get(OMPI_COLL_ID[coll])
    if not blocks:
        return 0
    best = blocks[0]
    for b in blocks:
        if b[0] > ranks:
            break
        best = b
    msgs = best[1]
    if not msgs:
        return 0
    alg = msgs[0][1]
    size = ompi_rule_bytes(coll, size_bytes, ranks)
    for m in msgs:
        if m[0] > size:
            break
        alg = m[1]
    return alg


def container(name):
    return collections.OrderedDict([("algorithm=" + name, collections.OrderedDict())])


def mpich_tree(table, base, known=None):
    """MPICH's complete selection tree with the chosen ranges put in front of
    MPICH's own choice for the measured communicator sizes. `known`: the
    container names the library has (a chosen one missing is an error)."""
    tree = copy.deepcopy(base)
    for (coll, ranks), chs in table.items():
        for ch in chs:
            c = ch.chosen()
            if c and known is not None and mpich_container(coll, c[1]) not in known:
                raise TuneError("MPICH has no selection container %s for %s=%s" % (
                    mpich_container(coll, c[1]), "MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper(), c[1]))
    for coll in sorted({c for c, _ in table}):
        top = tree.get("collective=" + coll)
        if not isinstance(top, dict) or "comm_type=intra" not in top:
            raise TuneError("MPICH's base tree has no collective=%s / comm_type=intra" % coll)
        default = top["comm_type=intra"]
        chain = collections.OrderedDict()
        below = 1
        for ranks in sorted(r for c, r in table if c == coll):
            if ranks - 1 >= below:
                chain["comm_size<=%d" % (ranks - 1)] = default
            sized = collections.OrderedDict()
            key = MPICH_SIZE_KEY[coll]
            for first, last, c in ranges(table[(coll, ranks)]):
                sized["%s<=%d" % (key, mpich_rule_bytes(coll, last, ranks))] = \
                    container(mpich_container(coll, c[1])) if c else default
            sized["%s=any" % key] = default
            chain["comm_size<=%d" % ranks] = sized
            below = ranks + 1
        chain["comm_size=any"] = default
        if coll == "alltoall":  # tuned for separate buffers; MPI_IN_PLACE keeps MPICH's choice
            intra = collections.OrderedDict([("is_sendbuf_inplace=no", chain), ("is_sendbuf_inplace=yes", default)])
        elif coll == "allreduce":  # tuned for MPI_SUM on float; other operations keep MPICH's choice
            intra = collections.OrderedDict([
                ("is_commutative=yes", collections.OrderedDict([("is_op_built_in=yes", chain),
                                                                ("is_op_built_in=no", default)])),
                ("is_commutative=no", default)])
        else:
            intra = chain
        top["comm_type=intra"] = intra
    problems = check_mpich_tree(tree)
    if problems:
        raise TuneError("internal error: the MPICH tree would make MPICH assert: %s" % problems[0])
    return tree


MPICH_ANY = ("comm_size=any", "avg_msg_size=any", "total_msg_size=any", "count=any")
MPICH_BOOLEAN = re.compile(r"^(is_multi_threaded|comm_type|comm_hierarchy|is_node_consecutive|is_sendbuf_inplace|"
                           r"is_block_regular|is_commutative|is_op_built_in|collective)=")
MPICH_KEYS = re.compile(r"^(collective=\w+|comm_type=(intra|inter)|is_multi_threaded=(yes|no)|"
                        r"comm_size(<=\d+|<\d+|=pow2|=node_comm_size|=any)|count(<=\d+|<pow2|=any)|"
                        r"(avg_msg_size|total_msg_size)(<=\d+|<\d+|=any)|"
                        r"(is_commutative|is_sendbuf_inplace|is_op_built_in|is_block_regular|is_node_consecutive)"
                        r"=(yes|no)|comm_avg_ppn<=\d+|comm_hierarchy=(parent|node_roots|node|flat|any))$")


def check_mpich_tree(tree, where="top"):
    """What MPICH 4.x's parser and validate_tree() assert on: a non-object, an
    unknown key, an '=any' test that is not the last of its siblings, a size
    or count test with no sibling after it."""
    problems = []
    if not isinstance(tree, dict) or not tree:
        return ["%s: expected a non-empty object" % where]
    keys = [k.replace(" ", "") for k in tree]
    if keys[0].startswith(("algorithm=", "composition=")):
        return []
    for i, k in enumerate(keys):
        last = i == len(keys) - 1
        if k.startswith(("algorithm=", "composition=")):
            problems.append("%s: container %s among tests" % (where, k))
            continue
        if not MPICH_KEYS.match(k):
            problems.append("%s: unknown key '%s'" % (where, k))
        elif k in MPICH_ANY and not last:
            problems.append("%s: '%s' is followed by a sibling" % (where, k))
        elif last and not MPICH_BOOLEAN.match(k) and k not in MPICH_ANY:
            problems.append("%s: '%s' has no following sibling (the failure path)" % (where, k))
        child = list(tree.values())[i]
        problems += check_mpich_tree(child, "%s/%s" % (where, k))
    return problems


def mpich_lookup(tree, coll, ranks, size_bytes, dtype_size):
    """The container MPICH's selection reaches for an intracommunicator of
    `ranks` processes on one node, MPI_SUM on a built-in type, separate buffers."""
    count = size_bytes // dtype_size
    pof2 = 1
    while pof2 * 2 <= ranks:
        pof2 *= 2
    avg = size_bytes
    total = size_bytes * ranks

    def test(k):
        name, op, val = re.match(r"^(\w+?)(<=|<|=)(.*)$", k).groups()
        if val == "any":
            return True
        if name == "collective":
            return val == coll
        if name == "comm_type":
            return val == "intra"
        if name == "is_multi_threaded":
            return val == "no"
        if name in ("is_commutative", "is_op_built_in", "is_block_regular", "is_node_consecutive"):
            return val == "yes"
        if name == "is_sendbuf_inplace":
            return val == "no"
        if name == "comm_hierarchy":
            return val == "parent"
        if name == "comm_size":
            if val == "pow2":
                return ranks & (ranks - 1) == 0
            if val == "node_comm_size":
                return True
            return ranks <= int(val) if op == "<=" else ranks < int(val)
        if name == "count":
            return count < pof2 if val == "pow2" else count <= int(val)
        if name in ("avg_msg_size", "total_msg_size"):
            v = avg if name == "avg_msg_size" else total
            return v <= int(val) if op == "<=" else v < int(val)
        if name == "comm_avg_ppn":
            return ranks <= int(val)
        raise TuneError("cannot evaluate MPICH key %s" % k)

    node = tree
    while True:
        keys = list(node)
        if keys and keys[0].startswith("algorithm="):
            return keys[0][len("algorithm="):]
        for k in keys:
            if test(k.replace(" ", "")):
                node = node[k]
                break
        else:
            return None


# ----------------------------------------------------------------------------------------------
# Report


def fmt_size(b):
    for unit, n in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return "%d %s" % (b // n, unit)
    return "%d B" % b


def report(table, mpi, threshold, out, cores=None):
    """The console table per (collective, communicator size); `cores` (when
    measured here) marks oversubscribed runs."""
    lines = []
    for (coll, ranks), chs in sorted(table.items()):
        lines.append("")
        lines.append("## %s, %d ranks: %s's default vs its fastest forced algorithm (kept if its slowest repeat "
                     "beats the default's fastest by > %.0f%%)" % (coll, ranks, LIBRARY_NAME[mpi], threshold * 100))
        if cores and ranks > cores:
            lines.append("# oversubscribed: %d ranks on %d cores; fine for the file's mechanics, the timings are "
                         "not meaningful for speed" % (ranks, cores))
        lines.append("%10s %12s %-20s %-20s %12s %8s  %s" % ("size", "default us", "default runs", "best forced",
                                                            "best us", "speedup", "choice"))
        for ch in chs:
            best = ch.best[0] if ch.best else "-"
            best_us = "%12.2f" % ch.best[2] if ch.best else "%12s" % "-"
            verdict = ch.best[0] if ch.kept else ("default" if ch.best else "default (nothing ran)")
            if ch.same_as_default:
                verdict += " (runs %s already)" % ch.best[0]
            elif ch.best and not ch.kept and ch.best[2] < ch.default_best:
                verdict += " (within noise)"
            lines.append("%10s %12.2f %-20s %-20s %s %8.2f  %s" % (
                fmt_size(ch.size), ch.default_best, ch.default_observed or "-", best, best_us,
                ch.speedup if ch.best else float("nan"), verdict))
        notes = collections.OrderedDict()
        for ch in chs:
            for alg, status, note in ch.excluded:
                notes.setdefault((alg, status), []).append((ch.size, note))
        for (alg, status), found in notes.items():
            first = found[0][1]
            same = all(n == first for _, n in found)
            lines.append("#   %s %s at %s: %s%s" % (alg, status, size_list([s for s, _ in found]), first,
                                                     "" if same else " (at %s; similar at the others)"
                                                     % fmt_size(found[0][0])))
        lines.append("#   ranges: " + "; ".join("%s-%s %s" % (fmt_size(a), fmt_size(b), c[0] if c else "default")
                                                 for a, b, c in ranges(chs)))
    advice = []
    for (coll, ranks), chs in sorted(table.items()):
        for ch in chs:
            if not ch.mcb:
                continue
            tuned = ch.best[2] if ch.kept else ch.default_best
            if ch.mcb[2] * (1 + threshold) < tuned:
                advice.append("%s, %d ranks, %s: mcb %s %.2f us, %.2fx over the %s MPI (%.2f us); no tuning file "
                              "can select it (mcb_preload can: docs/preload.md)" % (
                                  coll, ranks, fmt_size(ch.size), ch.mcb[0], ch.mcb[1], tuned / ch.mcb[1],
                                  "tuned" if ch.kept else "default", tuned))
    if advice:
        lines.append("")
        lines.append("## beyond the MPI: where one of mcb's own algorithms beats the best the MPI can be tuned to")
        lines += advice
    text = "\n".join(lines) + "\n"
    out.write(text)
    return text


def size_list(sizes):
    return fmt_size(sizes[0]) if len(sizes) == 1 else "%s-%s (%d sizes)" % (fmt_size(sizes[0]), fmt_size(sizes[-1]),
                                                                            len(sizes))


def write_file(args, table, mpi, out_dir):
    if mpi == "openmpi":
        path = os.path.join(out_dir, "openmpi_rules.txt")
        with open(path, "w") as f:
            f.write(ompi_rules(table, args.segment_size))
    else:
        base, known = mpich_base_tree(args)
        path = os.path.join(out_dir, "mpich_tuning.json")
        tree = mpich_tree(table, base, known)
        with open(path, "w") as f:
            json.dump(tree, f, indent=1)
            f.write("\n")
    return path


# ----------------------------------------------------------------------------------------------
# --verify


def command_line():
    """The line that produced a report or a verification, for its first lines."""
    return "# command: %s" % shell_line([os.path.relpath(sys.argv[0])] + sys.argv[1:], {})


def verify(args):
    path = args.verify
    if not os.path.isfile(path):
        fail_input("--verify %s: no such file" % path)
    with open(path) as f:
        head = f.read(4096).lstrip()
    kind = "mpich" if head.startswith("{") else "openmpi"
    if kind != args.mpi:
        fail_input("--verify %s: a %s file, but the binaries use %s" % (path, LIBRARY_NAME[kind],
                                                                       LIBRARY_NAME[args.mpi]))
    if kind == "openmpi":
        rules = read_ompi_rules(path)
        names = {c: {v: n for n, v in ompi_algorithms(args, c)} for c in args.collectives}
    else:
        try:
            with open(path) as f:
                tree = json.load(f, object_pairs_hook=collections.OrderedDict)
        except ValueError as e:
            raise TuneError("%s is not JSON (%s): MPICH would assert at its first collective" % (path, e))
        problems = check_mpich_tree(tree)
        if problems:
            raise TuneError("%s: MPICH would assert: %s" % (path, problems[0]))
        known = {c: dict(mpich_algorithms(args, c)) for c in args.collectives}
        base, _ = mpich_base_tree(args)
    print(command_line())
    failures = []
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="mcb-verify-") as tmp:
        if kind == "mpich":
            mpich_canary(args, tmp)
        fconf = file_config(args, path)
        for coll in args.collectives:
            for ranks in args.ranks:
                sizes = probe_sizes(args, coll, ranks, tmp)
                dtype = 4 if coll == "allreduce" else 1
                expected = {}
                own = set()  # MPICH: sizes where the file's algorithm is also what MPICH's own tree picks
                for s in sizes:
                    if kind == "openmpi":
                        alg = ompi_lookup(rules, coll, ranks, s)
                        if alg and alg not in names[coll]:
                            raise TuneError("%s: algorithm %d for %s is not one Open MPI has (%s)" % (
                                path, alg, coll, ", ".join("%d %s" % kv for kv in sorted(names[coll].items()))))
                        expected[s] = (names[coll][alg], alg) if alg else None
                    else:
                        cname = mpich_lookup(tree, coll, ranks, s, dtype)
                        value = mpich_value(coll, cname or "")
                        # Compared with its forced run wherever it can be forced, also where
                        # MPICH's own tree picks the same (the file then gains only by turning
                        # the device collectives off, and the forced run shows what it costs
                        # MPICH to walk its tree).
                        expected[s] = (value, value) if value and value in known[coll] else None
                        if cname == mpich_lookup(base, coll, ranks, s, dtype):
                            own.add(s)
                algos = sorted({e for e in expected.values() if e})
                confs = [Config("default"), fconf] + [forced_config(args, coll, n, v) for n, v in algos]
                note = " (oversubscribed: %d ranks on %d cores)" % (ranks, cores) if ranks > cores else ""
                print("# verify %s, %d ranks%s: %s" % (coll, ranks, note, ", ".join(c.key for c in confs)),
                      file=sys.stderr, flush=True)
                traces = {}
                if kind == "openmpi":
                    for c in confs:
                        traces[c.key] = trace_config(args, coll, ranks, c, sizes_text(args, coll), sizes, tmp,
                                                     "vt-%s-%d-%s" % (coll, ranks, safe(c.key)))
                times = collections.defaultdict(list)
                for r in range(args.repeats):
                    for c in (confs if r % 2 == 0 else list(reversed(confs))):
                        got, refused, _ = run_config(args, coll, ranks, c, sizes_text(args, coll), sizes, tmp,
                                                     "v-%s-%d-%s-%d" % (coll, ranks, safe(c.key), r))
                        for (_, _, s), us in got.items():
                            times[(c.key, s)].append(us)
                        for s, err in refused.items():
                            failures.append("%s %d ranks %s: forced %s failed: %s" % (coll, ranks, fmt_size(s),
                                                                                      c.key, err))
                print("\n## verify %s, %d ranks%s: %s" % (coll, ranks, note, path))
                print("%10s %-26s %12s %12s %12s %10s %9s  %s" % ("size", "file selects", "default us", "file us",
                                                               "forced us", "file/forced", "speedup", "observed"))
                for s in sizes:
                    e = expected[s]
                    d, fl = min(times[("default", s)]), min(times[("file", s)])
                    fo = min(times[("forced:" + e[0], s)]) if e and times.get(("forced:" + e[0], s)) else None
                    if kind == "openmpi":
                        ran = traces["file"].get(s, {})
                        if e:
                            want = traces["forced:" + e[0]].get(s, {})
                            ok = set(ran) == set(want) and bool(ran)
                        else:
                            want = traces["default"].get(s, {})
                            ok = set(ran) == set(want)
                        seen = "%s %s" % ("ok" if ok else "MISMATCH", observed_text(ran) or "-")
                        if not ok:
                            failures.append("%s %d ranks %s: the file should run %s (%s) but %s ran" % (
                                coll, ranks, fmt_size(s), e[0] if e else "Open MPI's default",
                                observed_text(want) or "?", observed_text(ran) or "nothing traced"))
                    else:
                        seen = "timing only (MPICH)"
                    timing = ""
                    if fo:
                        spread = max(max(times[("file", s)]) / fl, max(times[("forced:" + e[0], s)]) / fo) - 1
                        agree = abs(fl / fo - 1) <= max(0.10, spread)
                        timing = "%10.2f%s" % (fl / fo, "" if agree else "?")
                    label = (e[0] + ("*" if s in own else "")) if e else "(MPI's own)"
                    print("%10s %-26s %12.2f %12.2f %12s %10s %9.2f  %s" % (
                        fmt_size(s), label, d, fl, "%.2f" % fo if fo else "-", timing or "-", d / fl, seen))
                if own & {s for s in sizes if expected[s]}:
                    print("# *: also what MPICH's own tree selects there; the file differs from the default "
                          "only by turning the device collectives off")
        if failures:
            print()
            for f in failures:
                print("verify: FAILED: " + f)
            return 1
    print("\n# verify: ok: %s was loaded and %s" % (
        path, "every size ran the algorithm the file names (coll/base trace)" if kind == "openmpi" else
        "accepted (MPICH reads it at start: a broken file makes it fail); which algorithm ran is shown by "
        "timing only ('?': file and forced times differ beyond noise)"))
    print("# use: " + usage_line(kind, path))
    return 0


def mpich_canary(args, tmp):
    """MPICH must refuse an empty selection tree: if it runs, it ignores the variable."""
    bad = os.path.join(tmp, "canary.json")
    with open(bad, "w") as f:
        f.write("{}\n")
    rc, out, line = launch(args, args.collectives[0], min(args.ranks), file_config(args, bad), "8",
                           os.path.join(tmp, "canary.csv"), 1, 0)
    if rc == 0:
        raise TuneError("MPICH ran with an empty tuning tree: it ignores MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE "
                        "here (%s)" % line)


# ----------------------------------------------------------------------------------------------


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        if args.verify:
            return verify(args)
        if args.measurements:
            rows = read_measurements(args.measurements)
            mpi = rows[0]["mpi"]
            args.mpi = mpi
            if mpi == "mpich" and not args.mpich_base_json:
                if args.build is None:
                    args.build = os.path.join(REPO, "build-mpich")
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
            text = report(table, mpi, args.threshold, sys.stdout, None if args.measurements else os.cpu_count())
            f.write(text)
            path = write_file(args, table, mpi, args.out)
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


if __name__ == "__main__":
    sys.exit(main())
