"""The sweep: every configuration (the default, each forced algorithm, mcb's
own with --mcb) at every process count, repeated and interleaved, with the
forced values checked (Open MPI's trace, MPICH's fallback lines); its rows
are measurements.csv, written as it goes and read back by --measurements."""

import csv
import os
import re
import subprocess
import sys
import tempfile

from lib.mpi_tools import LIBRARY_NAME

from .common import COLLECTIVES, TuneError, binary, fail_input, sizes_text
from .launch import Config, forced_config, mpi_env, probe_sizes, run_config, safe
from .mpich import mpich_algorithms, mpich_check_forced, mpich_version
from .openmpi import ompi_algorithms, ompi_version, trace_config
from .openmpi_trace import observed_text, ompi_check_forced

MEASUREMENT_FIELDS = ["mpi", "mpi_version", "collective", "ranks", "config", "algorithm", "value", "size_bytes",
                      "repeat", "median_us", "status", "observed", "note"]


def mcb_algorithms(args, coll):
    """mcb's own algorithms (--list without the system_* ones, which are the
    MPI's: MPICH 4.0's persistent allgather also fails validation, mpich#6423)."""
    out = subprocess.run([binary(args, coll), "--list"], stdout=subprocess.PIPE, universal_newlines=True,
                         env=mpi_env(args)).stdout
    names = [n for n in re.findall(r"^  ([a-z0-9_]+)\s", out, re.M) if not n.startswith("system")]
    if not names:
        raise TuneError("%s --list names no algorithm" % binary(args, coll))
    return ",".join(names)


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
