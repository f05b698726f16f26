"""What the scripts share about launching the system MPI (compare_selectors.py
and tune.py with one of its algorithms forced; the preload scripts with
LD_PRELOAD and MCB_* passed to every rank). Standard library only."""

import os
import shutil

LIBRARY_NAME = {"openmpi": "Open MPI", "mpich": "MPICH"}
# Open MPI prints this when an MCA value is not in an enum, then silently runs its default.
OMPI_INVALID_ENUM = "An invalid value was supplied for an enum variable"


def shell_line(cmd, env):
    """A command and its extra environment as one line a shell would take."""
    words = ["%s=%s" % kv for kv in sorted(env.items())] + list(cmd)
    return " ".join(w if w and all(c.isalnum() or c in "-_=.,:/+" for c in w) else "'%s'" % w for w in words)


def tool_beside(launcher, name):
    """The MPI tool `name` (ompi_info, mpivars) next to the launcher, else on PATH; None if neither."""
    here = os.path.join(os.path.dirname(os.path.realpath(shutil.which(launcher) or launcher)), name)
    return here if os.access(here, os.X_OK) else shutil.which(name)


def allow_root(env, mpi):
    """Open MPI refuses to run as root unless told: the variables that tell it."""
    if mpi == "openmpi" and hasattr(os, "geteuid") and os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


def launcher(mpi, n, env, bind="core"):
    """The launcher of `mpi` ("openmpi" or "mpich") for `n` ranks with the
    variables `env` passed to every rank. `bind` "core" binds each rank to
    a core; None oversubscribes instead (more ranks than cores)."""
    if mpi == "openmpi":
        cmd = ["mpirun.openmpi", "--allow-run-as-root"]
        cmd += ["--bind-to", bind] if bind else ["--oversubscribe"]
        cmd += ["-n", str(n)]
        for name, value in env.items():
            cmd += ["-x", f"{name}={value}"]
    else:
        cmd = ["mpiexec.mpich"] + (["-bind-to", bind] if bind else []) + ["-n", str(n)]
        for name, value in env.items():
            cmd += ["-genv", name, value]
    return cmd
