#!/usr/bin/env python3
"""A platform's model next to the machine it stands for: the simulated
ping-pong latency and bandwidth, and the published points of its paper, each
simulated at the paper's scale next to the paper's value.

  scripts/sim/calibrate.py --platform theta-256x64          # ping-pong and the TRA paper's points (about 5 min)
  scripts/sim/calibrate.py --platform dane-32x112 --pingpong-only

Ping-pong: mcb_alltoall's pairwise exchange on 2 ranks (each sends one
message and receives one at once, over full-duplex links: one one-way
transfer), between two nodes and inside one node, at 1 B to 4 MiB: the
latency is the 1 B time, the bandwidth size / time at 4 MiB. With
--check-model the script also checks the inter-node 1 B time against the
platform's own parameters, o + 2 x (NIC latency) + its share of the message
gap, read back from the XML (a test that the model is wired as described).

Points (POINTS below): each a run of mcb at the paper's process count, its
simulated time (or ratio) next to the paper's, with the role it plays:
`calibration` (a parameter of the platform was chosen to match it: see the
platform file) or `check` (not used to choose anything). Simulated times are
a model's (scripts/sim/platforms/make_platforms.py says which model), not the
machine's.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))

# Each point: id, role, what, nodes, ranks per node, mcb arguments, and either
# `time` (algorithm, params substring, size: the paper's microseconds) or
# `ratio` (numerator, denominator rows and the paper's ratio).
POINTS = {
    "theta-256x64": [
        {"id": "tra-r2-128B", "role": "calibration", "nodes": 32, "ppn": 64,
         "what": "TRA radix 2, P = 2048, S = 128 B (TRA paper, Section V-A, Fig. 8(b): 16.17 ms)",
         "args": ["-m", "128:128", "--algorithm", "tra", "--radix", "2,46"],
         "time": (("tra", "radix=2", 128), 16170.0)},
        {"id": "tra-r46-128B", "role": "check", "nodes": 32, "ppn": 64,
         "what": "TRA radix 46, P = 2048, S = 128 B (TRA paper, Section V-A, Fig. 8(b): 7.699 ms)",
         "args": None, "time": (("tra", "radix=46", 128), 7699.0)},
        {"id": "tra-r2-over-r46", "role": "check", "nodes": 32, "ppn": 64,
         "what": "radix 2 / radix 46, P = 2048, S = 128 B (16.17 / 7.699 = 2.10)",
         "args": None, "ratio": (("tra", "radix=2", 128), ("tra", "radix=46", 128), 16.17 / 7.699)},
        {"id": "sys-over-tra-32B", "role": "check", "nodes": 32, "ppn": 64,
         "what": "system / TRA (radix 46), P = 2048, S = 32 B (Section V-C, Fig. 10(c): 3.98x; SMPI's "
                 "MPICH-selected alltoall stands for Cray MPI)",
         "args": ["-m", "32:32", "--algorithm", "system,tra,tra2", "--radix", "46", "--radix-intra", "8",
                  "--radix-inter", "32"],
         "ratio": (("system", "", 32), ("tra", "radix=46", 32), 3.98)},
        {"id": "sys-over-tra2-32B", "role": "check", "nodes": 32, "ppn": 64,
         "what": "system / TRA2 (8, 32), P = 2048, S = 32 B (Section V-C, Fig. 10(c): 5.02x)",
         "args": None, "ratio": (("system", "", 32), ("tra2", "radix-inter=32", 32), 5.02)},
    ],
}


def simulate(args, platform, nodes, ppn, mcb_args, out):
    cmd = [sys.executable, os.path.join(HERE, "simulate.py"), "--build", args.build, "--platform", platform,
           "--nodes", str(nodes), "--ranks-per-node", str(ppn), "--out", out, "--timeout", str(args.timeout),
           "--", "mcb_alltoall", "-i", "1", "-x", "0"] + mcb_args
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-3000:])
        sys.exit(f"calibrate.py: FAIL: simulate.py exited {proc.returncode}: {' '.join(cmd)}")
    tag = os.path.splitext(os.path.basename(platform))[0]
    rows = {}
    with open(os.path.join(out, f"mcb_alltoall-{tag}-{nodes}x{ppn}.csv"), newline="") as f:
        for r in csv.DictReader(f):
            if r["phase"] == "total":
                rows[(r["algorithm"], r["params"], int(r["size_bytes"]))] = float(r["avg_us"])
    return rows


def pick(rows, key):
    algorithm, params, size = key
    found = [v for (a, p, s), v in rows.items() if a == algorithm and s == size and params in p]
    if len(found) != 1:
        sys.exit(f"calibrate.py: FAIL: {len(found)} rows for {key}")
    return found[0]


def platform_file(name):
    return name if os.path.isfile(name) else os.path.join(HERE, "platforms", name + ".xml")


def model_latency(path):
    """o + 2 x link latency + 1 B's share of the message gap, from the XML;
    on a NAME-shm platform o + 2 nic_lat + net_lat + the gap at the slower
    of the core and the NIC (the ping-pong runs with --sim-local-work off)."""
    root = ET.parse(path).getroot()
    if is_node_model(path):
        v = {k: val for k, (val, _) in sourced(path).items()}
        factor = [float(f) for t, f in (x.split(":") for x in next(
            p.get("value") for p in root.iter("prop") if p.get("id") == "smpi/bw-factor").split(";")) if int(t) <= 1][-1]
        return (v["o"] + 2 * v["nic_lat"] + v["net_lat"] + 1 / (min(v["core_bw"], v["nic_bw"]) * factor)) * 1e6
    cluster = next(root.iter("cluster"))
    seconds = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
    lat = cluster.get("lat")
    m = re.fullmatch(r"([0-9.e+-]+)(s|ms|us|ns)", lat)
    link_lat = float(m.group(1)) * seconds[m.group(2)]
    bw = float(re.fullmatch(r"([0-9.e+-]+)Bps", cluster.get("bw")).group(1))
    o = 0.0
    for prop in cluster.iter("prop"):
        if prop.get("id") == "smpi/ois":
            o = float(prop.get("value").split(":")[1])
    factor = 1.0
    for prop in root.iter("prop"):
        if prop.get("id") == "smpi/bw-factor":
            pairs = [p.split(":") for p in prop.get("value").split(";")]
            factor = [float(v) for t, v in pairs if int(t) <= 1][-1]
    return (o + 2 * link_lat + 1 / (bw * factor)) * 1e6


def is_node_model(path):
    """A NAME-shm platform: nodes of single-core hosts (make_platforms.py)."""
    return any(p.get("id") == "mcb/node" for p in ET.parse(path).getroot().iter("prop"))


def sourced(path):
    """{parameter: (value, why and source)} from the platform's opening comment."""
    text = open(path).read()
    return {k: (float(v), why) for k, v, why in re.findall(r"^\s+(\w+) = ([0-9.e+-]+): (.*)$", text, re.M)}


def node_model(args, platform):
    """The node model's points (issue 30), simulated at 1 MiB with the test
    probes of the build (tests/simulate), beside the table's figures."""
    probes = os.path.join(args.build, "tests", "simulate")
    size = 1048576

    def launch(nodes, ppn, *cmd):
        out = subprocess.run([sys.executable, os.path.join(HERE, "simulate.py"), "--build", args.build, "--platform",
                              platform, "--nodes", str(nodes), "--ranks-per-node", str(ppn), "--timeout",
                              str(args.timeout), "--launch", "--"] + list(cmd), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace").stdout
        return out

    def probe(mode, ppn):
        out = launch(1, ppn, os.path.join(probes, "sim_model_probe"), mode, str(size))
        m = re.search(rf"^{mode} {size} \d+: ([0-9.e+-]+)$", out, re.M)
        if not m:
            sys.exit(f"calibrate.py: FAIL: model_probe {mode} (build the test probes: sim_model_probe):\n{out[-1500:]}")
        return float(m.group(1))

    src = sourced(platform)
    out = launch(1, 1, os.path.join(probes, "sim_local_work_probe"), "on", str(size))
    t = dict((w, float(v)) for w, v in re.findall(r"^(\w+): ([0-9.e+-]+)$", out, re.M))
    if "copy" not in t:
        sys.exit(f"calibrate.py: FAIL: local_work_probe (build sim_local_work_probe):\n{out[-1500:]}")
    root = ET.parse(platform).getroot()
    # The cores of the first cluster: node 0, or its socket 0 on a two-socket
    # machine: every probe below stays inside it.
    lo, _, hi = next(root.iter("cluster")).get("radical").partition("-")
    cores = int(hi) - int(lo) + 1
    n = min(16, cores // 2)
    k = min(55, cores - 1)
    one, pairs, gather = probe("one", 2), probe("pairs", 2 * n), probe("gather", k + 1)
    gb = lambda b, sec: b / sec / 1e9  # noqa: E731
    print(f"\nnode model, {size} B (simulated; the table's figure and its source beside):")
    sockets = int(src.get("sockets", (1, ""))[0])
    where = "a socket" if sockets > 1 else "the node"
    rows = [
        ("one core copying (local work)", gb(size, t["copy"] - t["nothing"]), "copy_bw", 1),
        ("one message inside a node", gb(size, one), "core_bw", 1),
        (f"{n} messages at once, each", gb(size, pairs), "mem_bw", sockets),
        (f"{n} messages at once, {where}", n * gb(size, pairs), "mem_bw", sockets),
        (f"one core receiving {k} at once", k * gb(size, gather), "core_bw", 1),
    ]
    for what, sim, key, share in rows:
        value, why = src.get(key, (float("nan"), "not in the table"))
        per = f" / {share} sockets" if share > 1 else ""
        print(f"  {what:34s} {sim:8.2f} GB/s   {key}{per} = {value / share / 1e9:.3g} GB/s: {why.split(' [')[0]}")
    print("  (sources: the platform file's opening comment; none of these points was calibrated against a machine)")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--platform", required=True, help="name in scripts/sim/platforms/ or an XML file")
    p.add_argument("--build", default="build-sim", help="the simulation build")
    p.add_argument("--out", default="results-calibrate", help="directory for the CSV files")
    p.add_argument("--timeout", type=float, default=1800)
    p.add_argument("--pingpong-only", action="store_true", help="only the ping-pong, not the paper's points")
    p.add_argument("--check-model", action="store_true",
                   help="fail unless the inter-node 1 B time is the platform's o + 2 x latency + gap (within 1%% or 0.03 us)")
    args = p.parse_args()
    platform = platform_file(args.platform)
    if not os.path.isfile(platform):
        sys.exit(f"calibrate.py: no platform '{args.platform}'")
    name = os.path.splitext(os.path.basename(platform))[0]
    print(f"# {name}: simulated (SimGrid SMPI model, scripts/sim/platforms/{name}.xml), not measured")
    sizes = "1,64,1024,16384,262144,4194304"
    status = 0
    for label, nodes, ppn in (("between nodes", 2, 1), ("inside a node", 1, 2)):
        # On NAME-shm the ping-pong measures the messages alone: the pairwise
        # exchange's copy of the rank's own block would be charged otherwise.
        quiet = ["--sim-local-work", "off"] if is_node_model(platform) else []
        rows = simulate(args, platform, nodes, ppn, ["-m", sizes, "--algorithm", "pairwise"] + quiet,
                        os.path.join(args.out, "pingpong"))
        t = {s: v for (a, _, s), v in rows.items()}
        big = max(t)
        print(f"ping-pong {label}: latency {t[1]:.2f} us (1 B), {t[1024]:.2f} us (1 KiB); "
              f"bandwidth {big / t[big] / 1e3:.2f} GB/s ({big} B)")
        if label == "between nodes" and args.check_model:
            want = model_latency(platform)
            ok = abs(t[1] - want) <= max(0.01 * want, 0.03)
            print(f"model check: 1 B between nodes {t[1]:.3f} us, the platform's parameters give {want:.3f} us: "
                  f"{'OK' if ok else 'DIFFERS'}")
            status |= 0 if ok else 1
    if is_node_model(platform):
        node_model(args, platform)
    if args.pingpong_only:
        return status
    points = POINTS.get(name, [])
    if not points:
        print(f"# {name}: its paper states no absolute times or ratios to calibrate against (see docs/claims.md)")
        return status
    print(f"\n{'point':16s} {'role':12s} {'paper':>12s} {'mcb (sim.)':>12s} {'sim/paper':>10s}  what")
    rows = {}
    for pt in points:
        if pt["args"] is not None:
            rows = simulate(args, platform, pt["nodes"], pt["ppn"], pt["args"], os.path.join(args.out, pt["id"]))
        if "time" in pt:
            key, paper = pt["time"]
            sim = pick(rows, key)
            print(f"{pt['id']:16s} {pt['role']:12s} {paper:10.0f}us {sim:10.0f}us {sim / paper:10.3f}  {pt['what']}")
        else:
            num, den, paper = pt["ratio"]
            sim = pick(rows, num) / pick(rows, den)
            print(f"{pt['id']:16s} {pt['role']:12s} {paper:11.2f}x {sim:11.2f}x {sim / paper:10.3f}  {pt['what']}")
    return status


if __name__ == "__main__":
    sys.exit(main())
