"""Open MPI 4.x coll/tuned: its algorithms (coll_tuned_<coll>_algorithm
values) and version from ompi_info, the message size its dynamic rules
compare, the traced launch (which coll/base function ran at each size),
and the dynamic rules file: written from the choice, read back number by
number as Open MPI reads it, and looked up as Open MPI does."""

import os
import re
import subprocess

from mpi_tools import tool_beside

from .choose import ranges
from .common import TuneError, fail_input
from .launch import launch
from .openmpi_trace import read_trace

# Collective ids of the rules file (ompi/mca/coll/base/coll_base_functions.h, COLLTYPE).
OMPI_COLL_ID = {"allgather": 0, "allreduce": 2, "alltoall": 3}


def ompi_rule_bytes(coll, size_bytes, ranks):
    """The message size Open MPI's dynamic decision compares with a rule
    (coll_tuned_decision_dynamic.c): datatype size x count for allreduce,
    x communicator size for alltoall and allgather. mcb's size_bytes is the
    vector (allreduce) or one block (alltoall, allgather)."""
    return size_bytes if coll == "allreduce" else size_bytes * ranks


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


def ompi_rules(table, segment_size=0):
    """The text of an Open MPI coll/tuned dynamic rules file for the chosen ranges."""
    colls = sorted({coll for coll, _ in table}, key=lambda c: OMPI_COLL_ID[c])
    lines = ["# Open MPI coll/tuned dynamic rules written by mcb's scripts/tuning/tune.py.",
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
