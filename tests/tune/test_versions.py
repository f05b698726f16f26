#!/usr/bin/env python3
"""What tune.py and compare_selectors.py read from an MPI, per version, on
data captured from the real MPIs (tests/tune/data/README.md): no MPI runs,
so these run in CI without Open MPI 5.0.7 or MPICH 4.2.1 installed.

    test_versions.py [-v] [TestCase[.test]]

Prints 'tune: ok' at the end when every test passed (tests/tune.cmake):
  * the algorithm lists of ompi_info --parsable (Open MPI 4.1.4, 5.0.7) and
    mpivars (MPICH 4.0.2, 4.2.1), and the parameter CVARs of MPICH 4.2's
    containers;
  * compare_selectors.py's pairs: the forcing value of each name looked up
    per version, one line when the MPI lacks a name;
  * the rules file: format 1 for Open MPI 4, format 2 (rule-file-version-2,
    max requests on alltoall rules) for 5, each read back as that Open MPI
    reads it, and a format-2 file refused for Open MPI 4;
  * the launch line per version and an MPI found from its prefix.
"""

import importlib.util
import os
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "scripts", "tuning"))

from lib import mpi_tools  # noqa: E402
from mcbtune.choose import Choice  # noqa: E402
from mcbtune.common import TuneError  # noqa: E402
from mcbtune.mpich import (MPICH_CONTAINER_PARAMS, check_mpich_tree, container, mpich_container,  # noqa: E402
                           mpich_lookup, mpich_param_values, mpich_tree, mpich_value)
from mcbtune.openmpi import ompi_lookup, ompi_rules, ompi_rules_format, read_ompi_rules  # noqa: E402
from mcbtune.openmpi_trace import OMPI_FUNCTIONS  # noqa: E402


def data(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def load_compare_selectors():
    spec = importlib.util.spec_from_file_location("compare_selectors", os.path.join(REPO, "scripts", "compare",
                                                                                     "compare_selectors.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# What each version's own tool lists (the sources: coll_tuned_<coll>_decision.c of
# Open MPI, src/mpi/coll/cvars.txt of MPICH).
OMPI = {
    "4.1.4": {
        "alltoall": [("linear", 1), ("pairwise", 2), ("modified_bruck", 3), ("linear_sync", 4), ("two_proc", 5)],
        "allgather": [("linear", 1), ("bruck", 2), ("recursive_doubling", 3), ("ring", 4), ("neighbor", 5),
                      ("two_proc", 6)],
        "allreduce": [("basic_linear", 1), ("nonoverlapping", 2), ("recursive_doubling", 3), ("ring", 4),
                      ("segmented_ring", 5), ("rabenseifner", 6)],
    },
}
OMPI["5.0.7"] = dict(OMPI["4.1.4"], allgather=OMPI["4.1.4"]["allgather"] + [("sparbit", 7)])
# Issue 71's collectives, captured from Debian's Open MPI 4.1.4 and MPICH 4.0.2
# only (2026-12-07; the MPIs in /opt/mcb were not installed then).
OMPI["4.1.4"].update({
    "reduce_scatter_block": [("basic_linear", 1), ("recursive_doubling", 2), ("recursive_halving", 3),
                             ("butterfly", 4)],
    "reduce_scatter": [("non-overlapping", 1), ("recursive_halving", 2), ("ring", 3), ("butterfly", 4)],
    "allgatherv": [("default", 1), ("bruck", 2), ("ring", 3), ("neighbor", 4), ("two_proc", 5)],
    # the rooted ones (2026-12-08): coll/tuned has gather and scatter only
    "gather": [("basic_linear", 1), ("binomial", 2), ("linear_sync", 3)],
    "scatter": [("basic_linear", 1), ("binomial", 2), ("linear_nb", 3)],
})
MPICH = {
    "4.0.2": {
        "alltoall": ["brucks", "nb", "pairwise", "pairwise_sendrecv_replace", "scattered"],
        "allgather": ["brucks", "nb", "recursive_doubling", "ring"],
        "allreduce": ["nb", "smp", "recursive_doubling", "reduce_scatter_allgather"],
        "reduce_scatter_block": ["noncommutative", "recursive_doubling", "pairwise", "recursive_halving", "nb"],
        "reduce_scatter": ["nb", "noncommutative", "pairwise", "recursive_doubling", "recursive_halving"],
        "allgatherv": ["brucks", "nb", "recursive_doubling", "ring"],
        # the rooted ones (2026-12-08): two names each, only the first one stands clean on
        # 4.0's joined line ("...FILE)binomial - Force binomial algorithmnb       - Force ...")
        "gather": ["binomial", "nb"],
        "gatherv": ["linear", "nb"],
        "scatter": ["binomial", "nb"],
        "scatterv": ["linear", "nb"],
    },
    "4.2.1": {
        "alltoall": ["brucks", "k_brucks", "nb", "pairwise", "pairwise_sendrecv_replace", "scattered"],
        "allgather": ["brucks", "k_brucks", "nb", "recursive_doubling", "ring", "recexch_doubling",
                      "recexch_halving"],
        "allreduce": ["nb", "smp", "recursive_doubling", "reduce_scatter_allgather", "tree", "recexch", "ring",
                      "k_reduce_scatter_allgather"],
    },
}


class Lists(unittest.TestCase):
    def check_lists(self, expected, file_name, parse):
        """parse(text of file_name % version, coll) gives expected[version][coll]."""
        for version, lists in expected.items():
            text = data(file_name % version)
            for coll, want in lists.items():
                with self.subTest(version=version, coll=coll):
                    self.assertEqual(parse(text, coll), want)

    def test_ompi_info_parsable(self):
        self.check_lists(OMPI, "ompi_info-%s.txt", mpi_tools.ompi_algorithms_from)
        current = {v: {c: "ignore" for c in lists} for v, lists in OMPI.items()}
        self.check_lists(current, "ompi_info-%s.txt",
                         lambda text, coll: mpi_tools.parse_ompi_value(text, "coll_tuned_%s_algorithm" % coll))

    def test_every_ompi_name_has_its_traced_function(self):
        for version, lists in OMPI.items():
            for coll, algos in lists.items():
                for name, _ in algos:
                    self.assertIn(name, OMPI_FUNCTIONS[coll], "%s %s %s: no coll/base function to trace" % (
                        version, coll, name))

    def test_ompi_info_without_the_parameter(self):
        with self.assertRaisesRegex(mpi_tools.MpiToolError, "lists no coll_tuned_alltoall_algorithm"):
            mpi_tools.ompi_algorithms_from("mca:coll:tuned:param:coll_tuned_priority:value:30\n", "alltoall")

    def test_mpivars(self):
        self.check_lists(MPICH, "mpivars-%s.txt", mpi_tools.parse_mpivars_algorithms)  # what tune.py reads

    def test_ompi_info_lists_no_gatherv_or_scatterv(self):
        text = data("ompi_info-4.1.4.txt")
        for coll in ("gatherv", "scatterv"):
            with self.assertRaisesRegex(mpi_tools.MpiToolError, "lists no coll_tuned_%s_algorithm" % coll):
                mpi_tools.ompi_algorithms_from(text, coll)

    def test_mpivars_padded_names(self):
        # mpivars pads some names before '=': "MPIR_CVAR_IBCAST_TREE_KVAL      =2".
        text = "\tMPIR_CVAR_ALLREDUCE_TREE_KVAL   =4\tSCOPE_ALL_EQ\tNo-object\tMPI_INT\tVERBOSITY_USER_BASIC\tk\n"
        self.assertEqual(mpi_tools.parse_mpivars_value(text, "MPIR_CVAR_ALLREDUCE_TREE_KVAL"), "4")

    def test_mpich_42_container_parameters(self):
        values = mpich_param_values(data("mpivars-4.2.1.txt"))
        for name, params in MPICH_CONTAINER_PARAMS.items():
            for key, cvar in params:
                self.assertIn(cvar, values, "%s's %s" % (name, key))
        self.assertEqual(values["MPIR_CVAR_ALLTOALL_BRUCKS_KVAL"], 2)
        self.assertEqual(values["MPIR_CVAR_ALLREDUCE_TREE_TYPE"], 1)  # knomial_1, MPIR_TREE_TYPE_KNOMIAL_1
        self.assertEqual(container("MPIR_Alltoall_intra_k_brucks", values),
                         {"algorithm=MPIR_Alltoall_intra_k_brucks": {"k=2": {}}})
        self.assertEqual(container("MPIR_Alltoall_intra_pairwise", values),
                         {"algorithm=MPIR_Alltoall_intra_pairwise": {}})
        # MPICH 4.0.2 has none of these CVARs (nor the containers).
        self.assertEqual(mpich_param_values(data("mpivars-4.0.2.txt")), {})
        with self.assertRaisesRegex(TuneError, "takes k"):
            container("MPIR_Alltoall_intra_k_brucks", {})

    def test_mpich_tree_with_a_parameter_container(self):
        ch = Choice(8)
        ch.best, ch.kept = ("k_brucks", "k_brucks", 1.0, 1.0), True
        base = {"collective=alltoall": {"comm_type=intra": {"algorithm=MPIR_Alltoall_intra_brucks": {}}}}
        tree = mpich_tree({("alltoall", 2): [ch]}, base, None, {"MPIR_CVAR_ALLTOALL_BRUCKS_KVAL": 3})
        chain = tree["collective=alltoall"]["comm_type=intra"]["is_sendbuf_inplace=no"]["comm_size<=2"]
        self.assertEqual(chain["avg_msg_size<=8"], {"algorithm=MPIR_Alltoall_intra_k_brucks": {"k=3": {}}})


class Selectors(unittest.TestCase):
    """compare_selectors.py: the pairs by name, the forcing value from the MPI in use."""

    @classmethod
    def setUpClass(cls):
        cls.cs = load_compare_selectors()

    def test_openmpi_values(self):
        for version in OMPI:
            got = self.cs.forcing_values("openmpi", self.cs.PAIRS["openmpi"], "ompi_info",
                                         data("ompi_info-%s.txt" % version), version)
            self.assertEqual(got, [("pairwise", "pairwise", "2"), ("bruck", "modified_bruck", "3"),
                                   ("nonblocking", "linear", "1")])

    def test_mpich_values(self):
        for version in MPICH:
            got = self.cs.forcing_values("mpich", self.cs.PAIRS["mpich"], "mpivars", data("mpivars-%s.txt" % version),
                                         version)
            self.assertEqual(got, [("pairwise", "pairwise", "pairwise"), ("bruck", "brucks", "brucks"),
                                   ("nonblocking", "nb", "nb")])

    def test_a_missing_name_is_one_line(self):
        text = "\n".join(l for l in data("ompi_info-5.0.7.txt").splitlines() if not l.endswith(":modified_bruck"))
        with self.assertRaises(self.cs.BenchError) as e:
            self.cs.forcing_values("openmpi", self.cs.PAIRS["openmpi"], "/opt/x/bin/ompi_info", text, "5.0.7")
        msg = str(e.exception)
        self.assertNotIn("\n", msg)
        self.assertIn("Open MPI 5.0.7 has no alltoall algorithm 'modified_bruck' to compare with mcb's bruck", msg)
        self.assertIn("1 linear, 2 pairwise, 4 linear_sync, 5 two_proc", msg)


def table():
    """alltoall at 2 ranks: pairwise (2) for 1-4 B, default at 8 B (from 8 x 2 = 16 in Open MPI's
    units); allreduce at 2 ranks: ring (4) at 8 B."""
    out = {}
    for coll, sizes, alg in (("alltoall", (1, 2, 4, 8), {1: "2", 2: "2", 4: "2"}), ("allreduce", (4, 8), {8: "4"})):
        chs = []
        for s in sizes:
            ch = Choice(s)
            ch.best, ch.kept = ("x", alg.get(s, "0"), 1.0, 1.0), s in alg
            chs.append(ch)
        out[(coll, 2)] = chs
    return out


def choices(sizes, kept):
    """[Choice per size]: kept = {size: (algorithm, value)}."""
    chs = []
    for s in sizes:
        ch = Choice(s)
        ch.best, ch.kept = kept.get(s, ("x", "0")) + (1.0, 1.0), s in kept
        chs.append(ch)
    return chs


class Rooted(unittest.TestCase):
    """gather, gatherv, scatter, scatterv: Open MPI's ids and units, and no
    rule for the v-forms; MPICH's containers, its size key (none for the
    v-forms) and the keys csel asserts on."""

    def test_ompi_ids_and_units(self):
        table = {("gather", 2): choices((64, 128), {128: ("binomial", "2")}),
                 ("scatter", 2): choices((64, 128), {64: ("linear_nb", "3")})}
        fd, path = tempfile.mkstemp(suffix=".rules")
        with os.fdopen(fd, "w") as f:
            f.write(ompi_rules(table, 0, "4.1.4"))
        self.addCleanup(os.remove, path)
        rules = read_ompi_rules(path, "4.1.4")
        self.assertEqual(sorted(rules), [9, 15])  # COLLTYPE: GATHER 9, SCATTER 15
        # the send count x the communicator's size: 128 B x 2 ranks = 256 from binomial
        self.assertEqual([m[:2] for m in dict(rules[9])[2]], [(0, 0), (256, 2), (257, 0)])
        self.assertEqual([ompi_lookup(rules, "gather", 2, s) for s in (64, 128, 256)], [0, 2, 0])
        self.assertEqual([ompi_lookup(rules, "scatter", 2, s) for s in (64, 128)], [3, 0])

    def test_ompi_refuses_the_v_forms(self):
        for coll in ("gatherv", "scatterv"):
            with self.assertRaisesRegex(TuneError, "Open MPI has no tunable algorithm for %s" % coll):
                ompi_rules({(coll, 2): choices((64,), {64: ("x", "1")})}, 0, "4.1.4")

    def test_mpich_containers(self):
        self.assertEqual(mpich_container("gather", "binomial"), "MPIR_Gather_intra_binomial")
        self.assertEqual(mpich_container("gather", "nb"), "MPIR_Gather_allcomm_nb")
        self.assertEqual(mpich_container("gatherv", "linear"), "MPIR_Gatherv_allcomm_linear")
        self.assertEqual(mpich_container("scatterv", "nb"), "MPIR_Scatterv_allcomm_nb")
        self.assertEqual(mpich_value("scatterv", "MPIR_Scatterv_allcomm_linear"), "linear")
        self.assertEqual(mpich_value("scatter", "MPIR_Scatter_intra_binomial"), "binomial")

    def test_mpich_tree(self):
        # MPICH 4.0.2's own (maint/tuning/coll/mpir/generic.json) for these, in short
        inter = {"algorithm=MPIR_Scatter_inter_linear": {}}
        base = {"collective=scatter": {"comm_type=intra": {"algorithm=MPIR_Scatter_intra_binomial": {}},
                                       "comm_type=inter": inter},
                "collective=gatherv": {"algorithm=MPIR_Gatherv_allcomm_linear": {}}}
        table = {("scatter", 2): choices((64, 128), {128: ("nb", "nb")}),
                 ("gatherv", 2): choices((64, 128), {64: ("nb", "nb"), 128: ("nb", "nb")}),
                 ("gatherv", 4): choices((64, 128), {64: ("nb", "nb")})}
        tree = mpich_tree(table, base)
        self.assertEqual(check_mpich_tree(tree), [])
        self.assertEqual(tree["collective=scatter"]["comm_type=inter"], inter)
        # scatter: total_msg_size, the block x ranks (in elements: char here)
        self.assertEqual(list(tree["collective=scatter"]["comm_type=intra"]["comm_size<=2"]),
                         ["total_msg_size<=128", "total_msg_size<=256", "total_msg_size=any"])
        self.assertEqual([mpich_lookup(tree, "scatter", 2, s, 1) for s in (64, 128, 256)],
                         ["MPIR_Scatter_intra_binomial", "MPIR_Scatter_allcomm_nb", "MPIR_Scatter_intra_binomial"])
        # MPICH counts elements: 32 floats x 2 ranks = 64 <= 128, binomial's range
        self.assertEqual(mpich_lookup(tree, "scatter", 2, 128, 4), "MPIR_Scatter_intra_binomial")
        # gatherv: no size test; nb at 2 ranks (every size), MPICH's own at 4 (the sizes disagree)
        gatherv = tree["collective=gatherv"]
        self.assertEqual(list(gatherv), ["comm_type=intra", "comm_type=inter"])
        self.assertNotIn("msg_size", str(gatherv))
        self.assertEqual([mpich_lookup(tree, "gatherv", r, 1 << 20, 1) for r in (2, 3, 4, 5)],
                         ["MPIR_Gatherv_allcomm_nb"] + ["MPIR_Gatherv_allcomm_linear"] * 3)

    def test_mpich_keys_csel_asserts_on(self):
        for coll, key in (("gather", "is_commutative=yes"), ("gatherv", "total_msg_size<=64"),
                          ("scatter", "avg_msg_size<=64"), ("scatterv", "count<=8"),
                          ("allgather", "is_op_built_in=yes")):
            tree = {"collective=" + coll: {key: {"algorithm=MPIR_X": {}}}}
            problems = check_mpich_tree(tree)
            self.assertTrue(any("does not evaluate" in p and coll in p for p in problems), (coll, key, problems))


class Rules(unittest.TestCase):
    def write(self, text):
        fd, path = tempfile.mkstemp(suffix=".rules")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        self.addCleanup(os.remove, path)
        return path

    def test_format_per_version(self):
        self.assertEqual(ompi_rules_format("4.1.4"), 1)
        self.assertEqual(ompi_rules_format("5.0.7"), 2)
        self.assertEqual(ompi_rules_format("unknown"), 1)

    def test_open_mpi_5_writes_format_2(self):
        text = ompi_rules(table(), 0, "5.0.7")
        self.assertTrue(text.startswith("rule-file-version-2\n"), text[:40])
        rules = [l.split("#")[0].split() for l in text.splitlines()[1:] if len(l.split("#")[0].split()) >= 4]
        # alltoall rules carry max requests (0: no limit, as the forced runs), allreduce rules do not
        self.assertEqual([r for r in rules if len(r) == 5],
                         [["0", "0", "0", "0", "0"], ["0", "2", "0", "0", "0"], ["16", "0", "0", "0", "0"],
                          ["0", "0", "0", "0", "0"]])
        self.assertIn(["8", "4", "0", "0"], rules)  # allreduce: four numbers

    def test_both_formats_read_as_open_mpi_does(self):
        for version in ("4.1.4", "5.0.7"):
            path = self.write(ompi_rules(table(), 0, version))
            rules = read_ompi_rules(path, version)
            for size, alg in ((1, 2), (4, 2), (8, 0)):
                self.assertEqual(ompi_lookup(rules, "alltoall", 2, size), alg, (version, size))
            self.assertEqual(ompi_lookup(rules, "allreduce", 2, 8), 4)
            self.assertEqual(ompi_lookup(rules, "allreduce", 2, 4), 0)
            maxreq = {m[4] for cs in rules[3] for m in cs[1]}
            self.assertEqual(maxreq, {0} if version == "5.0.7" else {None})
        # Open MPI 5 reads a format-1 file too
        read_ompi_rules(self.write(ompi_rules(table(), 0, "4.1.4")), "5.0.7")

    def test_format_2_refused_for_open_mpi_4(self):
        path = self.write(ompi_rules(table(), 0, "5.0.7"))
        with self.assertRaisesRegex(TuneError, "Open MPI 4.1.4 reads no version line"):
            read_ompi_rules(path, "4.1.4")

    def test_fifth_number_only_on_its_line(self):
        # Format 2: max requests is read only from the segment size's line (isnext_digit stops at
        # the newline); on the next line the number is the next rule's message size.
        one_line = "rule-file-version-2\n1\n3\n1\n2\n2\n0 2 0 0 8\n64 3 0 0\n"
        next_line = "rule-file-version-2\n1\n3\n1\n2\n2\n0 2 0 0\n64 3 0 0\n"
        r1 = read_ompi_rules(self.write(one_line))
        self.assertEqual(r1[3][0][1], [(0, 2, 0, 0, 8), (64, 3, 0, 0, None)])
        r2 = read_ompi_rules(self.write(next_line))
        self.assertEqual(r2[3][0][1], [(0, 2, 0, 0, None), (64, 3, 0, 0, None)])

    def test_version_line_not_first(self):
        with self.assertRaisesRegex(TuneError, "must be the first characters of the file"):
            read_ompi_rules(self.write("# comment\nrule-file-version-2\n1\n3\n1\n2\n1\n0 2 0 0\n"))

    def test_octal(self):
        with self.assertRaisesRegex(TuneError, "'010' has a leading zero"):
            read_ompi_rules(self.write("1\n3\n1\n2\n1\n0 2 0 010\n"))


class Launch(unittest.TestCase):
    def test_oversubscription_per_version(self):
        self.assertEqual(mpi_tools.launcher("openmpi", 4, {}, None, "mpirun", "4.1.4")[:5],
                         ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none"])
        self.assertEqual(mpi_tools.launcher("openmpi", 4, {}, None, "/p/bin/mpiexec", "5.0.7")[:6],
                         ["/p/bin/mpiexec", "--allow-run-as-root", "--map-by", ":OVERSUBSCRIBE", "--bind-to", "none"])
        self.assertEqual(mpi_tools.launcher("mpich", 4, {"A": "1"}, None, "/p/bin/mpiexec", "4.2.1"),
                         ["/p/bin/mpiexec", "-n", "4", "-genv", "A", "1"])

    def test_mca_and_env(self):
        line = mpi_tools.launcher("openmpi", 2, {"LD_PRELOAD": "/a.so:/b.so"}, "core", "mpirun", "5.0.7",
                                  [("coll_tuned_use_dynamic_rules", "1")])
        self.assertEqual(line, ["mpirun", "--allow-run-as-root", "--bind-to", "core", "-n", "2", "--mca",
                                "coll_tuned_use_dynamic_rules", "1", "-x", "LD_PRELOAD=/a.so:/b.so"])

    def test_prefix(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, tool in (("openmpi-5.0.7", "ompi_info"), ("mpich-4.2.1", "mpichversion"), ("empty", None)):
                bindir = os.path.join(tmp, name, "bin")
                os.makedirs(bindir)
                for t in [tool, "mpiexec"] if tool else []:
                    path = os.path.join(bindir, t)
                    with open(path, "w") as f:
                        f.write("#!/bin/sh\n")
                    os.chmod(path, stat.S_IRWXU)
            self.assertEqual(mpi_tools.prefix_mpi(os.path.join(tmp, "openmpi-5.0.7")), "openmpi")
            self.assertEqual(mpi_tools.prefix_mpi(os.path.join(tmp, "mpich-4.2.1")), "mpich")
            with self.assertRaisesRegex(mpi_tools.MpiToolError, "neither bin/ompi_info"):
                mpi_tools.prefix_mpi(os.path.join(tmp, "empty"))
            with self.assertRaisesRegex(mpi_tools.MpiToolError, "no bin/mpiexec"):
                mpi_tools.prefix_launcher(os.path.join(tmp, "empty"))
            launcher = mpi_tools.find_launcher("openmpi", None, os.path.join(tmp, "openmpi-5.0.7"))
            self.assertEqual(launcher, os.path.join(tmp, "openmpi-5.0.7", "bin", "mpiexec"))
            self.assertEqual(mpi_tools.tool_beside(launcher, "ompi_info"),
                             os.path.join(tmp, "openmpi-5.0.7", "bin", "ompi_info"))
        self.assertEqual(mpi_tools.build_dir("/r", "openmpi", "/opt/mcb/openmpi-5.0.7/"), "/r/build-mpi-openmpi-5.0.7")
        self.assertEqual(mpi_tools.build_dir("/r", "mpich"), "/r/build-mpich")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2 if "-v" in sys.argv else 1).result
    ok = result.wasSuccessful()
    print("tune: ok" if ok else "tune: FAIL")
    sys.exit(0 if ok else 1)
