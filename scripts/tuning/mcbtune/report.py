"""The report: sizes in B, KiB and MiB, the table per (collective,
communicator size) with the excluded algorithms and the ranges, the advice
where one of mcb's own algorithms beats the tuned MPI, and the command
line that heads report.txt and --verify's output."""

import collections
import os
import sys

from lib.mpi_tools import LIBRARY_NAME, shell_line

from .choose import ranges


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


def command_line():
    """The line that produced a report or a verification, for its first lines."""
    return "# command: %s" % shell_line([os.path.relpath(sys.argv[0])] + sys.argv[1:], {})
