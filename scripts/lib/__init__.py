"""What the scripts of every folder share, imported as the package lib with
scripts/ on sys.path (each script puts it there: `from lib import needs`,
`from lib.mpi_tools import launcher`):

  needs.py      one line, not a traceback, when a Python library is missing
  mpi_tools.py  launching an MPI (the system's or one in a prefix) with an algorithm forced
"""
