#!/usr/bin/env python3
"""Checks the run metadata records that an mcb run wrote beside its CSV and
JSON (tests/CMakeLists.txt, metadata_run: 3 ranks, I_MPI_MCB_MARKER=ci-marker
in the ranks' environment), then scripts/compare/compare.py's environment lines:
the same record on both sides says "the same", a record whose UCX_TLS and
git commit differ says so, and a side without records is counted.

  check_metadata.py DIR COMPARE_PY
"""
import json
import os
import shutil
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def main(directory, compare):
    csv, js = os.path.join(directory, "out.csv"), os.path.join(directory, "out.json")
    records = []
    for out in (csv, js):
        path = out + ".meta.json"
        try:
            with open(path, encoding="utf-8") as f:
                records.append(json.load(f))
        except (OSError, ValueError) as e:
            failures.append(f"{path}: {e}")
    if len(records) == 2:
        rec = records[0]
        check(records[0] == records[1], "the CSV's and the JSON's records differ")
        check(rec.get("record") == "mcb run metadata" and rec.get("version") == 1, "record/version")
        check(rec.get("benchmark") == "mcb_alltoall", f"benchmark {rec.get('benchmark')}")
        cmd = rec.get("command_line", [])
        check(cmd[:1] and cmd[0].endswith("mcb_alltoall") and "--csv" in cmd and "-m" in cmd, f"command line {cmd}")
        for k in ("git_commit", "compiler", "build_type", "mcb_version", "start_time", "mpi_library_string"):
            check(isinstance(rec.get(k), str) and rec.get(k), f"{k} missing or empty")
        check("\x00" not in rec.get("mpi_library_string", ""), "NUL in the library string")
        env = rec.get("environment", {})
        check(env.get("I_MPI_MCB_MARKER") == "ci-marker", f"I_MPI_MCB_MARKER not recorded: {env}")
        check(not any(k.startswith("OMPI_MCA_orte_") for k in env), "Open MPI's per-launch variables recorded")
        check(not any(k in ("PATH", "HOME") for k in env), "unrelated variables recorded")
        place = rec.get("placement", {})
        check(place.get("ranks") == 3 and len(place.get("per_rank", [])) == 3, f"placement {place}")
        check(place.get("nodes") == 3 and place.get("virtual_nodes") is True, f"virtual nodes {place}")
        check(all(r.get("host") and r.get("cpus") for r in place.get("per_rank", [])), "host/cpus per rank")
        hw = rec.get("hardware") or {}
        check(hw.get("cores", 0) >= 1 and hw.get("pus", 0) >= 1 and "cpu_model" in hw, f"hardware {hw}")

    # compare.py: identical records, then a changed UCX_TLS and commit.
    work = os.path.join(directory, "compare")
    shutil.rmtree(work, ignore_errors=True)
    for side in ("a", "b", "c"):
        os.makedirs(os.path.join(work, side))
        shutil.copy(csv, os.path.join(work, side, "r.csv"))
        if side != "c":
            shutil.copy(csv + ".meta.json", os.path.join(work, side, "r.csv.meta.json"))

    def run(a, b):
        p = subprocess.run([sys.executable, compare, os.path.join(work, a), os.path.join(work, b)],
                           capture_output=True, text=True)
        return p.stdout + p.stderr

    out = run("a", "b")
    check("# environment: the same on both sides" in out, f"identical records not reported the same:\n{out}")
    meta_b = os.path.join(work, "b", "r.csv.meta.json")
    with open(meta_b, encoding="utf-8") as f:
        rec = json.load(f)
    rec["environment"]["UCX_TLS"] = "tcp"
    rec["git_commit"] = "0123456789ab"
    with open(meta_b, "w", encoding="utf-8") as f:
        json.dump(rec, f)
    out = run("a", "b")
    check("# environment: 2 difference(s) between base and new" in out, f"differences not counted:\n{out}")
    check("#   env UCX_TLS: unset -> tcp" in out, f"UCX_TLS change not named:\n{out}")
    check("#   git_commit: " in out and "-> 0123456789ab" in out, f"commit change not named:\n{out}")
    out = run("a", "c")
    check("1 CSV file(s) of new" in out and "without run metadata" in out, f"missing record not reported:\n{out}")

    for f in failures:
        print("FAIL:", f)
    print(f"metadata: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
