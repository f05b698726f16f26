"""What the scripts share about launching an MPI (compare_selectors.py and
tune.py with one of its algorithms forced; the preload scripts with
LD_PRELOAD and MCB_* passed to every rank): the system's MPIs (Debian's
mpirun.openmpi, mpiexec.mpich) or one installed in a prefix of its own
(scripts/mpi/build-mpi.sh: /opt/mcb/openmpi-5.0.7, /opt/mcb/mpich-4.2.1),
the launch line of each (Open MPI 5's PRRTE spells oversubscription
differently), and the algorithm lists the MPI itself reports: Open MPI's
`ompi_info --param coll tuned --level 9 --parsable`, MPICH's `mpivars`.
Standard library only."""

import os
import re
import shutil
import subprocess

LIBRARY_NAME = {"openmpi": "Open MPI", "mpich": "MPICH"}
# Open MPI prints this when an MCA value is not in an enum, then silently runs its default.
OMPI_INVALID_ENUM = "An invalid value was supplied for an enum variable"
# The system's launchers, tried in order (Debian names them per MPI).
SYSTEM_LAUNCHERS = {"openmpi": ["mpirun.openmpi", "mpirun"], "mpich": ["mpiexec.mpich", "mpirun.mpich", "mpiexec"]}


class MpiToolError(Exception):
    """An MPI or a tool of it that is missing or says something unexpected: one line."""


def shell_line(cmd, env):
    """A command and its extra environment as one line a shell would take."""
    words = ["%s=%s" % kv for kv in sorted(env.items())] + list(cmd)
    return " ".join(w if w and all(c.isalnum() or c in "-_=.,:/+" for c in w) else "'%s'" % w for w in words)


def tool_beside(launcher, name):
    """The MPI tool `name` (ompi_info, mpivars) next to the launcher, else on PATH; None if neither."""
    here = os.path.join(os.path.dirname(os.path.realpath(shutil.which(launcher) or launcher)), name)
    return here if os.access(here, os.X_OK) else shutil.which(name)


def allow_root(env, mpi):
    """Open MPI refuses to run as root unless told: the variables that tell it
    (Open MPI 4's mpirun and Open MPI 5's PRRTE read the same two)."""
    if mpi == "openmpi" and hasattr(os, "geteuid") and os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


# CVARs that only let an MPICH start, kept by clean_env(): an MPICH configured
# with GPU support (the release tarball finds HIP or CUDA headers on its own)
# fails MPI_Init on a machine without a GPU unless MPIR_CVAR_ENABLE_GPU=0.
MPICH_START_CVARS = ("MPIR_CVAR_ENABLE_GPU",)


def clean_env(mpi, extra=None):
    """This process's environment for an MPI run whose forcing comes only
    from the caller: every MPIR_CVAR_* (but MPICH_START_CVARS) and
    OMPI_MCA_coll* removed, root allowed (allow_root), then `extra`."""
    env = {k: v for k, v in os.environ.items()
           if k in MPICH_START_CVARS or not k.startswith(("MPIR_CVAR_", "OMPI_MCA_coll"))}
    allow_root(env, mpi)
    env.update(extra or {})
    return env


# ----------------------------------------------------------------------------
# An MPI in a prefix of its own


def prefix_mpi(prefix):
    """openmpi or mpich, from the tools in PREFIX/bin: ompi_info is Open MPI's,
    mpichversion MPICH's. Raises MpiToolError for anything else."""
    bindir = os.path.join(prefix, "bin")
    if os.access(os.path.join(bindir, "ompi_info"), os.X_OK):
        return "openmpi"
    if os.access(os.path.join(bindir, "mpichversion"), os.X_OK):
        return "mpich"
    raise MpiToolError("--mpi-prefix %s: neither bin/ompi_info (Open MPI) nor bin/mpichversion (MPICH) is there "
                       "(scripts/mpi/build-mpi.sh NAME installs one)" % prefix)


def prefix_launcher(prefix):
    """PREFIX/bin/mpiexec (Open MPI 5's is PRRTE's, MPICH's is hydra's)."""
    path = os.path.join(prefix, "bin", "mpiexec")
    if not os.access(path, os.X_OK):
        raise MpiToolError("--mpi-prefix %s: no bin/mpiexec" % prefix)
    return path


def build_dir(repo, mpi, prefix=None):
    """The build of mcb for this MPI: build-mpi-NAME for a prefix (NAME its
    folder, as ci/test-mpi.sh names it), else build (Open MPI) or build-mpich."""
    if prefix:
        return os.path.join(repo, "build-mpi-" + os.path.basename(os.path.normpath(prefix)))
    return os.path.join(repo, "build-mpich" if mpi == "mpich" else "build")


def find_launcher(mpi, launcher=None, prefix=None):
    """The launcher to use: the one given, PREFIX/bin/mpiexec, else the system's."""
    if launcher:
        return launcher
    if prefix:
        return prefix_launcher(prefix)
    found = next((l for l in SYSTEM_LAUNCHERS[mpi] if shutil.which(l)), None)
    if found is None:
        raise MpiToolError("no launcher for %s found (tried %s); give --launcher or --mpi-prefix"
                           % (LIBRARY_NAME[mpi], ", ".join(SYSTEM_LAUNCHERS[mpi])))
    return found


def linked_mpi(binary):
    """(openmpi or mpich, path of the MPI library) a binary loads (ldd), or
    (None, names of the MPI-looking libraries). The name does not tell:
    Debian's MPICH is libmpich.so.12, an MPICH built from its release
    (/opt/mcb/mpich-4.2.1) is libmpi.so.12 like Open MPI's libmpi.so.40,
    so the library's own symbols do (Open MPI's ompi_mpi_comm_world,
    MPICH's MPIR_ functions)."""
    out = run_tool(["ldd", binary], timeout=60)
    for name, path in re.findall(r"^\s*(lib(?:mpi|mpich)\.so\S*)\s+=>\s+(\S+)", out, re.M):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"ompi_mpi_comm_world" in data:
            return "openmpi", path
        if b"MPIR_Init_thread" in data or b"MPICH" in data:
            return "mpich", path
    return None, ", ".join(sorted(set(re.findall(r"(lib\w*mpi\w*\.so[.\d]*)", out)))) or "no MPI library"


def require_prefix_library(binary, prefix):
    """MpiToolError (one line) unless `binary` loads its MPI from `prefix`."""
    _, library = linked_mpi(binary)
    if not os.path.realpath(library).startswith(os.path.realpath(prefix) + os.sep):
        raise MpiToolError("%s loads %s, not the MPI of --mpi-prefix %s (build mcb with -DMCB_MPI_PREFIX=%s)"
                           % (binary, library, prefix, prefix))


def binary_launcher(binary):
    """(openmpi or mpich, launcher, version) to run `binary` with the MPI it
    loads: that library's prefix's bin/mpiexec where it has one (an MPI of
    scripts/mpi/build-mpi.sh in /opt/mcb/NAME), else the system's launcher
    of that MPI. MpiToolError (one line) when the binary loads no MPI."""
    mpi, library = linked_mpi(binary)
    if mpi is None:
        raise MpiToolError("cannot tell the MPI of %s from ldd (it loads %s)" % (binary, library))
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(library)))
    own = os.path.join(prefix, "bin", "mpiexec")
    cmd = own if os.access(own, os.X_OK) and not prefix.startswith("/usr") else find_launcher(mpi)
    return mpi, cmd, mpi_version(mpi, cmd)


def run_tool(cmd, env=None, timeout=120):
    """The output (stdout and stderr) of an MPI tool; MpiToolError if it cannot run."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                              timeout=timeout, env=env).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise MpiToolError("%s: %s" % (cmd[0], e))


def mpi_version(mpi, launcher):
    """The version of the MPI the launcher belongs to (ompi_info --version, or
    mpichversion beside it); 'unknown' if its tool is missing."""
    tool = tool_beside(launcher, "ompi_info" if mpi == "openmpi" else "mpichversion")
    if tool is None:
        return "unknown"
    out = run_tool([tool, "--version"] if mpi == "openmpi" else [tool])
    m = re.search(r"v(\d+\.\d+(?:\.\d+)?)" if mpi == "openmpi" else r"Version:\s*(\S+)", out)
    return m.group(1) if m else "unknown"


def major(version):
    """4 of '4.1.4'; 0 for 'unknown'."""
    m = re.match(r"(\d+)", version or "")
    return int(m.group(1)) if m else 0


# ----------------------------------------------------------------------------
# Launch lines


def oversubscribe_args(mpi, version):
    """Launcher arguments to run more ranks than cores. Open MPI 4's mpirun
    takes --oversubscribe; Open MPI 5's PRRTE keeps it only as a deprecated
    alias of --map-by :OVERSUBSCRIBE (converted silently by 5.0.7, with a
    warning under schizo_ompi_warn_deprecations), so it gets the form it
    documents; MPICH's hydra needs nothing."""
    if mpi != "openmpi":
        return []
    return ["--map-by", ":OVERSUBSCRIBE"] if major(version) >= 5 else ["--oversubscribe"]


def launcher(mpi, n, env, bind="core", cmd=None, version=None, mca=()):
    """The launch line of `mpi` ("openmpi" or "mpich") for `n` ranks with the
    variables `env` passed to every rank (-x NAME=VALUE, -genv NAME VALUE)
    and Open MPI's MCA parameters `mca` [(name, value)]. `bind` "core" binds
    each rank to a core; None oversubscribes instead (more ranks than
    cores). `cmd` is the launcher (default: the system's), `version` the
    MPI's (Open MPI 5 spells oversubscription its own way). Run it with
    allow_root() in its environment."""
    if mpi == "openmpi":
        line = [cmd or "mpirun.openmpi", "--allow-run-as-root"]
        line += ["--bind-to", bind] if bind else oversubscribe_args(mpi, version) + ["--bind-to", "none"]
        line += ["-n", str(n)]
        for name, value in mca:
            line += ["--mca", name, str(value)]
        for name, value in env.items():
            line += ["-x", f"{name}={value}"]
    else:
        line = [cmd or "mpiexec.mpich"] + (["-bind-to", bind] if bind else []) + ["-n", str(n)]
        for name, value in env.items():
            line += ["-genv", name, value]
    return line


def binding(ranks):
    """How launcher() places `ranks` ranks here: bound to cores while they fit, else oversubscribed."""
    return "core" if ranks <= (os.cpu_count() or 1) else None


# ----------------------------------------------------------------------------
# The algorithm lists, from the MPI itself


def ompi_tuned_params(ompi_info, env=None):
    """`ompi_info --param coll tuned --level 9 --parsable` (one line per
    attribute: mca:coll:tuned:param:NAME:ATTRIBUTE:VALUE)."""
    return run_tool([ompi_info, "--param", "coll", "tuned", "--level", "9", "--parsable"], env)


def parse_ompi_enum(text, param):
    """[(value, name)] of an enum MCA parameter in ompi_info's parsable output:
    mca:coll:tuned:param:PARAM:enumerator:value:N:NAME."""
    pat = r"^mca:coll:tuned:param:%s:enumerator:value:(\d+):(\S+)\s*$" % re.escape(param)
    return [(int(v), name) for v, name in re.findall(pat, text, re.M)]


def parse_ompi_value(text, param):
    """The current value of an MCA parameter (mca:coll:tuned:param:PARAM:value:V), or None."""
    m = re.search(r"^mca:coll:tuned:param:%s:value:(.*)$" % re.escape(param), text, re.M)
    return m.group(1).strip() if m else None


def ompi_algorithms_from(text, coll):
    """[(name, value)] of coll_tuned_<coll>_algorithm, 0 ("ignore": Open MPI's
    own decision) left out. MpiToolError if the parameter is not listed."""
    found = parse_ompi_enum(text, "coll_tuned_%s_algorithm" % coll)
    if not found:
        raise MpiToolError("ompi_info lists no coll_tuned_%s_algorithm (is coll/tuned built?)" % coll)
    return [(name, v) for v, name in found if v != 0]


def mpivars_entry(text, cvar):
    """mpivars' entry of one CVAR: 'NAME=VALUE<tab>SCOPE ... description', or
    None. MPICH 4.0's mpivars joins the description's lines without a
    separator; 4.2's prints them as they are, each on a line of its own
    after the CVAR's (up to the next line that starts with a tab, or a
    count of variables)."""
    m = re.search(r"^\s*%s *=([^\n]*(?:\n(?![\t\n]|\d+ MPI )[^\n]*)*)" % re.escape(cvar), text, re.M)
    return m.group(1) if m else None


def parse_mpivars_value(text, cvar):
    """The current value mpivars prints for a CVAR (the text before the first tab), or None."""
    entry = mpivars_entry(text, cvar)
    return entry.split("\t", 1)[0].strip() if entry is not None else None


def parse_mpivars_algorithms(text, coll):
    """The values of MPIR_CVAR_<COLL>_INTRA_ALGORITHM that mpivars lists, auto
    left out. MPICH 4.2 prints one "NAME   - description" a line. MPICH 4.0
    joins the lines: "...FILE)brucks             - Force brucks
    algorithmk_brucks - Force ...". Every name of one CVAR is padded to one
    width W, so a name followed by n > 1 spaces is the last W - n
    characters of its token; a name as long as W or longer has one space,
    and is what follows the last word of the description before it
    ("... algorithm")."""
    cvar = "MPIR_CVAR_%s_INTRA_ALGORITHM" % coll.upper()
    entry = mpivars_entry(text, cvar)
    if entry is None:
        raise MpiToolError("mpivars lists no %s" % cvar)
    lines = entry.split("\n")
    if len(lines) > 1:
        names = [m.group(1) for m in (re.match(r"([A-Za-z0-9_]+) +- ", l) for l in lines[1:]) if m]
        names = [n for n in names if not n.endswith("auto")]
    else:
        names = joined_names(entry)
    if not names:
        raise MpiToolError("cannot read the values of %s from mpivars" % cvar)
    return names


def joined_names(entry):
    """The value names of one mpivars line whose description lines were joined (MPICH 4.0).
    The width W comes from the first name, the one that stands clean after
    the ')' ending auto's description; else from the shortest padded token
    (which is wrong when every padded one is glued to "algorithm": gather's
    "binomial, nb" read as "algorithmnb" alone)."""
    entries = re.findall(r"([A-Za-z0-9_]+)( +)- ", entry)
    entries = [(t, len(sp)) for t, sp in entries if not t.endswith("auto")]
    first = re.search(r"\)([A-Za-z0-9_]+)( +)- ", entry)
    if first and not first.group(1).endswith("auto"):
        width = len(first.group(1)) + len(first.group(2))
    else:
        width = min((len(t) + n for t, n in entries if n > 1), default=0)
    names = []
    for token, n in entries:
        if n > 1 and width - n > 0:
            names.append(token[len(token) - (width - n):])
        else:
            name = token.rsplit("algorithm", 1)[-1]
            if len(name) >= width - 1 > 0 or (not width and name):
                names.append(name)
    return names


def mpivars_output(mpivars, env=None):
    return run_tool([mpivars], env)
