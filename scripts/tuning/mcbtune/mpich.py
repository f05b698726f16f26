"""MPICH 4.x collective selection: the MPIR_CVAR_<COLL>_INTRA_ALGORITHM
values from mpivars, its version, its own selection tree (compiled into
libmpich, or --mpich-base-json), the fallback lines that show a forced
algorithm did not run, the canary that shows MPICH reads the tuning file,
and the JSON tree: written from the choice, checked for what MPICH's
parser asserts on, and looked up as MPICH's selection walks it."""

import collections
import copy
import json
import os
import re
import shutil
import subprocess

from mpi_tools import tool_beside

from .choose import ranges
from .common import TuneError, binary, fail_input
from .launch import file_config, first_error, launch, mpi_env

# The size test MPICH's selection supports per collective (src/mpi/coll/src/csel.c:
# get_avg_msgsize has no allgather; get_total_msgsize = bytes x communicator size).
MPICH_SIZE_KEY = {"alltoall": "avg_msg_size", "allreduce": "avg_msg_size", "allgather": "total_msg_size"}


def mpich_rule_bytes(coll, size_bytes, ranks):
    return size_bytes * ranks if MPICH_SIZE_KEY[coll] == "total_msg_size" else size_bytes


def mpich_container(coll, value):
    """MPIR_CVAR_<COLL>_INTRA_ALGORITHM value -> the JSON container name."""
    title = coll.capitalize()
    return "MPIR_%s_allcomm_nb" % title if value == "nb" else "MPIR_%s_intra_%s" % (title, value)


def mpich_value(coll, container):
    title = coll.capitalize()
    if container == "MPIR_%s_allcomm_nb" % title:
        return "nb"
    prefix = "MPIR_%s_intra_" % title
    return container[len(prefix):] if container.startswith(prefix) else None


def mpich_library(path):
    out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, universal_newlines=True).stdout
    m = re.search(r"libmpich\.so\S*\s+=>\s+(\S+)", out)
    if not m:
        raise TuneError("cannot find libmpich in ldd %s" % path)
    return m.group(1)


def mpich_algorithms(args, coll):
    """[(name, name)] of MPIR_CVAR_<COLL>_INTRA_ALGORITHM from mpivars, 'auto' left out."""
    tool = tool_beside(args.launcher, "mpivars")
    if tool is None:
        raise TuneError("mpivars not found beside %s or on PATH" % args.launcher)
    out = subprocess.run([tool], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                         timeout=120, env=mpi_env(args)).stdout
    m = re.search(r"MPIR_CVAR_%s_INTRA_ALGORITHM\s*=[^\n]*" % coll.upper(), out)
    if not m:
        raise TuneError("mpivars lists no MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper())
    # mpivars joins the lines of the description: "...FILE)brucks      - Force brucks
    # algorithmnb          - Force ...": every name is padded to one width W.
    entries = re.findall(r"([A-Za-z0-9_]+)( +)- ", m.group(0).split("=", 1)[1])
    entries = [(t, len(sp)) for t, sp in entries if not t.endswith("auto")]
    width = min((len(t) + n for t, n in entries), default=0)
    names = [t[len(t) - (width - n):] for t, n in entries if width - n > 0]
    if not names:
        raise TuneError("cannot read the values of MPIR_CVAR_%s_INTRA_ALGORITHM from mpivars" % coll.upper())
    return [(n, n) for n in names]


def mpich_version(args):
    tool = shutil.which("mpichversion")
    out = subprocess.run([tool], stdout=subprocess.PIPE, universal_newlines=True).stdout if tool else ""
    m = re.search(r"Version:\s*(\S+)", out)
    return m.group(1) if m else "unknown"


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
    """MPICH must refuse an empty selection tree: if it runs, it ignores the variable."""
    bad = os.path.join(tmp, "canary.json")
    with open(bad, "w") as f:
        f.write("{}\n")
    rc, out, line = launch(args, args.collectives[0], min(args.ranks), file_config(args, bad), "8",
                           os.path.join(tmp, "canary.csv"), 1, 0)
    if rc == 0:
        raise TuneError("MPICH ran with an empty tuning tree: it ignores MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE "
                        "here (%s)" % line)


def container(name):
    return collections.OrderedDict([("algorithm=" + name, collections.OrderedDict())])


def mpich_tree(table, base, known=None):
    """MPICH's complete selection tree with the chosen ranges put in front of
    MPICH's own choice for the measured communicator sizes. `known`: the
    container names the library has (a chosen one missing is an error)."""
    tree = copy.deepcopy(base)
    for (coll, ranks), chs in table.items():
        for ch in chs:
            c = ch.chosen()
            if c and known is not None and mpich_container(coll, c[1]) not in known:
                raise TuneError("MPICH has no selection container %s for %s=%s" % (
                    mpich_container(coll, c[1]), "MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper(), c[1]))
    for coll in sorted({c for c, _ in table}):
        top = tree.get("collective=" + coll)
        if not isinstance(top, dict) or "comm_type=intra" not in top:
            raise TuneError("MPICH's base tree has no collective=%s / comm_type=intra" % coll)
        default = top["comm_type=intra"]
        chain = collections.OrderedDict()
        below = 1
        for ranks in sorted(r for c, r in table if c == coll):
            if ranks - 1 >= below:
                chain["comm_size<=%d" % (ranks - 1)] = default
            sized = collections.OrderedDict()
            key = MPICH_SIZE_KEY[coll]
            for first, last, c in ranges(table[(coll, ranks)]):
                sized["%s<=%d" % (key, mpich_rule_bytes(coll, last, ranks))] = \
                    container(mpich_container(coll, c[1])) if c else default
            sized["%s=any" % key] = default
            chain["comm_size<=%d" % ranks] = sized
            below = ranks + 1
        chain["comm_size=any"] = default
        if coll == "alltoall":  # tuned for separate buffers; MPI_IN_PLACE keeps MPICH's choice
            intra = collections.OrderedDict([("is_sendbuf_inplace=no", chain), ("is_sendbuf_inplace=yes", default)])
        elif coll == "allreduce":  # tuned for MPI_SUM on float; other operations keep MPICH's choice
            intra = collections.OrderedDict([
                ("is_commutative=yes", collections.OrderedDict([("is_op_built_in=yes", chain),
                                                                ("is_op_built_in=no", default)])),
                ("is_commutative=no", default)])
        else:
            intra = chain
        top["comm_type=intra"] = intra
    problems = check_mpich_tree(tree)
    if problems:
        raise TuneError("internal error: the MPICH tree would make MPICH assert: %s" % problems[0])
    return tree


MPICH_ANY = ("comm_size=any", "avg_msg_size=any", "total_msg_size=any", "count=any")
MPICH_BOOLEAN = re.compile(r"^(is_multi_threaded|comm_type|comm_hierarchy|is_node_consecutive|is_sendbuf_inplace|"
                           r"is_block_regular|is_commutative|is_op_built_in|collective)=")
MPICH_KEYS = re.compile(r"^(collective=\w+|comm_type=(intra|inter)|is_multi_threaded=(yes|no)|"
                        r"comm_size(<=\d+|<\d+|=pow2|=node_comm_size|=any)|count(<=\d+|<pow2|=any)|"
                        r"(avg_msg_size|total_msg_size)(<=\d+|<\d+|=any)|"
                        r"(is_commutative|is_sendbuf_inplace|is_op_built_in|is_block_regular|is_node_consecutive)"
                        r"=(yes|no)|comm_avg_ppn<=\d+|comm_hierarchy=(parent|node_roots|node|flat|any))$")


def check_mpich_tree(tree, where="top"):
    """What MPICH 4.x's parser and validate_tree() assert on: a non-object, an
    unknown key, an '=any' test that is not the last of its siblings, a size
    or count test with no sibling after it."""
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
        if not MPICH_KEYS.match(k):
            problems.append("%s: unknown key '%s'" % (where, k))
        elif k in MPICH_ANY and not last:
            problems.append("%s: '%s' is followed by a sibling" % (where, k))
        elif last and not MPICH_BOOLEAN.match(k) and k not in MPICH_ANY:
            problems.append("%s: '%s' has no following sibling (the failure path)" % (where, k))
        child = list(tree.values())[i]
        problems += check_mpich_tree(child, "%s/%s" % (where, k))
    return problems


def mpich_lookup(tree, coll, ranks, size_bytes, dtype_size):
    """The container MPICH's selection reaches for an intracommunicator of
    `ranks` processes on one node, MPI_SUM on a built-in type, separate buffers."""
    count = size_bytes // dtype_size
    pof2 = 1
    while pof2 * 2 <= ranks:
        pof2 *= 2
    avg = size_bytes
    total = size_bytes * ranks

    def test(k):
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
        if name == "comm_avg_ppn":
            return ranks <= int(val)
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
