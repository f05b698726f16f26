#!/usr/bin/env python3
"""Every claim of the five papers that a simulation can address, against
what mcb shows at the same scale: one row per claim with the paper's number,
mcb's simulated number with and without per-message costs, and HOLDS or
DIFFERS under the tolerance stated per claim.

  scripts/claims.py                          # reads plots/paper-scale/ (plots/paper-scale/make.sh)
  scripts/claims.py --data DIR --markdown    # the table as Markdown (docs/claims.md carries it)

Data: DIR/PART-PLATFORM/*.csv[.gz], written by plots/paper-scale/make.sh
(PART: tra, ...; PLATFORM: the paper's machine, and NAME-nocost, the same
without per-message costs). A claim whose data is not there says NO DATA
and which part of make.sh makes it. The numbers are a model's (SimGrid
SMPI, scripts/platforms/make_platforms.py), not the machines'.
"""
import argparse
import csv
import glob
import gzip
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COSTS = {"tra": "theta-256x64", "locality": "dane-32x112"}  # part -> platform with per-message costs


def load(directory):
    """Total rows of every CSV in directory: list of dicts with numbers parsed."""
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.csv")) + glob.glob(os.path.join(directory, "*.csv.gz"))):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", newline="") as f:
            for r in csv.DictReader(f):
                if r["phase"] != "total":
                    continue
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
            tra2_tra >= 0.8 * n and tra_sys >= 0.8 * n)


def configs_at(rows, size, ranks=3584):
    """{label: time} of every configuration at (ranks, size): 'node_aware/nonblocking', 'system', ..."""
    out = {}
    for r in rows:
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
            abs(best[0] / 3.0 - 1) <= 0.4)


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
    return f"nonblocking inner faster in {wins}/{total} (algorithm, size <= 64 B)", wins >= 0.6 * total


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
     "almost all (P, S)", "tra", "each in at least 80% of the cells P = 512..2048, S = 16..4096 B", tra_order),
]

# Claims a simulation can address that are not simulated at the papers'
# scale yet, and what it takes (docs/claims.md).
NOT_YET = [
    ("loc-fig7-9", "locality", "Figs. 7-9", "leader and group counts (4, 8, 16 per leader or group) at 32 x 112"),
    ("loc-fig11-12", "locality", "Figs. 11-12", "node scaling 2..32 nodes x 112 at 4 and 4096 B"),
    ("loc-fig13-16", "locality", "Figs. 13-16", "phase breakdowns at 32 x 112 (mcb_breakdown)"),
    ("loc-fig17-18", "locality", "Figs. 17-18", "Amber (same model as Dane) and Tuolumne (needs a 32 x 96 platform)"),
    ("tra-fig9", "TRA", "Fig. 9", "TRA2's radices r1 and r2 at P = 512..2048 (tra2_radix.sbatch)"),
    ("tra-fig11-12", "TRA", "Figs. 11-12", "Polaris (needs a platform)"),
    ("sparbit-fig5-tables", "Sparbit", "Fig. 5, Tables I-II", "Yahoo and Cervino (need platforms), P = 5 to 320"),
]

NOT_SIMULATED = [
    ("multiradix", "allreduce-shared-memory-multiradix",
     "every claim: the algorithms read peers' buffers in shared memory (XPMEM) and their cost is memory traffic; "
     "SMPI shares no memory between simulated ranks and has no memory system"),
    ("ppg", "allreduce-multi-process-per-gpu",
     "every claim: several processes share one GPU's buffers and the cost is GPU copies and kernels; SMPI has no "
     "GPUs and refuses --procs-per-gpu above 1"),
]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.path.join(HERE, "..", "plots", "paper-scale"))
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = p.parse_args()
    cache = {}

    def rows_of(part, platform):
        key = (part, platform)
        if key not in cache:
            cache[key] = load(os.path.join(args.data, f"{part}-{platform}"))
        return cache[key]

    header = ["claim", "paper", "figure", "what", "paper's value", "mcb, per-message costs", "verdict",
              "mcb, no per-message costs", "verdict", "tolerance"]
    table = []
    for cid, paper, fig, what, value, part, tol, evaluate in CLAIMS:
        cells = []
        for platform in (COSTS[part], COSTS[part] + "-nocost"):
            rows = rows_of(part, platform)
            if not rows:
                cells += [f"NO DATA: plots/paper-scale/make.sh {part}", "-"]
                continue
            try:
                text, holds = evaluate(rows)
                cells += [text, "HOLDS" if holds else "DIFFERS"]
            except LookupError as e:
                cells += [f"NO DATA ({e})", "-"]
        table.append([cid, paper, fig, what, value] + cells + [tol])
    for cid, paper, fig, what in NOT_YET:
        table.append([cid, paper, fig, what, "-", "not simulated at the papers' scale yet", "-", "-", "-", "-"])
    for cid, paper, why in NOT_SIMULATED:
        table.append([cid, paper, "all", "-", "-", "cannot be simulated by SMPI", "-", why, "-", "-"])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in table:
            print("| " + " | ".join(c.replace("|", "/") for c in row) + " |")
    else:
        for row in table:
            print(f"{row[0]} ({row[1]}, {row[2]}): {row[3]}")
            print(f"    paper: {row[4]}; tolerance: {row[9]}")
            print(f"    with per-message costs: {row[6]:8s} {row[5]}")
            print(f"    without:                {row[8]:8s} {row[7]}")
    holds = sum(r[6] == "HOLDS" for r in table)
    differs = sum(r[6] == "DIFFERS" for r in table)
    print(f"\n{holds} claims hold, {differs} differ (with per-message costs); {len(table) - holds - differs} without "
          f"a verdict (no data, or not simulable)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
