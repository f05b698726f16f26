"""scripts/tuning/tune.py's code: tune the system MPI's own collective selection
from mcb measurements (docs/tune.md). Standard library only; scripts/tuning/tune.py
is the command (it runs main() of cli.py).

One job per module, each importing only the ones above it:

  common.py         the collectives, TuneError (one line; exit 2 for bad input, else 1), the binaries
  openmpi_trace.py  Open MPI: which coll/base function ran (libmcb_ompi_coll_trace.so), a forced value judged
  launch.py         running mcb once: environment, configurations, launch line, CSV rows, retry size by size
  choose.py         the choice per size (threshold over the repeats' noise) and its ranges
  openmpi.py        Open MPI: ompi_info, coll_tuned values, the traced launch, the dynamic rules file
  mpich.py          MPICH: mpivars, CVARs, fallback lines, the canary, the JSON tree and its parser checks
  sweep.py          every configuration repeated and interleaved; measurements.csv
  report.py         the report's tables and the command line that heads report.txt
  verify.py         --verify FILE
  cli.py            the command line and main(): a sweep, --measurements or --verify; the files written

scripts/lib/mpi_tools.py (shared with compare_selectors.py) is imported as
lib.mpi_tools: scripts/ is on sys.path when scripts/tuning/tune.py runs.
"""
