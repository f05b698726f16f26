"""The simulation model does what docs/simulation.md says, on a platform's
own parameters (read back from its XML), each property by a small run:

  model.py SIMULATE_PY BUILD_DIR memory PLATFORM-shm  # shared memory, cores that copy
  model.py SIMULATE_PY BUILD_DIR fatpipe PLATFORM     # the older model: nothing shared inside a node
  model.py SIMULATE_PY BUILD_DIR local-work PLATFORM-shm  # local work charged exactly, or not at all
  model.py SIMULATE_PY BUILD_DIR precision PLATFORM-shm   # its time and solver precision against SimGrid's

memory: one message inside a node costs mem_lat + s / core_bw; 16 messages
at once between 32 cores of a socket (fewer on small nodes) share its
memory (each gets mem_bw / sockets / 16 where that is below core_bw); a
message between sockets costs xsocket_lat more; one core receiving K messages takes them one
core_bw at a time, slower than K cores receiving one each; a message
between two nodes has the latency of the platform without the node model,
and where a node has a NIC per socket, a message from its last socket
leaves through that socket's own NIC (no inter-socket link on the way).
fatpipe: on the NAME platforms (a node is one host), 16 messages at once
take the time of one (the loopback is FATPIPE), as the docs say.
precision: the node model's time precision keeps a small alltoall's times
within 3% (below 1 KiB) and 1% (from 1 KiB) of SimGrid's 1e-9 s, and its
max-min precision (1e-4, which SimGrid takes from the platform) gives the
same times as SimGrid's 1e-5 to 1 ns.
local-work: a copy of N bytes advances the rank's clock by exactly
call + N / copy_bw, a k-way sum by call + k N / reduce_bw, MPI_Reduce_local
by call + 2 N / reduce_bw; with --sim-local-work off, by nothing; two runs
give the same times to the last digit.

Prints each check with OK or FAIL and exits 1 if any failed.
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

SIM, BUILD, WHAT, PLATFORM = sys.argv[1:5]
HERE = os.path.dirname(os.path.abspath(SIM))
S = 1048576  # a size that is one of the bandwidth factors' points
failed = 0


def check(name, got, want, rel=1e-4):  # SimGrid's max-min solver: 1e-5 relative (maxmin/precision)
    global failed
    ok = abs(got - want) <= rel * abs(want) + 1e-12
    failed += not ok
    print(f"{name}: simulated {got * 1e6:.6f} us, model {want * 1e6:.6f} us: {'OK' if ok else 'FAIL'}", flush=True)


def holds(name, ok, detail):
    global failed
    failed += not ok
    print(f"{name}: {detail}: {'OK' if ok else 'FAIL'}", flush=True)


def platform():
    path = os.path.join(HERE, "platforms", PLATFORM + ".xml")
    root = ET.parse(path).getroot()
    text = open(path).read()
    params = {k: float(v) for k, v in re.findall(r"^\s+(\w+) = ([0-9.e+-]+):", text, re.M)}
    for prop in root.iter("prop"):
        if prop.get("id") == "smpi/bw-factor":
            factors = [(int(t), float(f)) for t, f in (x.split(":") for x in prop.get("value").split(";"))]
    params["factor"] = lambda s: [f for t, f in factors if t <= s][-1]
    config = {prop.get("id"): prop.get("value") for prop in next(root.iter("config")).iter("prop")}
    params["wtime"] = float(config.get("smpi/wtime", 1e-8))
    # Node 0's cores: the hosts of its clusters (one per socket) on NAME-shm,
    # else the cores of the first host.
    node0 = [c for c in root.iter("cluster") if any(q.get("id") == "mcb/node" and q.get("value") == "0"
                                                    for q in c.iter("prop"))]
    params["cores"] = sum(int(c.get("radical").partition("-")[2]) - int(c.get("radical").partition("-")[0]) + 1
                          for c in node0) or int(next(root.iter("cluster")).get("core", "1"))
    return params


def launch(nodes, per_node, *cmd):
    args = [sys.executable, SIM, "--build", BUILD, "--platform", PLATFORM, "--nodes", str(nodes),
            "--ranks-per-node", str(per_node), "--timeout", "120", "--launch", "--"] + list(cmd)
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    return out


def probe(mode, nodes, per_node):
    out = launch(nodes, per_node, os.path.join(BUILD, "tests", "simulate", "sim_model_probe"), mode, str(S))
    m = re.search(rf"^{mode} {S} \d+: ([0-9.e+-]+)$", out, re.M)
    if not m:
        sys.exit(f"FAIL: no time from model_probe {mode}:\n{out[-2000:]}")
    return float(m.group(1))


p = platform()
f = p["factor"](S)
# SMPI injects 10 ns into each MPI_Wtime (smpi/wtime; the node model's
# platforms set it to 0): the probe's second call.
wtime = p["wtime"]
if WHAT == "memory":
    sockets = int(p.get("sockets", 1))
    per = p["cores"] // sockets  # cores per socket, each socket with mem_bw / sockets
    one = probe("one", 1, 2)
    check("one message inside a node", one, wtime + p["mem_lat"] + S / (p["core_bw"] * f))
    n = min(16, per // 2)  # messages at once, between 2n cores of one socket
    pairs = probe("pairs", 1, 2 * n)
    share = min(p["core_bw"], p["mem_bw"] / sockets / n)
    check(f"{n} messages at once inside a node ({2 * n} cores)", pairs, wtime + p["mem_lat"] + S / (share * f))
    if p["mem_bw"] / sockets / n < p["core_bw"]:
        holds(f"{n} at once share the node's memory", pairs > 1.01 * one, f"{pairs / one:.3f} x one alone")
    k = min(55, per - 1, p["cores"] // 2)  # K messages into one core from its socket; 2K cores receiving one each
    gather = probe("gather", 1, k + 1)
    check(f"one core receiving {k} messages at once", gather, wtime + p["mem_lat"] + k * S / (p["core_bw"] * f))
    spread = probe("pairs", 1, 2 * k)
    holds(f"one core receiving {k} is slower than {k} cores receiving one each", gather > spread,
          f"{gather * 1e6:.1f} us against {spread * 1e6:.1f} us")
    if sockets > 1:
        far = probe("last", 1, per + 1)  # from the first core of socket 1 to core 0
        check("one message between two sockets", far, wtime + p["mem_lat"] + p["xsocket_lat"] +
              S / (min(p["core_bw"], p["xsocket_bw"]) * f))
    inter = probe("one", 2, 1)
    lat = 2 * p["nic_lat"] + p["net_lat"]
    nics = int(p.get("nics", 1))
    check("one message between two nodes", inter, wtime + lat + S / (min(p["core_bw"], p["nic_bw"] / nics) * f))
    if nics > 1:  # a NIC per socket: the last socket's message leaves through its own, not socket 0's
        # (timed from the send: the receive may be posted a barrier's skew later)
        far = probe("last", 2, p["cores"])
        holds("one message from node 1's last socket to node 0 leaves through its socket's own NIC",
              abs(far - inter) < p["xsocket_lat"] / 2,
              f"{far * 1e6:.3f} us against {inter * 1e6:.3f} us from socket 0 (through socket 0: "
              f"{p['xsocket_lat'] * 1e6:.3f} us more)")
elif WHAT == "fatpipe":
    one, pairs = probe("one", 1, 2), probe("pairs", 1, 32)
    check("16 messages at once inside a node take one's time (FATPIPE loopback)", pairs, one)
elif WHAT == "local-work":
    probe_bin = os.path.join(BUILD, "tests", "simulate", "sim_local_work_probe")
    times = {}
    for mode in ("on", "off", "on"):
        out = launch(1, 1, probe_bin, mode, str(S))
        t = dict((w, float(v)) for w, v in re.findall(r"^(\w+): ([0-9.e+-]+)$", out, re.M))
        if len(t) != 4:
            sys.exit(f"FAIL: local_work_probe {mode} printed:\n{out[-2000:]}")
        if mode in times:
            holds("two runs give the same times", t == times[mode], f"{t} against {times[mode]}")
        times[mode] = t
    on, off = times["on"], times["off"]
    base = on["nothing"]
    check(f"a copy of {S} B", on["copy"] - base, p["call"] + S / p["copy_bw"], rel=1e-9)
    check(f"a 3-way sum of {S} B", on["reduce3"] - base, p["call"] + 3 * S / p["reduce_bw"], rel=1e-9)
    check(f"MPI_Reduce_local of {S} B", on["reduce_local"] - base, p["call"] + 2 * S / p["reduce_bw"], rel=1e-9)
    for what in ("copy", "reduce3", "reduce_local"):
        check(f"{what} with --sim-local-work off", off[what], off["nothing"], rel=1e-9)
    # mcb itself, through simulate.py's settings: Bruck's rotation of 4 ranks'
    # 4 blocks of 64 KiB costs at least their copy, and nothing when off (the
    # timer's own MPI_Wtime, wtime, at most).
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from simrun import simulate
    block = 65536
    for mode in ("on", "off"):
        out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"mcb-model-{os.getpid()}-{mode}")
        rows, _ = simulate(SIM, BUILD, PLATFORM, 1, 4, out, ["--algorithm", "bruck", "-m", f"{block}:{block}", "-i",
                                                             "1", "-x", "0", "-c", "--sim-local-work", mode])
        rotate = float(rows[("bruck", "none", block, "rotate")]["avg_us"]) * 1e-6
        floor = 4 * block / p["copy_bw"] if mode == "on" else 0.0
        holds(f"mcb_alltoall bruck's rotation with --sim-local-work {mode}",
              rotate >= floor and (mode == "on" or rotate <= 1.001 * wtime),
              f"{rotate * 1e6:.3f} us (the copy of 4 blocks alone: {floor * 1e6:.3f} us)")
elif WHAT == "precision":
    # The node model's time precision (the platform's surf/precision, which
    # simulate.py passes on) against SimGrid's 1e-9 s, on 2 nodes x 16:
    # within 3% below 1 KiB, where steps of a microsecond or two each end up
    # to 0.1 us early (31 of them in a pairwise exchange), and 1% from 1 KiB.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from simrun import simulate
    args = ["--algorithm", "pairwise,node_aware", "--inner", "pairwise,nonblocking", "-m", "4,64,1024,4096",
            "-i", "1", "-x", "0"]
    runs = {}
    for tag, cfg in (("platform", ()), ("1e-9", ("surf/precision:1e-9",)),
                     ("maxmin", ("maxmin/precision:1e-5",))):
        out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"mcb-model-{os.getpid()}-{tag}")
        rows, _ = simulate(SIM, BUILD, PLATFORM, 2, 16, out, args, cfg=cfg)
        runs[tag] = {k: float(r["avg_us"]) for k, r in rows.items() if k[3] == "total"}
    holds("the platform has a precision coarser than SimGrid's 1e-9 s", p.get("precision", 0) > 1e-9,
          f"precision {p.get('precision', 0):g} s")
    holds("both runs have the same rows", set(runs["platform"]) == set(runs["1e-9"]) and len(runs["1e-9"]) >= 8,
          f"{len(runs['platform'])} and {len(runs['1e-9'])} rows")
    for key in sorted(set(runs["platform"]) & set(runs["1e-9"])):
        got, exact = runs["platform"][key], runs["1e-9"][key]
        bound = 0.03 if key[2] < 1024 else 0.01
        holds(f"{key[0]} ({key[1]}) {key[2]} B at precision {p['precision']:g} s within {bound:.1%} of 1e-9 s",
              abs(got / exact - 1) <= bound, f"{got:.3f} us against {exact:.3f} us ({got / exact - 1:+.3%})")
    holds("the platform's max-min precision is coarser than SimGrid's 1e-5", p.get("maxmin", 0) > 1e-5,
          f"maxmin {p.get('maxmin', 0):g}")
    for key in sorted(runs["platform"]):
        got, default = runs["platform"][key], runs["maxmin"].get(key, -1.0)
        holds(f"{key[0]} ({key[1]}) {key[2]} B the same at maxmin/precision {p.get('maxmin', 0):g} and 1e-5",
              abs(got - default) <= 1e-3, f"{got:.3f} us against {default:.3f} us")
else:
    sys.exit(f"model.py: unknown check {WHAT}")
print("model checks: " + ("all hold" if not failed else f"{failed} FAILED"))
sys.exit(1 if failed else 0)
