"""Reading the paper-scale data: mcb's CSV rows (totals, with their phases),
parameters, one time, and the thin mark of a verdict."""
import csv
import glob
import gzip
import os


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
