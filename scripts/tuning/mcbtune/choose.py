"""The choice: per (collective, communicator size, size) the fastest forced
algorithm, kept only if its slowest repeat, made --threshold slower, still
beats the default's fastest (and, with Open MPI, the trace does not show
the default running it already); adjacent sizes with the same choice
merged into ranges, which both tuning files are written from."""

import collections

from .common import fail_input
from .openmpi_trace import ompi_names


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
