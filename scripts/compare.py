#!/usr/bin/env python3
"""Regression gate: compare mcb CSV results of two MPI installations (or two
builds, two machines) and flag what got slower.

Usage:
    /usr/bin/python3 scripts/compare.py BASE NEW [--stat median_us]
        [--threshold 0.10] [--max-noise 0.5] [--min-us 0] [--phases total|all]
        [--only-flagged] [--plot FILE.png]

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

Output: one line per matched row (sorted by collective, algorithm, params,
ranks, size), rows present on one side only (count and the first few), the
ratio's count, min, median, max and geometric mean per algorithm and overall,
then "N regressions". Exit status: 0 no regression, 1 at least one
regression, 2 bad input (missing file, bad CSV, missing columns, nothing
matches), with one line on stderr.
"""
import argparse
import glob
import math
import os
import sys

import needs

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


def environment_differences(base_path, new_path):
    """Lines saying what differs between the two sides' run environments."""
    (base, base_missing), (new, new_missing) = read_metadata(base_path), read_metadata(new_path)
    lines = []
    for name, side, missing in (("base", base_path, base_missing), ("new", new_path, new_missing)):
        if missing:
            lines.append(f"# environment: {missing} CSV file(s) of {name} ({side}) without run metadata "
                         "(FILE.csv.meta.json); not compared")
    if not base or not new:
        return lines

    def show(values):
        return "unset" if values is None else " | ".join(sorted(values))
    diffs = [f"#   {k}: {show(base.get(k))} -> {show(new.get(k))}"
             for k in sorted(set(base) | set(new)) if base.get(k) != new.get(k)]
    if diffs:
        lines.append(f"# environment: {len(diffs)} difference(s) between base and new (base -> new):")
        lines += diffs
    else:
        lines.append("# environment: the same on both sides (build, MPI, environment variables, placement, hardware)")
    return lines


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


def describe(row):
    params = "" if row["params"] == "none" else f" {row['params']}"
    return (f"{row['collective']} {row['algorithm']}{params}, {row['ranks']} ranks, {row['nodes']} nodes, "
            f"{row['size_bytes']} B, {row['phase']}")


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


def print_table(m, extras, only_flagged):
    cols = ["collective", "algorithm", "params", "ranks"] + extras + ["size", "base_us", "new_us", "ratio", "noise",
                                                                      "reps", "flag"]
    rows = []
    for _, r in m.iterrows():
        if only_flagged and not r["flag"]:
            continue
        rows.append([r["collective"], r["algorithm"], r["params"], str(r["ranks"])]
                    + [str(r[c]) for c in extras]
                    + [str(r["size_bytes"]), fmt_us(r["value_base"]), fmt_us(r["value_new"]), f"{r['ratio']:.3f}",
                       f"{r['noise']:.3f}", f"{r['reps_base']}/{r['reps_new']}", r["flag"]])
    right = {"ranks", "size", "base_us", "new_us", "ratio", "noise", "reps"} | {
        c for c in extras if c in INT_KEYS}
    width = [max([len(c)] + [len(row[i]) for row in rows]) for i, c in enumerate(cols)]
    line = lambda vals: "  ".join(v.rjust(w) if c in right else v.ljust(w)  # noqa: E731
                                  for c, v, w in zip(cols, vals, width)).rstrip()
    print(line(cols))
    for row in rows:
        print(line(row))
    if not rows:
        print("(no flagged rows)")


def fmt_ratio(v):
    return f"{v:.3f}" if v < 1000 else f"{v:.4g}"


def print_summary(m):
    cols = ["ratio NEW/BASE", "count", "min", "median", "max", "geomean", "regr", "faster"]
    groups = [(f"{c} {a}", g["ratio"]) for (c, a), g in m.groupby(["collective", "algorithm"], sort=True)]
    groups.append(("all", m["ratio"]))
    rows = []
    for name, r in groups:
        flags = m.loc[r.index, "flag"]
        rows.append([name, str(len(r))] + [fmt_ratio(v) for v in (r.min(), r.median(), r.max(), geomean(r))]
                    + [str((flags == "REGRESSION").sum()), str((flags == "faster").sum())])
    width = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(cols)]
    for row in [cols] + rows:
        print("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, width))))


def plot(m, extras, args, labels, path):
    needs.need("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401 (matplotlib.ticker below)

    fig, ax = plt.subplots(figsize=(9, 5.5))
    lo, hi = 1 / (1 + args.threshold), 1 + args.threshold
    ax.axhspan(lo, hi, color="0.85", zorder=0, label=f"threshold \u00b1{args.threshold:.0%}")
    ax.axhline(1.0, color="k", lw=0.8, zorder=1)
    series = ["collective", "algorithm", "params", "ranks"] + extras
    for key, g in m.groupby(series, sort=True):
        g = g.sort_values("size_bytes")
        d = dict(zip(series, key))
        label = d["algorithm"] + ("" if d["params"] == "none" else f" {d['params']}")
        if m["collective"].nunique() > 1:
            label = f"{d['collective']} {label}"
        if m["ranks"].nunique() > 1:
            label += f" P={d['ranks']}"
        label += "".join(f" {c}={d[c]}" for c in extras)
        (ln,) = ax.plot(g["size_bytes"], g["ratio"], marker="o", ms=3, lw=1.2, label=label, zorder=2)
        reg = g[g["flag"] == "REGRESSION"]
        ax.plot(reg["size_bytes"], reg["ratio"], ls="none", marker="o", ms=9, mfc="none", mec="red", mew=2,
                zorder=3)
    if (m["flag"] == "REGRESSION").any():
        ax.plot([], [], ls="none", marker="o", ms=9, mfc="none", mec="red", mew=2, label="regression")
    ax.set_xscale("log", base=2)
    sizes = sorted(m["size_bytes"].unique())
    if len(sizes) <= 16:
        ax.set_xticks(sizes)
        ax.set_xticklabels([f"{s >> 20}M" if s >= 1 << 20 and s % (1 << 20) == 0 else
                            f"{s >> 10}K" if s >= 1024 and s % 1024 == 0 else str(s) for s in sizes])
        ax.minorticks_off()
    if m["ratio"].max() > 4 or m["ratio"].min() < 0.25:
        ax.set_yscale("log", base=2)  # large ratios: keep the band around 1 readable
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlabel("size (bytes per block)")
    ax.set_ylabel(f"{args.stat} NEW / BASE  (> 1: slower)")
    ax.set_title(f"base: {labels[0]}, new: {labels[1]}", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (ValueError, OSError) as e:
        raise InputError(f"--plot {path}: {e}")
    plt.close(fig)
    print(f"wrote {path}")


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
    p.add_argument("-q", "--quiet", "--only-flagged", dest="only_flagged", action="store_true",
                   help="print only flagged rows in the table")
    p.add_argument("--plot", metavar="FILE", help="ratio vs size plot; the extension picks the format (png, pdf...)")
    args = p.parse_args()
    if args.threshold < 0 or args.max_noise < 0:
        p.error("--threshold and --max-noise must be >= 0")

    try:
        base_rows, new_rows = read_side(args.base), read_side(args.new)
        if args.phases == "total":
            base_rows = base_rows[base_rows["phase"] == "total"]
            new_rows = new_rows[new_rows["phase"] == "total"]
            if base_rows.empty or new_rows.empty:
                raise InputError(f"no rows with phase total in {args.base if base_rows.empty else args.new}")
        labels = (libraries(base_rows), libraries(new_rows))
        base, new = aggregate(base_rows, args.stat), aggregate(new_rows, args.stat)
        m = base.merge(new, on=KEY, how="outer", suffixes=("_base", "_new"), indicator=True)
        only_base = m[m["_merge"] == "left_only"]
        only_new = m[m["_merge"] == "right_only"]
        m = m[m["_merge"] == "both"].copy()
        m[["reps_base", "reps_new"]] = m[["reps_base", "reps_new"]].astype(int)
        if m.empty:
            raise InputError(f"no rows of {args.base} ({len(base)} configurations x sizes) match {args.new} "
                             f"({len(new)}){no_match_hint(base, new)}")
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2

    print(f"# base: {labels[0]} ({args.base}), new: {labels[1]} ({args.new})")
    for line in environment_differences(args.base, args.new):
        print(line)
    print(f"# {args.stat}, median over repetitions; REGRESSION if NEW/BASE > 1 + {args.threshold:g} + noise, "
          f"faster if BASE/NEW > 1 + {args.threshold:g} + noise; noise = min(max(noise_base, noise_new), "
          f"{args.max_noise:g})")

    skipped = m[~(m["value_base"] > 0) | (m["value_base"] < args.min_us) | ~(m["value_new"] > 0)]
    m = m.drop(skipped.index)
    if m.empty:
        print(f"{PROG}: all {len(skipped)} matched rows have a base below --min-us {args.min_us:g} or a time <= 0; "
              "nothing compared", file=sys.stderr)
        return 2
    m["noise"] = m[["noise_base", "noise_new"]].max(axis=1).clip(upper=args.max_noise)
    m["ratio"] = m["value_new"] / m["value_base"]
    margin = 1 + args.threshold + m["noise"]
    m["flag"] = ""
    m.loc[m["ratio"] > margin, "flag"] = "REGRESSION"
    m.loc[m["ratio"] < 1 / margin, "flag"] = "faster"
    extras = [c for c in EXTRA if m[c].nunique() > 1]
    m = m.sort_values(SHOWN + extras + ["size_bytes"]).reset_index(drop=True)

    print_table(m, extras, args.only_flagged)
    print()
    for name, rows in (("base", only_base), ("new", only_new)):
        if len(rows):
            first = "; ".join(describe(r) for _, r in rows.head(SHOW_UNMATCHED).iterrows())
            more = ", ..." if len(rows) > SHOW_UNMATCHED else ""
            print(f"unmatched: {len(rows)} only in {name}: {first}{more}")
    if len(skipped):
        print(f"skipped: {len(skipped)} matched rows with base below --min-us {args.min_us:g} or a time <= 0")
    for side in ("base", "new"):
        fails = int(m[f"fails_{side}"].sum())
        if fails:
            print(f"warning: {fails} {side} rows with validation fail among the compared ones")
    differ = (m["gpu_aware_base"] != m["gpu_aware_new"]).sum()
    if differ:
        print(f"note: gpu_aware differs between base and new on {differ} compared rows")
    print_summary(m)

    n_reg = int((m["flag"] == "REGRESSION").sum())
    n_fast = int((m["flag"] == "faster").sum())
    print(f"{n_reg} regression{'' if n_reg == 1 else 's'}, {n_fast} faster, {len(m) - n_reg - n_fast} unchanged "
          f"(of {len(m)} compared)")
    if args.plot:
        try:
            plot(m, extras, args, labels, args.plot)
        except InputError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return 2
    return 1 if n_reg else 0


if __name__ == "__main__":
    sys.exit(main())
