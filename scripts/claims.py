#!/usr/bin/env python3
"""Every claim of the five papers that a simulation can address, against
what mcb shows at the same scale: one row per claim with the paper's number,
mcb's simulated number with per-message costs, without them, and on the
full model (per-message costs, the node's shared memory, cores that copy and
local work: NAME-shm), each HOLDS or DIFFERS under the tolerance stated per
claim, and a sensitivity mark: whether the full model's verdict changes with
its memory and local-work costs halved or doubled (NAME-shm-half,
NAME-shm-double).

  scripts/claims.py                          # reads plots/paper-scale/ (scripts/paper_scale.py run)
  scripts/claims.py --data DIR --markdown    # the table as Markdown (docs/claims.md carries it)
  scripts/claims.py --write-doc docs/claims.md   # put the data's table under the page's "## The table"
  scripts/claims.py --check-doc docs/claims.md   # the page's table and quoted numbers match the data

A number that the prose of docs/claims.md quotes from the table carries the
row and the column it comes from in an HTML comment right after it:
`12.4%<!--sp-share-yahoo shm-->` (columns: costs, nocost, shm; a verdict
word, HOLDS or DIFFERS, is checked against that column's verdict).
--check-doc fails, listing each, where the page's table is not the one the
data gives or a quoted number is not in its cell.

Data: DIR/PART-PLATFORM/*.csv[.gz], written by scripts/paper_scale.py
(PART: tra, ...; PLATFORM: the paper's machine NAME, NAME-nocost without
per-message costs, NAME-shm the full model and its -half and -double
twins). A claim whose data is not there says NO DATA and the command that
makes it. The numbers are a model's (SimGrid
SMPI, scripts/platforms/make_platforms.py), not the machines'.
"""
import argparse
import csv
import glob
import gzip
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Claim group -> (the part of make.sh that makes its data, the platform with
# per-message costs); the data is in PART-PLATFORM/ and PART-PLATFORM-nocost/.
# The third: the part of scripts/paper_scale.py that runs it.
COSTS = {"tra": ("tra", "theta-256x64", "tra"), "locality": ("locality", "dane-32x112", "locality"),
         "yahoo": ("sparbit", "yahoo-16x8", "sparbit"), "cervino": ("sparbit", "cervino-5x32", "sparbit"),
         "polaris": ("tra", "polaris-64x32", "polaris"), "tuolumne": ("locality", "tuolumne-32x96", "tuolumne")}


def load(directory):
    """Total rows of every CSV in directory: list of dicts with numbers
    parsed, each with its phases' times in r["phases"] ({phase: avg_us})."""
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.csv")) + glob.glob(os.path.join(directory, "*.csv.gz"))):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", newline="") as f:
            reader = csv.DictReader(f)
            if "schema_version" not in (reader.fieldnames or []):
                continue  # not mcb's output (compare_best.py's cells, ...)
            phases = {}
            for r in reader:
                key = (r["algorithm"], r["params"], r["ranks"], r["nodes"], r["rank_order"], r["size_bytes"])
                phases.setdefault(key, {})[r["phase"]] = float(r["avg_us"])
                if r["phase"] != "total":
                    continue
                r["phases"] = phases[key]  # filled as the file is read (phases come before their total)
                r["ranks"], r["size_bytes"] = int(r["ranks"]), int(r["size_bytes"])
                r["avg_us"] = float(r["avg_us"])
                r["file"] = os.path.basename(path)
                rows.append(r)
    return rows


def param(r, name):
    for kv in r["params"].split(";"):
        k, _, v = kv.partition("=")
        if k == name:
            return v
    return None


def thin(n, what, least=2):
    """Why a verdict is thin (it rests on fewer than `least` of the points
    the claim is about: one node count, one cell, no win), or None. An
    evaluate function returns it as the third element of its answer."""
    return f"rests on {n} {what}" if n < least else None


def time_of(rows, algorithm, ranks, size, **params):
    """The one simulated time of (algorithm, params) at ranks and size."""
    found = [r["avg_us"] for r in rows if r["algorithm"] == algorithm and r["ranks"] == ranks
             and r["size_bytes"] == size and all(param(r, k.replace("_", "-")) == str(v) for k, v in params.items())]
    if not found:
        raise LookupError(f"no row {algorithm} {params} P={ranks} S={size}")
    return min(found)


def radix_sweep(rows, ranks, size):
    """{radix: time} of tra at (ranks, size), from the radix sweep (tra_radix files)."""
    return {int(param(r, "radix")): r["avg_us"] for r in rows if r["algorithm"] == "tra" and r["ranks"] == ranks
            and r["size_bytes"] == size and r["file"].startswith("tra_radix")}


# Each claim: id, paper, figure, claim, paper's value (text), part of
# make.sh, tolerance (text), and evaluate(rows) -> (mcb value text, holds).
def best_radices(rows, sizes):
    """(P, S, {radix: time}, best radix) for each P of 512, 1024, 2048 that
    has a radix sweep (the sweeps made so far) and each S."""
    found = [p for p in (512, 1024, 2048) if all(radix_sweep(rows, p, s) for s in sizes)]
    if not found:
        raise LookupError(f"no radix sweep at P = 512, 1024 or 2048 for S = {sizes}")
    for p in found:
        for s in sizes:
            sweep = radix_sweep(rows, p, s)
            yield p, s, sweep, min(sweep, key=sweep.get)


def tra_best_radix_large(rows):
    out, ok = [], True
    for p, s, sweep, best in best_radices(rows, (1024, 8192)):
        root = math.isqrt(p - 1) + 1
        ratio = sweep[root] / sweep[best]
        ok &= ratio <= 1.10 and root / 2 <= best <= 2 * root
        out.append(f"P={p} S={s}: best {best}, ceil(sqrt P)={root} at {ratio:.2f}x")
    return "; ".join(out), ok


def tra_best_radix_small(rows):
    out, ok = [], True
    for p, s, _, best in best_radices(rows, (16,)):
        ok &= 2 < best < math.sqrt(p)
        out.append(f"P={p} S={s}: best {best}")
    return "; ".join(out), ok


def tra_abs(radix, paper_us, tol):
    def evaluate(rows):
        sim = time_of(rows, "tra", 2048, 128, radix=radix)
        return f"{sim / 1000:.3f} ms ({sim / paper_us:.3f}x)", abs(sim / paper_us - 1) <= tol
    return evaluate


def tra_vs_system(algorithm, paper, tol, **params):
    def evaluate(rows):
        ratio = time_of(rows, "system", 2048, 32) / time_of(rows, algorithm, 2048, 32, **params)
        return f"{ratio:.2f}x", abs(ratio / paper - 1) <= tol
    return evaluate


def tra_order(rows):
    cells = {(r["ranks"], r["size_bytes"]) for r in rows if r["file"].startswith("tra_compare") and r["ranks"] >= 512}
    if not cells:
        raise LookupError("no tra_compare rows at P >= 512")
    tra2_tra = tra_sys = n = 0
    for p, s in cells:
        t = {a: [r["avg_us"] for r in rows if r["file"].startswith("tra_compare") and r["algorithm"] == a
                 and r["ranks"] == p and r["size_bytes"] == s] for a in ("system", "tra", "tra2")}
        if not all(t.values()):
            continue  # a run cut short
        t = {a: min(v) for a, v in t.items()}
        n += 1
        tra2_tra += t["tra2"] < t["tra"]
        tra_sys += max(t["tra"], t["tra2"]) < t["system"]
    if not n:
        raise LookupError("no (P, S) cell with system, tra and tra2")
    return (f"TRA2 < TRA in {tra2_tra}/{n} (P, S) cells, both < system in {tra_sys}/{n}",
            tra2_tra >= 0.8 * n and tra_sys >= 0.8 * n, thin(n, "(P, S) cell"))


def tra2_sweep(rows, kind, p, s):
    """{radix: (intra_node, inter_node) phase times} of the tra2_radix_KIND
    sweep at (P, S): KIND intra varies r1 (radix-intra), inter varies r2."""
    name = "radix-intra" if kind == "intra" else "radix-inter"
    return {int(param(r, name)): (r["phases"].get("intra_node"), r["phases"].get("inter_node"))
            for r in rows if r["file"].startswith(f"tra2_radix_{kind}") and r["ranks"] == p and r["size_bytes"] == s}


def tra2_cells(rows, kind):
    cells = sorted({(r["ranks"], r["size_bytes"]) for r in rows if r["file"].startswith(f"tra2_radix_{kind}")})
    if not cells:
        raise LookupError(f"no tra2_radix_{kind} runs (tra2_radix.sbatch)")
    return cells


def tra_fig9_r1(rows):
    """The best r1 for the intra-node phase is sqrt(Q) = 8 in most (P, S)."""
    good, out = 0, []
    cells = tra2_cells(rows, "intra")
    for p, s in cells:
        sweep = {r: t[0] for r, t in tra2_sweep(rows, "intra", p, s).items()}
        best = min(sweep, key=sweep.get)
        good += 8 in sweep and sweep[8] <= 1.10 * sweep[best]
        out.append(f"P={p} S={s}: best r1 {best}")
    return (f"r1 = 8 within 10% of the best in {good}/{len(cells)}; " + ", ".join(out), good >= 2 / 3 * len(cells),
            thin(len(cells), "(P, S) cell"))


def tra_fig9_r2(rows):
    """The best r2 for the inter-node phase is about N = P / Q."""
    good, out = 0, []
    cells = tra2_cells(rows, "inter")
    for p, s in cells:
        n = p // 64
        sweep = {r: t[1] for r, t in tra2_sweep(rows, "inter", p, s).items()}
        best = min(sweep, key=sweep.get)
        good += n in sweep and sweep[n] <= 1.10 * sweep[best] and best >= n / 2
        out.append(f"P={p} S={s}: best r2 {best} (N = {n})")
    return (f"r2 = N within 10% of the best in {good}/{len(cells)}; " + ", ".join(out), good >= 2 / 3 * len(cells),
            thin(len(cells), "(P, S) cell"))


def tra_fig9_inter(rows):
    """At r1 = 8, r2 = N, the inter-node phase takes longer than the intra-node one."""
    good, n = 0, 0
    for p, s in tra2_cells(rows, "intra"):
        t = tra2_sweep(rows, "intra", p, s).get(8)
        if t and None not in t:
            n += 1
            good += t[1] > t[0]
    if not n:
        raise LookupError("no tra2 run at r1 = 8 with both phases")
    return f"inter-node phase longer in {good}/{n} (P, S)", good == n


def configs_at(rows, size, ranks=3584):
    """{label: time} of every configuration at (ranks, size): 'node_aware/nonblocking', 'system', ...;
    4 processes per leader or group, as in the paper's Figures 10-15 (the
    other counts are Figures 7-9's, read by by_param)."""
    out = {}
    for r in rows:
        if any(param(r, k) not in (None, "4") for k in ("procs-per-leader", "procs-per-group")):
            continue
        if r["ranks"] == ranks and r["size_bytes"] == size:
            inner = param(r, "inner")
            label = r["algorithm"] + (f"/{inner}" if inner else "")
            out[label] = min(out.get(label, math.inf), r["avg_us"])
    return out


def need(configs, size, *algorithms):
    for a in algorithms:
        if not any(k.split("/")[0] == a for k in configs):
            raise LookupError(f"no {a} at {size} B")


def loc_best(size, want):
    """The fastest configuration at `size` is one of `want`'s algorithms."""
    def evaluate(rows):
        c = configs_at(rows, size)
        need(c, size, "system", "node_aware", "locality_aware", "multileader_node_aware")
        best = min(c, key=c.get)
        ranked = sorted(c, key=c.get)[:3]
        return (f"fastest: {', '.join(f'{k} {c[k]:.0f} us' for k in ranked)}",
                best.split("/")[0] == want)
    return evaluate


def loc_beats_system(size, algorithm):
    def evaluate(rows):
        c = configs_at(rows, size)
        need(c, size, "system", algorithm)
        mine = min(v for k, v in c.items() if k.split("/")[0] == algorithm)
        return f"system / {algorithm} = {c['system'] / mine:.2f}x", mine < c["system"]
    return evaluate


def loc_speedup(rows):
    best, sizes = (0.0, None), []
    for size in (4, 64, 1024, 4096):
        c = configs_at(rows, size)
        new = [v for k, v in c.items() if k.split("/")[0] in ("locality_aware", "multileader_node_aware")]
        if "system" not in c or not new:
            continue  # the sizes simulated so far
        sizes.append(size)
        best = max(best, (c["system"] / min(new), size))
    if not sizes:
        raise LookupError("no size with system and locality_aware or multileader_node_aware")
    return (f"up to {best[0]:.2f}x (at {best[1]} B; sizes {', '.join(map(str, sizes))} B)",
            abs(best[0] / 3.0 - 1) <= 0.4, thin(len(sizes), "size"))


def loc_nonblocking(rows):
    wins = total = 0
    for size in (4, 64):
        c = configs_at(rows, size)
        for k, v in c.items():
            if k.endswith("/nonblocking") and k.replace("/nonblocking", "/pairwise") in c:
                total += 1
                wins += v < c[k.replace("/nonblocking", "/pairwise")]
    if not total:
        raise LookupError("no pairs of inner exchanges at 4 and 64 B")
    return (f"nonblocking inner faster in {wins}/{total} (algorithm, size <= 64 B)", wins >= 0.6 * total,
            thin(total, "(algorithm, size) pair"))


def node_counts(rows, size, *algorithms):
    """{nodes: {label: time}} for the node counts (112 ranks per node, the
    node-scaling runs and Figure 10's 32 nodes) where every one of
    `algorithms` was simulated at `size`."""
    out = {}
    for n in (2, 4, 8, 16, 32):
        c = configs_at(rows, size, ranks=112 * n)
        if all(any(k.split("/")[0] == a for k in c) for a in algorithms):
            out[n] = c
    if not out:
        raise LookupError(f"no node count with {', '.join(algorithms)} at {size} B")
    return out


def fastest_of(c, algorithm):
    return min(v for k, v in c.items() if k.split("/")[0] == algorithm)


def phases_of(rows, algorithm, ranks, size, inner, mode=None):
    """{phase: time} of (algorithm, inner exchange) at (ranks, size), or
    None; `mode`: only runs of that --phase-mode."""
    for r in rows:
        if (r["algorithm"] == algorithm and r["ranks"] == ranks and r["size_bytes"] == size
                and param(r, "inner") == inner and mode in (None, r.get("phase_mode"))):
            return {k: v for k, v in r["phases"].items() if k != "total"}
    return None


def loc_fig13(size, small):
    """Hierarchical, pairwise inner, the most nodes simulated: the exchange
    between the leaders dominates below 256 B (small), the gather from 256 B.
    Isolated phases (a barrier between phases, as the paper's breakdowns):
    embedded, the non-leaders' scatter includes their wait for the leader."""
    def evaluate(rows):
        for n in (32, 16, 8, 4, 2):
            ph = phases_of(rows, "hierarchical", 112 * n, size, "pairwise", mode="isolated")
            if ph:
                break
        else:
            raise LookupError(f"no hierarchical/pairwise at {size} B with --phase-mode isolated")
        top = max(ph, key=ph.get)
        text = f"N={n}, {size} B: " + ", ".join(f"{k} {v:.0f} us" for k, v in sorted(ph.items(), key=lambda x: -x[1]))
        return text, top == ("inter_node" if small else "gather")
    return evaluate


def loc_fig14(rows):
    """Node-aware at 32 nodes, both inners: inter-node dominates at every size."""
    good, n, ratios = 0, 0, []
    for size in (4, 64, 1024, 4096):
        for inner in ("pairwise", "nonblocking"):
            ph = phases_of(rows, "node_aware", 3584, size, inner)
            if ph and "inter_node" in ph and "intra_node" in ph:
                n += 1
                good += ph["inter_node"] > ph["intra_node"]
                ratios.append(ph["intra_node"] / ph["inter_node"])
    if not n:
        raise LookupError("no node_aware phases at 32 nodes")
    return (f"inter-node longer in {good}/{n} (size, inner); intra/inter from {min(ratios):.4f} to "
            f"{max(ratios):.3f}", good == n)


def loc_fig15(rows):
    """Node-aware, pairwise inner, 4096 B: inter-node dominates at every node count."""
    per, ok = [], True
    for n in (2, 4, 8, 16, 32):
        ph = phases_of(rows, "node_aware", 112 * n, 4096, "pairwise")
        if ph:
            ok &= ph["inter_node"] > ph["intra_node"]
            per.append(f"N={n}: inter {ph['inter_node'] / 1000:.1f} ms, intra {ph['intra_node'] / 1000:.2f} ms")
    if not per:
        raise LookupError("no node_aware/pairwise phases at 4096 B")
    return "; ".join(per), ok, thin(len(per), "node count")


def loc_fig16(rows):
    """Locality-aware at 4096 B, 32 nodes, pairwise inner, 2 to 16 processes
    per group (and node-aware, the paper's one group per node): the
    inter-node exchange dominates at every group size, and 4 or 16 per group
    is the fastest."""
    found = {}
    for r in rows:
        if r["ranks"] == 3584 and r["size_bytes"] == 4096 and param(r, "inner") == "pairwise" and (
                r["file"].startswith("breakdown_locality_aware")):
            if r["algorithm"] == "locality_aware":
                found[f"{param(r, 'procs-per-group')} per group"] = r
            elif r["algorithm"] == "node_aware":
                found["node_aware"] = r
    if not any(k.endswith("per group") for k in found):
        raise LookupError("no locality_aware/pairwise at 4096 B, 32 nodes, per group size (part locality, fig16)")
    inter = all(r["phases"]["inter_node"] > r["phases"]["intra_node"] for r in found.values())
    best = min(found, key=lambda k: found[k]["avg_us"])
    text = "; ".join(f"{k}: inter {r['phases']['inter_node'] / 1000:.1f} ms, intra "
                     f"{r['phases']['intra_node'] / 1000:.2f} ms, total {r['avg_us'] / 1000:.1f} ms"
                     for k, r in sorted(found.items(), key=lambda x: x[1]["avg_us"]))
    return f"fastest {best}; {text}", inter and best in ("4 per group", "16 per group")


FIG17_18 = ("system", "node_aware", "locality_aware", "multileader_node_aware")


def among(rows, size, ranks):
    """{algorithm: fastest time} of Figures 17-18's four at (ranks, size)."""
    c = configs_at(rows, size, ranks)
    need(c, size, *FIG17_18)
    return {a: fastest_of(c, a) for a in FIG17_18}


def loc_fig17(rows):
    """Amber (Dane's model): of the four, multi-leader + node-aware the
    fastest at 4 B and node-aware at 4096 B."""
    small, large = among(rows, 4, 3584), among(rows, 4096, 3584)
    bs, bl = min(small, key=small.get), min(large, key=large.get)
    return (f"4 B: fastest {bs} ({small[bs]:.0f} us); 4096 B: fastest {bl} ({large[bl] / 1000:.1f} ms)",
            bs == "multileader_node_aware" and bl == "node_aware")


def loc_fig18(rows):
    """Tuolumne: node-aware the fastest of the four at 4 B with the system
    MPI close behind (within 25%), and the system MPI the fastest at 4096 B."""
    small, large = among(rows, 4, 3072), among(rows, 4096, 3072)
    bs, bl = min(small, key=small.get), min(large, key=large.get)
    close = small["system"] / small["node_aware"]
    return (f"4 B: fastest {bs}, system / node_aware {close:.2f}x; 4096 B: fastest {bl} "
            f"({large[bl] / 1000:.1f} ms)", bs == "node_aware" and close <= 1.25 and bl == "system")


def tra_fig11(rows):
    """Polaris: ceil(sqrt P) within 10% of the best radix in most (P, S)
    (the sweep has no system run: the comparison with the vendor's
    alltoall is Figure 12's)."""
    out, good, n = [], 0, 0
    for p, s, sweep, best in best_radices(rows, (16, 128, 1024, 8192)):
        root = math.isqrt(p - 1) + 1
        if root not in sweep:
            continue
        n += 1
        good += sweep[root] / sweep[best] <= 1.10
        out.append(f"P={p} S={s}: best {best} ({sweep[root] / sweep[best]:.2f}x at {root})")
    if not n:
        raise LookupError("no radix sweep with ceil(sqrt P)")
    return (f"ceil(sqrt P) within 10% of the best in {good}/{n}; " + "; ".join(out), good >= 2 / 3 * n,
            thin(n, "(P, S) cell"))


def tra_fig12(rows):
    """Polaris, weak scaling: TRA and TRA2 both faster than the system
    alltoall in most (P, S) cells from 2 nodes up."""
    cells = {(r["ranks"], r["size_bytes"]) for r in rows if r["file"].startswith("tra_compare") and r["ranks"] >= 64}
    both = n = 0
    ratios = []
    for p, s in sorted(cells):
        t = {a: [r["avg_us"] for r in rows if r["file"].startswith("tra_compare") and r["algorithm"] == a
                 and r["ranks"] == p and r["size_bytes"] == s] for a in ("system", "tra", "tra2")}
        if not all(t.values()):
            continue
        t = {a: min(v) for a, v in t.items()}
        n += 1
        both += max(t["tra"], t["tra2"]) < t["system"]
        ratios.append(t["tra"] / t["tra2"])
    if not n:
        raise LookupError("no tra_compare cell with system, tra and tra2 at P >= 64")
    return (f"both < system in {both}/{n} (P, S) cells (P 64-{max(p for p, _ in cells)}); TRA / TRA2 from "
            f"{min(ratios):.2f} to {max(ratios):.2f}", both >= 0.8 * n, thin(n, "(P, S) cell"))


def by_param(rows, algorithm, size, name, ranks=3584):
    """{(parameter value, inner): time} of `algorithm` at (ranks, size)."""
    out = {}
    for r in rows:
        if r["algorithm"] == algorithm and r["ranks"] == ranks and r["size_bytes"] == size:
            key = (int(param(r, name)), param(r, "inner"))
            out[key] = min(out.get(key, math.inf), r["avg_us"])
    return out


def multileader_sweep(rows, size, fewest):
    """Figure 7 at `size`: every multi-leader beats hierarchical, and the
    fewest leaders (`fewest`: most processes per leader) or the most are
    the best, per inner exchange."""
    ml = by_param(rows, "multileader", size, "procs-per-leader")
    hier = {}
    for r in rows:
        if r["algorithm"] == "hierarchical" and r["ranks"] == 3584 and r["size_bytes"] == size:
            hier[param(r, "inner")] = min(hier.get(param(r, "inner"), math.inf), r["avg_us"])
    inners = sorted({i for _, i in ml} & set(hier))
    if not inners or len({p for p, _ in ml}) < 2:
        points = f" (points locality/fig7-9-hierarchical-*-{size}B and -multileader-*-{size}B)"
        raise LookupError(f"no multileader sweep and hierarchical at {size} B, 32 nodes" + ("" if size == 4 else points))
    ok, out = True, []
    for inner in inners:
        sweep = {p: t for (p, i), t in ml.items() if i == inner}
        best = min(sweep, key=sweep.get)
        ok &= all(t < hier[inner] for t in sweep.values()) and best == (max(sweep) if fewest else min(sweep))
        def fmt(t):
            return f"{t:.0f} us" if size < 1024 else f"{t / 1000:.1f} ms"
        out.append(f"{inner}: hierarchical {fmt(hier[inner])}, multileader " +
                   ", ".join(f"ppl {p} {fmt(t)}" for p, t in sorted(sweep.items())))
    return "; ".join(out), ok


def loc_fig7_small(rows):
    """4 B: every multi-leader beats hierarchical, and the fewest leaders are the best."""
    return multileader_sweep(rows, 4, fewest=True)


def loc_fig7_large(rows):
    """4096 B: every multi-leader beats hierarchical, and the most leaders
    (4 processes per leader) are the best."""
    return multileader_sweep(rows, 4096, fewest=False)


def loc_fig8_most(rows):
    """Node-aware beats locality-aware (its best group size) at most sizes, pairwise inner."""
    wins, sizes = 0, []
    for size in (4, 64, 1024, 4096):
        la = [t for (_, i), t in by_param(rows, "locality_aware", size, "procs-per-group").items() if i == "pairwise"]
        na = [r["avg_us"] for r in rows if r["algorithm"] == "node_aware" and r["ranks"] == 3584
              and r["size_bytes"] == size and param(r, "inner") == "pairwise"]
        if la and na:
            sizes.append(f"{size} B {min(la) / min(na):.2f}x")
            wins += min(na) < min(la)
    if not sizes:
        raise LookupError("no node_aware and locality_aware at 32 nodes")
    return f"locality_aware / node_aware: {', '.join(sizes)}", wins >= 0.7 * len(sizes), thin(len(sizes), "size")


def loc_fig9_small(rows):
    """4 B: multi-leader + node-aware is best with some leaders (ppl 4-16),
    better than one leader per rank (node_aware) and one per node (hierarchical)."""
    mlna = by_param(rows, "multileader_node_aware", 4, "procs-per-leader")
    if len({p for p, _ in mlna}) < 2:
        raise LookupError("no multileader_node_aware sweep at 4 B, 32 nodes")
    ends = [r["avg_us"] for r in rows if r["algorithm"] in ("node_aware", "hierarchical") and r["ranks"] == 3584
            and r["size_bytes"] == 4]
    if not ends:
        raise LookupError("no node_aware or hierarchical at 4 B, 32 nodes")
    (ppl, inner), best = min(mlna.items(), key=lambda kv: kv[1])
    return (f"best multileader_node_aware: ppl {ppl} ({inner}) {best:.0f} us; node_aware/hierarchical best "
            f"{min(ends):.0f} us", best < min(ends))


def loc_fig11(rows):
    algorithms = ("system", "node_aware", "locality_aware", "multileader_node_aware")
    best = beats = 0
    per = []
    counts = node_counts(rows, 4, *algorithms)
    for n, c in counts.items():
        top = min(c, key=c.get).split("/")[0]
        mine = fastest_of(c, "multileader_node_aware")
        best += top == "multileader_node_aware"
        beats += mine < c["system"]
        per.append(f"N={n}: {top}, system/mlna {c['system'] / mine:.2f}x")
    k = len(counts)
    return (f"mlna fastest at {best}/{k} node counts, faster than system at {beats}/{k} ({'; '.join(per)})",
            best >= 0.6 * k and beats >= 0.6 * k, thin(k, "node count"))


def loc_fig12(rows):
    counts = node_counts(rows, 4096, "node_aware", "locality_aware")
    per, ok = [], True
    for n, c in counts.items():
        ratio = fastest_of(c, "node_aware") / fastest_of(c, "locality_aware")
        if n >= 8:
            ok &= ratio > 1
        per.append(f"N={n}: node_aware/locality_aware {ratio:.3f}")
    large = sum(n >= 8 for n in counts)
    if not large:
        raise LookupError("no node count of 8 or more at 4096 B")
    return "; ".join(per), ok, thin(large, "node count of 8 or more")


SPARBIT_PAPER = ("ring", "neighbor_exchange", "recursive_doubling", "bruck", "sparbit")


def sparbit_times(rows, order, candidates=SPARBIT_PAPER):
    """{(P, S): {algorithm: average time}} of the cells of `order` (block is
    the paper's sequential mapping)."""
    times = {}
    for r in rows:
        if r["collective"] == "allgather" and r["rank_order"] == order and r["algorithm"] in candidates:
            cell = times.setdefault((r["ranks"], r["size_bytes"]), {})
            cell[r["algorithm"]] = min(cell.get(r["algorithm"], math.inf), r["avg_us"])
    return times


def sparbit_cells(rows, order, candidates=SPARBIT_PAPER):
    """{(P, S): (fastest, improvement %)}: per cell of `order`, the fastest
    of `candidates` on the average and Sparbit's improvement over the best
    other one, as in scripts/compare_best.py (Figure 5, Tables I and II)."""
    times = sparbit_times(rows, order, candidates)
    out = {}
    for cell, t in times.items():
        if "sparbit" not in t or len(t) < 2:
            continue
        other = min(v for a, v in t.items() if a != "sparbit")
        out[cell] = (min(t, key=t.get), 100.0 * (other - t["sparbit"]) / other)
    if not out:
        raise LookupError(f"no allgather cells in {order} order")
    return out


def span(cells):
    ranks = sorted({p for p, _ in cells})
    return f"P {ranks[0]}-{ranks[-1]}, {len(ranks)} counts"


def sparbit_share(order, paper_pct, tol, candidates=SPARBIT_PAPER):
    """Sparbit's share of the cells where it is fastest, within tol x paper_pct."""
    def evaluate(rows):
        cells = sparbit_cells(rows, order, candidates)
        wins = sum(best == "sparbit" for best, _ in cells.values())
        pct = 100.0 * wins / len(cells)
        return f"{pct:.1f}% ({wins}/{len(cells)} cells, {span(cells)})", abs(pct / paper_pct - 1) <= tol
    return evaluate


def sparbit_strip(removed, paper_pct, tol):
    """The paper's 'stripped' maps (Section V): in the cells that `removed`
    win among the five, with them taken out, Sparbit's share of the cells
    where it is the fastest of the rest."""
    def evaluate(rows):
        won = taken = 0
        for t in sparbit_times(rows, "block").values():
            if "sparbit" not in t or min(t, key=t.get) not in removed:
                continue
            rest = {a: v for a, v in t.items() if a not in removed}
            won += 1
            taken += min(rest, key=rest.get) == "sparbit"
        if not won:
            return f"{' and '.join(removed)} fastest in no cell", False
        pct = 100.0 * taken / won
        return f"{pct:.1f}% ({taken}/{won} cells)", abs(pct / paper_pct - 1) <= tol, thin(won, "cells", 5)
    return evaluate


def sparbit_order(rows):
    """The sequential share above the cyclic one; thin where a mapping's
    share is no win at all (the order then says only that it never wins)."""
    share, wins, cells_of = {}, {}, {}
    for order in ("block", "cyclic"):
        cells = sparbit_cells(rows, order)
        wins[order], cells_of[order] = sum(best == "sparbit" for best, _ in cells.values()), len(cells)
        share[order] = 100.0 * wins[order] / len(cells)
    fewest = min(wins, key=wins.get)
    name = {"block": "sequential", "cyclic": "cyclic"}
    return (f"sequential {share['block']:.1f}% ({wins['block']}/{cells_of['block']}), cyclic "
            f"{share['cyclic']:.1f}% ({wins['cyclic']}/{cells_of['cyclic']}) of cells", share["block"] > share["cyclic"],
            thin(wins[fewest], f"{name[fewest]} win(s) of {cells_of[fewest]} cells"))


def sparbit_gain(order, mean_pct, median_pct, highest_pct, tol_pp, highest_tol_pp=20.0):
    """Mean and median improvement over the second best where Sparbit wins
    (Table II, avg), and the highest one: all three of the paper's numbers."""
    def evaluate(rows):
        gains = sorted(g for best, g in sparbit_cells(rows, order).values() if best == "sparbit")
        if not gains:
            return "Sparbit fastest in no cell", False
        n = len(gains)
        median = (gains[n // 2] + gains[(n - 1) // 2]) / 2
        mean = sum(gains) / n
        return (f"mean {mean:.1f}%, median {median:.1f}%, highest {gains[-1]:.1f}% ({n} cells)",
                abs(mean - mean_pct) <= tol_pp and abs(median - median_pct) <= tol_pp
                and abs(gains[-1] - highest_pct) <= highest_tol_pp, thin(n, "cells won", 5))
    return evaluate


CLAIMS = [
    ("loc-abs-3x", "locality", "abstract, 1", "the new algorithms (locality-aware, multi-leader + node-aware) are up "
     "to 3x faster than the system MPI at 32 nodes", "up to 3x", "locality", "within 40%", loc_speedup),
    ("loc-fig10-small", "locality", "Fig. 10, 4", "multi-leader + node-aware is the fastest at small sizes",
     "best at small sizes", "locality", "fastest of all at 4 B", loc_best(4, "multileader_node_aware")),
    ("loc-fig10-small-sys", "locality", "Fig. 10, 4", "multi-leader + node-aware beats the system MPI at small sizes",
     "outperforms system MPI", "locality", "faster at 4 B", loc_beats_system(4, "multileader_node_aware")),
    ("loc-fig10-mid", "locality", "Fig. 10, 4", "node-aware is the fastest at larger sizes", "best at larger sizes",
     "locality", "fastest of all at 1024 B", loc_best(1024, "node_aware")),
    ("loc-fig10-largest", "locality", "Fig. 10, 4", "locality-aware is the fastest at the largest size",
     "best at 4096 B", "locality", "fastest of all at 4096 B", loc_best(4096, "locality_aware")),
    ("loc-fig7-small", "locality", "Fig. 7, 4", "at small sizes every multi-leader beats hierarchical, and fewer "
     "leaders are better", "4 leaders per node best", "locality",
     "at 4 B, every multileader (7, 14, 28 leaders) below hierarchical and 7 leaders (16 per leader) the best, per "
     "inner", loc_fig7_small),
    ("loc-fig7-large", "locality", "Fig. 7, 4", "at large sizes the more leaders per node the faster, and "
     "hierarchical (one leader) the slowest", "performance increases with the number of leaders", "locality",
     "at 4096 B, every multileader (7, 14, 28 leaders) below hierarchical and 28 leaders (4 per leader) the best, per "
     "inner", loc_fig7_large),
    ("loc-fig8-most", "locality", "Fig. 8, 4", "node-aware beats locality-aware at most sizes",
     "node-aware best for most sizes", "locality", "node_aware below locality_aware's best group size at 70% of "
     "the sizes simulated (pairwise inner)", loc_fig8_most),
    ("loc-fig9-small", "locality", "Fig. 9, 4", "at small sizes multi-leader + node-aware is best with many leaders "
     "but not every rank", "around 20 leaders", "locality", "its best of 7, 14, 28 leaders below node-aware (112) "
     "and hierarchical (1) at 4 B", loc_fig9_small),
    ("loc-fig11", "locality", "Fig. 11, 6", "at 4 B, across node counts, multi-leader + node-aware is the fastest "
     "and beats the system MPI in many cases", "best across node counts", "locality",
     "both in at least 60% of the node counts 2..32", loc_fig11),
    ("loc-fig12", "locality", "Fig. 12, Fig. 8", "at 4096 B, locality-aware beats node-aware from 8 to 32 nodes",
     "consistently from 8 to 32 nodes", "locality", "faster at every node count of 8 and more simulated", loc_fig12),
    ("loc-fig13-small", "locality", "Fig. 13, 4.1", "hierarchical (pairwise inner): below 256 B the exchange "
     "between the leaders dominates", "inter-node dominates below 256 B", "locality",
     "inter_node the longest phase at 4 B, at the most nodes simulated", loc_fig13(4, True)),
    ("loc-fig13-large", "locality", "Fig. 13, 4.1", "hierarchical (pairwise inner): from 256 B the gather "
     "(intra-node) dominates", "gather dominates from 256 B", "locality",
     "gather the longest phase at 4096 B, at the most nodes simulated", loc_fig13(4096, False)),
    ("loc-fig14", "locality", "Fig. 14, 4.1", "node-aware, 32 nodes, both inners: the inter-node exchange dominates "
     "at every size", "inter-node dominates", "locality", "inter_node longer than intra_node at 4, 64, 1024, 4096 B",
     loc_fig14),
    ("loc-fig15", "locality", "Fig. 15, 4.1", "node-aware (pairwise inner) at 4096 B: the inter-node exchange "
     "dominates at every node count", "regardless of node count", "locality",
     "inter_node longer than intra_node at every node count simulated", loc_fig15),
    ("loc-fig16", "locality", "Fig. 16, 4.1", "locality-aware at 4096 B, 32 nodes: the inter-node exchange "
     "dominates at every group size, and 16 and 4 processes per group beat the other sizes and node-aware",
     "16 and 4 per group best", "locality", "inter_node longer than intra_node at 2, 4, 8, 16 per group and "
     "node-aware; the fastest is 4 or 16 per group", loc_fig16),
    ("loc-fig17", "locality", "Fig. 17, 4.2", "Amber (the same Sapphire Rapids nodes as Dane: Dane's model): of "
     "node-aware, locality-aware, multi-leader + node-aware and system, multi-leader + node-aware is the fastest "
     "at small sizes and node-aware at large ones", "mlna small, node-aware large", "locality",
     "fastest of the four at 4 B and at 4096 B", loc_fig17),
    ("loc-fig18", "locality", "Fig. 18, 4.2", "Tuolumne (MI300A, 96 cores): node-aware is the fastest at small "
     "sizes with the system MPI slightly slower; the system MPI is the fastest at larger sizes",
     "node-aware small, system large", "tuolumne", "node_aware fastest of the four at 4 B with system within 25%; "
     "system fastest at 4096 B (system is SMPI's, not Cray MPICH)", loc_fig18),
    ("loc-concl-nb", "locality", "6", "a nonblocking inner exchange is often faster, especially at small sizes",
     "often, small sizes", "locality", "in at least 60% of (algorithm, 4 and 64 B)", loc_nonblocking),

    ("tra-fig8-large", "TRA", "Fig. 8, V-A", "for blocks of 1 KiB and more the best radix is about sqrt(P)",
     "r ~ sqrt(P) best for S > 512 at every P", "tra",
     "ceil(sqrt P) within 10% of the best, best in [sqrt(P)/2, 2 sqrt(P)], every (P, S) simulated",
     tra_best_radix_large),
    ("tra-fig8-small", "TRA", "Fig. 8, V-A", "for small blocks the best radix is smaller than sqrt(P), but not 2",
     "optimal radix many times smaller than sqrt(P), not 2", "tra", "2 < best < sqrt(P) at S = 16 B, every P simulated",
     tra_best_radix_small),
    ("tra-r2-128B", "TRA", "Fig. 8(b), V-A", "radix 2, P = 2048, S = 128 B (the calibration point of theta)",
     "16.17 ms", "tra", "within 5% (calibrated: holds by construction with costs)", tra_abs(2, 16170.0, 0.05)),
    ("tra-r46-128B", "TRA", "Fig. 8(b), V-A", "radix 46, P = 2048, S = 128 B", "7.699 ms", "tra", "within 10%",
     tra_abs(46, 7699.0, 0.10)),
    ("tra-sys-32B", "TRA", "Fig. 10(c), V-C", "TRA (radix sqrt(P)) against the vendor alltoall, P = 2048, S = 32 B",
     "3.98x faster", "tra", "within 40% (system is SMPI's, not Cray MPI)", tra_vs_system("tra", 3.98, 0.4, radix=46)),
    ("tra2-sys-32B", "TRA", "Fig. 10(c), V-C", "TRA2 (8, N) against the vendor alltoall, P = 2048, S = 32 B",
     "5.02x faster", "tra", "within 40%", tra_vs_system("tra2", 5.02, 0.4)),
    ("tra-order", "TRA", "Fig. 10, V-C", "TRA2 beats TRA, and both beat the vendor alltoall, for almost all P and S",
     "almost all (P, S)", "tra",
     "each in at least 80% of the cells from P = 512 (to 2048 at 16..4096 B, beyond at 16..64 B)", tra_order),

    ("tra-fig11", "TRA", "Fig. 11, V-D", "Polaris: TRA's best radix is sqrt(P) for most (P, S)",
     "optimal at sqrt(P) for most cases", "polaris", "ceil(sqrt P) within 10% of the best in 2/3 of (P, S)",
     tra_fig11),
    ("tra-fig12", "TRA", "Fig. 12, V-D", "Polaris, weak scaling: TRA and TRA2 both outperform the vendor alltoall "
     "(the gap between them smaller than on Theta)", "both faster than MPI_Alltoall", "polaris",
     "both below system in 80% of the (P, S) cells (system is SMPI's, not Cray MPICH)", tra_fig12),
    ("tra-fig9-r1", "TRA", "Fig. 9, V-B", "TRA2's intra-node phase: the best r1 is sqrt(Q) = 8 in most runs",
     "r1 = 8 in most runs", "tra", "r1 = 8 within 10% of the best in 2/3 of (P, S)", tra_fig9_r1),
    ("tra-fig9-r2", "TRA", "Fig. 9, V-B", "TRA2's inter-node phase: the best r2 is about N = P/Q",
     "r2 ~ P/Q in most cases", "tra", "r2 = N within 10% of the best and best >= N/2 in 2/3 of (P, S)", tra_fig9_r2),
    ("tra-fig9-inter", "TRA", "Fig. 9, V-B", "TRA2's time is dominated by the inter-node phase",
     "dominated by inter-node", "tra", "inter-node phase longer at every (P, S), r1 = 8, r2 = N", tra_fig9_inter),

    ("sp-share-yahoo", "Sparbit", "Fig. 5(a), Table I", "Yahoo, sequential mapping: Sparbit is the fastest of the "
     "five algorithms (average time) in 46.43% of the cells (P up to 256, 1 B-1 MiB)", "46.43% (624/1344)", "yahoo",
     "within 30% of the share (P up to 128 simulated: the paper's counts above 128 were oversubscribed)",
     sparbit_share("block", 46.43, 0.3)),
    ("sp-share-yahoo-cyc", "Sparbit", "Fig. 5(b), Table I", "Yahoo, cyclic mapping: Sparbit fastest in 19.12% of "
     "the cells", "19.12% (257/1344)", "yahoo", "within 30% (cyclic cells: every count whose data has ranks dealt over the nodes; older data only multiples of the 16 nodes)",
     sparbit_share("cyclic", 19.12, 0.3)),
    ("sp-order-yahoo", "Sparbit", "Fig. 5, V", "Yahoo: the sequential mapping gives Sparbit more wins than the "
     "cyclic one", "46.43% > 19.12%", "yahoo", "sequential share above cyclic", sparbit_order),
    ("sp-gain-yahoo", "Sparbit", "Table II", "Yahoo, sequential: Sparbit's mean (median) improvement over the second "
     "best, in the cells it wins", "34.70% (26.16%), highest 84.16%", "yahoo",
     "mean and median within 10 points, highest within 20", sparbit_gain("block", 34.70, 26.16, 84.16, 10.0)),
    ("sp-strip-log-yahoo", "Sparbit", "Fig. 5(a), V", "Yahoo, sequential: in the cells Bruck and recursive "
     "doubling win, with them taken out, Sparbit is the fastest of the rest in 95.48%", "95.48%", "yahoo",
     "within 10% of the share", sparbit_strip(("bruck", "recursive_doubling"), 95.48, 0.1)),
    ("sp-strip-linear-yahoo", "Sparbit", "Fig. 5(a), V", "Yahoo, sequential: in the cells ring and neighbor "
     "exchange win, with them taken out, Sparbit is the fastest of the rest in all", "100%", "yahoo",
     "within 10% of the share", sparbit_strip(("ring", "neighbor_exchange"), 100.0, 0.1)),
    ("sp-share-cervino", "Sparbit", "Fig. 5(c), Table I", "Cervino, sequential mapping: Sparbit fastest in 39.64% "
     "of the cells (P up to 320)", "39.64% (666/1680)", "cervino",
     "within 30% of the share (P up to 160 simulated: above it the paper ran 2 processes on some cores)",
     sparbit_share("block", 39.64, 0.3)),
    ("sp-share-cervino-cyc", "Sparbit", "Fig. 5(d), Table I", "Cervino, cyclic mapping: Sparbit fastest in 30.83% "
     "of the cells", "30.83% (518/1680)", "cervino", "within 30% (cyclic cells: every count whose data has ranks dealt over the nodes; older data only multiples of the 5 nodes)",
     sparbit_share("cyclic", 30.83, 0.3)),
    ("sp-order-cervino", "Sparbit", "Fig. 5, V", "Cervino: the sequential mapping gives Sparbit more wins than the "
     "cyclic one", "39.64% > 30.83%", "cervino", "sequential share above cyclic", sparbit_order),
    ("sp-gain-cervino", "Sparbit", "Table II", "Cervino, sequential: Sparbit's mean (median) improvement over the "
     "second best, in the cells it wins", "30.23% (29.00%), highest 77.78%", "cervino",
     "mean and median within 10 points, highest within 20", sparbit_gain("block", 30.23, 29.00, 77.78, 10.0)),
]

# Claims a simulation can address that are not simulated at the papers'
# scale yet, and what it takes (docs/claims.md).
NOT_YET = []

NOT_SIMULATED = [
    ("multiradix", "allreduce-shared-memory-multiradix",
     "every claim: the algorithms read peers' buffers in shared memory (XPMEM) and their gains come from cache "
     "use and memory traffic; SMPI shares no memory between simulated ranks, and even the node model (NAME-shm) has "
     "memory links but no caches, so it cannot rank them; they are measured on real cores (docs/allreduce.md)"),
    ("ppg", "allreduce-multi-process-per-gpu",
     "every claim: several processes share one GPU's buffers and the cost is GPU copies, kernels and time-slicing; "
     "SMPI has no GPUs and refuses --procs-per-gpu above 1. One real H100 ran mcb once (issue 40: wrong at PPG 4 "
     "without MPS, since fixed); ci/gpu-check.sh measures the figures on a lent GPU (docs/gpu.md), not run yet"),
]


QUOTE = re.compile(r"(\d[\d.,]*(?:\s?(?:%|x|us|ms|s|GB/s))?|HOLDS|DIFFERS)<!--\s*([A-Za-z0-9-]+)\s+"
                   r"(costs|nocost|shm)\s*-->")


def render(table, summary):
    """The Markdown table and its summary line, as docs/claims.md carries them."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in table]
    return lines + ["", summary]


def table_block(text):
    """(start, end) line indices of the table block under "## The table"
    (up to the next "## " heading), or None."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line == "## The table"), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return start + 1, end


def write_doc(path, table, summary):
    """Replaces the page's table block with the data's."""
    text = open(path).read()
    where = table_block(text)
    if where is None:
        sys.exit(f"claims.py: {path}: no '## The table' section")
    lines = text.split("\n")
    lines[where[0]:where[1]] = [""] + render(table, summary) + [""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def check_doc(path, table, summary):
    """Problems of the page at `path` against the table: its table block
    (under "## The table") differs, or a quoted number is not in its cell."""
    text = open(path).read()
    problems = []
    where = table_block(text)
    if where is None:
        return [f"{path}: no '## The table' section"]
    block = "\n".join(text.split("\n")[where[0]:where[1]]).strip().split("\n")
    want = render(table, summary)
    if block != want:
        for i, (a, b) in enumerate(zip(block + [""] * len(want), want + [""] * len(block))):
            if a != b:
                problems.append(f"{path}: the table differs from the data's at its line {i + 1}:\n    page: {a[:200]}"
                                f"\n    data: {b[:200]}")
                break
        problems.append(f"  (regenerate: scripts/claims.py --write-doc {path})")
    rows = {row[0]: row for row in table}
    column = {"costs": 5, "nocost": 7, "shm": 9}
    for n, line in enumerate(text.split("\n"), 1):
        for value, cid, model in QUOTE.findall(line):
            if cid not in rows:
                problems.append(f"{path}:{n}: quotes row '{cid}', which the table does not have")
                continue
            cell, verdict = rows[cid][column[model]], word(rows[cid][column[model] + 1])
            if value in ("HOLDS", "DIFFERS"):
                if value != verdict:
                    problems.append(f"{path}:{n}: says {cid} {value} ({model}); the table says {verdict}")
            elif not re.search(re.escape(value) + r"(?![\d])", cell):
                problems.append(f"{path}:{n}: quotes {value} from {cid} ({model}); the cell says: {cell[:160]}")
    return problems


def changes(table):
    return sum(r[11].startswith("CHANGES") for r in table)


def word(verdict):
    """HOLDS, DIFFERS or - of a verdict cell ("HOLDS, thin" -> "HOLDS")."""
    return verdict.split(",")[0]


HEADER = ["claim", "paper", "figure", "what", "paper's value", "mcb, per-message costs", "verdict",
          "mcb, no per-message costs", "verdict", "mcb, full model (costs + memory + local work)", "verdict",
          "sensitivity", "tolerance"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.path.join(HERE, "..", "plots", "paper-scale"))
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.add_argument("--check-doc", metavar="PAGE", help="check PAGE's table and quoted numbers against the data")
    p.add_argument("--write-doc", metavar="PAGE", help="replace the table under PAGE's '## The table' with the data's")
    args = p.parse_args()
    cache = {}

    def rows_of(part, platform):
        key = (part, platform)
        if key not in cache:
            cache[key] = load(os.path.join(args.data, f"{part}-{platform}"))
        return cache[key]

    models = {"": "costs", "-nocost": "nocost", "-shm": "shm", "-shm-half": "shm-half", "-shm-double": "shm-double"}

    def verdict(evaluate, make, platform, suffix, runs):
        """(text, HOLDS / DIFFERS / -) of a claim on one platform variant."""
        rows = rows_of(make, platform + suffix)
        if not rows:
            return f"NO DATA: scripts/paper_scale.py run --parts {runs} --models {models[suffix]}", "-"
        try:
            text, holds, *why = evaluate(rows)
            word = "HOLDS" if holds else "DIFFERS"
            if why and why[0]:
                return f"{text}; thin: {why[0]}", word + ", thin"
            return text, word
        except LookupError as e:
            return f"NO DATA ({e})", "-"

    table = []
    for cid, paper, fig, what, value, part, tol, evaluate in CLAIMS:
        make, costs, runs = COSTS[part]
        cells = []
        for suffix in ("", "-nocost", "-shm"):
            cells += list(verdict(evaluate, make, costs, suffix, runs))
        # Sensitivity: the full model's verdict with its memory and local-work
        # costs halved and doubled (NAME-shm-half, NAME-shm-double).
        others = {f: verdict(evaluate, make, costs, suffix, runs)[1] for f, suffix in (("x0.5", "-shm-half"),
                                                                               ("x2", "-shm-double"))}
        if cells[5] == "-" or "-" in others.values():
            mark = "-"
        elif all(word(v) == word(cells[5]) for v in others.values()):
            mark = "stable"
        else:
            mark = "CHANGES (" + ", ".join(f"{f}: {word(v)}" for f, v in others.items()) + ")"
        table.append([cid, paper, fig, what, value] + cells + [mark, tol])
    for cid, paper, fig, what in NOT_YET:
        table.append([cid, paper, fig, what, "-", "not simulated at the papers' scale yet", "-", "-", "-", "-", "-",
                      "-", "-"])
    for cid, paper, why in NOT_SIMULATED:
        table.append([cid, paper, "all", "-", "-", "cannot be simulated by SMPI", "-", why, "-", "-", "-", "-", "-"])
    holds = sum(word(r[6]) == "HOLDS" for r in table)
    differs = sum(word(r[6]) == "DIFFERS" for r in table)
    full_holds = sum(word(r[10]) == "HOLDS" for r in table)
    full_differs = sum(word(r[10]) == "DIFFERS" for r in table)
    thin_marks = sum(c.endswith(", thin") for r in table for c in (r[6], r[8], r[10]))
    summary = (f"{holds} claims hold, {differs} differ (with per-message costs); {len(table) - holds - differs} "
               f"without a verdict (no data, or not simulable); full model: {full_holds} hold, {full_differs} differ, "
               f"{changes(table)} change verdict with the memory and local-work costs halved or doubled; {thin_marks} "
               f"verdicts thin (resting on one point)")
    if args.write_doc:
        write_doc(args.write_doc, table, summary)
        print(f"claims: {args.write_doc}: table written")
    if args.check_doc:
        problems = check_doc(args.check_doc, table, summary)
        for line in problems:
            print(line)
        print(f"claims: {args.check_doc}: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
        return 1 if problems else 0
    if args.markdown:
        print("\n".join(render(table, summary)))
    else:
        for row in table:
            print(f"{row[0]} ({row[1]}, {row[2]}): {row[3]}")
            print(f"    paper: {row[4]}; tolerance: {row[12]}")
            print(f"    with per-message costs: {row[6]:8s} {row[5]}")
            print(f"    without:                {row[8]:8s} {row[7]}")
            print(f"    full model:             {row[10]:8s} {row[9]} (sensitivity: {row[11]})")
        print("\n" + summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
