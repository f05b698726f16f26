#!/usr/bin/env python3
"""expect.py [--fails] REGEX... -- COMMAND...: passes when COMMAND exits 0
(with --fails: non-zero) and its output (stdout and stderr) matches every
REGEX; prints the output either way."""
import re
import subprocess
import sys

sep = sys.argv.index("--")
fails = sys.argv[1] == "--fails"
patterns, cmd = sys.argv[1 + fails:sep], sys.argv[sep + 1:]
proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
sys.stdout.write(proc.stdout)
if (proc.returncode != 0) != fails:
    sys.exit(f"expect.py: FAIL: the command exited {proc.returncode}, expected {'non-zero' if fails else '0'}")
for pattern in patterns:
    if not re.search(pattern, proc.stdout, re.M):
        sys.exit(f"expect.py: FAIL: exit {proc.returncode}, but no line matches '{pattern}'")
print(f"expect.py: exit {proc.returncode} and every pattern, as expected")
