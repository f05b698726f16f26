#!/usr/bin/env python3
"""Runs scripts/compare/compare.py on the crafted CSVs of make_csvs.py and checks the
exit status and the flagged rows. One case per ctest test:

  run_case.py CASE SCRIPT WORKDIR      CASE: ok, regression, noisy, bad_input, plot, missing, html

Prints "compare: ok" when every check passes, "FAIL: ..." otherwise. Case
html loads the --html page in headless Chromium (html_page.py) and exits 77
(skipped) when there is no Chromium.
"""
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_csvs  # noqa: E402

failures = []


def run(script, *args):
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    print(f"$ compare.py {' '.join(args)}  -> exit {p.returncode}\n{p.stdout}{p.stderr}")
    return p


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


def flagged(out, flag):
    """(algorithm, params, size) of the table rows with this flag."""
    rows = set()
    for line in out.splitlines():
        f = line.split()
        if f and f[-1] == flag and f[0] == "alltoall":
            rows.add((f[1], f[2], int(f[4])))
    return rows


def expect(p, code, regressions=None, faster=None, summary=None):
    check(p.returncode == code, f"exit {p.returncode}, expected {code}")
    if regressions is not None:
        got = flagged(p.stdout, "REGRESSION")
        check(got == regressions, f"REGRESSION rows {sorted(got)}, expected {sorted(regressions)}")
    if faster is not None:
        got = flagged(p.stdout, "faster")
        check(got == faster, f"faster rows {sorted(got)}, expected {sorted(faster)}")
    if summary is not None:
        check(re.search(summary, p.stdout, re.M), f"no line matching {summary!r}")


def lacks_listed(out):
    """(algorithm, params, size) of the lines under "rows NEW lacks"."""
    rows, inside = set(), False
    for line in out.splitlines():
        if line.startswith("rows NEW lacks ("):
            inside = True
        elif inside and line.startswith("  alltoall "):
            f = line.split()
            rows.add((f[1], f[2], int(f[4])))
        elif inside and not line.startswith("  collective"):
            inside = False
    return rows


def bad(p, pattern):
    check(p.returncode == 2, f"exit {p.returncode}, expected 2")
    lines = p.stderr.strip().splitlines()
    check(len(lines) == 1, f"{len(lines)} lines on stderr, expected 1")
    check(re.search(pattern, p.stderr), f"stderr does not match {pattern!r}")
    check("Traceback" not in p.stderr, "a traceback")


def main():
    case, script, work = sys.argv[1:4]
    sys.argv = [sys.argv[0], work]
    make_csvs.main()
    base = f"{work}/base.csv"
    if case == "ok":
        p = run(script, base, f"{work}/ok/new.csv")
        expect(p, 0, regressions=set(), faster={("bruck", "none", 1024), ("bruck", "none", 4096)},
               summary=r"^0 regressions, 2 faster, 14 unchanged \(of 16 compared\)$")
        check("base: Open MPI 4.1.4" in p.stdout and "new: MPICH 4.0.2" in p.stdout, "sides not labelled")
        check(re.search(r"^rows BASE lacks \(1\): .*\n .*collective.*\n +alltoall +pairwise +none +4 +8192$", p.stdout,
                        re.M), "8 KiB row (only in new) not listed under rows BASE lacks")
        check("rows NEW lacks" not in p.stdout, "rows NEW lacks listed, but NEW has every row of BASE")
        # The exchange phase of pairwise is 2x slower: flagged with --phases all only.
        p = run(script, base, f"{work}/ok/new.csv", "--phases", "all", "--only-flagged")
        expect(p, 1, summary=r"^4 regressions, ")
        check(len(re.findall(r"pairwise .* exchange .*REGRESSION$", p.stdout, re.M)) == 4,
              "--phases all: the 4 exchange rows of pairwise not flagged")
    elif case == "regression":
        p = run(script, base, f"{work}/regression/new.csv")
        expect(p, 1, regressions=make_csvs.REGRESSIONS, faster=set(), summary=r"^3 regressions, 0 faster, ")
        # A 50 us floor drops the small sizes, the 1.8x at 4 B among them.
        p = run(script, base, f"{work}/regression/new.csv", "--min-us", "50", "-q")
        expect(p, 1, regressions={("tra", "radix=4", 1024), ("tra", "radix=4", 4096)},
               summary=r"^skipped: 8 matched rows")
        # The noise cap: without it (--max-noise 1) the 0.9 noise of bruck at 4 B hides its 1.8x.
        p = run(script, base, f"{work}/regression/new.csv", "--max-noise", "1")
        expect(p, 1, regressions={("tra", "radix=4", 1024), ("tra", "radix=4", 4096)})
        # A 60 % threshold forgives both (1.5 < 1.62, 1.8 < 2.2).
        p = run(script, base, f"{work}/regression/new.csv", "--threshold", "0.6")
        expect(p, 0, regressions=set(), summary=r"^0 regressions, ")
    elif case == "noisy":
        p = run(script, f"{work}/noisy/base", f"{work}/noisy/new")
        expect(p, 0, regressions=set(), summary=r"^0 regressions, 0 faster, 16 unchanged")
        check(re.search(r"pairwise +none +4 +4096 +110\.00 +130\.00 +1\.182 +0\.308 +3/3\s*$", p.stdout, re.M),
              "pairwise 4096: median of the repetitions, noise 40/130 and 3/3 repetitions expected")
        # Without the noise margin the same 1.18x is a regression.
        p = run(script, f"{work}/noisy/base", f"{work}/noisy/new", "--max-noise", "0")
        expect(p, 1, regressions={("pairwise", "none", 4096)})
    elif case == "bad_input":
        bad(run(script, f"{work}/nonexistent.csv", base), r"nonexistent\.csv: no such file")
        bad(run(script, base, f"{work}/mismatch/new.csv"), r"no rows .* match .*ranks differs: base 4, new 8")
        bad(run(script, base, f"{work}/badcols.csv"), r"badcols\.csv: missing column")
        os.makedirs(f"{work}/empty", exist_ok=True)
        bad(run(script, f"{work}/empty", base), r"no \*\.csv files")
        with open(f"{work}/garbage.csv", "w") as f:
            f.write(open(base).read().replace("4096", "lots", 1))
        bad(run(script, f"{work}/garbage.csv", base), r"size_bytes is not a number")
    elif case == "plot":
        png = f"{work}/ratio.png"
        p = run(script, base, f"{work}/regression/new.csv", "--plot", png)
        expect(p, 1, summary=r"^wrote .*ratio\.png$")
        data = open(png, "rb").read() if os.path.exists(png) else b""
        check(len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n", f"{png} is not a PNG ({len(data)} bytes)")
    elif case == "missing":
        # A hang ended new's run: every row it lacks is listed, and fails the gate unless --missing warn.
        p = run(script, base, f"{work}/hang/new.csv")
        expect(p, 1, regressions=set(), summary=r"^0 regressions, 0 faster, 10 unchanged \(of 10 compared\); "
               r"6 rows NEW lacks: fail \(--missing fail\)$")
        check(re.search(r"^rows NEW lacks \(6\): a hang or a crash ends a run early", p.stdout, re.M),
              "no heading 'rows NEW lacks (6)'")
        got = lacks_listed(p.stdout)
        check(got == make_csvs.HANG_LACKS,
              f"rows NEW lacks listed {sorted(got)}, expected {sorted(make_csvs.HANG_LACKS)}")
        p = run(script, base, f"{work}/hang/new.csv", "--missing", "warn", "-q")
        expect(p, 0, summary=r"^0 regressions, .*; 6 rows NEW lacks: warning only \(--missing warn\)$")
        check(lacks_listed(p.stdout) == make_csvs.HANG_LACKS, "-q --missing warn: the rows NEW lacks not all listed")
        # Rows new lacks and a regression: --missing warn still fails (the regression).
        p = run(script, f"{work}/report/base.csv", f"{work}/report/new.csv", "--missing", "warn")
        expect(p, 1, summary=r"^1 regression, 1 faster, 21 unchanged \(of 23 compared\); 1 row NEW lacks: warning")
        # Sides swapped: the 6 rows are rows BASE lacks, which never fail.
        p = run(script, f"{work}/hang/new.csv", base)
        expect(p, 0, summary=r"^0 regressions, 0 faster, 10 unchanged \(of 10 compared\)$")
        check(re.search(r"^rows BASE lacks \(6\): .*; the first 5$", p.stdout, re.M), "rows BASE lacks not counted")
    elif case == "html":
        import html_page
        browser = html_page.chromium()
        if not browser:
            print("compare_html: SKIP: no Chromium (apt-get install chromium; ci/install-deps.sh installs it)")
            sys.exit(77)
        page = f"{work}/report.html"
        p = run(script, f"{work}/report/base.csv", f"{work}/report/new.csv", "--html", page)
        expect(p, 1, summary=r"^wrote .*report\.html$")
        for problem in html_page.check(browser, page, work):
            check(False, problem)
    else:
        sys.exit(f"run_case.py: unknown case {case}")
    if failures:
        sys.exit(f"FAIL: {len(failures)} check(s) of case {case} failed")
    print("compare: ok")


if __name__ == "__main__":
    main()
