#!/usr/bin/env python3
"""How fast the simulation runs at the papers' scale: the wall time of each
target run of issue 18 against its budget, on this machine.

  scripts/sim/sim_scale.py                      # both targets (about an hour)
  scripts/sim/sim_scale.py --target pairwise    # pairwise, 4 B, 3584 ranks (budget 5 min)
  scripts/sim/sim_scale.py --target figure10 --sizes 4,64 --algorithms node_aware,locality_aware
  scripts/sim/sim_scale.py --target scaling     # pairwise 4 B at 4..32 nodes x 56: wall time against ranks
  scripts/sim/sim_scale.py --target bare        # mcb / bare MPI_Sendrecv loop at 1792 and 3584 ranks (about 40 min)

Targets, each one simulate.py run per line of the table:
  pairwise  mcb_alltoall --algorithm pairwise -m 4 -i 1 -x 0 on manycore-32x112,
            32 nodes x 112 ranks; budget 300 s.
  figure10  the algorithms of the locality paper's Figure 10 (system, pairwise,
            nonblocking, and hierarchical, multileader, node_aware,
            locality_aware, multileader_node_aware with pairwise and
            nonblocking inner exchanges, 4 processes per leader or group) at
            32 x 112 for 4, 64, 1024 and 4096 B, one iteration each; budget
            3600 s in all.
  scaling   pairwise, 4 B, at 4, 8, 16 and 32 nodes of 56 ranks (no budget).
  bare      mcb against the bare simulator (issue 30): mcb's pairwise alltoall
            and a bare C loop of MPI_Sendrecv sending the same messages
            (scripts/sim/sim_bare_pairwise.c, built here with smpicc), 4 B, one
            iteration, same settings, side by side at --bare-ranks (default
            1792 and 3584) on --nodes nodes (default 32: 32 x 56 and 32 x
            112; --bare-ranks 896 --nodes 16 for 16 x 56); prints each one's wall time
            and peak memory (the simulation process's maximum resident set)
            and mcb / bare; target: within 1.25x in time, within 2x the bare
            loop's memory plus the buffers.

Buffers of 64 KiB and more are SMPI's shared malloc (--sim-shared-malloc
65536): at 3584 ranks x 4 KiB a buffer is 14.7 MB per rank, 105 GB for
send and receive buffers of every rank otherwise. So nothing is validated
here; tests/simulate validates the same code at small scale.

Prints, per run: the configuration, ranks, wall seconds, the simulated
average (us) per size, and a verdict against the budget. Exit status 1 when a
run fails or a budget is exceeded. Wall times are this machine's, with the
other core as idle as you keep it.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIG10 = [("system", None), ("pairwise", None), ("nonblocking", None)] + [
    (a, inner) for a in ("hierarchical", "multileader", "node_aware", "locality_aware", "multileader_node_aware")
    for inner in ("pairwise", "nonblocking")]


def simulate(args, nodes, per_node, mcb_args, out):
    cmd = [sys.executable, os.path.join(HERE, "simulate.py"), "--build", args.build, "--platform", args.platform,
           "--nodes", str(nodes), "--ranks-per-node", str(per_node), "--out", out, "--timeout", str(args.timeout),
           "--", "mcb_alltoall", "-i", "1", "-x", "0", "--sim-shared-malloc", "65536", "--progress", "60"] + mcb_args
    print("#", " ".join(cmd), flush=True)
    start = time.time()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    wall = time.time() - start
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-3000:])
        return wall, None
    name = f"mcb_alltoall-{os.path.splitext(os.path.basename(args.platform))[0]}-{nodes}x{per_node}.csv"
    with open(os.path.join(out, name), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["phase"] == "total"]
    return wall, {int(r["size_bytes"]): float(r["avg_us"]) for r in rows}


def measured(cmd):
    """Runs cmd; (exit status, wall seconds, peak resident set of its largest
    process in MB, output). A fresh interpreter waits for it, so that its
    children's peak is this run's alone."""
    probe = ("import resource, subprocess, sys, time; t = time.time(); "
             "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, "
             "errors='replace'); sys.stdout.write(r.stdout); "
             "print('MEASURED', r.returncode, time.time() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe] + cmd, stdout=subprocess.PIPE, text=True).stdout
    line = [x for x in out.splitlines() if x.startswith("MEASURED ")][-1].split()
    return int(line[1]), float(line[2]), int(line[3]) / 1024, out


def bare(args):
    """--target bare: mcb's pairwise against the bare loop, side by side."""
    import tempfile
    failed = over = 0
    with tempfile.TemporaryDirectory(prefix="mcb-bare-") as tmp:
        exe = os.path.join(tmp, "sim_bare_pairwise")
        subprocess.run(["smpicc", "-O2", os.path.join(HERE, "sim_bare_pairwise.c"), "-o", exe], check=True)
        print(f"{'ranks':>6s} {'bare s':>8s} {'mcb s':>8s} {'mcb/bare':>9s} {'bare MB':>8s} {'mcb MB':>8s} "
              f"{'mem ratio':>9s}  simulated us: bare, mcb")
        for ranks in [int(r) for r in args.bare_ranks.split(",")]:
            if ranks % args.nodes:
                sys.exit(f"sim_scale.py: --bare-ranks {ranks}: not a multiple of --nodes {args.nodes}")
            nodes, per_node = args.nodes, ranks // args.nodes
            base = [sys.executable, os.path.join(HERE, "simulate.py"), "--build", args.build, "--platform",
                    args.platform, "--nodes", str(nodes), "--ranks-per-node", str(per_node), "--timeout",
                    str(args.timeout), "--launch", "--"]
            rc_b, wall_b, mem_b, out_b = measured(base + [exe, "4"])
            csv_path = os.path.join(tmp, f"mcb-{ranks}.csv")
            rc_m, wall_m, mem_m, out_m = measured(base + [os.path.join(args.build, "src", "mcb_alltoall"), "-m",
                                                         "4:4", "-i", "1", "-x", "0", "--algorithm", "pairwise",
                                                         "--csv", csv_path])
            if rc_b or rc_m:
                print(f"{ranks:6d} FAILED: bare exit {rc_b}, mcb exit {rc_m}\n{(out_b + out_m)[-3000:]}")
                failed += 1
                continue
            sim_b = float(re.search(r"bare pairwise .*: ([0-9.]+) us simulated", out_b).group(1))
            with open(csv_path, newline="") as f:
                sim_m = [float(r["avg_us"]) for r in csv.DictReader(f) if r["phase"] == "total"][0]
            # The buffers mcb holds beyond the loop's: send, receive and reference, P x 4 B per rank.
            buffers = 3 * ranks * ranks * 4 / 2**20
            ratio, mem_ratio = wall_m / wall_b, mem_m / (mem_b + buffers)
            print(f"{ranks:6d} {wall_b:8.1f} {wall_m:8.1f} {ratio:9.2f} {mem_b:8.0f} {mem_m:8.0f} {mem_ratio:9.2f}  "
                  f"{sim_b:.1f}, {sim_m:.1f}", flush=True)
            over += ratio > 1.25 or mem_ratio > 2
        print(f"target bare: {'met' if not over and not failed else 'NOT met'} (mcb within 1.25x of the bare loop's "
              f"wall time and 2x its memory plus the buffers)")
    return failed, over


def report(label, ranks, wall, sim):
    times = "FAILED" if sim is None else "  ".join(f"{s} B: {t:.1f}" for s, t in sorted(sim.items()))
    print(f"{label:44s} {ranks:6d} {wall:9.1f}   {times}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target", choices=["all", "pairwise", "figure10", "scaling", "bare"], default="all")
    p.add_argument("--build", default="build-sim", help="the simulation build")
    p.add_argument("--platform", default="manycore-32x112")
    p.add_argument("--nodes", type=int, default=32)
    p.add_argument("--ranks-per-node", type=int, default=112)
    p.add_argument("--sizes", default="4,64,1024,4096", help="figure10's sizes")
    p.add_argument("--algorithms", help="figure10: only these, e.g. node_aware,locality_aware (default: all of them)")
    p.add_argument("--out", default="results-sim-scale", help="directory for the CSV files")
    p.add_argument("--timeout", type=float, default=3600, help="seconds per run")
    p.add_argument("--bare-ranks", default="1792,3584",
                   help="bare: rank counts, each on --nodes nodes (1792 and 3584: 32 x 56 and 32 x 112)")
    args = p.parse_args()
    if not os.path.isfile(os.path.join(args.build, "src", "mcb_alltoall")):
        sys.exit(f"sim_scale.py: {args.build}/src/mcb_alltoall not found: cmake -DMCB_SIMULATE=ON -B {args.build}")
    ranks = args.nodes * args.ranks_per_node
    failed = over = 0
    if args.target == "bare":
        failed, over = bare(args)
        return 1 if failed or over else 0
    print(f"{'run':44s} {'ranks':>6s} {'wall s':>9s}   simulated avg us per size (a model's, not a machine's)")
    if args.target in ("all", "scaling"):
        for n in (4, 8, 16, 32):
            wall, sim = simulate(args, n, 56, ["-m", "4:4", "--algorithm", "pairwise"], args.out)
            report(f"pairwise 4 B, {n} x 56", n * 56, wall, sim)
            failed += sim is None
    if args.target in ("all", "pairwise"):
        wall, sim = simulate(args, args.nodes, args.ranks_per_node, ["-m", "4:4", "--algorithm", "pairwise"],
                             args.out)
        report("pairwise 4 B", ranks, wall, sim)
        failed += sim is None
        verdict = "within" if wall <= 300 else "OVER"
        over += wall > 300
        print(f"target pairwise: {wall:.0f} s, {verdict} the budget of 300 s", flush=True)
    if args.target in ("all", "figure10"):
        total = 0.0
        chosen = args.algorithms.split(",") if args.algorithms else [a for a, _ in FIG10]
        for algorithm, inner in [(a, i) for a, i in FIG10 if a in chosen]:
            extra = ["--inner", inner, "--procs-per-leader", "4", "--procs-per-group", "4"] if inner else []
            wall, sim = simulate(args, args.nodes, args.ranks_per_node,
                                 ["-m", args.sizes, "--algorithm", algorithm] + extra, args.out)
            total += wall
            report(algorithm + (f" ({inner})" if inner else ""), ranks, wall, sim)
            failed += sim is None
        verdict = "within" if total <= 3600 else "OVER"
        over += total > 3600
        print(f"target figure10 ({args.sizes} B): {total:.0f} s in all, {verdict} the budget of 3600 s", flush=True)
    return 1 if failed or over else 0


if __name__ == "__main__":
    sys.exit(main())
