"""One scripts/sim/simulate.py run for the simulation tests: its CSV rows."""
import csv
import os
import subprocess
import sys


def simulate(py, build, platform, nodes, k, out, mcb_args, timeout=240, binary="mcb_alltoall", cfg=()):
    """Runs BINARY MCB_ARGS on NODES x K ranks of PLATFORM (with simulate.py's
    --cfg CFG for each of `cfg`); exits the test on failure. Returns
    ({(algorithm, params, size, phase): row}, stdout)."""
    cmd = [sys.executable, py, "--build", build, "--platform", platform, "--nodes", str(nodes),
           "--ranks-per-node", str(k), "--out", out, "--timeout", str(timeout)]
    cmd += [a for c in cfg for a in ("--cfg", c)] + ["--", binary] + mcb_args
    print("+", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(proc.stdout[-4000:] + proc.stderr[-2000:])
    if proc.returncode != 0:
        sys.exit(f"FAIL: simulate.py exited {proc.returncode}")
    rows = {}
    for name in sorted(os.listdir(out)):
        if not name.endswith(".csv"):  # the run metadata (.csv.meta.json) beside each CSV
            continue
        with open(os.path.join(out, name), newline="") as f:
            for r in csv.DictReader(f):
                rows[(r["algorithm"], r["params"], int(r["size_bytes"]), r["phase"])] = r
    return rows, proc.stdout
