#!/usr/bin/env python3
"""Every plot of plots/ and every script of scripts/ that needs pandas,
matplotlib or numpy, run by a python3 that lacks them (Debian's python3
with -S: no site packages), prints one line naming the package and the
interpreter to use, exits 2, and shows no traceback (scripts/lib/needs.py).

  missing_library.py SOURCE_DIR PYTHON
"""
import glob
import os
import subprocess
import sys

src, python = sys.argv[1:3]
files = sorted(glob.glob(os.path.join(src, "plots", "*.py")))
files += sorted(f for f in glob.glob(os.path.join(src, "scripts", "*.py")) + glob.glob(os.path.join(src, "scripts", "*", "*.py"))
               if "needs.need(" in open(f).read() and not f.endswith("needs.py"))
failed = 0
for f in files:
    r = subprocess.run([python, "-S", f, "--help"], capture_output=True, text=True, timeout=60)
    lines = r.stderr.strip().splitlines()
    ok = (r.returncode == 2 and len(lines) == 1 and "needs the Python package" in lines[0]
          and "/usr/bin/python3" in lines[0] and "Traceback" not in r.stderr + r.stdout)
    failed += not ok
    if not ok:
        print(f"FAIL: {os.path.relpath(f, src)}: exit {r.returncode}, stderr:\n{r.stderr[-1500:]}")
print(f"missing library: {len(files)} scripts checked, {failed} failed")
sys.exit(1 if failed else 0)
