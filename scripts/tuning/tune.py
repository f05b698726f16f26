#!/usr/bin/env python3
"""Tune an MPI's own collective selection from mcb measurements.

For alltoall, allgather, allreduce, reduce_scatter_block, reduce_scatter,
allgatherv, gather, gatherv, scatter and scatterv (--collectives; default all
ten; the rooted ones at mcb's root, rank 0; Open MPI's coll/tuned has no
gatherv or scatterv: left out there, refused when named), runs
`mcb_<coll> --algorithm system` with each of the MPI's algorithms forced in turn, picks per (communicator
size, message size) the fastest one where it beats the MPI's default beyond
the noise, and writes the file the MPI reads to use those choices:

  Open MPI 4.1, 5.0  a coll/tuned dynamic rules file (5.0: format 2,
                its "rule-file-version-2" first line), used with
                --mca coll_tuned_use_dynamic_rules 1
                --mca coll_tuned_dynamic_rules_filename FILE
  MPICH 4.0, 4.2  a complete collective-selection JSON tree, used with
                MPIR_CVAR_DEVICE_COLLECTIVES=none
                MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE

Usage:
  tune.py [--build DIR] [-n 2,4] [-m 1:1048576] [--collectives LIST]
          [--repeats 3] [--threshold 0.05] [--mcb] [--out DIR]
  tune.py --mpi-prefix /opt/mcb/openmpi-5.0.7 ...   (an MPI in a prefix:
          its bin/mpiexec, its ompi_info or mpivars, build-mpi-NAME)
  tune.py --measurements DIR/measurements.csv [--out DIR]    (choose again)
  tune.py --verify FILE [--build DIR] [-n 2,4] [-m SIZES]     (check a file)

The choice: per size, the fastest forced algorithm is kept only if its
slowest repetition beats the default's fastest by more than --threshold
(the repetitions' spread is the noise); adjacent sizes with the same choice
merge into one range. Rules apply at the measured communicator sizes only
(other sizes, and messages above the largest measured, keep the MPI's own
choice). docs/tune.md describes the files, the units and the checks.

Forcing, and how an ignored force is caught:
  Open MPI: --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_<coll>_algorithm N
    for every N that the MPI's own ompi_info lists (--parsable). A short
    extra run per configuration with libmcb_ompi_coll_trace.so preloaded
    records which coll/base function ran at every size: a forced value that did not run its function, or that
    Open MPI handed to another algorithm (a ring given fewer elements than
    ranks runs recursive doubling), is reported and never chosen.
  MPICH: MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLLECTIVE_FALLBACK=print
    MPIR_CVAR_<COLL>_INTRA_ALGORITHM=NAME for every NAME that the MPI's own
    mpivars lists; the lines MPICH prints where an algorithm cannot run mark
    the size as a fallback.
  A forced run that fails (exit status, validation) is retried size by size;
  the sizes that fail are reported as refused.

Standard library only. The code is the package scripts/tuning/mcbtune/, one module
per job (its __init__.py lists them); this file is the command.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib (mpi_tools)
from mcbtune.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
