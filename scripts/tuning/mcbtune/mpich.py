"""MPICH 4.x collective selection: the MPIR_CVAR_<COLL>_INTRA_ALGORITHM
values from mpivars (beside the launcher: 4.0 and 4.2 list different
algorithms), its version, its own selection tree (compiled into libmpich,
or --mpich-base-json), the fallback lines that show a forced algorithm did
not run, the canary that shows MPICH reads the tuning file, and the JSON
tree: written from the choice (a container with parameters, 4.2's k_brucks
or tree, carries the values the forced run used), checked for what
MPICH's parser asserts on, and looked up as MPICH's selection walks it."""

import collections
import copy
import json
import os
import re
import sys

from lib.mpi_tools import (MpiToolError, find_launcher, linked_mpi, mpi_version, mpivars_output,
                           parse_mpivars_algorithms, parse_mpivars_value, tool_beside)

from .choose import ranges
from .common import COLLECTIVES, VECTOR, TuneError, binary, fail_input, vector_bytes
from .launch import file_config, first_error, launch, mpi_env

# The size test MPICH's selection supports per collective (src/mpi/coll/src/csel.c:
# get_avg_msgsize has none of allgather, allgatherv and the reduce-scatters;
# get_total_msgsize is the whole vector: the block x the communicator's size
# for allgather, the sum of the counts for allgatherv and reduce_scatter, the
# count x the communicator's size for reduce_scatter_block; gather and scatter:
# the count x the communicator's size, in elements, not bytes, in 4.0.2 and
# 4.2.1 (the datatype's size is read, then overwritten: `total_bytes =
# count * comm_size`), the send count at every rank for gather, the receive
# count for scatter (mcb passes the block at every rank, the root included);
# tune.py sweeps char, where the two are the same). gatherv and scatterv have
# no size test at all (get_total_msgsize and get_avg_msgsize assert on them,
# as get_count does): None, a choice per communicator size only.
MPICH_SIZE_KEY = {"alltoall": "avg_msg_size", "allreduce": "avg_msg_size", "allgather": "total_msg_size",
                  "allgatherv": "total_msg_size", "reduce_scatter": "total_msg_size",
                  "reduce_scatter_block": "total_msg_size", "gather": "total_msg_size", "scatter": "total_msg_size",
                  "gatherv": None, "scatterv": None}
# What csel.c (4.0.2, 4.2.1) evaluates a key for, per collective (is_commutative(),
# get_avg_msgsize() ...: any other collective reaches MPIR_Assert(0)); the
# collectives of tune.py only (the nonblocking ones have their own lists).
MPICH_KEY_COLLECTIVES = {
    "is_sendbuf_inplace": ("alltoall",),
    "is_commutative": ("allreduce", "reduce_scatter", "reduce_scatter_block"),
    "is_op_built_in": ("allreduce",),
    "is_block_regular": ("reduce_scatter",),
    "avg_msg_size": ("alltoall", "allreduce"),
    "count": ("allgather", "allgatherv", "allreduce", "reduce_scatter", "reduce_scatter_block"),
    "total_msg_size": ("alltoall", "allgather", "allgatherv", "allreduce", "reduce_scatter", "reduce_scatter_block",
                       "gather", "scatter"),
}
# The values whose container serves both communicator kinds (coll_algorithms.txt:
# "allcomm: 1"): MPIR_<Coll>_allcomm_<value>, not _intra_.
MPICH_ALLCOMM = {"gatherv": ("nb", "linear"), "scatterv": ("nb", "linear")}


def mpich_rule_bytes(coll, size_bytes, ranks):
    return vector_bytes(coll, size_bytes, ranks) if MPICH_SIZE_KEY[coll] == "total_msg_size" else size_bytes


def mpich_container(coll, value):
    """MPIR_CVAR_<COLL>_INTRA_ALGORITHM value -> the JSON container name."""
    title = coll.capitalize()
    allcomm = value == "nb" or value in MPICH_ALLCOMM.get(coll, ())
    return "MPIR_%s_%s_%s" % (title, "allcomm" if allcomm else "intra", value)


def mpich_value(coll, container):
    title = coll.capitalize()
    for value in ("nb",) + MPICH_ALLCOMM.get(coll, ()):
        if container == "MPIR_%s_allcomm_%s" % (title, value):
            return value
    prefix = "MPIR_%s_intra_" % title
    return container[len(prefix):] if container.startswith(prefix) else None


def mpich_library(path):
    mpi, lib = linked_mpi(path)
    if mpi != "mpich":
        raise TuneError("cannot find MPICH's library in ldd %s (%s)" % (path, lib))
    return lib


def mpivars_text(args):
    """mpivars' listing of the MPICH in use (beside the launcher)."""
    tool = tool_beside(args.launcher, "mpivars")
    if tool is None:
        raise TuneError("mpivars not found beside %s or on PATH" % args.launcher)
    try:
        return mpivars_output(tool, mpi_env(args))
    except MpiToolError as e:
        raise TuneError(str(e))


def mpich_algorithms(args, coll):
    """[(name, name)] of MPIR_CVAR_<COLL>_INTRA_ALGORITHM from mpivars, 'auto' left out."""
    try:
        return [(n, n) for n in parse_mpivars_algorithms(mpivars_text(args), coll)]
    except MpiToolError as e:
        raise TuneError(str(e))


def mpich_version(args):
    return mpi_version("mpich", args.launcher)


# The containers that take parameters (MPICH 4.2: csel_container.c reads them
# from the container's keys, "k=2", and leaves a missing one uninitialised),
# each with the CVAR whose value a forced run uses (mpir_coll.c).
MPICH_CONTAINER_PARAMS = {
    "MPIR_Alltoall_intra_k_brucks": [("k", "MPIR_CVAR_ALLTOALL_BRUCKS_KVAL")],
    "MPIR_Allgather_intra_k_brucks": [("k", "MPIR_CVAR_ALLGATHER_BRUCKS_KVAL")],
    "MPIR_Allgather_intra_recexch_doubling": [("k", "MPIR_CVAR_ALLGATHER_RECEXCH_KVAL"),
                                              ("single_phase_recv", "MPIR_CVAR_ALLGATHER_RECEXCH_SINGLE_PHASE_RECV")],
    "MPIR_Allgather_intra_recexch_halving": [("k", "MPIR_CVAR_ALLGATHER_RECEXCH_KVAL"),
                                             ("single_phase_recv", "MPIR_CVAR_ALLGATHER_RECEXCH_SINGLE_PHASE_RECV")],
    "MPIR_Allreduce_intra_tree": [("tree_type", "MPIR_CVAR_ALLREDUCE_TREE_TYPE"),
                                  ("k", "MPIR_CVAR_ALLREDUCE_TREE_KVAL"),
                                  ("chunk_size", "MPIR_CVAR_ALLREDUCE_TREE_PIPELINE_CHUNK_SIZE"),
                                  ("buffer_per_child", "MPIR_CVAR_ALLREDUCE_TREE_BUFFER_PER_CHILD")],
    "MPIR_Allreduce_intra_recexch": [("k", "MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL"),
                                     ("single_phase_recv", "MPIR_CVAR_ALLREDUCE_RECEXCH_SINGLE_PHASE_RECV")],
    "MPIR_Allreduce_intra_k_reduce_scatter_allgather": [
        ("k", "MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL"),
        ("single_phase_recv", "MPIR_CVAR_ALLREDUCE_RECEXCH_SINGLE_PHASE_RECV")],
}
# MPIR_CVAR_ALLREDUCE_TREE_TYPE is a name; the container takes MPIR_Tree_type_t's number
# (coll_types.h; coll_impl.c: get_tree_type_from_string_with_topo, anything else kary).
MPICH_TREE_TYPES = {"kary": 0, "knomial_1": 1, "knomial_2": 2, "topology_aware": 3, "topology_aware_k": 4,
                    "topology_wave": 5}


def mpich_param_values(text):
    """{CVAR: integer value} of the containers' parameter CVARs as mpivars
    prints them (a boolean as 0/1, the tree type as its number); a CVAR this
    MPICH does not list is left out (its containers do not exist either)."""
    values = {}
    for params in MPICH_CONTAINER_PARAMS.values():
        for _, cvar in params:
            v = parse_mpivars_value(text, cvar)
            if v is None:
                continue
            v = v.strip('"')
            if cvar == "MPIR_CVAR_ALLREDUCE_TREE_TYPE" and not v.lstrip("-").isdigit():
                v = MPICH_TREE_TYPES.get(v, 0)
            elif v.lower() in ("true", "false"):
                v = int(v.lower() == "true")
            try:
                values[cvar] = int(v)
            except ValueError:
                raise TuneError("mpivars prints %s=%s: not a number for the JSON container" % (cvar, v))
    return values


def mpich_params(args, table):
    """The parameter values for the JSON containers (None if no chosen
    container takes any), from mpivars of the MPICH in use (beside
    --launcher, --mpi-prefix's, or the system's)."""
    if not any(mpich_container(coll, ch.chosen()[1]) in MPICH_CONTAINER_PARAMS
               for (coll, _), chs in table.items() for ch in chs if ch.chosen()):
        return None
    if not args.launcher:
        try:
            args.launcher = find_launcher("mpich", None, getattr(args, "mpi_prefix", None))
        except MpiToolError as e:
            raise TuneError(str(e))
    return mpich_param_values(mpivars_text(args))


def mpich_base_tree(args):
    """MPICH's own MPIR-level selection tree, and the algorithm containers MPICH
    knows (None when not read from the library): from --mpich-base-json, or the
    JSON string compiled into libmpich (the one whose containers are MPIR_
    algorithms)."""
    if args.mpich_base_json:
        try:
            with open(args.mpich_base_json) as f:
                return json.load(f, object_pairs_hook=collections.OrderedDict), None
        except (OSError, ValueError) as e:
            fail_input("--mpich-base-json %s: %s" % (args.mpich_base_json, e))
    lib = mpich_library(binary(args, args.collectives[0]))
    with open(lib, "rb") as f:
        data = f.read()
    known = {m.decode() for m in re.findall(rb"algorithm=(MPIR_\w+)", data)}
    for blob in re.findall(rb'\{"collective=[\x20-\x7e]{1000,}', data):
        text = blob.decode()
        if '"algorithm=MPIR_' in text and '"composition=' not in text:
            try:
                return json.loads(text, object_pairs_hook=collections.OrderedDict), known
            except ValueError:
                continue
    raise TuneError("no MPIR selection tree found in %s; give --mpich-base-json (maint/tuning/coll/mpir/"
                    "generic.json of your MPICH's source)" % lib)


MPICH_FALLBACK = "User set collective algorithm is not usable for the provided arguments"
MPICH_CHECK_CALLS = 100


def mpich_check_forced(args, coll, ranks, conf, sizes, tmp, tag):
    """MPICH: {size: (status, note)} for the sizes where a forced algorithm does
    not run. MPIR_CVAR_COLLECTIVE_FALLBACK=print makes rank 0 print one line per
    call that falls back to MPICH's own choice ('error' would also fail MPICH's
    internal small allreduces, at every size). One launch per size, 100 calls:
    at least half of them printing means the measured calls fell back."""
    result = {}
    for s in sizes:
        rc, out, _ = launch(args, coll, ranks, conf, "%d:%d" % (s, s), os.path.join(tmp, "%s-%d.csv" % (tag, s)),
                            MPICH_CHECK_CALLS, 0)
        prints = out.count(MPICH_FALLBACK)
        if rc != 0:
            result[s] = ("refused", first_error(out))
        elif prints >= MPICH_CHECK_CALLS // 2:
            result[s] = ("fallback", "MPICH fell back to its own choice (%d fallback lines for %d calls: '%s')" % (
                prints, MPICH_CHECK_CALLS, MPICH_FALLBACK))
    return result


def mpich_canary(args, tmp):
    """MPICH must refuse an empty selection tree: if it runs (exit 0 and mcb's
    row written), it ignores the variable. MPICH 4.2.1 asserts as 4.0.2
    does, but its hydra sometimes exits 0 (launch() reads the abort from the output)."""
    bad = os.path.join(tmp, "canary.json")
    with open(bad, "w") as f:
        f.write("{}\n")
    csv_path = os.path.join(tmp, "canary.csv")
    rc, out, line = launch(args, args.collectives[0], min(args.ranks), file_config(args, bad), "8", csv_path, 1, 0)
    if rc == 0 and os.path.isfile(csv_path) and os.path.getsize(csv_path) > 0:
        raise TuneError("MPICH ran with an empty tuning tree: it ignores MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE "
                        "here (%s)" % line)


def container(name, values=None):
    """{"algorithm=NAME": {}}, with the keys "k=2" ... of a container that
    takes parameters, their values those a forced run uses (`values`:
    {CVAR: value}, mpich_params)."""
    keys = collections.OrderedDict()
    for key, cvar in MPICH_CONTAINER_PARAMS.get(name, []):
        if values is None or cvar not in values:
            raise TuneError("the container %s takes %s (%s), which mpivars did not give" % (name, key, cvar))
        keys["%s=%d" % (key, values[cvar])] = collections.OrderedDict()
    return collections.OrderedDict([("algorithm=" + name, keys)])


def mpich_tree(table, base, known=None, values=None):
    """MPICH's complete selection tree with the chosen ranges put in front of
    MPICH's own choice for the measured communicator sizes. `known`: the
    container names the library has (a chosen one missing is an error);
    `values`: the parameter CVARs' values (mpich_params), needed only where a
    chosen container takes parameters."""
    tree = copy.deepcopy(base)
    for (coll, ranks), chs in table.items():
        for ch in chs:
            c = ch.chosen()
            if c and known is not None and mpich_container(coll, c[1]) not in known:
                raise TuneError("MPICH has no selection container %s for %s=%s" % (
                    mpich_container(coll, c[1]), "MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper(), c[1]))
    for coll in sorted({c for c, _ in table}):
        top = tree.get("collective=" + coll)
        if isinstance(top, dict) and list(top)[:1] and list(top)[0].startswith("algorithm="):
            # gatherv, scatterv: one container for both kinds of communicator
            top = tree["collective=" + coll] = collections.OrderedDict([("comm_type=intra", top),
                                                                        ("comm_type=inter", top)])
        if not isinstance(top, dict) or "comm_type=intra" not in top:
            raise TuneError("MPICH's base tree has no collective=%s / comm_type=intra" % coll)
        default = top["comm_type=intra"]
        chain = mpich_chain(table, coll, default, values)
        if coll == "alltoall":  # tuned for separate buffers; MPI_IN_PLACE keeps MPICH's choice
            intra = collections.OrderedDict([("is_sendbuf_inplace=no", chain), ("is_sendbuf_inplace=yes", default)])
        elif coll == "allreduce":  # tuned for MPI_SUM on float; other operations keep MPICH's choice
            intra = collections.OrderedDict([
                ("is_commutative=yes", collections.OrderedDict([("is_op_built_in=yes", chain),
                                                                ("is_op_built_in=no", default)])),
                ("is_commutative=no", default)])
        elif coll in VECTOR:  # the reduce-scatters: csel asserts on is_op_built_in for them
            intra = collections.OrderedDict([("is_commutative=yes", chain), ("is_commutative=no", default)])
        else:  # the allgathers, and the rooted ones (no operation: csel asserts on is_commutative)
            intra = chain
        top["comm_type=intra"] = intra
    problems = check_mpich_tree(tree)
    if problems:
        raise TuneError("internal error: the MPICH tree would make MPICH assert: %s" % problems[0])
    return tree


def mpich_chain(table, coll, default, values):
    """comm_size<=N tests, each over its chosen ranges (MPICH's size key), the
    sizes and communicator sizes not measured left to `default`. gatherv and
    scatterv (no size key): an algorithm only where it was chosen at every
    measured size, and then for every size at that communicator size (a note
    on stderr says so, or why none)."""
    chain = collections.OrderedDict()
    below = 1
    key = MPICH_SIZE_KEY[coll]
    for ranks in sorted(r for c, r in table if c == coll):
        if ranks - 1 >= below:
            chain["comm_size<=%d" % (ranks - 1)] = default
        rs = ranges(table[(coll, ranks)])
        if key is None:
            one = rs[0][2] if len(rs) == 1 else None
            print("tune.py: note: MPICH has no message-size test for %s (csel asserts on one), so a choice holds for "
                  "every size of a communicator size: %d ranks: %s" % (
                      coll, ranks, "%s at every size" % one[0] if one else "MPICH's own (the measured sizes do not "
                      "agree on one algorithm)"), file=sys.stderr, flush=True)
            chain["comm_size<=%d" % ranks] = container(mpich_container(coll, one[1]), values) if one else default
        else:
            sized = collections.OrderedDict()
            for first, last, c in rs:
                sized["%s<=%d" % (key, mpich_rule_bytes(coll, last, ranks))] = \
                    container(mpich_container(coll, c[1]), values) if c else default
            sized["%s=any" % key] = default
            chain["comm_size<=%d" % ranks] = sized
        below = ranks + 1
    chain["comm_size=any"] = default
    return chain


MPICH_BOOLEAN = re.compile(r"^(is_multi_threaded|comm_type|comm_hierarchy|is_node_consecutive|is_sendbuf_inplace|"
                           r"is_block_regular|is_commutative|is_op_built_in|collective)=")
MPICH_KEYS = re.compile(r"^(collective=\w+|comm_type=(intra|inter)|is_multi_threaded=(yes|no)|"
                        r"comm_size(<=\d+|<\d+|=pow2|=node_comm_size|=any)|count(<=\d+|<pow2|=any)|"
                        r"(avg_msg_size|total_msg_size)(<=\d+|<\d+|=any)|"
                        r"(is_commutative|is_sendbuf_inplace|is_op_built_in|is_block_regular|is_node_consecutive)"
                        r"=(yes|no)|comm_avg_ppn(<=|<)\d+|comm_hierarchy=(parent|node_roots|node|flat|any))$")


def check_mpich_tree(tree, where="top", coll=None):
    """What MPICH 4.x's parser and validate_tree() assert on: a non-object, an
    unknown key, an '=any' test (any key ending in '=any', or 'any': csel.c's
    key_is_any) that is not the last of its siblings, a size or count test
    with no sibling after it; and what its search asserts on: a test under
    one of tune.py's collectives that csel does not evaluate for it
    (MPICH_KEY_COLLECTIVES: is_commutative under gather, any size under
    gatherv)."""
    problems = []
    if not isinstance(tree, dict) or not tree:
        return ["%s: expected a non-empty object" % where]
    keys = [k.replace(" ", "") for k in tree]
    if keys[0].startswith(("algorithm=", "composition=")):
        return []
    for i, k in enumerate(keys):
        last = i == len(keys) - 1
        if k.startswith(("algorithm=", "composition=")):
            problems.append("%s: container %s among tests" % (where, k))
            continue
        is_any = k == "any" or k.endswith("=any")
        if not is_any and not MPICH_KEYS.match(k):
            problems.append("%s: unknown key '%s'" % (where, k))
        elif is_any and not last:
            problems.append("%s: '%s' is followed by a sibling" % (where, k))
        elif last and not MPICH_BOOLEAN.match(k) and not is_any:
            problems.append("%s: '%s' has no following sibling (the failure path)" % (where, k))
        name = re.split(r"<=|<|=", k)[0]
        if coll in COLLECTIVES and coll not in MPICH_KEY_COLLECTIVES.get(name, (coll,)):
            problems.append("%s: '%s' under collective=%s: MPICH's csel does not evaluate %s for %s and asserts"
                            % (where, k, coll, name, coll))
        child = list(tree.values())[i]
        sub = k[len("collective="):] if k.startswith("collective=") else coll
        problems += check_mpich_tree(child, "%s/%s" % (where, k), sub)
    return problems


def mpich_lookup(tree, coll, ranks, size_bytes, dtype_size):
    """The container MPICH's selection reaches for an intracommunicator of
    `ranks` processes on one node, MPI_SUM on a built-in type, separate buffers."""
    count = size_bytes // dtype_size
    pof2 = 1
    while pof2 * 2 <= ranks:
        pof2 *= 2
    avg = size_bytes
    # gather, scatter: MPICH counts elements, not bytes (MPICH_SIZE_KEY)
    total = count * ranks if coll in ("gather", "scatter") else vector_bytes(coll, size_bytes, ranks)

    def test(k):
        if k == "any":
            return True
        name, op, val = re.match(r"^(\w+?)(<=|<|=)(.*)$", k).groups()
        if val == "any":
            return True
        if name == "collective":
            return val == coll
        if name == "comm_type":
            return val == "intra"
        if name == "is_multi_threaded":
            return val == "no"
        if name in ("is_commutative", "is_op_built_in", "is_block_regular", "is_node_consecutive"):
            return val == "yes"
        if name == "is_sendbuf_inplace":
            return val == "no"
        if name == "comm_hierarchy":
            return val == "parent"
        if name == "comm_size":
            if val == "pow2":
                return ranks & (ranks - 1) == 0
            if val == "node_comm_size":
                return True
            return ranks <= int(val) if op == "<=" else ranks < int(val)
        if name == "count":
            return count < pof2 if val == "pow2" else count <= int(val)
        if name in ("avg_msg_size", "total_msg_size"):
            v = avg if name == "avg_msg_size" else total
            return v <= int(val) if op == "<=" else v < int(val)
        if name == "comm_avg_ppn":  # one node: every rank on it
            return ranks <= int(val) if op == "<=" else ranks < int(val)
        raise TuneError("cannot evaluate MPICH key %s" % k)

    node = tree
    while True:
        keys = list(node)
        if keys and keys[0].startswith("algorithm="):
            return keys[0][len("algorithm="):]
        for k in keys:
            if test(k.replace(" ", "")):
                node = node[k]
                break
        else:
            return None
