"""Open MPI: which coll/base algorithm function ran. The function each
coll_tuned_<coll>_algorithm name runs, the per-size counts that
libmcb_ompi_coll_trace.so (src/tune/) writes, and a forced value judged
from them (ran, ignored, or handed to another algorithm). Nothing here
launches: launch.py preloads the library, openmpi.trace_config runs it."""

import collections
import os

# The coll/base function each algorithm name (as ompi_info prints it) runs, in
# Open MPI 4.1 and 5.0 (coll_tuned_<coll>_decision.c: *_intra_do_this). The
# numbers differ between versions and come from ompi_info; the names do not.
OMPI_FUNCTIONS = {
    "alltoall": {"linear": "alltoall_intra_basic_linear", "pairwise": "alltoall_intra_pairwise",
                 "modified_bruck": "alltoall_intra_bruck", "linear_sync": "alltoall_intra_linear_sync",
                 "two_proc": "alltoall_intra_two_procs"},
    "allgather": {"linear": "allgather_intra_basic_linear", "bruck": "allgather_intra_bruck",
                  "recursive_doubling": "allgather_intra_recursivedoubling", "ring": "allgather_intra_ring",
                  "neighbor": "allgather_intra_neighborexchange", "two_proc": "allgather_intra_two_procs",
                  "sparbit": "allgather_intra_sparbit"},  # Open MPI 5.0: allgather 7
    "allreduce": {"basic_linear": "allreduce_intra_basic_linear", "nonoverlapping": "allreduce_intra_nonoverlapping",
                  "recursive_doubling": "allreduce_intra_recursivedoubling", "ring": "allreduce_intra_ring",
                  "segmented_ring": "allreduce_intra_ring_segmented",
                  "rabenseifner": "allreduce_intra_redscat_allgather"},
    # Issue 71's collectives (scripts/peers/mpi_shm.py's forced peers too).
    "reduce_scatter_block": {"basic_linear": "reduce_scatter_block_basic_linear",
                             "recursive_doubling": "reduce_scatter_block_intra_recursivedoubling",
                             "recursive_halving": "reduce_scatter_block_intra_recursivehalving",
                             "butterfly": "reduce_scatter_block_intra_butterfly"},
    "reduce_scatter": {"non-overlapping": "reduce_scatter_intra_nonoverlapping",
                       "recursive_halving": "reduce_scatter_intra_basic_recursivehalving",
                       "ring": "reduce_scatter_intra_ring", "butterfly": "reduce_scatter_intra_butterfly"},
    "allgatherv": {"default": "allgatherv_intra_basic_default", "bruck": "allgatherv_intra_bruck",
                   "ring": "allgatherv_intra_ring", "neighbor": "allgatherv_intra_neighborexchange",
                   "two_proc": "allgatherv_intra_two_procs",
                   "sparbit": "allgatherv_intra_sparbit"},  # Open MPI 5.0: allgatherv 6
    # The rooted ones (coll/tuned has no gatherv or scatterv).
    "gather": {"basic_linear": "gather_intra_basic_linear", "binomial": "gather_intra_binomial",
               "linear_sync": "gather_intra_linear_sync"},
    "scatter": {"basic_linear": "scatter_intra_basic_linear", "binomial": "scatter_intra_binomial",
                "linear_nb": "scatter_intra_linear_nb"},
}
TRACE_LIBRARY = "src/tune/libmcb_ompi_coll_trace.so"


def read_trace(path, coll):
    """{bytes: {algorithm function: calls}} of rank 0 for this collective."""
    seen = collections.defaultdict(dict)
    if not os.path.isfile(path):
        return seen
    prefix = "ompi_coll_base_%s_" % coll
    with open(path) as f:
        for line in f:
            fields = dict(kv.split("=", 1) for kv in line.split())
            if fields.get("rank") != "0" or not fields.get("function", "").startswith(prefix):
                continue
            fn = fields["function"][len("ompi_coll_base_"):]
            if fn[len(coll):].startswith("_block_"):
                continue  # reduce_scatter_block's functions are not reduce_scatter's
            seen[int(fields["bytes"])][fn] = seen[int(fields["bytes"])].get(fn, 0) + int(fields["calls"])
    return seen


def observed_text(functions):
    return "+".join(sorted(functions)) if functions else ""


def ompi_names(coll, observed):
    """coll/base functions as Open MPI's algorithm names: 'allreduce_intra_ring' -> 'ring'."""
    names = {f: n for n, f in OMPI_FUNCTIONS.get(coll, {}).items()}
    return "+".join(names.get(f, f) for f in observed.split("+")) if observed else ""


def ompi_check_forced(coll, name, functions):
    """(status, note) of a forced Open MPI algorithm at one size, from the trace."""
    want = OMPI_FUNCTIONS.get(coll, {}).get(name)
    if want is None:
        return "ok", "no function known for %s in this Open MPI version: not traced" % name
    if want not in functions:
        return "ignored", "forced %s but %s ran" % (name, observed_text(functions) or "no coll/base function")
    others = [f for f, n in functions.items() if f != want and n >= functions[want]]
    if others:
        return "fallback", "Open MPI handed %s to %s at this size" % (name, "+".join(sorted(others)))
    return "ok", ""
