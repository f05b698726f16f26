#!/usr/bin/env python3
"""Checks mcb's CSV and JSON Lines output against the schema table in
docs/schema.md (under "# Output schema": one row per column, the name in
backticks, then its type). Both files must have exactly those columns in
that order, load into pandas without post-processing, and hold a total row
for every (algorithm, size) plus one row per phase.

  check_schema.py docs/schema.md out.csv out.json
"""
import json
import re
import sys

import pandas as pd


def doc_schema(path):
    text = open(path, encoding="utf-8").read()
    heading = re.search(r"^#{1,2} Output schema[ \t]*$", text, re.M)
    if not heading:
        sys.exit(f"no '# Output schema' heading in {path}")
    section = text[heading.end():].split("\n## ", 1)[0]
    cols = re.findall(r"^\| `([a-z0-9_]+)` \| (string|integer|float|timestamp) \|", section, re.M)
    if not cols:
        sys.exit(f"no schema table found in {path}")
    return cols


def main(doc, csv_path, json_path):
    schema = doc_schema(doc)
    names = [n for n, _ in schema]
    failures = []

    header = open(csv_path, encoding="utf-8").readline().strip().split(",")
    if header != names:
        failures.append(f"CSV header {header} != docs/schema.md {names}")
    with open(json_path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            keys = list(json.loads(line).keys())
            if keys != names:
                failures.append(f"JSON line {i + 1} keys {keys} != docs/schema.md")
                break

    # dtype=False: the JSON's own number types (pandas would make a float
    # column whose every value is integral, 0.000 in a slow oversubscribed
    # run's algbw_gbps, an integer one).
    json_frame = pd.read_json(json_path, lines=True, dtype=False)
    for frame, label in ((pd.read_csv(csv_path), "CSV"), (json_frame, "JSON")):
        for name, kind in schema:
            dtype = frame[name].dtype
            ok = {"string": dtype == object, "integer": pd.api.types.is_integer_dtype(dtype),
                  "float": pd.api.types.is_float_dtype(dtype),
                  "timestamp": dtype == object or pd.api.types.is_datetime64_any_dtype(dtype)}[kind]
            if not ok:
                failures.append(f"{label} column {name} has dtype {dtype}, docs/schema.md says {kind}")
        if frame.isna().any().any():
            failures.append(f"{label} has empty cells: {frame.columns[frame.isna().any()].tolist()}")
        totals = frame[frame.phase == "total"]
        config = ["algorithm", "params", "nodes", "phase_mode", "size_bytes"]
        per_config = totals.groupby(config).size()
        if len(per_config) == 0 or (per_config != 1).any():
            failures.append(f"{label}: not exactly one total row per (algorithm, params, nodes, phase mode, size)")
        if set(frame.validation) != {"pass"}:
            failures.append(f"{label}: validation column {set(frame.validation)}")
        bruck = frame[frame.algorithm == "bruck"]
        if len(bruck) and set(bruck.phase) != {"rotate", "exchange", "rotate_back", "total"}:
            failures.append(f"{label}: bruck phases {set(bruck.phase)}")
        if (frame.min_us > frame.avg_us + 1e-3).any() or (frame.avg_us > frame.max_us + 1e-3).any():
            failures.append(f"{label}: min <= avg <= max violated")
        # OSU's statistic: min <= avg <= max over ranks of the ranks' means,
        # and their mean never above the mean of the per-iteration maxima
        # (mean over ranks of a mean over iterations <= mean of the max).
        if ((frame.osu_min_us > frame.osu_avg_us + 1e-3) | (frame.osu_avg_us > frame.osu_max_us + 1e-3)).any():
            failures.append(f"{label}: osu_min_us <= osu_avg_us <= osu_max_us violated")
        if (frame.osu_max_us > frame.avg_us + 1e-3).any():
            failures.append(f"{label}: a rank's mean (osu_max_us) above the mean of the slowest rank (avg_us)")
        if ((frame.median_us > frame.p90_us + 1e-3) | (frame.p90_us > frame.p99_us + 1e-3) |
                (frame.p99_us > frame.max_us + 1e-3)).any():
            failures.append(f"{label}: median <= p90 <= p99 <= max violated")
        # nccl-tests' bandwidths, recomputed by hand: one rank's buffer (the
        # whole receive buffer of alltoall and allgather, the vector of
        # allreduce) over osu_max_us, in GB/s; busbw = algbw x bus factor.
        whole = frame.collective.isin(["alltoall", "allgather", "fft"])
        n = frame.ranks
        buffer = frame.size_bytes * frame.ranks.where(whole, 1)
        factor = ((n - 1) / n).where(whole, 1.0)
        factor = factor.where(frame.collective != "allreduce", 2 * (n - 1) / n)
        factor = factor.where(frame.collective != "fft", 3 * (n - 1) / n)
        # osu_max_us is written to 3 decimals: a phase of 0.151 us may be off
        # by 0.3% from the time the bandwidth came from.
        algbw = buffer / frame.osu_max_us / 1e3
        slack = buffer / (frame.osu_max_us - 5e-4).clip(lower=1e-4) / 1e3 - algbw
        off = (frame.algbw_gbps - algbw).abs() > 1e-3 + 2e-3 * algbw + slack
        if off.any():
            failures.append(f"{label}: algbw_gbps differs from buffer / osu_max_us: "
                            f"{frame[off][['collective', 'size_bytes', 'ranks', 'osu_max_us', 'algbw_gbps']].head(3).to_dict('records')}")
        if ((frame.busbw_gbps - frame.algbw_gbps * factor).abs() > 2e-3 + 2e-3 * frame.busbw_gbps).any():
            failures.append(f"{label}: busbw_gbps != algbw_gbps x the collective's bus factor")
        print(f"{label}: {len(frame)} rows, {len(per_config)} configurations")

    for f in failures:
        print("FAIL:", f)
    print("schema:", "FAIL" if failures else "ok", f"({len(names)} columns)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
