"""The TRA paper's claims (alltoall-tunable-radix-tra): Theta's radix sweeps
and stated points, TRA2's radices, Polaris's Figures 11 and 12."""
import math

from mcbclaims.data import param, thin, time_of


def radix_sweep(rows, ranks, size):
    """{radix: time} of tra at (ranks, size), from the radix sweep (tra_radix files)."""
    return {int(param(r, "radix")): r["avg_us"] for r in rows if r["algorithm"] == "tra" and r["ranks"] == ranks
            and r["size_bytes"] == size and r["file"].startswith("tra_radix")}


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
    out, ok, counts = [], True, set()
    for p, s, sweep, best in best_radices(rows, (1024, 8192)):
        root = math.isqrt(p - 1) + 1
        ratio = sweep[root] / sweep[best]
        ok &= ratio <= 1.10 and root / 2 <= best <= 2 * root
        counts.add(p)
        out.append(f"P={p} S={s}: best {best}, ceil(sqrt P)={root} at {ratio:.2f}x")
    return "; ".join(out), ok, thin(len(counts), "process count of the paper's 512, 1024, 2048")


def tra_best_radix_small(rows):
    out, ok, counts = [], True, set()
    for p, s, _, best in best_radices(rows, (16,)):
        ok &= 2 < best < math.sqrt(p)
        counts.add(p)
        out.append(f"P={p} S={s}: best {best}")
    return "; ".join(out), ok, thin(len(counts), "process count of the paper's 512, 1024, 2048")


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
    counts = {p for p, _ in cells}
    return (f"TRA2 < TRA in {tra2_tra}/{n} (P, S) cells, both < system in {tra_sys}/{n}"
            + (f" (P = {min(counts)})" if len(counts) == 1 else ""),
            tra2_tra >= 0.8 * n and tra_sys >= 0.8 * n,
            thin(n, "(P, S) cell") or thin(len(counts), "process count from 512"))


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
