#!/usr/bin/env python3
"""Tests of scripts/tuning/tune.py (tests/tune.cmake). Prints 'tune: ok' or FAIL lines.

    run_case.py CASE REPO BUILD MPI WORK [YIELD_SHIM]

CASE:
  crafted_openmpi  crafted measurements -> the rules file, number by number
  crafted_openmpi5 the same measured on Open MPI 5.0.7: the same numbers in format 2
                   (rule-file-version-2 first, max requests 0 on every alltoall rule)
  crafted_mpich    crafted measurements -> the JSON tree, key by key (a small base tree)
  crafted_multiradix  issue 71's collectives (reduce_scatter_block, allgatherv) and the
                   rooted ones (gather, scatter, gatherv, scatterv) from crafted
                   measurements: both files with their ids and sizes (the
                   reduce-scatter's vector, the allgatherv's, gather's and scatter's
                   block x ranks; MPICH's tree under is_commutative, never
                   is_op_built_in, for the reduce-scatter, by communicator size
                   only for gatherv and scatterv; Open MPI: those two left out, or
                   refused when named)
  bad_input        one line and a non-zero exit for each kind of bad input
  verify           the crafted files loaded by the real MPI at 2 and 4 ranks (and
                   crafted_multiradix's at 2 ranks, two rooted collectives included):
                   Open MPI: every size ran what the file names (coll/base trace);
                   MPICH: loaded, and a file choosing pairwise_sendrecv_replace (it
                   ignores the send buffer) makes mcb's validation fail exactly at the
                   sizes the file gives it
  sweep            a small real sweep, then --verify of the file it wrote
"""

import json
import os
import re
import shutil
import subprocess
import sys

case, repo, build, mpi, work = sys.argv[1:6]
yield_shim = sys.argv[6] if len(sys.argv) > 6 else ""
tune = os.path.join(repo, "scripts", "tuning", "tune.py")
make = os.path.join(repo, "tests", "tune", "make_measurements.py")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(args, env=None, timeout=600):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([sys.executable] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=e, timeout=timeout)
    return p.returncode, p.stdout


def numbers(path):
    """The rules file's numbers, comments dropped (as Open MPI reads it)."""
    with open(path) as f:
        return [int(t) for line in f for t in line.split("#", 1)[0].split()]


def crafted(flavor, version=None):
    csv_path = os.path.join(work, "m.csv")
    subprocess.check_call([sys.executable, make, flavor, csv_path] + ([version] if version else []))
    extra = []
    if flavor.startswith("mpich"):
        base = os.path.join(work, "base.json")
        tree = {}
        for c in ("alltoall", "allgather", "allreduce"):
            t = c.capitalize()
            tree["collective=" + c] = {"comm_type=intra": {"algorithm=MPIR_%s_intra_base" % t: {}},
                                       "comm_type=inter": {"algorithm=MPIR_%s_inter_base" % t: {}}}
        tree["collective=bcast"] = {"comm_type=intra": {"algorithm=MPIR_Bcast_intra_base": {}}}
        with open(base, "w") as f:
            json.dump(tree, f)
        extra = ["--mpich-base-json", base]
    out_dir = os.path.join(work, "out")
    rc, out = run([tune, "--measurements", csv_path, "--out", out_dir] + extra)
    print(out)
    if rc != 0:
        fail("tune.py --measurements exit %d" % rc)
    return out, out_dir


def check_report(out, flavor, allgather="1 B-64 B default"):
    a, b, l = ("pairwise", "modified_bruck", "linear") if flavor == "openmpi" else ("pairwise", "brucks", "nb")
    want = [r"^ +1 B +10\.00 .* %s +5\.00 +2\.00  %s$" % (a, a),
            r"^ +8 B +10\.00 .* %s +9\.80 +1\.02  default \(within noise\)$" % a,
            r"^ +16 B +10\.00 .* %s +4\.00 +2\.50  %s$" % (b, b),
            r"^ +64 B +10\.00 .* %s +6\.00 +1\.67  default \(within noise\)$" % b,
            r"^#   %s ignored at 8 B: forced linear but pairwise ran$" % l,
            r"^#   ranges: 1 B-4 B %s; 8 B-8 B default; 16 B-32 B %s; 64 B-64 B default$" % (a, b),
            r"^#   ranges: %s$" % allgather,
            r"^#   ranges: 256 B-512 B default; 1 KiB-4 KiB \w+$"]
    for w in want:
        if not re.search(w, out, re.M):
            fail("report: no line matching %s" % w)


# The crafted Open MPI rules file, number by number (comments dropped).
WANT_RULES = [
    3,  # collectives: allgather 0, allreduce 2, alltoall 3
    0, 3, 0, 1, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0,
    # allreduce, 2 ranks: rabenseifner from 1 KiB, default beyond the 4 KiB measured
    2, 3, 0, 1, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 1024, 6, 0, 0, 4097, 0, 0, 0, 3, 1, 0, 0, 0, 0,
    # alltoall (sizes x ranks): 2 ranks 1-4 pairwise, 8 default, 16-32 bruck, 64 default;
    # 3 ranks default; 4 ranks pairwise to 64 x 4; 5 ranks default
    3, 5, 0, 1, 0, 0, 0, 0,
    2, 4, 0, 2, 0, 0, 16, 0, 0, 0, 32, 3, 0, 0, 128, 0, 0, 0,
    3, 1, 0, 0, 0, 0,
    4, 2, 0, 2, 0, 0, 257, 0, 0, 0,
    5, 1, 0, 0, 0, 0]


def case_crafted_openmpi():
    out, d = crafted("openmpi")
    check_report(out, "openmpi")
    if not re.search(r"^ +32 B +10\.00 two_proc +two_proc +5\.00 +2\.00  default \(runs two_proc already\)$", out,
                     re.M):
        fail("allgather 32 B: two_proc is what the default runs (trace): it must not be kept")
    got = numbers(os.path.join(d, "openmpi_rules.txt"))
    if got != WANT_RULES:
        fail("rules file numbers:\n got  %s\n want %s" % (got, WANT_RULES))


def case_crafted_openmpi5():
    out, d = crafted("openmpi", "5.0.7")
    check_report(out, "openmpi", "1 B-4 B sparbit; 8 B-64 B default")
    with open(os.path.join(d, "openmpi_rules.txt")) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "rule-file-version-2":
        return fail("Open MPI 5: the first line must be rule-file-version-2, not %r" % (lines[:1],))
    got, coll, fifth = [], None, []
    for line in lines[1:]:
        words = [int(t) for t in line.split("#", 1)[0].split()]
        if len(words) == 1 and "# " in line and line.split("# ", 1)[1] in ("allgather", "allreduce", "alltoall"):
            coll = line.split("# ", 1)[1]
        if len(words) == 5:
            fifth.append((coll, words.pop()))
        elif len(words) == 4 and coll == "alltoall":
            fail("alltoall rule without max requests in format 2: %s" % line)
        got += words
    # Open MPI 5's Sparbit (allgather 7) kept at 1-4 B on 2 ranks: up to 2 x 4 B in Open MPI's units
    want = WANT_RULES[:9] + [2, 2, 0, 7, 0, 0, 16, 0, 0, 0] + WANT_RULES[15:]
    if got != want:
        fail("format 2 numbers without max requests:\n got  %s\n want %s" % (got, want))
    if not fifth or set(fifth) != {("alltoall", 0)}:
        fail("max requests: only on alltoall rules, 0 (no limit, as the forced runs): %s" % fifth)


def case_crafted_mpich():
    out, d = crafted("mpich")
    check_report(out, "mpich")
    with open(os.path.join(d, "mpich_tuning.json")) as f:
        tree = json.load(f)
    default_a2a = {"algorithm=MPIR_Alltoall_intra_base": {}}
    a2a = tree["collective=alltoall"]["comm_type=intra"]
    if list(a2a) != ["is_sendbuf_inplace=no", "is_sendbuf_inplace=yes"] or a2a["is_sendbuf_inplace=yes"] != default_a2a:
        fail("alltoall: in-place calls must keep MPICH's choice: %s" % list(a2a))
    chain = a2a["is_sendbuf_inplace=no"]
    if list(chain) != ["comm_size<=1", "comm_size<=2", "comm_size<=3", "comm_size<=4", "comm_size=any"]:
        fail("alltoall communicator chain: %s" % list(chain))
    two = chain["comm_size<=2"]
    want = [("avg_msg_size<=4", "MPIR_Alltoall_intra_pairwise"), ("avg_msg_size<=8", None),
            ("avg_msg_size<=32", "MPIR_Alltoall_intra_brucks"), ("avg_msg_size<=64", None), ("avg_msg_size=any", None)]
    got = [(k, list(v)[0][len("algorithm="):] if v != default_a2a else None) for k, v in two.items()]
    if got != want:
        fail("alltoall at 2 ranks:\n got  %s\n want %s" % (got, want))
    four = chain["comm_size<=4"]
    if list(four) != ["avg_msg_size<=64", "avg_msg_size=any"] or \
            four["avg_msg_size<=64"] != {"algorithm=MPIR_Alltoall_intra_pairwise": {}}:
        fail("alltoall at 4 ranks: %s" % four)
    ar = tree["collective=allreduce"]["comm_type=intra"]
    sized = ar["is_commutative=yes"]["is_op_built_in=yes"]["comm_size<=2"]
    if list(sized) != ["avg_msg_size<=512", "avg_msg_size<=4096", "avg_msg_size=any"] or \
            sized["avg_msg_size<=4096"] != {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}}:
        fail("allreduce at 2 ranks: %s" % sized)
    ag = tree["collective=allgather"]["comm_type=intra"]["comm_size<=2"]
    if list(ag) != ["total_msg_size<=128", "total_msg_size=any"]:  # 64 B x 2 ranks: total size
        fail("allgather at 2 ranks (total_msg_size, x ranks): %s" % list(ag))
    if tree["collective=bcast"] != {"comm_type=intra": {"algorithm=MPIR_Bcast_intra_base": {}}}:
        fail("bcast (not tuned) must stay as in the base tree")


def multiradix_measurements(flavor):
    """reduce_scatter_block at 2 ranks, vectors 1-4 KiB: recursive_halving 5 us
    from 2 KiB (kept), the default 10 us; allgatherv at 2 ranks, blocks 64-256 B:
    ring 5 us at 128 B (kept). The rooted ones at 2 ranks, blocks 64-256 B:
    gather's linear_sync (MPICH: nb) from 128 B, scatter's linear_nb (MPICH:
    binomial) at 64 B, gatherv's linear at every size, scatterv's nb at 128 B
    only (Open MPI: gatherv and scatterv left out, it cannot tune them)."""
    version = "4.1.4" if flavor == "openmpi" else "4.0.2"
    rsb = ("recursive_halving", "3") if flavor == "openmpi" else ("recursive_halving", "recursive_halving")
    ring = ("ring", "3") if flavor == "openmpi" else ("ring", "ring")
    gather = ("linear_sync", "3") if flavor == "openmpi" else ("nb", "nb")
    scatter = ("linear_nb", "3") if flavor == "openmpi" else ("binomial", "binomial")
    rows = []
    for coll, sizes, (alg, value), fast in (("reduce_scatter_block", (1024, 2048, 4096), rsb, (2048, 4096)),
                                            ("allgatherv", (64, 128, 256), ring, (128,)),
                                            ("gather", (64, 128, 256), gather, (128, 256)),
                                            ("scatter", (64, 128, 256), scatter, (64,)),
                                            ("gatherv", (64, 128, 256), ("linear", "linear"), (64, 128, 256)),
                                            ("scatterv", (64, 128, 256), ("nb", "nb"), (128,))):
        for s in sizes:
            for r in range(3):
                base = dict(mpi=flavor, mpi_version=version, collective=coll, ranks=2, size_bytes=s, repeat=r,
                            status="ok", observed="", note="")
                rows.append(dict(base, config="default", algorithm="", value="", median_us=10))
                rows.append(dict(base, config="forced:" + alg, algorithm=alg, value=value,
                                 median_us=5 if s in fast else 12))
    path = os.path.join(work, "multiradix.csv")
    with open(path, "w") as f:
        fields = list(rows[0])
        f.write(",".join(fields) + "\n")
        for r in rows:
            f.write(",".join(str(r[k]) for k in fields) + "\n")
    return path


def case_crafted_multiradix():
    for flavor in ("openmpi", "mpich"):
        extra = []
        if flavor == "mpich":
            base = os.path.join(work, "base.json")
            tree = {}
            for c in ("reduce_scatter_block", "allgatherv", "gather", "scatter"):
                t = c.capitalize()
                tree["collective=" + c] = {"comm_type=intra": {"algorithm=MPIR_%s_intra_base" % t: {}}}
            for c in ("gatherv", "scatterv"):  # as MPICH's own: one container for both kinds
                tree["collective=" + c] = {"algorithm=MPIR_%s_allcomm_linear" % c.capitalize(): {}}
            with open(base, "w") as f:
                json.dump(tree, f)
            extra = ["--mpich-base-json", base]
        out_dir = os.path.join(work, "out-" + flavor)
        rc, out = run([tune, "--measurements", multiradix_measurements(flavor), "--out", out_dir] + extra)
        print(out)
        if rc != 0:
            fail("%s: tune.py --measurements exit %d" % (flavor, rc))
            continue
        for want in (r"^#   ranges: 1 KiB-1 KiB default; 2 KiB-4 KiB recursive_halving$",
                     r"^#   ranges: 64 B-64 B default; 128 B-128 B ring; 256 B-256 B default$"):
            if not re.search(want, out, re.M):
                fail("%s report: no line matching %s" % (flavor, want))
        if flavor == "openmpi":
            got = numbers(os.path.join(out_dir, "openmpi_rules.txt"))
            # 4 collectives; allgatherv (id 1): communicator sizes 0 and 3 Open MPI's, 2:
            # default below 256 B (128 B x 2 ranks), ring (3), default from 512 (256 B x 2);
            # gather (9): the block x 2 ranks, linear_sync (3) from 256, default from 513;
            # reduce_scatter_block (id 13): the vector's bytes, default below 2 KiB,
            # recursive_halving (3), default beyond the 4 KiB measured;
            # scatter (15): linear_nb (3) below 256 (128 B x 2), default from 256.
            want = [4, 1, 3, 0, 1, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 256, 3, 0, 0, 512, 0, 0, 0, 3, 1, 0, 0, 0, 0,
                    9, 3, 0, 1, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 256, 3, 0, 0, 513, 0, 0, 0, 3, 1, 0, 0, 0, 0,
                    13, 3, 0, 1, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 2048, 3, 0, 0, 4097, 0, 0, 0, 3, 1, 0, 0, 0, 0,
                    15, 3, 0, 1, 0, 0, 0, 0, 2, 2, 0, 3, 0, 0, 256, 0, 0, 0, 3, 1, 0, 0, 0, 0]
            if got != want:
                fail("rules file numbers:\n got  %s\n want %s" % (got, want))
            check_ompi_untuned(out, out_dir)
        else:
            with open(os.path.join(out_dir, "mpich_tuning.json")) as f:
                tree = json.load(f)
            rsb = tree["collective=reduce_scatter_block"]["comm_type=intra"]
            if list(rsb) != ["is_commutative=yes", "is_commutative=no"] or "is_op_built_in" in json.dumps(rsb):
                fail("reduce_scatter_block: is_commutative only (MPICH's csel asserts on is_op_built_in): %s"
                     % json.dumps(rsb)[:300])
            else:
                sized = rsb["is_commutative=yes"]["comm_size<=2"]
                if list(sized) != ["total_msg_size<=1024", "total_msg_size<=4096", "total_msg_size=any"] or \
                        sized["total_msg_size<=4096"] != {
                            "algorithm=MPIR_Reduce_scatter_block_intra_recursive_halving": {}}:
                    fail("reduce_scatter_block at 2 ranks (the vector's bytes): %s" % sized)
            agv = tree["collective=allgatherv"]["comm_type=intra"]["comm_size<=2"]
            if list(agv) != ["total_msg_size<=128", "total_msg_size<=256", "total_msg_size<=512",
                             "total_msg_size=any"] or \
                    agv["total_msg_size<=256"] != {"algorithm=MPIR_Allgatherv_intra_ring": {}}:
                fail("allgatherv at 2 ranks (block x ranks): %s" % agv)
            check_mpich_rooted(out, tree)


def check_ompi_untuned(out, out_dir):
    """Open MPI and the crafted gatherv and scatterv rows: left out in one line by
    default (no rule: ids 10 and 16 never appear), refused in one line when named."""
    if not re.search(r"^# left out: Open MPI has no tunable algorithm for gatherv or scatterv: ", out, re.M):
        fail("openmpi: the report must say in one line that gatherv and scatterv are left out")
    expect_one_line(["--measurements", os.path.join(work, "multiradix.csv"), "--out", out_dir + "-v",
                     "--collectives", "gather,scatterv"], "Open MPI has no tunable algorithm for scatterv", 2)


def check_mpich_rooted(out, tree):
    """MPICH's tree for the rooted ones: gather and scatter by total_msg_size (the
    block x ranks) straight under comm_type=intra (no operation: no is_commutative);
    gatherv and scatterv by communicator size only (csel has no size test for
    them), the linear container MPIR_<Coll>v_allcomm_linear, the inter side kept."""
    gather = tree["collective=gather"]["comm_type=intra"]["comm_size<=2"]
    if list(gather) != ["total_msg_size<=128", "total_msg_size<=512", "total_msg_size=any"] or \
            gather["total_msg_size<=512"] != {"algorithm=MPIR_Gather_allcomm_nb": {}}:
        fail("gather at 2 ranks (block x ranks, nb from 128 B): %s" % gather)
    scatter = tree["collective=scatter"]["comm_type=intra"]["comm_size<=2"]
    if list(scatter) != ["total_msg_size<=128", "total_msg_size<=512", "total_msg_size=any"] or \
            scatter["total_msg_size<=128"] != {"algorithm=MPIR_Scatter_intra_binomial": {}}:
        fail("scatter at 2 ranks (binomial at 64 B): %s" % scatter)
    base_v = {"algorithm=MPIR_Gatherv_allcomm_linear": {}}
    gatherv = tree["collective=gatherv"]
    if list(gatherv) != ["comm_type=intra", "comm_type=inter"] or gatherv["comm_type=inter"] != base_v or \
            gatherv["comm_type=intra"].get("comm_size<=2") != base_v or "msg_size" in json.dumps(gatherv):
        fail("gatherv: linear at every size of 2 ranks, by communicator size only: %s" % gatherv)
    scatterv = tree["collective=scatterv"]["comm_type=intra"]
    if scatterv.get("comm_size<=2") != {"algorithm=MPIR_Scatterv_allcomm_linear": {}}:
        fail("scatterv: nb won at 128 B only: MPICH's own at 2 ranks: %s" % scatterv)
    if "scatterv (csel asserts on one), so a choice holds for every size of a communicator size: 2 ranks: " \
            "MPICH's own" not in out:
        fail("mpich: no note that scatterv keeps MPICH's own")
    for c in ("gather", "scatter", "gatherv", "scatterv"):
        if "is_commutative" in json.dumps(tree["collective=" + c]):
            fail("%s: no operation, csel asserts on is_commutative" % c)


def expect_one_line(args, want, status=None, env=None):
    rc, out = run([tune] + args, env)
    lines = out.strip().splitlines()
    ok = rc != 0 and (status is None or rc == status) and len(lines) == 1 and want in lines[0]
    if not ok:
        fail("%s -> exit %d, %d lines: %s (expected one line with '%s')" % (" ".join(args), rc, len(lines),
                                                                             out.strip()[:400], want))


def case_bad_input():
    csv_path = os.path.join(work, "m.csv")
    subprocess.check_call([sys.executable, make, "openmpi", csv_path])
    expect_one_line(["--collectives", "bcast", "--build", build], "--collectives bcast: expected alltoall", 2)
    expect_one_line(["--measurements", os.path.join(work, "none.csv")], "No such file", 2)
    empty = os.path.join(work, "empty.csv")
    with open(csv_path) as f, open(empty, "w") as g:
        g.write(f.readline())
    expect_one_line(["--measurements", empty], "no measurements", 2)
    other = os.path.join(work, "other.csv")
    with open(csv_path) as f, open(other, "w") as g:
        g.write(f.read().replace("\nopenmpi,", "\nintelmpi,"))
    expect_one_line(["--measurements", other], "expected one of openmpi, mpich", 2)
    expect_one_line(["--measurements", csv_path, "--collectives", "bcast"], "--collectives bcast", 2)
    fake = os.path.join(work, "fakebuild", "src")
    os.makedirs(fake, exist_ok=True)
    for c in ("alltoall", "allgather", "allreduce", "reduce_scatter_block", "reduce_scatter", "allgatherv", "gather",
              "gatherv", "scatter", "scatterv"):
        shutil.copy("/bin/true", os.path.join(fake, "mcb_" + c))
    expect_one_line(["--build", os.path.dirname(fake)], "neither Open MPI nor MPICH", 2)
    expect_one_line(["--build", os.path.join(work, "nobuild")], "not found (build mcb first", 2)
    expect_one_line(["--build", build, "-n", "0"], "-n: process counts must be at least 1", 2)
    expect_one_line(["--build", build, "--repeats", "0"], "--repeats must be at least 1", 2)
    expect_one_line(["--threshold", "abc"], "invalid float value: 'abc'", 2)
    expect_one_line(["--build", build, "-i", "0"], "-i must be at least 1", 2)
    expect_one_line(["--build", build, "-x", "-1"], "-x must be at least 0", 2)
    expect_one_line(["--build", build, "--segment-size", "-4"], "--segment-size must be at least 0", 2)
    expect_one_line(["--build", build, "--timeout", "0"], "--timeout must be positive", 2)
    if mpi == "openmpi":
        bad = os.path.join(work, "bad_rules.txt")
        with open(bad, "w") as f:
            f.write("1\n3\n1\n2\n1\n0 2 0 x\n")
        expect_one_line(["--build", build, "--verify", bad], "'x' is not a non-negative number", 1)
        late = os.path.join(work, "late_rules.txt")
        with open(late, "w") as f:
            f.write("1\n3\n1\n2\n1\n16 2 0 0\n")
        expect_one_line(["--build", build, "--verify", late], "starts at 16, not 0", 1)
        v2 = os.path.join(work, "v2_rules.txt")
        with open(v2, "w") as f:
            f.write("rule-file-version-2\n1\n3\n1\n2\n1\n0 2 0 0 0\n")
        if mpi_major() < 5:
            expect_one_line(["--build", build, "--verify", v2], "reads no version line and would ignore", 1)
        expect_one_line(["--build", build, "--mpi-prefix", os.path.join(work, "fakebuild")],
                        "neither bin/ompi_info (Open MPI) nor bin/mpichversion (MPICH)", 2)
        expect_one_line(["--build", build, "--verify", os.path.join(work, "m.csv.json")], "no such file", 2)
        expect_one_line(["--build", build, "--collectives", "gather,gatherv"],
                        "Open MPI has no tunable algorithm for gatherv: coll/tuned (4.1, 5.0) has none", 2)
    else:
        bad = os.path.join(work, "bad.json")
        with open(bad, "w") as f:
            f.write('{"collective=alltoall": {"comm_type=intra": {"avg_msg_size<=8": '
                    '{"algorithm=MPIR_Alltoall_intra_brucks": {}}}}}\n')
        expect_one_line(["--build", build, "--verify", bad], "has no following sibling", 1)
        unknown = os.path.join(work, "unknown.json")
        with open(unknown, "w") as f:
            f.write('{"collective=alltoall": {"msg_size<=8": {"algorithm=MPIR_Alltoall_intra_brucks": {}}}}\n')
        expect_one_line(["--build", build, "--verify", unknown], "unknown key 'msg_size<=8'", 1)
        rooted = os.path.join(work, "rooted.json")
        with open(rooted, "w") as f:  # gatherv has no size in csel: get_total_msgsize asserts
            f.write('{"collective=gatherv": {"total_msg_size<=8": {"algorithm=MPIR_Gatherv_allcomm_nb": {}}, '
                    '"total_msg_size=any": {"algorithm=MPIR_Gatherv_allcomm_linear": {}}}}\n')
        expect_one_line(["--build", build, "--verify", rooted, "--collectives", "gatherv"],
                        "MPICH's csel does not evaluate total_msg_size for gatherv", 1)


def build_launcher():
    """The launcher the build was configured with (MPIEXEC_EXECUTABLE: the system's, or
    PREFIX/bin/mpiexec of a -DMCB_MPI_PREFIX build), so that ci/test-mpi.sh's builds run
    their own MPI."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            m = re.search(r"^MPIEXEC_EXECUTABLE:FILEPATH=(.+)$", f.read(), re.M)
    except OSError:
        m = None
    return m.group(1) if m else ("mpiexec.mpich" if mpi == "mpich" else "mpirun.openmpi")


def mpi_major():
    """The major version of the build's Open MPI (ompi_info beside its launcher)."""
    sys.path.insert(0, os.path.join(repo, "scripts"))
    from lib import mpi_tools
    return mpi_tools.major(mpi_tools.mpi_version("openmpi", build_launcher()))


def mpi_env():
    env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    return env


def launch_args():
    """The build's own launcher; MPICH never yields the CPU and CTest runs two tests at once:
    its shim, as run_mpi.py does."""
    return ["--launcher", build_launcher()] + (["--preload", yield_shim] if mpi == "mpich" and yield_shim else [])


def case_verify():
    flavor = mpi
    csv_path = os.path.join(work, "m.csv")
    subprocess.check_call([sys.executable, make, flavor, csv_path])
    out_dir = os.path.join(work, "out")
    rc, out = run([tune, "--measurements", csv_path, "--out", out_dir, "--build", build] + launch_args()[:2])
    print(out)
    if rc != 0:
        return fail("tune.py --measurements exit %d" % rc)
    f = os.path.join(out_dir, "openmpi_rules.txt" if flavor == "openmpi" else "mpich_tuning.json")
    for coll, sizes, ranks in (("alltoall", "1:64", "2,4"), ("allreduce", "256:4096", "2")):
        rc, out = run([tune, "--build", build, "--verify", f, "--collectives", coll, "-n", ranks, "-m", sizes,
                       "-i", "20", "-x", "2", "--repeats", "1"] + launch_args(),
                      mpi_env())
        print(out)
        if rc != 0 or "# verify: ok" not in out:
            fail("--verify %s %s at %s ranks: exit %d" % (f, coll, ranks, rc))
        if flavor == "openmpi":
            rows = re.findall(r"^ +\d+ \S+ +(\S+) .* (ok|MISMATCH) (\S+)$", out, re.M)
            if not rows or any(r[1] != "ok" for r in rows):
                fail("%s: every row must say ok: %s" % (coll, rows))
            if coll == "alltoall" and not re.search(r"^ +16 B +modified_bruck .* ok alltoall_intra_bruck$", out, re.M):
                fail("alltoall 16 B at 2 ranks: the trace must show bruck")
            if coll == "allreduce" and not re.search(r"^ +1 KiB +rabenseifner .* ok allreduce_intra_redscat_allgather$",
                                                     out, re.M):
                fail("allreduce 1 KiB: the trace must show rabenseifner (redscat_allgather)")
        else:
            # Every size whose algorithm the file names is compared with that algorithm forced,
            # also where MPICH's own tree picks the same ('*', explained below the table).
            rows = re.findall(r"^ +\d+ \S+ +(\S+(?: own\))?) +[\d.]+ +[\d.]+ +(\S+) ", out, re.M)
            named = [r for r in rows if r[0] != "(MPI's own)"]
            if not named or any(r[1] == "-" for r in named):
                fail("%s: every size the file gives an algorithm must have its forced time: %s" % (coll, rows))
            if any(r[0].endswith("*") for r in rows) and "# *: also what MPICH's own tree selects" not in out:
                fail("%s: a '*' row without the line that explains it" % coll)
            # Where the crafted file leaves alltoall to MPICH (8 B, 64 B), MPICH's own tree picks an
            # algorithm that can be forced (4.0.2: scattered): such a size is compared too, marked '*'.
            if coll == "alltoall" and not any(r[0].endswith("*") and r[1] != "-" for r in rows):
                fail("alltoall: no size where the file's algorithm is MPICH's own was compared with it forced")
    # Issue 71's collectives: the crafted file of crafted_multiradix, loaded by the MPI.
    mdir = os.path.join(work, "multiradix")
    extra = launch_args()[:2]
    rc, out = run([tune, "--measurements", multiradix_measurements(flavor), "--out", mdir, "--build", build] + extra)
    if rc != 0:
        return fail("multiradix file: exit %d: %s" % (rc, out))
    mf = os.path.join(mdir, "openmpi_rules.txt" if flavor == "openmpi" else "mpich_tuning.json")
    # The rooted ones: Open MPI's trace shows gather's and scatter's block x ranks
    # in the rules' units; MPICH loads gather's total_msg_size and gatherv's
    # size-less tree (a size test under gatherv would assert) and runs them.
    rooted = ((("gather", "128:256", r"^ +128 B +linear_sync .* ok gather_intra_linear_sync$"),
               ("scatter", "64:128", r"^ +64 B +linear_nb .* ok scatter_intra_linear_nb$")) if flavor == "openmpi"
              else (("gather", "64:128", ""), ("gatherv", "64:128", "")))
    for coll, sizes, want in (("reduce_scatter_block", "1024:4096",
                               r"^ +2 KiB +recursive_halving .* ok reduce_scatter_block_intra_recursivehalving$"),
                              ("allgatherv", "64:256", r"^ +128 B +ring .* ok allgatherv_intra_ring$")) + rooted:
        rc, out = run([tune, "--build", build, "--verify", mf, "--collectives", coll, "-n", "2", "-m", sizes,
                       "-i", "20", "-x", "2", "--repeats", "1"] + launch_args(), mpi_env())
        print(out)
        if rc != 0 or "# verify: ok" not in out:
            fail("--verify %s %s: exit %d" % (mf, coll, rc))
        elif flavor == "openmpi" and not re.search(want, out, re.M):
            fail("%s: the trace must show the file's algorithm (%s)" % (coll, want))
        elif flavor == "mpich":
            rows = re.findall(r"^ +\d+ \S+ +(\S+(?: own\))?) +[\d.]+ +[\d.]+ +(\S+) ", out, re.M)
            named = [r for r in rows if r[0] != "(MPI's own)"]
            if not named or any(r[1] == "-" for r in named):
                fail("%s: every size the file gives an algorithm must have its forced time: %s" % (coll, rows))
    if flavor == "mpich":
        canary = os.path.join(work, "canary.csv")
        subprocess.check_call([sys.executable, make, "mpich-canary", canary])
        cdir = os.path.join(work, "canary")
        rc, out = run([tune, "--measurements", canary, "--out", cdir, "--build", build] + launch_args()[:2])
        if rc != 0:
            return fail("canary file: exit %d: %s" % (rc, out))
        env = dict(os.environ, LD_PRELOAD=yield_shim, MPIR_CVAR_DEVICE_COLLECTIVES="none",
                   MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=os.path.join(cdir, "mpich_tuning.json"))
        for size, should_pass in (("4", True), ("8", True), ("16", False), ("32", False)):
            p = subprocess.run([build_launcher(), "-n", "2", os.path.join(build, "src", "mcb_alltoall"), "--algorithm",
                                "system", "-m", size, "-i", "2", "-x", "0", "-c"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True, timeout=120)
            if (p.returncode == 0) != should_pass:
                fail("MPICH with the canary file at %s B: exit %d, expected %s (the file gives %s)\n%s" % (
                    size, p.returncode, "success" if should_pass else "a validation failure",
                    "brucks" if should_pass else "pairwise_sendrecv_replace", p.stdout[-600:]))


def case_sweep():
    out_dir = os.path.join(work, "sweep")
    args = [tune, "--build", build, "-n", "2", "-m", "4:64", "-i", "20", "-x", "2", "--repeats", "2",
            "--collectives", "allreduce", "--out", out_dir] + launch_args()
    rc, out = run(args, mpi_env())
    print(out)
    if rc != 0:
        return fail("sweep exit %d" % rc)
    for s in ("4 B", "8 B", "16 B", "32 B", "64 B"):
        if not re.search(r"^ +%s +\d+\.\d+ " % s, out, re.M):
            fail("sweep: no row for %s" % s)
    with open(os.path.join(out_dir, "measurements.csv")) as f:
        text = f.read()
    if mpi == "openmpi":
        if not re.search(r"forced:ring,ring,4,4,.*,fallback,allreduce_intra_recursivedoubling\+allreduce_intra_ring,",
                         text):
            fail("sweep: Open MPI's ring at 4 B (1 element < 2 ranks) must be recorded as handed to recursive "
                 "doubling")
        if not re.search(r"^openmpi,[\d.]+,allreduce,2,default,,,64,0,[\d.]+,ok,allreduce_intra_\w+,", text, re.M):
            fail("sweep: the default rows must name the function that ran")
    f = os.path.join(out_dir, "openmpi_rules.txt" if mpi == "openmpi" else "mpich_tuning.json")
    rc, out = run([tune, "--build", build, "--verify", f, "--collectives", "allreduce", "-n", "2", "-m", "4:64",
                   "-i", "20", "-x", "2", "--repeats", "1"] + launch_args(), mpi_env())
    print(out)
    if rc != 0 or "# verify: ok" not in out:
        fail("--verify of the sweep's own file: exit %d" % rc)


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
{"crafted_openmpi": case_crafted_openmpi, "crafted_openmpi5": case_crafted_openmpi5, "crafted_mpich": case_crafted_mpich,
 "crafted_multiradix": case_crafted_multiradix, "bad_input": case_bad_input,
 "verify": case_verify, "sweep": case_sweep}[case]()
print("tune: ok" if not failures else "tune: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
