"""The command line (scripts/claims/claims.py): every claim on every model, the
sensitivity mark, the summary; --markdown, --write-doc, --check-doc."""
import argparse
import os
import sys

from mcbclaims.data import load
from mcbclaims.doc import HEADER, check_doc, render, word, write_doc
from mcbclaims.table import CLAIMS, COSTS, NO_FULL_MODEL, NO_TWINS, NOT_SIMULATED, NOT_YET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def point(r):
    """What a row measured: the configuration, the placement and the size."""
    return r["algorithm"], r["params"], r["ranks"], r["nodes"], r["rank_order"], r["size_bytes"]


def judged(evaluate, rows):
    """HOLDS, DIFFERS, or - (no data) of a claim on `rows`."""
    try:
        return "HOLDS" if evaluate(rows)[1] else "DIFFERS"
    except LookupError:
        return "-"


def sensitivity(evaluate, full, twin):
    """(the full model's verdict, the twin's) on the points both ran."""
    common = {point(r) for r in full} & {point(r) for r in twin}
    return (judged(evaluate, [r for r in full if point(r) in common]),
            judged(evaluate, [r for r in twin if point(r) in common]))


def unexplained(table):
    """Rows with neither a full-model verdict (or sensitivity mark) nor a
    measured reason why not, and reasons for rows that have their data."""
    problems = []
    for row in table:
        cid = row[0]
        simulable = cid not in {c for c, _, _ in NOT_SIMULATED}
        if simulable and row[10] == "-" and cid not in NO_FULL_MODEL:
            problems.append(f"{cid}: no full-model verdict and no reason why not (mcbclaims/table.py NO_FULL_MODEL)")
        if row[10] != "-" and cid in NO_FULL_MODEL:
            problems.append(f"{cid}: has a full-model verdict; its NO_FULL_MODEL reason is stale")
        if row[10] != "-" and row[11] == "-" and cid not in NO_TWINS:
            problems.append(f"{cid}: a full-model verdict without a sensitivity mark and no reason why not "
                            "(mcbclaims/table.py NO_TWINS)")
        if cid in NO_TWINS and not row[11].startswith("- (twins not run"):
            problems.append(f"{cid}: has a sensitivity mark (or no full-model verdict); its NO_TWINS reason is stale")
    return problems


def main(doc=__doc__):
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.path.join(ROOT, "data", "paper-scale"))
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.add_argument("--check-doc", metavar="PAGE", help="check PAGE's table and quoted numbers against the data")
    p.add_argument("--write-doc", metavar="PAGE", help="replace the table under PAGE's '## The table' with the data's")
    p.add_argument("--complete", action="store_true",
                   help="with --check-doc: also fail on a row with neither a full-model verdict (and sensitivity "
                        "mark) nor a measured reason why not (mcbclaims/table.py), and on a reason for a row that "
                        "has its data")
    args = p.parse_args()
    for page in (args.check_doc, args.write_doc):
        if page and not os.path.isfile(page):
            print(f"claims.py: {page}: no such page", file=sys.stderr)
            return 2
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
            return f"NO DATA: scripts/sim/paper_scale.py run --parts {runs} --models {models[suffix]}", "-"
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
        # costs halved and doubled (NAME-shm-half, NAME-shm-double), each
        # judged on the points it and the full model both have (a twin that
        # ran fewer sizes or counts is compared on those).
        pairs = {f: sensitivity(evaluate, rows_of(make, costs + "-shm"), rows_of(make, costs + suffix))
                 for f, suffix in (("x0.5", "-shm-half"), ("x2", "-shm-double"))}
        if cells[5] == "-" or any("-" in pair for pair in pairs.values()):
            mark = "-"
        elif all(base == twin for base, twin in pairs.values()):
            mark = "stable"
        else:
            # Where the twins ran fewer points, the full model's own verdict
            # on those points comes first (it may differ from its column's).
            bases = sorted({base for base, _ in pairs.values()})
            first = [f"x1 on the twins' points: {'/'.join(bases)}"] if bases != [word(cells[5])] else []
            mark = "CHANGES (" + ", ".join(first + [f"{f}: {twin}" for f, (_, twin) in pairs.items()]) + ")"
        if cells[5] == "-" and cid in NO_FULL_MODEL:
            cells[4] += f"; not run here: {NO_FULL_MODEL[cid]}"
        elif cells[5] != "-" and mark == "-" and cid in NO_TWINS:
            mark = f"- (twins not run here: {NO_TWINS[cid]})"
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
    changed = sum(r[11].startswith("CHANGES") for r in table)
    summary = (f"{holds} claims hold, {differs} differ (with per-message costs); {len(table) - holds - differs} "
               f"without a verdict (no data, or not simulable); full model: {full_holds} hold, {full_differs} differ, "
               f"{changed} change verdict with the memory and local-work costs halved or doubled; {thin_marks} "
               f"verdicts thin (resting on one point)")
    if args.write_doc:
        write_doc(args.write_doc, table, summary)
        print(f"claims: {args.write_doc}: table written")
        if not args.check_doc and not args.markdown:
            return 0
    if args.check_doc:
        problems = check_doc(args.check_doc, table, summary) + (unexplained(table) if args.complete else [])
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
