"""Reading the paper-scale data: mcb's CSV rows (totals, with their phases),
parameters, one time, and the thin mark of a verdict."""
import csv
import glob
import gzip
import os


def in_progress(directory):
    """The CSVs that a paper-scale point still running (or failed) is
    writing: named on the first line of its log, .NAME.log, which
    scripts/sim/paper_scale.py removes once the point is done."""
    names = set()
    for log in glob.glob(os.path.join(directory, ".*.log")):
        with open(log, errors="replace") as f:
            first = f.readline()
        if first.startswith("# paper_scale:") and "writing:" in first:
            names.update(first.partition("writing:")[2].split())
    return names


def load(directory):
    """Total rows of every CSV in directory (but those of a point in
    progress): list of dicts with numbers parsed, each with its phases'
    times in r["phases"] ({phase: avg_us})."""
    rows = []
    skip = in_progress(directory)
    for path in sorted(glob.glob(os.path.join(directory, "*.csv")) + glob.glob(os.path.join(directory, "*.csv.gz"))):
        if os.path.basename(path) in skip:
            continue
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
