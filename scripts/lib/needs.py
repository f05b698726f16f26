"""One line, not a traceback, when a script's Python library is missing.

mcb's scripts use Debian's pandas, matplotlib and numpy (python3-pandas,
python3-matplotlib, python3-numpy), which /usr/bin/python3 finds; another
python3 earlier on the PATH (pyenv, conda, a module system's) often lacks
them. A script calls need() before importing them:

    from lib import needs  # scripts/ on sys.path
    needs.need("pandas")
    import pandas as pd
"""
import importlib
import os
import sys

DEBIAN = {"pandas": "python3-pandas", "matplotlib": "python3-matplotlib", "numpy": "python3-numpy"}


def need(*modules):
    """Exits with status 2 and one line naming what to install and which
    interpreter has it when one of `modules` cannot be imported."""
    missing = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            missing.append(m)
    if missing:
        prog = os.path.basename(sys.argv[0]) or "mcb"
        packages = " ".join(DEBIAN.get(m, m) for m in missing)
        what = f"{prog}: needs the Python package{'s' if len(missing) > 1 else ''} {', '.join(missing)}, which " \
               f"{sys.executable} does not have: "
        if os.path.realpath(sys.executable) == os.path.realpath("/usr/bin/python3"):
            what += f"apt-get install {packages}"
        else:
            what += f"run it with /usr/bin/python3 (Debian's, with {packages})"
        print(what, file=sys.stderr)
        sys.exit(2)
