#!/usr/bin/env python3
"""mcb against a paper's own code, both simulated by SimGrid SMPI on the same
platform: what scripts/peers/locality_aware.sh and scripts/peers/rbruck.sh
run (they call this script; see scripts/peers/README.md).

  scripts/peers/sim_peer.py locality_aware [options] DIR
  scripts/peers/sim_peer.py rbruck [options] DIR

DIR is a checkout the user provides (a git clone, or a plain copy: then the
commit is "unknown"); nothing of it enters mcb. The script
  1. copies DIR into a scratch folder under /tmp and builds the reference's
     sources with smpicc/smpicxx, with a small driver written here
     (scripts/peers/*_driver.*, peer_bench.h) that times each algorithm
     as mcb times its own (a barrier, the operation timed alone, an untimed
     barrier; OSU's average: each rank's mean, then the mean over ranks) and
     validates every byte of the result;
  2. updates mcb's simulation build (--build, default build-ci-sim: cmake
     --build BUILD --target mcb_alltoall, a no-op when it is current);
  3. per case NxK (K ranks on each of N nodes of --platform) runs the driver
     and then mcb_alltoall's matching algorithms through
     scripts/sim/simulate.py --launch, with the same sizes, iterations and
     warm-up (-c: mcb validates too);
  4. prints the ratio table (mcb / reference, per case, algorithm and size)
     with the reference's commit, the platform and its parameters, and
     writes it with both CSVs and the runs' logs into --out.

Simulated times are deterministic (the same run gives the same microseconds)
and are SimGrid's model of the platform, not a machine's: they compare
schedules (messages, sizes, rounds, who waits for whom), with local copies
free on the NAME platforms (docs/simulation.md). Not a test and not in CI.

Exit status: 0 when every run passed and validated, 1 when a run, a build or
a validation failed, 2 on bad input (no DIR, a DIR that is not the
reference, a missing tool or build).
"""
import argparse
import csv
import glob
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SIMULATE = os.path.join(ROOT, "scripts", "sim", "simulate.py")

# Per reference: how to recognise a checkout, which of its sources to build,
# the driver, and the mcb algorithms that match its rows.
REFERENCES = {
    "locality_aware": {
        "title": "mpi-advance/locality_aware",
        "url": "https://github.com/mpi-advance/locality_aware",
        "script": "locality_aware.sh",
        "markers": ["include/locality_aware.h", "library/source/collective/alltoall/alltoall_locality_aware_helper.c",
                    "library/bindings/Collective/MPIL_Alltoall.c"],
        "sources": ["library/**/*.c", "library/**/*.cpp"],
        "skip": ["/tests/", "/heterogeneous/", "/test/"],
        "includes": ["include", "library/include"],
        "driver": "locality_aware_driver.c",
    },
    "rbruck": {
        "title": "harp-lab/rbruck_alltoall",
        "url": "https://github.com/harp-lab/rbruck_alltoall",
        "script": "rbruck.sh",
        "markers": ["src/radix_r_bruck.h", "src/basic_rbruck.cpp", "src/group_rbruck.cpp",
                    "src/inversed_modified_rbruck.cpp"],
        "sources": ["src/*.cpp"],
        "skip": [],
        "includes": ["src"],
        "driver": "rbruck_driver.cpp",
    },
}

DEFAULT_CASES = "4x16,8x16,4x32"
# What the default sweep cost on a 2-core VM shared with a test suite
# (docs/measurements/2026-11-28-peers-simgrid).
COST = {
    "locality_aware": "It took about 12 minutes of CPU, 30-48 minutes of wall time on a 2-core machine under load.",
    "rbruck": "It took about 1 minute of CPU, 3-13 minutes of wall time on a 2-core machine under load.",
}
DEFAULT_SIZES = "4,16,64,256,1024,4096"


def fail(msg, code=2):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


def say(msg):
    print(msg, flush=True)


def commit_of(path):
    """The checkout's commit, "unknown" for a plain copy (or a folder inside
    another repository), with " (modified)" for uncommitted changes."""
    git = shutil.which("git")
    if not git:
        return "unknown"
    try:
        top = subprocess.run([git, "-C", path, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
        if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(path):
            return "unknown"
        head = subprocess.run([git, "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run([git, "-C", path, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head.stdout.strip() + (" (modified)" if dirty else "")
    except OSError:
        return "unknown"


def parse_cases(text):
    cases = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)x(\d+)\s*", part)
        if not m or int(m.group(1)) < 2 or int(m.group(2)) < 1:
            fail(f"--cases '{text}': expected NODESxRANKS_PER_NODE,... with at least 2 nodes (e.g. 4x16,8x16)")
        cases.append((int(m.group(1)), int(m.group(2))))
    return cases


def parse_sizes(text):
    try:
        sizes = [int(s) for s in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        fail(f"--sizes '{text}': expected bytes per block separated by commas (e.g. 4,64,1024)")
    return sizes


def platform_line(name):
    """The platform's parameters, from make_platforms.py's table (its NAME
    variant: one host per node, per-message costs)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts", "sim", "platforms"))
    try:
        import make_platforms  # noqa: E402
        m = make_platforms.MACHINES.get(name)
    except Exception:  # an old tree: the name alone
        m = None
    if not m:
        return f"{name} (scripts/sim/platforms/{name}.xml)"

    def v(key):
        return m[key][0] if isinstance(m.get(key), tuple) else m.get(key)

    return (f"{name}: {m['nodes']} nodes x {m['cores']} cores; NIC {v('nic_bw') / 1e9:g} GB/s, one-way "
            f"{(2 * v('nic_lat') + v('net_lat')) * 1e6:g} us between nodes; inside a node {v('mem_bw') / 1e9:g} GB/s, "
            f"{v('mem_lat') * 1e6:g} us (loopback, not shared); per message {v('o') * 1e6:g} us of CPU per send "
            f"(smpi/ois) and {v('h'):g} B of NIC time; local copies free")


def compile_one(job):
    cmd, log = job
    r = subprocess.run(cmd, capture_output=True, text=True)
    return cmd, r.returncode, (r.stdout + r.stderr)[-2000:]


def build_reference(ref, src, work, jobs):
    """Compiles the reference's sources (each alone: a file that does not
    compile is left out, and the link says if it was needed) and links the
    driver. Returns the driver's path."""
    cfg = REFERENCES[ref]
    files = []
    for pattern in cfg["sources"]:
        files += glob.glob(os.path.join(src, pattern), recursive=True)
    files = sorted(f for f in set(files) if not any(s in f.replace(src, "") for s in cfg["skip"]))
    if not files:
        fail(f"no sources to build in {src}", 1)
    objdir = os.path.join(work, "obj")
    os.makedirs(objdir, exist_ok=True)
    inc = [f"-I{os.path.join(src, i)}" for i in cfg["includes"]]
    todo = []
    for f in files:
        cc = "smpicc" if f.endswith(".c") else "smpicxx"
        obj = os.path.join(objdir, os.path.relpath(f, src).replace(os.sep, "_") + ".o")
        std = ["-std=c++11"] if cc == "smpicxx" else []
        todo.append(([cc, "-O2", "-w"] + std + inc + ["-c", f, "-o", obj], obj))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(compile_one, todo))
    objs, left_out = [], []
    for (cmd, rc, out), (_, obj) in zip(results, todo):
        if rc == 0:
            objs.append(obj)
        else:
            left_out.append((cmd[-3], out.strip().splitlines()[-1] if out.strip() else f"exit {rc}"))
    for f, why in left_out:
        say(f"# left out (does not compile with smpicc): {os.path.relpath(f, src)}: {why}")
    lib = os.path.join(work, "libreference.a")
    subprocess.run(["ar", "rcs", lib] + objs, check=True)
    driver_src = os.path.join(HERE, cfg["driver"])
    driver = os.path.join(work, ref + "_driver")
    cc = "smpicc" if driver_src.endswith(".c") else "smpicxx"
    std = ["-std=c++11"] if cc == "smpicxx" else []
    cmd = [cc, "-O2"] + std + inc + [f"-I{HERE}", driver_src, lib, "-o", driver, "-lstdc++", "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        say((r.stdout + r.stderr)[-3000:])
        fail(f"linking the driver against {cfg['title']} failed (command: {' '.join(cmd)})", 1)
    return driver, len(objs), len(left_out)


def read_csv(path):
    if not os.path.isfile(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def params_dict(text):
    if text in ("", "none"):
        return {}
    return dict(p.split("=", 1) for p in text.split(";") if "=" in p)


def mcb_arguments(ref, rows):
    """mcb_alltoall's options for the configurations the driver ran."""
    algs, values = [], {}
    for r in rows:
        if r["mcb_algorithm"] not in algs:
            algs.append(r["mcb_algorithm"])
        for k, v in params_dict(r["params"]).items():
            values.setdefault(k, [])
            if v not in values[k]:
                values[k].append(v)
    args = ["--algorithm", ",".join(algs)]
    for k in ("inner", "leaders-per-node", "groups-per-node", "radix", "radix-intra", "radix-inter"):
        if k in values:
            args += [f"--{k}", ",".join(values[k])]
    return args


def pair(ref_rows, mcb_rows):
    """(reference row, mcb total row or None) for every reference row: the
    same algorithm, size, and the reference's parameters among mcb's."""
    totals = [r for r in mcb_rows if r.get("phase") == "total"]
    out = []
    for r in ref_rows:
        want = params_dict(r["params"])
        match = None
        for m in totals:
            if m["algorithm"] != r["mcb_algorithm"] or int(m["size_bytes"]) != int(r["size_bytes"]):
                continue
            have = params_dict(m["params"])
            if all(have.get(k) == v for k, v in want.items()):
                match = m
                break
        out.append((r, match))
    return out


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_logged(cmd, log, timeout):
    """Runs cmd, its output into log; (exit status, wall s, CPU s)."""
    start, cpu = time.time(), cpu_children()
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = 124
        wall, used = time.time() - start, cpu_children() - cpu
        f.write(f"# exit {rc}, {wall:.0f} s of wall time, {used:.0f} s of CPU\n")
    return rc, wall, used


def fmt_ratio(x):
    return f"{x:.3f}" if x is not None else "-"


def main():
    global PROG
    ref = sys.argv[1] if len(sys.argv) > 1 else None
    if ref not in REFERENCES:
        PROG = "sim_peer.py"
        fail("first argument: " + " or ".join(REFERENCES) + " (the scripts locality_aware.sh and rbruck.sh pass it)")
    cfg = REFERENCES[ref]
    PROG = cfg["script"]
    p = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description=f"mcb against {cfg['title']} ({cfg['url']}), both simulated by SimGrid SMPI through "
                    "scripts/sim/simulate.py --launch on the same platform; prints the ratio table mcb / reference "
                    "with the checkout's commit. DIR is your checkout of the reference (nothing of it enters mcb). "
                    "Simulated times are the model's, not a machine's. Exit 0: all ran and validated; 1: a build, "
                    "run or validation failed; 2: bad input, a missing tool or build.",
        epilog="Default: the cases of issue 48 (4x16, 8x16, 4x32 on dane-32x112), "
               f"sizes {DEFAULT_SIZES} B, 2 iterations after 1 warm-up (the simulation is deterministic). "
               + COST[ref] + " See scripts/peers/README.md.")
    p.add_argument("dir", metavar="DIR", nargs="?", help="the reference's checkout")
    p.add_argument("--platform", default="dane-32x112", help="platform of scripts/sim/platforms (default dane-32x112)")
    p.add_argument("--cases", default=DEFAULT_CASES, help=f"NODESxRANKS_PER_NODE,... (default {DEFAULT_CASES})")
    p.add_argument("-m", "--sizes", default=DEFAULT_SIZES, help=f"bytes per block (default {DEFAULT_SIZES})")
    p.add_argument("-i", "--iterations", type=int, default=2, help="timed iterations (default 2)")
    p.add_argument("-x", "--warmup", type=int, default=1, help="warm-up iterations (default 1)")
    if ref == "rbruck":
        p.add_argument("--radix", help="radices of the radix-r Bruck (default 2 and ceil(sqrt(P)))")
        p.add_argument("--radix-intra", help="two-layer: radices inside the node (default ceil(sqrt(K)))")
        p.add_argument("--radix-inter", help="two-layer: radices between nodes (default N)")
    p.add_argument("--only", help="the reference's algorithms to run (names as in the table), comma-separated")
    p.add_argument("--build", default=os.path.join(ROOT, "build-ci-sim"),
                   help="mcb's simulation build (cmake -DMCB_SIMULATE=ON; default build-ci-sim)")
    p.add_argument("--no-rebuild", action="store_true", help="use --build as it is (no cmake --build)")
    p.add_argument("--cfg", action="append", default=[],
                   help="extra SimGrid --cfg=NAME:VALUE for both sides (e.g. smpi/wtime:0)")
    p.add_argument("--out", help="folder for the table, the CSVs and the logs (default: a new one under /tmp)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per simulation (default 1800)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="parallel compilations of the reference (default 2)")
    p.add_argument("--keep", action="store_true", help="keep the scratch build folder")
    args = p.parse_args(sys.argv[2:])

    # Bad input: one line, exit 2.
    if not args.dir:
        fail(f"give the checkout of {cfg['title']}: {PROG} DIR (git clone {cfg['url']})")
    src_dir = os.path.abspath(args.dir)
    if not os.path.isdir(src_dir):
        fail(f"{args.dir}: no such directory")
    missing = [m for m in cfg["markers"] if not os.path.isfile(os.path.join(src_dir, m))]
    if missing:
        fail(f"{args.dir} is not a checkout of {cfg['title']} (no {missing[0]})")
    for tool in ("smpicc", "smpicxx", "smpirun", "ar"):
        if not shutil.which(tool):
            fail(f"{tool} not found: install SimGrid's SMPI (Debian: apt-get install libsimgrid-dev simgrid)")
    cases = parse_cases(args.cases)
    sizes = parse_sizes(args.sizes)
    if args.iterations < 1 or args.warmup < 0:
        fail("-i must be >= 1 and -x >= 0")
    build = os.path.abspath(args.build)
    cache = os.path.join(build, "CMakeCache.txt")
    if not os.path.isfile(cache) or "MCB_SIMULATE:BOOL=ON" not in open(cache).read():
        fail(f"{args.build} is not mcb's simulation build: cmake -S {ROOT} -B {args.build} -DCMAKE_BUILD_TYPE=Release "
             "-DMCB_SIMULATE=ON (docs/simulation.md)")
    if not args.no_rebuild and not shutil.which("cmake"):
        fail("cmake not found (or pass --no-rebuild)")
    mcb = os.path.join(build, "src", "mcb_alltoall")
    platform_xml = os.path.join(ROOT, "scripts", "sim", "platforms", args.platform + ".xml")
    if not os.path.isfile(platform_xml) and not os.path.isfile(args.platform):
        fail(f"--platform {args.platform}: no such platform in scripts/sim/platforms")

    commit = commit_of(src_dir)
    out = os.path.abspath(args.out) if args.out else tempfile.mkdtemp(prefix=f"mcb-peer-{ref}-out-", dir="/tmp")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"mcb-peer-{ref}-", dir="/tmp")
    t_all = time.time()
    say(f"# {PROG}: {cfg['title']} at {src_dir}, commit {commit}")
    say(f"# scratch build: {work}; results: {out}")
    status = 0
    try:
        # 1. The reference, copied and built with smpicc.
        src = os.path.join(work, "src")
        def ignore(folder, names):  # its git data and its own build folders at the top
            top = os.path.realpath(folder) == os.path.realpath(src_dir)
            return [n for n in names if n == ".git" or (top and n.startswith("build"))]

        shutil.copytree(src_dir, src, ignore=ignore, symlinks=True)
        t0 = time.time()
        driver, nobj, nleft = build_reference(ref, src, work, max(1, args.jobs))
        t_build = time.time() - t0
        say(f"# built {nobj} of the reference's sources and the driver with smpicc in {t_build:.0f} s")

        # 2. mcb's simulation build, incrementally.
        t0 = time.time()
        if not args.no_rebuild:
            r = subprocess.run(["cmake", "--build", build, "--target", "mcb_alltoall"], capture_output=True, text=True)
            if r.returncode != 0:
                say((r.stdout + r.stderr)[-3000:])
                fail(f"cmake --build {args.build} --target mcb_alltoall failed", 1)
        if not os.path.isfile(mcb):
            fail(f"{mcb} not built", 1)
        t_mcb = time.time() - t0
        mcb_commit = commit_of(ROOT)

        # 3. The cases: the reference, then mcb with the configurations it ran.
        sim = [sys.executable, SIMULATE, "--platform", args.platform, "--build", build, "--timeout", str(args.timeout)]
        for c in args.cfg:
            sim += ["--cfg", c]
        common = ["-m", ",".join(map(str, sizes)), "-i", str(args.iterations), "-x", str(args.warmup)]
        extra = []
        if ref == "rbruck":
            for k in ("radix", "radix_intra", "radix_inter"):
                if getattr(args, k):
                    extra += ["--" + k.replace("_", "-"), getattr(args, k)]
        if args.only:
            extra += ["--only", args.only]
        pairs, walls, commands = [], [], []
        for nodes, ppn in cases:
            tag = f"{nodes}x{ppn}"
            where = sim + ["--nodes", str(nodes), "--ranks-per-node", str(ppn), "--launch", "--"]
            ref_csv = os.path.join(out, f"{ref}-{tag}.csv")
            cmd = where + [driver] + common + ["--csv", ref_csv, "--commit", commit.split()[0]] + extra
            say(f"== {tag}: {cfg['title']} ...")
            rc, wall_ref, cpu_ref = run_logged(cmd, os.path.join(out, f"{ref}-{tag}.log"), args.timeout + 60)
            ref_rows = read_csv(ref_csv)
            if rc != 0 or not ref_rows:
                say(f"   FAIL: the reference's run exited {rc} (log: {ref}-{tag}.log)")
                status = 1
                continue
            say(f"   {len(ref_rows)} rows in {wall_ref:.0f} s ({cpu_ref:.0f} s of CPU)")
            mcb_csv = os.path.join(out, f"mcb-{ref}-{tag}.csv")
            mcb_cmd = where + [mcb] + mcb_arguments(ref, ref_rows) + common + ["-c", "--csv", mcb_csv]
            commands.append((tag, cmd, mcb_cmd))
            say(f"== {tag}: mcb_alltoall {' '.join(mcb_arguments(ref, ref_rows))} ...")
            rc, wall_mcb, cpu_mcb = run_logged(mcb_cmd, os.path.join(out, f"mcb-{ref}-{tag}.log"), args.timeout + 60)
            mcb_rows = read_csv(mcb_csv)
            if rc != 0 or not mcb_rows:
                say(f"   FAIL: mcb's run exited {rc} (log: mcb-{ref}-{tag}.log)")
                status = 1
            else:
                say(f"   done in {wall_mcb:.0f} s ({cpu_mcb:.0f} s of CPU)")
            walls.append((tag, wall_ref, cpu_ref, wall_mcb, cpu_mcb))
            for r, m in pair(ref_rows, mcb_rows):
                pairs.append((tag, r, m))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    # 4. The table.
    lines = []
    lines.append(f"# mcb / {cfg['title']}, simulated (SimGrid SMPI)")
    lines.append("")
    lines.append(f"- command: scripts/peers/{PROG} {' '.join(sys.argv[2:])}")
    lines.append(f"- reference: {cfg['url']} at commit {commit}")
    lines.append(f"- mcb: commit {mcb_commit}, {os.path.relpath(mcb, ROOT)}")
    smpi = subprocess.run(["smpicc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    lines.append(f"- simulator: {smpi[0] if smpi else 'SimGrid SMPI'}, scripts/sim/simulate.py's settings"
                 + (f", --cfg {' '.join(args.cfg)}" if args.cfg else ""))
    lines.append(f"- platform: {platform_line(args.platform)}")
    lines.append(f"- sizes {','.join(map(str, sizes))} B per block, {args.iterations} timed iterations after "
                 f"{args.warmup} warm-up; time: OSU's average (each rank's mean, then the mean over ranks; mcb's "
                 "'Avg Latency'); ratio = mcb / reference; slowest = the same ratio on the slowest rank's mean")
    lines.append("- **simulated microseconds are SimGrid's model of the platform, not a machine's**: they compare "
                 "the schedules (messages, their sizes and order, who waits for whom); local copies cost nothing")
    lines.append("- run time, wall (CPU) per simulation: "
                 + "; ".join(f"{t}: reference {a:.0f} s ({ac:.0f} s), mcb {b:.0f} s ({bc:.0f} s)"
                             for t, a, ac, b, bc in walls)
                 + f"; in all {(time.time() - t_all) / 60:.1f} min of wall time, the reference's build "
                 f"{t_build:.0f} s ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end)")
    lines.append("")
    lines.append("| case | reference | mcb | params | size (B) | reference (us) | mcb (us) | mcb / ref "
                 "| slowest | validation |")
    lines.append("|---|---|---|---|---:|---:|---:|---:|---:|---|")
    summary = {}
    for tag, r, m in pairs:
        ref_us = float(r["osu_avg_us"])
        mcb_us = float(m["osu_avg_us"]) if m else None
        ratio = mcb_us / ref_us if m and ref_us > 0 else None
        slow = float(m["avg_us"]) / float(r["avg_us"]) if m and float(r["avg_us"]) > 0 else None
        valid = f"{r['validation']} / {m['validation'] if m else '-'}"
        if r["validation"] != "pass" or (m and m["validation"] != "pass") or not m:
            status = 1
        lines.append(f"| {tag} | {r['algorithm']} | {r['mcb_algorithm']} | {r['params']} | {r['size_bytes']} | "
                     f"{ref_us:.3f} | {mcb_us:.3f} | {fmt_ratio(ratio)} | {fmt_ratio(slow)} | {valid} |"
                     if m else
                     f"| {tag} | {r['algorithm']} | {r['mcb_algorithm']} | {r['params']} | {r['size_bytes']} | "
                     f"{ref_us:.3f} | - | - | - | {valid} |")
        if ratio is not None:
            key = (r["algorithm"], r["mcb_algorithm"], r["params"])
            summary.setdefault(key, []).append(ratio)
    lines.append("")
    lines.append("Per algorithm, over the cases and sizes: mcb / reference, min - max (geometric mean)")
    lines.append("")
    lines.append("| reference | mcb | params | min | max | geomean | rows |")
    lines.append("|---|---|---|---:|---:|---:|---:|")
    for (a, b, prm), rs in summary.items():
        g = math.exp(sum(math.log(x) for x in rs) / len(rs))
        lines.append(f"| {a} | {b} | {prm or '-'} | {min(rs):.3f} | {max(rs):.3f} | {g:.3f} | {len(rs)} |")
    lines.append("")
    lines.append(f"The simulations ({PROG} ran them; $SCRATCH: its build of scripts/peers/{cfg['driver']} "
                 f"against the checkout, $OUT: --out):")
    lines.append("")

    def shown(cmd):
        words = []
        for x in cmd:
            if x == sys.executable:
                x = "python3"
            elif x.startswith(work):
                x = "$SCRATCH" + x[len(work):]
            elif x.startswith(out):
                x = "$OUT" + x[len(out):]
            elif x.startswith(ROOT + os.sep):
                x = os.path.relpath(x, ROOT)
            words.append(x)
        return "    " + " ".join(words)

    for tag, a, b in commands:
        lines.append(shown(a))
        lines.append(shown(b))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    say("")
    say(text)
    say(f"# table, CSVs and logs in {out}")
    if status:
        say(f"{PROG}: FAIL: a run, a pairing or a validation failed (see the table and the logs in {out})")
    return status


PROG = "sim_peer.py"

if __name__ == "__main__":
    sys.exit(main())
