"""Running mcb once: the environment (no forcing but the configuration's),
the configurations (the MPI's default, a forced algorithm, a tuning file,
mcb's own algorithms), the launch line, the rows of the CSV it writes, the
telling line of a failed run, and a failed launch retried size by size."""

import csv
import os
import re
import subprocess
import sys

from lib.mpi_tools import LIBRARY_NAME, OMPI_INVALID_ENUM, binding, clean_env, launcher, shell_line

from .common import TuneError, binary, sizes_text
from .openmpi_trace import TRACE_LIBRARY


# A rank of MPICH that aborted: "Abort(1) on node 0: Internal error" after
# "Assertion failed in file src/mpi/coll/mpir_coll.c ...".
MPICH_ABORTED = re.compile(r"^(Abort\(\d+\)|Assertion failed in file )", re.M)


def mpi_env(args, extra=None):
    return clean_env(args.mpi, extra)  # forcing comes only from the configuration


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
    env_extra = dict(conf.env)
    preload = [args.preload] if args.preload else []
    if trace:
        preload.append(os.path.join(args.build, TRACE_LIBRARY))
        env_extra["MCB_COLL_TRACE"] = trace
    if preload:
        env_extra["LD_PRELOAD"] = ":".join(preload)
    cmd = launcher(args.mpi, ranks, env_extra, binding(ranks), args.launcher, getattr(args, "mpi_version", None),
                   conf.mca)
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
        print("+ " + shell_line(cmd, {}), file=sys.stderr, flush=True)
    try:
        proc = subprocess.run(cmd, env=mpi_env(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise TuneError("timed out after %.0f s: %s" % (args.timeout, shell_line(cmd, {})))
    if OMPI_INVALID_ENUM in proc.stdout:
        raise TuneError("Open MPI rejected a forced value (it would silently run its default): %s"
                        % shell_line(cmd, {}))
    rc = proc.returncode
    if rc == 0 and MPICH_ABORTED.search(proc.stdout):
        rc = 1  # MPICH 4.2.1's hydra sometimes exits 0 when the ranks abort on an assertion in MPI_Init
    return rc, proc.stdout, shell_line(cmd, {})


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


def safe(key):
    return re.sub(r"[^\w.-]", "_", key)
