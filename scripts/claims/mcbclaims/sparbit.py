"""The Sparbit paper's claims (allgather-sparbit): the share of the cells
Sparbit wins (Figure 5, Table I), the two orders, its gains (Table II) and
the stripped maps, on Yahoo and Cervino."""
import math

from mcbclaims.data import thin


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
    other one, as in scripts/compare/compare_best.py (Figure 5, Tables I and II)."""
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
