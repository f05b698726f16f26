#!/usr/bin/env python3
"""Regression gate: compare mcb CSV results of two MPI installations (or two
builds, two machines) and flag what got slower.

Usage:
    /usr/bin/python3 scripts/compare/compare.py BASE NEW [--stat median_us]
        [--threshold 0.10] [--max-noise 0.5] [--min-us 0] [--phases total|all]
        [--missing fail|warn] [--only-flagged] [--plot FILE.png] [--html FILE.html]

BASE and NEW are each a CSV file or a directory (every *.csv directly inside
it, e.g. several repetitions). Rows are matched on the configuration and the
size: benchmark, collective, algorithm, params, ranks, nodes, ranks_per_node,
rank_order, region, mem, datatype, phase_mode, in_place, gpus_per_node,
procs_per_gpu, size_bytes and phase. The MPI library and version, host, start
time, mcb version, iterations, warm-up and validation may differ. Only phase
"total" is compared unless --phases all.

Repetitions. All rows of one side with the same key (from several files, or
the same file twice) are repetitions of one measurement:
  value = median over the repetitions of --stat (default median_us)
  noise = (max - min) / median of --stat over the repetitions, when there are
          at least 2 (run-to-run spread, what really varies between runs);
          otherwise stddev_us / avg_us of the single row (the iteration-to-
          iteration jitter inside that run, a conservative stand-in for the
          run-to-run spread; 0 if not finite, e.g. one iteration).
The median, not the minimum, of the repetitions: one lucky run on either side
must not decide the verdict.

Verdict. ratio = NEW / BASE (> 1: slower).
  noise      = min(max(noise_base, noise_new), max_noise)
  REGRESSION   ratio > 1 + threshold + noise
  faster       ratio < 1 / (1 + threshold + noise)  (the same test on BASE/NEW)
The noisier side sets the margin: two repetition ranges of relative widths
r_b and r_n stop overlapping, to first order, at ratio 1 + (r_b + r_n) / 2,
which max(r_b, r_n) bounds from above, so a flagged row lies above the base
range by more than the threshold. The cap (--max-noise, default 0.5) keeps a
very noisy row from hiding a large slowdown: any ratio above
1 + threshold + max_noise (1.6 by default) is a regression whatever the noise.
Rows whose base value is below --min-us (default 0) or not positive are
skipped (timer resolution). Faster rows are reported but do not fail.

Environment. mcb writes a run metadata record beside each CSV
(FILE.csv.meta.json: build, MPI library string, MPI-related environment
variables, placement and bindings, hardware). Before the timings the script
prints every field that differs between the two sides ("env UCX_TLS: rc ->
tcp"), or that they are the same; CSVs without a record are counted and
left out of that comparison.

Missing rows. A collective that hangs or a rank that crashes ends a run
early (mcb's --timeout), and NEW then lacks the rows after it: every row
BASE has and NEW lacks is listed (configuration and size, one line each,
"rows NEW lacks (N)") and, with --missing fail (the default), fails the
gate like a regression; --missing warn only lists them. Rows BASE lacks
(new configurations or sizes) are counted, the first few listed, and never
fail.

Output: one line per matched row (sorted by collective, algorithm, params,
ranks, size), the rows NEW lacks, the rows BASE lacks, the ratio's count,
min, median, max and geometric mean per algorithm and overall, then
"N regressions, ..." (with "; K rows NEW lacks: fail" when it has some).
--plot FILE draws the ratios against size; --html FILE writes one
self-contained page (no network needed): the verdict, the environment
differences, one plot per collective, every row (flagged ones highlighted)
and the rows NEW lacks. Exit status: 0 no regression (and no row NEW lacks,
unless --missing warn), 1 at least one regression or row NEW lacks, 2 bad
input (missing file, bad CSV, missing columns, nothing matches, an output
that cannot be written), with one line on stderr.
"""
import argparse
import glob
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import needs  # noqa: E402

needs.need("pandas")
import pandas as pd  # noqa: E402

PROG = "compare.py"
KEY = ["benchmark", "collective", "algorithm", "params", "ranks", "nodes", "ranks_per_node", "rank_order",
       "region", "mem", "datatype", "phase_mode", "in_place", "gpus_per_node", "procs_per_gpu", "size_bytes",
       "phase"]
INT_KEYS = ["ranks", "nodes", "ranks_per_node", "in_place", "gpus_per_node", "procs_per_gpu", "size_bytes"]
# Shown in the table always; the other key columns only when they vary.
SHOWN = ["collective", "algorithm", "params", "ranks"]
EXTRA = [c for c in KEY if c not in SHOWN + ["size_bytes"]]
STATS = ["median_us", "avg_us", "min_us"]
NEEDED = KEY + STATS + ["schema_version", "stddev_us", "mpi_library", "mpi_version", "validation"]
SHOW_UNMATCHED = 5


class InputError(Exception):
    pass


def csv_files(path):
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "*.csv")))
        if not files:
            raise InputError(f"{path}: directory has no *.csv files")
        return files
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file or directory")
    return [path]


def read_side(path):
    """All rows of the CSV file(s) at path, key columns typed, numbers float."""
    frames = []
    for f in csv_files(path):
        try:
            df = pd.read_csv(f, dtype=str, keep_default_na=False)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, OSError) as e:
            raise InputError(f"{f}: not a readable CSV ({str(e).strip().splitlines()[0]})")
        missing = [c for c in NEEDED if c not in df.columns]
        if missing:
            names = ", ".join(missing[:5]) + (f", ... ({len(missing)} in all)" if len(missing) > 5 else "")
            raise InputError(f"{f}: missing column(s) {names}; is it an mcb CSV (schema_version 1)?")
        df = df[df["schema_version"] != "schema_version"]  # header lines of concatenated files
        if df.empty:
            raise InputError(f"{f}: no data rows")
        bad = sorted(set(df["schema_version"]) - {"1"})
        if bad:
            raise InputError(f"{f}: schema_version {', '.join(bad)}; this script reads version 1")
        for c in INT_KEYS + STATS + ["stddev_us"]:
            v = pd.to_numeric(df[c], errors="coerce")
            if c in INT_KEYS or c in STATS:
                nonnum = v.isna()
                if nonnum.any():
                    i = df.index[nonnum.to_numpy()][0]
                    raise InputError(f"{f}: line {i + 2}: column {c} is not a number: {df.at[i, c]!r}")
            df[c] = v.astype("int64") if c in INT_KEYS else v.astype(float)
        df["file"] = f
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


# The run metadata beside each CSV (FILE.csv.meta.json, written by mcb):
# what is compared between the two sides, flattened to "name: value".
META_FIELDS = ["mcb_version", "git_commit", "compiler", "build_type", "compile_flags", "mpi_library_string"]


def read_metadata(path):
    """{field: set of values} over the metadata records beside the CSVs of
    path, and how many CSVs had none. Unreadable records count as missing."""
    import json
    fields, missing = {}, 0
    for f in csv_files(path):
        try:
            with open(f + ".meta.json", encoding="utf-8") as fh:
                rec = json.load(fh)
        except (OSError, ValueError):
            missing += 1
            continue
        flat = {k: str(rec.get(k)) for k in META_FIELDS if k in rec}
        place = rec.get("placement") or {}
        for k in ("ranks", "nodes", "ranks_per_node", "rank_order", "mem"):
            if k in place:
                flat[f"placement.{k}"] = str(place[k])
        per_rank = place.get("per_rank") or []
        if per_rank:
            flat["placement.cpus"] = " ".join(f"{r.get('rank')}:{r.get('cpus')}" for r in per_rank)
            flat["placement.hosts"] = str(len({r.get("host") for r in per_rank})) + " host(s)"
        hw = rec.get("hardware") or {}
        for k in ("cpu_model", "packages", "numa_nodes", "cores", "pus"):
            if k in hw:
                flat[f"hardware.{k}"] = str(hw[k])
        for k, v in (hw.get("caches") or {}).items():
            flat[f"hardware.cache.{k}"] = str(v)
        for k, v in (rec.get("environment") or {}).items():
            flat[f"env {k}"] = str(v)
        for k, v in flat.items():
            fields.setdefault(k, set()).add(v)
    return fields, missing


class Environment:
    """What the two sides' run metadata say: notes (CSVs without a record),
    diffs [(field, base value, new value)] when both sides have records
    (None otherwise), and each side's fields {field: set of values}."""

    def __init__(self, base_path, new_path):
        (self.base, base_missing), (self.new, new_missing) = read_metadata(base_path), read_metadata(new_path)
        self.notes = [f"{missing} CSV file(s) of {name} ({side}) without run metadata (FILE.csv.meta.json); "
                      "not compared"
                      for name, side, missing in (("base", base_path, base_missing), ("new", new_path, new_missing))
                      if missing]
        self.diffs = None
        if self.base and self.new:
            show = lambda values: "unset" if values is None else " | ".join(sorted(values))  # noqa: E731
            self.diffs = [(k, show(self.base.get(k)), show(self.new.get(k)))
                          for k in sorted(set(self.base) | set(self.new)) if self.base.get(k) != self.new.get(k)]

    def library(self, side, fallback):
        """The side's MPI library string, its first line up to the first
        comma ("Open MPI v5.0.7", "MPICH Version: 4.0.2"), or fallback."""
        values = getattr(self, side).get("mpi_library_string")
        if not values:
            return fallback
        names = sorted({" ".join((v.strip().splitlines() or ["?"])[0].split(", ")[0].split()) for v in values})
        return " | ".join(s if len(s) <= 80 else s[:77] + "..." for s in names)

    def lines(self):
        """The console's lines, before the timings."""
        out = [f"# environment: {n}" for n in self.notes]
        if self.diffs:
            out.append(f"# environment: {len(self.diffs)} difference(s) between base and new (base -> new):")
            out += [f"#   {k}: {b} -> {n}" for k, b, n in self.diffs]
        elif self.diffs is not None:
            out.append("# environment: the same on both sides (build, MPI, environment variables, placement, "
                       "hardware)")
        return out


def aggregate(df, stat):
    """One row per key: value, noise and repetition count (see the docstring)."""
    def one(g):
        x = g[stat].to_numpy(dtype=float)
        med = float(pd.Series(x).median())
        if len(x) >= 2:
            noise = (x.max() - x.min()) / med if med > 0 else 0.0
        else:
            sd, avg = float(g["stddev_us"].iloc[0]), float(g["avg_us"].iloc[0])
            noise = sd / avg if avg > 0 and math.isfinite(sd) else 0.0
        return pd.Series({"value": med, "noise": noise, "reps": len(x),
                          "fails": int((g["validation"] == "fail").sum()),
                          "gpu_aware": ",".join(sorted(set(g["gpu_aware"].astype(str)))) if "gpu_aware" in g else ""})
    return df.groupby(KEY, sort=False).apply(one).reset_index()


def libraries(df):
    libs = df[["mpi_library", "mpi_version"]].drop_duplicates().sort_values(["mpi_library", "mpi_version"])
    return " / ".join(f"{a} {b}".strip() for a, b in libs.values)


def varying(rows):
    """The key columns beyond SHOWN and the size that vary among rows (the
    benchmark only where one collective has several, e.g. mcb_breakdown)."""
    return [c for c in EXTRA if rows[c].nunique() > 1
            and not (c == "benchmark" and rows.groupby("collective")["benchmark"].nunique().max() == 1)]


def no_match_hint(base, new):
    for c in KEY:
        a, b = set(base[c]), set(new[c])
        if not a & b:
            fmt = lambda s: ",".join(str(v) for v in sorted(s)[:4]) + (",..." if len(s) > 4 else "")  # noqa: E731
            return f"; {c} differs: base {fmt(a)}, new {fmt(b)}"
    return ""


def geomean(x):
    return math.exp(sum(math.log(v) for v in x) / len(x))


def fmt_us(v):
    return f"{v:.2f}" if v < 1e5 else f"{v:.4g}"


def aligned(cols, rows, right, indent=""):
    """Lines of a table: columns padded to their widest cell, the columns
    named in right right-aligned."""
    width = [max([len(c)] + [len(row[i]) for row in rows]) for i, c in enumerate(cols)]
    return [(indent + "  ".join(v.rjust(w) if c in right else v.ljust(w) for c, v, w in zip(cols, vals, width))
             ).rstrip() for vals in [cols] + rows]


def table_rows(m, extras):
    """The compared rows as the console and the page show them: (columns,
    rows of strings, right-aligned columns)."""
    cols = SHOWN + extras + ["size", "base_us", "new_us", "ratio", "noise", "reps", "flag"]
    rows = [[r["collective"], r["algorithm"], r["params"], str(r["ranks"])] + [str(r[c]) for c in extras]
            + [str(r["size_bytes"]), fmt_us(r["value_base"]), fmt_us(r["value_new"]), f"{r['ratio']:.3f}",
               f"{r['noise']:.3f}", f"{r['reps_base']}/{r['reps_new']}", r["flag"]]
            for _, r in m.iterrows()]
    right = {"ranks", "size", "base_us", "new_us", "ratio", "noise", "reps"} | {c for c in extras if c in INT_KEYS}
    return cols, rows, right


def lacking_rows(rows, extras):
    """Rows one side lacks as (columns, rows of strings, right-aligned
    columns): the configuration and the size."""
    cols = SHOWN + extras + ["size"]
    out = [[str(r[c]) for c in SHOWN + extras] + [str(r["size_bytes"])] for _, r in rows.iterrows()]
    return cols, out, {"ranks", "size"} | {c for c in extras if c in INT_KEYS}


def summary_rows(m):
    """The ratios' count, min, median, max and geometric mean per collective
    and algorithm, then over all rows: (columns, rows of strings)."""
    cols = ["ratio NEW/BASE", "count", "min", "median", "max", "geomean", "regr", "faster"]
    groups = [(f"{c} {a}", g["ratio"]) for (c, a), g in m.groupby(["collective", "algorithm"], sort=True)]
    groups.append(("all", m["ratio"]))
    rows = []
    for name, r in groups:
        flags = m.loc[r.index, "flag"]
        rows.append([name, str(len(r))] + [fmt_ratio(v) for v in (r.min(), r.median(), r.max(), geomean(r))]
                    + [str((flags == "REGRESSION").sum()), str((flags == "faster").sum())])
    return cols, rows


def fmt_ratio(v):
    return f"{v:.3f}" if v < 1000 else f"{v:.4g}"


class Comparison:
    """BASE against NEW (see the docstring): the compared rows m (value_base,
    value_new, noise, ratio, flag), the rows each side lacks, the key columns
    that vary (extras, lack_extras), the run environments and the verdict."""

    def __init__(self, args):
        base_rows, new_rows = read_side(args.base), read_side(args.new)
        if args.phases == "total":
            base_rows = base_rows[base_rows["phase"] == "total"]
            new_rows = new_rows[new_rows["phase"] == "total"]
            if base_rows.empty or new_rows.empty:
                raise InputError(f"no rows with phase total in {args.base if base_rows.empty else args.new}")
        self.args = args
        self.labels = (libraries(base_rows), libraries(new_rows))
        base, new = aggregate(base_rows, args.stat), aggregate(new_rows, args.stat)
        m = base.merge(new, on=KEY, how="outer", suffixes=("_base", "_new"), indicator=True)
        self.lack_extras = varying(m)
        lacks = m[m["_merge"] != "both"]
        lacks = lacks.sort_values(SHOWN + self.lack_extras + ["size_bytes"])
        self.new_lacks = lacks[lacks["_merge"] == "left_only"]  # a hang or a crash ends a run early
        self.base_lacks = lacks[lacks["_merge"] == "right_only"]
        m = m[m["_merge"] == "both"].copy()
        m[["reps_base", "reps_new"]] = m[["reps_base", "reps_new"]].astype(int)
        if m.empty:
            raise InputError(f"no rows of {args.base} ({len(base)} configurations x sizes) match {args.new} "
                             f"({len(new)}){no_match_hint(base, new)}")
        skipped = ~(m["value_base"] > 0) | (m["value_base"] < args.min_us) | ~(m["value_new"] > 0)
        self.skipped = int(skipped.sum())
        m = m[~skipped].copy()
        if m.empty:
            raise InputError(f"all {self.skipped} matched rows have a base below --min-us {args.min_us:g} or a "
                             "time <= 0; nothing compared")
        m["noise"] = m[["noise_base", "noise_new"]].max(axis=1).clip(upper=args.max_noise)
        m["ratio"] = m["value_new"] / m["value_base"]
        margin = 1 + args.threshold + m["noise"]
        m["flag"] = ""
        m.loc[m["ratio"] > margin, "flag"] = "REGRESSION"
        m.loc[m["ratio"] < 1 / margin, "flag"] = "faster"
        self.extras = varying(m)
        self.m = m.sort_values(SHOWN + self.extras + ["size_bytes"]).reset_index(drop=True)
        self.env = Environment(args.base, args.new)
        self.regressions = int((self.m["flag"] == "REGRESSION").sum())
        self.faster = int((self.m["flag"] == "faster").sum())
        self.missing_fails = len(self.new_lacks) > 0 and args.missing == "fail"
        self.status = 1 if self.regressions or self.missing_fails else 0

    def rows_table(self):
        return table_rows(self.m, self.extras)

    def lacks_table(self, rows):
        return lacking_rows(rows, self.lack_extras)

    def ratios_table(self):
        return summary_rows(self.m)

    def criterion(self):
        a = self.args
        return (f"{a.stat}, median over repetitions; REGRESSION if NEW/BASE > 1 + {a.threshold:g} + noise, "
                f"faster if BASE/NEW > 1 + {a.threshold:g} + noise; noise = min(max(noise_base, noise_new), "
                f"{a.max_noise:g})")

    def new_lacks_why(self):
        return "a hang or a crash ends a run early; " + (
            "they fail the gate (--missing fail)" if self.args.missing == "fail" else "a warning only (--missing warn)")

    def notes(self):
        """Warnings about the compared rows, one line each."""
        out = []
        if self.skipped:
            out.append(f"skipped: {self.skipped} matched rows with base below --min-us {self.args.min_us:g} or a "
                       "time <= 0")
        for side in ("base", "new"):
            fails = int(self.m[f"fails_{side}"].sum())
            if fails:
                out.append(f"warning: {fails} {side} rows with validation fail among the compared ones")
        differ = (self.m["gpu_aware_base"] != self.m["gpu_aware_new"]).sum()
        if differ:
            out.append(f"note: gpu_aware differs between base and new on {differ} compared rows")
        return out

    def verdict(self):
        """The last line: the counts, and whether the rows NEW lacks fail."""
        n, k = len(self.m), len(self.new_lacks)
        line = (f"{self.regressions} regression{'' if self.regressions == 1 else 's'}, {self.faster} faster, "
                f"{n - self.regressions - self.faster} unchanged (of {n} compared)")
        if k:
            line += (f"; {k} row{'' if k == 1 else 's'} NEW lacks: "
                     + ("fail (--missing fail)" if self.missing_fails else "warning only (--missing warn)"))
        return line


def print_report(c):
    a = c.args
    print(f"# base: {c.labels[0]} ({a.base}), new: {c.labels[1]} ({a.new})")
    for line in c.env.lines():
        print(line)
    print(f"# {c.criterion()}")
    cols, rows, right = c.rows_table()
    if a.only_flagged:
        rows = [r for r in rows if r[-1]]
    print("\n".join(aligned(cols, rows, right)))
    if not rows:
        print("(no flagged rows)")
    print()
    if len(c.new_lacks):
        print(f"rows NEW lacks ({len(c.new_lacks)}): {c.new_lacks_why()}")
        print("\n".join(aligned(*c.lacks_table(c.new_lacks), indent="  ")))
    if len(c.base_lacks):
        n = len(c.base_lacks)
        first = f"; the first {SHOW_UNMATCHED}" if n > SHOW_UNMATCHED else ""
        print(f"rows BASE lacks ({n}): new configurations or sizes, not compared{first}")
        cols, rows, right = c.lacks_table(c.base_lacks.head(SHOW_UNMATCHED))
        print("\n".join(aligned(cols, rows, right, indent="  ")))
    for line in c.notes():
        print(line)
    cols, rows = c.ratios_table()
    print("\n".join(aligned(cols, rows, set(cols[1:]))))
    print(c.verdict())


def write_outputs(c):
    """--plot and --html; InputError when one cannot be written."""
    a = c.args
    title = f"base: {c.labels[0]}, new: {c.labels[1]}"
    if a.plot:
        import compare_plot
        try:
            compare_plot.save(c.m, c.extras, a.threshold, a.stat, title, a.plot)
        except (ValueError, OSError) as e:
            raise InputError(f"--plot {a.plot}: {e}")
        print(f"wrote {a.plot}")
    if a.html:
        import compare_html
        try:
            compare_html.write(c, a.html)
        except OSError as e:
            raise InputError(f"--html {a.html}: {e}")
        print(f"wrote {a.html}")


def main():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base", metavar="BASE", help="CSV file or directory of CSV files (before)")
    p.add_argument("new", metavar="NEW", help="CSV file or directory of CSV files (after)")
    p.add_argument("--stat", default="median_us", choices=STATS, help="per-run statistic (default median_us)")
    p.add_argument("--threshold", type=float, default=0.10, help="slowdown tolerated beyond the noise (default 0.10)")
    p.add_argument("--max-noise", type=float, default=0.5, help="cap on the noise margin (default 0.5)")
    p.add_argument("--min-us", type=float, default=0.0, help="skip rows whose base value is below this (default 0)")
    p.add_argument("--phases", choices=["total", "all"], default="total", help="compare phase total only (default)"
                   " or every phase")
    p.add_argument("--missing", choices=["fail", "warn"], default="fail", help="rows BASE has and NEW lacks (a "
                   "hang or crash ended the run): fail the gate, exit 1 (default), or only list them")
    p.add_argument("-q", "--quiet", "--only-flagged", dest="only_flagged", action="store_true",
                   help="print only flagged rows in the table")
    p.add_argument("--plot", metavar="FILE", help="ratio vs size plot; the extension picks the format (png, pdf...)")
    p.add_argument("--html", metavar="FILE", help="a self-contained HTML report: summary, environment differences, "
                   "one plot per collective, every row, the rows NEW lacks")
    args = p.parse_args()
    if args.threshold < 0 or args.max_noise < 0:
        p.error("--threshold and --max-noise must be >= 0")
    try:
        c = Comparison(args)
        print_report(c)
        write_outputs(c)
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    return c.status


if __name__ == "__main__":
    sys.exit(main())
