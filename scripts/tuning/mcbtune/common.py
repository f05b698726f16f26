"""What every module of tune.py shares: the collectives it tunes, the error
that ends it with one line (TuneError: exit status 2 for bad input, else
1), the sizes mcb runs by default, and where a build's binaries are."""

import os

# gather, gatherv, scatter and scatterv: mcb's binaries root them at rank 0 (no option), so does the sweep.
COLLECTIVES = ("alltoall", "allgather", "allreduce", "reduce_scatter_block", "reduce_scatter", "allgatherv",
               "gather", "gatherv", "scatter", "scatterv")
# mcb's -m size is the vector for these (float elements), one rank's block
# for the others (char): what the MPIs' size tests multiply by the
# communicator's size or not.
VECTOR = ("allreduce", "reduce_scatter_block", "reduce_scatter")


class TuneError(Exception):
    """Bad input, or a run that cannot be trusted: one line, exit status 2 (input) or 1."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def fail_input(message):
    raise TuneError(message, 2)


def sizes_text(args, coll):
    if args.message_size:
        return args.message_size
    return "4:1048576" if coll in VECTOR else "1:1048576"


def vector_bytes(coll, size_bytes, ranks):
    """The bytes of the whole vector of one call: mcb's size for the
    reductions, the block x the communicator's size for the others (the
    root's whole buffer for gather and scatter)."""
    return size_bytes if coll in VECTOR else size_bytes * ranks


def binary(args, coll):
    return os.path.join(args.build, "src", "mcb_" + coll)
