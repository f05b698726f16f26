"""--verify FILE: the file loaded by the MPI at every process count and
size; what it selects there (looked up as the MPI would) run against the
MPI's default and against that algorithm forced. Open MPI: the trace must
show the file's algorithm ran; MPICH: the file must be accepted (after a
canary shows MPICH reads it), the algorithm shown by timing only."""

import collections
import json
import os
import sys
import tempfile

from lib.mpi_tools import LIBRARY_NAME

from .common import VECTOR, TuneError, fail_input, sizes_text
from .launch import Config, file_config, forced_config, probe_sizes, run_config, safe, usage_line
from .mpich import check_mpich_tree, mpich_algorithms, mpich_base_tree, mpich_canary, mpich_lookup, mpich_value
from .openmpi import ompi_algorithms, ompi_lookup, read_ompi_rules, trace_config
from .openmpi_trace import observed_text
from .report import command_line, fmt_size


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
        rules = read_ompi_rules(path, args.mpi_version)
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
    print(command_line() + ("\n" + args.left_out if getattr(args, "left_out", "") else ""))
    failures = []
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="mcb-verify-") as tmp:
        if kind == "mpich":
            mpich_canary(args, tmp)
        fconf = file_config(args, path)
        for coll in args.collectives:
            for ranks in args.ranks:
                sizes = probe_sizes(args, coll, ranks, tmp)
                dtype = 4 if coll in VECTOR else 1
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
