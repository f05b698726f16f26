"""Open MPI coll/tuned (4.1 and 5.0): its algorithms (coll_tuned_<coll>_algorithm
values) and version from ompi_info beside the launcher, the message size
its dynamic rules compare, the traced launch (which coll/base function ran
at each size), and the dynamic rules file in the format of the version
(5.0: "rule-file-version-2"): written from the choice, read back number by
number as Open MPI reads it, and looked up as Open MPI does."""

import os
import re

from lib.mpi_tools import MpiToolError, major, mpi_version, ompi_algorithms_from, ompi_tuned_params, tool_beside

from .choose import ranges
from .common import TuneError, fail_input, vector_bytes
from .launch import launch
from .openmpi_trace import read_trace

# Collective ids of the rules file (ompi/mca/coll/base/coll_base_functions.h, COLLTYPE).
OMPI_COLL_ID = {"allgather": 0, "allgatherv": 1, "allreduce": 2, "alltoall": 3, "gather": 9, "reduce_scatter": 12,
                "reduce_scatter_block": 13, "scatter": 15}
# COLLTYPE has gatherv (10) and scatterv (16), but coll/tuned of 4.1 and 5.0 has
# no algorithm for them (its module sets coll_gatherv and coll_scatterv to NULL:
# coll/basic's linear ones run; ompi_info lists no coll_tuned_gatherv_algorithm),
# so a rule for them is read and never used: tune.py writes none.
OMPI_UNTUNED = ("gatherv", "scatterv")


def ompi_untuned_text(colls):
    return ("Open MPI has no tunable algorithm for %s: coll/tuned (4.1, 5.0) has none (no "
            "coll_tuned_<coll>_algorithm; coll/basic's linear one runs), so a rules file cannot change it"
            % " or ".join(colls))


def ompi_rule_bytes(coll, size_bytes, ranks):
    """The message size Open MPI's dynamic decision compares with a rule
    (coll_tuned_decision_dynamic.c): the vector's bytes for allreduce and
    the reduce-scatters (reduce_scatter: the sum of the counts;
    reduce_scatter_block: the count x the communicator's size), one block x
    the communicator's size for alltoall and allgather, the sum of the
    counts for allgatherv, the send count x the communicator's size for
    gather and scatter (the root's whole buffer: each rank compares its own
    send count, which mcb passes at every rank). mcb's size_bytes is the
    vector (the reductions) or one block (the others; --counts equal)."""
    return vector_bytes(coll, size_bytes, ranks)


def ompi_info_path(args):
    return tool_beside(args.launcher, "ompi_info")


def ompi_algorithms(args, coll):
    """[(name, value)] of coll_tuned_<coll>_algorithm as the Open MPI in use
    lists them (ompi_info beside the launcher, --parsable), 0 ("ignore")
    left out: 4.1 and 5.0 differ (5.0's allgather 7 is sparbit)."""
    if coll in OMPI_UNTUNED:
        raise TuneError(ompi_untuned_text([coll]), 2)
    tool = ompi_info_path(args)
    if tool is None:
        raise TuneError("ompi_info not found beside %s or on PATH" % args.launcher)
    try:
        return ompi_algorithms_from(ompi_tuned_params(tool), coll)
    except MpiToolError as e:
        raise TuneError(str(e))


def ompi_version(args):
    return mpi_version("openmpi", args.launcher)


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


# Open MPI 5.0 reads an optional first line "rule-file-version-N" (fscanf at
# the very start of the file: nothing, not even a comment, may come before
# it); from version 2 on a rule may carry a fifth number on its line, the
# maximum outstanding requests (alltoall's linear_sync). Open MPI 4.x knows no
# such line: it skips the letters, reads "-2" as the number of collectives and
# ignores the whole file. So tune.py writes format 2 for Open MPI 5 and later,
# format 1 (no version line, four numbers per rule) before.
OMPI_RULES_VERSION_LINE = "rule-file-version-%d"


def ompi_rules_format(version):
    """The rules-file format tune.py writes for an Open MPI version: 2 from 5.0 on, else 1."""
    return 2 if major(version) >= 5 else 1


def ompi_rules(table, segment_size=0, version="4", max_requests=0):
    """The text of an Open MPI coll/tuned dynamic rules file for the chosen
    ranges, in the format the Open MPI `version` reads (ompi_rules_format).
    In format 2 every alltoall rule carries `max_requests` (0: Open MPI's
    default, no limit, which the forced runs used) as its fifth number."""
    fmt = ompi_rules_format(version)
    untuned = sorted({coll for coll, _ in table if coll not in OMPI_COLL_ID})
    if untuned:
        raise TuneError(ompi_untuned_text(untuned))
    colls = sorted({coll for coll, _ in table}, key=lambda c: OMPI_COLL_ID[c])
    lines = [OMPI_RULES_VERSION_LINE % fmt] if fmt > 1 else []
    lines += ["# Open MPI coll/tuned dynamic rules written by mcb's scripts/tuning/tune.py for Open MPI %s." % version,
              "# Use: --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE",
              "# Rule lines: message size (bytes: the whole vector; one block x communicator size for alltoall, "
              "allgather, allgatherv, gather and scatter), algorithm",
              "# (0: Open MPI's fixed decision), fan in/out, segment size%s." % (
                  ", max requests (alltoall only; format 2)" if fmt > 1 else ""),
              "# Measured communicator sizes only.",
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
                extra = " %d" % max_requests if fmt > 1 and coll == "alltoall" else ""
                lines.append("%d %d 0 %d%s" % (start, alg, seg, extra))
    return "\n".join(lines) + "\n"


def rules_tokens(path, text):
    """The file as Open MPI's reader sees it: (format, [(number, line, rest of
    its line)]). Format: N of a first line "rule-file-version-N" (Open MPI
    5), else 1. '#' starts a comment. Open MPI reads numbers with %li and
    skips any other character one by one, so a stray word shifts every
    number after it (or ends the file early): refused here."""
    fmt = 1
    m = re.match(r"rule-file-version-(\d+)", text)
    if m:
        fmt = int(m.group(1))
        text = text[m.end():]
    tokens = []
    for lineno, line in enumerate(text.split("\n"), 1):
        words = line.split("#", 1)[0].split()
        for k, tok in enumerate(words):
            if tok.startswith("rule-file-version-"):
                raise TuneError("%s line %d: '%s' must be the first characters of the file (Open MPI 5 reads it "
                                "only there; anywhere else it reads '-N' as a negative count and ignores the file)"
                                % (path, lineno, tok))
            if not re.fullmatch(r"[0-9]+", tok):
                raise TuneError("%s line %d: '%s' is not a non-negative number; Open MPI would skip its characters "
                                "and misread the numbers after it, or ignore the whole file and silently use its "
                                "fixed decisions" % (path, lineno, tok))
            if len(tok) > 1 and tok.startswith("0"):
                raise TuneError("%s line %d: '%s' has a leading zero; Open MPI reads it as an octal number"
                                % (path, lineno, tok))
            tokens.append((int(tok), lineno, len(words) - k - 1))
    return fmt, tokens


def read_ompi_rules(path, version=None):
    """Parses a rules file as Open MPI reads it (4.x: numbers only; 5.0: an
    optional "rule-file-version-N" first line and, from format 2 on, an
    optional fifth number on a rule's line: max requests). `version`, the
    Open MPI that will read it: a format it does not know is an error.
    Returns {collective id: [(comm size, [(msg size, alg, faninout, segsize,
    max requests or None)])]}."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        fail_input("%s: %s" % (path, e.strerror))
    fmt, tokens = rules_tokens(path, text)
    if version is not None and fmt > 1 and major(version) < 5:
        raise TuneError("%s is a rule-file-version-%d file; Open MPI %s reads no version line and would ignore the "
                        "whole file (write it for this Open MPI: tune.py --measurements ... picks the format from "
                        "the measured version)" % (path, fmt, version))
    pos = [0]

    def nxt(what):
        if pos[0] >= len(tokens):
            raise TuneError("%s: ends before %s; Open MPI would ignore the whole file" % (path, what))
        pos[0] += 1
        return tokens[pos[0] - 1][0]

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
                # Format 2: a fifth number on the segment size's line is max requests.
                more = fmt > 1 and tokens[pos[0] - 1][2] > 0
                m += (nxt("max requests") if more else None,)
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
