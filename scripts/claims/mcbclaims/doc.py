"""The table as Markdown, and docs/claims.md against it: its table block
and the numbers its prose quotes (NUMBER<!--ROW MODEL-->)."""
import re
import sys
from itertools import zip_longest


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
        i, (a, b) = next((i, ab) for i, ab in enumerate(zip_longest(block, want, fillvalue="")) if ab[0] != ab[1])
        problems.append(f"{path}: the table differs from the data's at its line {i + 1}:\n    page: {a[:200]}"
                        f"\n    data: {b[:200]}")
        problems.append(f"  (regenerate: scripts/claims/claims.py --write-doc {path})")
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
            elif not re.search(re.escape(value) + r"(?!\d)", cell):
                problems.append(f"{path}:{n}: quotes {value} from {cid} ({model}); the cell says: {cell[:160]}")
    return problems


def word(verdict):
    """HOLDS, DIFFERS or - of a verdict cell ("HOLDS, thin" -> "HOLDS")."""
    return verdict.split(",")[0]


HEADER = ["claim", "paper", "figure", "what", "paper's value", "mcb, per-message costs", "verdict",
          "mcb, no per-message costs", "verdict", "mcb, full model (costs + memory + local work)", "verdict",
          "sensitivity", "tolerance"]
