#!/usr/bin/env python3
"""Makes one paper figure by its name, and holds the table of the figures
that are only data: a helper of locality_common.py or ppg_common.py called
with a few arguments is a row of TABLE in this file, not a script of its
own.

    /usr/bin/python3 plots/figure.py NAME RESULTS_DIR [-o OUTDIR]
    /usr/bin/python3 plots/figure.py --list          # every figure: paper, figure, data
    /usr/bin/python3 plots/figure.py NAME --help     # what NAME shows and what it reads

NAME is any figure that plots/all.py draws: a row of TABLE (locality_fig07,
ppg_fig08, ...) or a figure script of its own (tra_fig04 is
plots/tra_fig04.py, which also runs alone). Writes NAME.png and NAME.pdf
into OUTDIR (default RESULTS_DIR/figures) and prints the summary line;
exit 3 when RESULTS_DIR lacks the data (the line names the file and the
script that writes it). scripts/batch/figures.md lists the figures.
"""
import argparse
import importlib
import os
import sys
import textwrap
from typing import Callable, NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import locality_common  # noqa: E402 (they import mcbplot first: one line when a library is missing)
import mcbplot  # noqa: E402
import multiradix_common  # noqa: E402
import ppg_common  # noqa: E402
import tra_fig10  # noqa: E402 (a figure script whose loading and style Figure 12 shares)


class Figure(NamedTuple):
    """One figure of TABLE: helper(directory, outdir, name, *args) makes it."""
    name: str  # the output files' name (NAME.png, NAME.pdf), the command line's NAME
    paper: str  # the paper and its figure, with the caption's words
    shows: str  # what the figure shows
    data: str  # the results files it reads (the script that writes them): all.py's FIGURES
    helper: Callable
    args: tuple = ()

    def make(self, directory, outdir):
        self.helper(directory, outdir, self.name, *self.args)

    @property
    def doc(self):
        return (textwrap.fill(f"{self.paper}: {' '.join(self.shows.split())}", 76) +
                f"\n\nData: {self.data}.\n    /usr/bin/python3 plots/figure.py {self.name} RESULTS_DIR [-o OUTDIR]\n")


LOCALITY = "alltoall-manycore-locality"
LEADERS = "alltoall_leaders-*.csv (scripts/batch/alltoall_leaders.sbatch)"
NODES = "alltoall_nodes-*.csv (scripts/batch/alltoall_nodes.sbatch)"
PPG = "allreduce-multi-process-per-gpu"
MULTIRADIX = "allreduce-shared-memory-multiradix"
BREAKDOWN = "(scripts/batch/alltoall_breakdown.sbatch)"
PPG_RUNS = "Mean of the runs, error bars from the fastest to the slowest run"

TABLE = [
    Figure("locality_fig07", f'{LOCALITY}, Figure 7 ("Hierarchical vs Multileader")', """
        the hierarchical alltoall (one leader per node) against multi-leader (Algorithm 3) with 4, 8 and 16
        processes per leader, and the system MPI as the reference, time against bytes per process (4 B to 4 KiB)
        on the largest node count, pairwise inner exchanges solid, nonblocking dashed, the minimum of the runs.""",
           LEADERS, locality_common.by_leaders,
           # The reference, the one-leader algorithm, and the algorithm whose leaders vary.
           ("Hierarchical vs multi-leader", ["system", "hierarchical", "multileader"], "procs-per-leader",
            "procs/leader")),
    Figure("locality_fig08", f'{LOCALITY}, Figure 8 ("Node-Aware vs Locality-Aware")', """
        the node-aware alltoall (one group per node) against locality-aware aggregation (Algorithm 4) with 4, 8
        and 16 processes per group, and the system MPI as the reference, time against bytes per process (4 B to
        4 KiB) on the largest node count, pairwise inner exchanges solid, nonblocking dashed, the minimum of the
        runs.""",
           LEADERS, locality_common.by_leaders,
           # The reference, the one-group algorithm, and the algorithm whose groups vary.
           ("Node-aware vs locality-aware", ["system", "node_aware", "locality_aware"], "procs-per-group",
            "procs/group")),
    Figure("locality_fig09", f'{LOCALITY}, Figure 9 ("Multileader + Locality")', """
        the multi-leader node-aware alltoall (Algorithm 5) with 4, 8 and 16 processes per leader, and the system
        MPI as the reference, time against bytes per process (4 B to 4 KiB) on the largest node count, pairwise
        inner exchanges solid, nonblocking dashed, the minimum of the runs.""",
           LEADERS, locality_common.by_leaders,
           # The reference and the algorithm whose leaders vary, as in the paper (with one
           # leader per node it is hierarchical, with every rank a leader node-aware).
           ("Multi-leader + node-aware", ["system", "multileader_node_aware"], "procs-per-leader", "procs/leader")),
    Figure("locality_fig11", f'{LOCALITY}, Figure 11 ("Message Size: 4 bytes, Node Scaling")', """
        every alltoall algorithm of the paper against the system MPI at 4 bytes per process, time against the
        number of nodes (2 to 32 in the paper), pairwise inner exchanges solid, nonblocking dashed, 4 processes
        per leader or group, the minimum of the runs. One launch with mcb --nodes: the nodes column varies
        inside a file.""",
           NODES, locality_common.node_scaling, (4,)),
    Figure("locality_fig12", f'{LOCALITY}, Figure 12 ("Message Size 4096 bytes, Node Scaling")', """
        every alltoall algorithm of the paper against the system MPI at 4096 bytes per process, time against
        the number of nodes (2 to 32 in the paper), pairwise inner exchanges solid, nonblocking dashed, 4
        processes per leader or group, the minimum of the runs. One launch with mcb --nodes: the nodes column
        varies inside a file.""",
           NODES, locality_common.node_scaling, (4096,)),
    Figure("locality_fig13", f'{LOCALITY}, Figure 13 ("Dane, various sizes, 32 nodes, Hierarchical Timing '
           'Breakdown")', """
        the time of each phase of the hierarchical alltoall (gather, repack, inter-node alltoall among the
        leaders, scatter) as stacked bars against bytes per process (4 B to 4 KiB), one panel per inner exchange
        (pairwise, nonblocking), on the largest node count; a black tick marks the whole operation's time. Each
        phase timed alone between barriers (phase_mode "isolated", as the paper measured;
        locality_common.PHASE_MODE); each bar is the run with the smallest total (the paper plots the minimum of
        its runs).""",
           "breakdown_hierarchical-*.csv (scripts/batch/alltoall_breakdown.sbatch)", locality_common.breakdown_by_inner,
           ("hierarchical", "Hierarchical timing breakdown")),
    Figure("locality_fig14", f'{LOCALITY}, Figure 14 ("Dane, various sizes, 32 nodes, Node Aware Timing '
           'Breakdown")', """
        the time of each phase of the node-aware alltoall (inter-node alltoall on the lane, repack, intra-node
        alltoall) as stacked bars against bytes per process (4 B to 4 KiB), one panel per inner exchange
        (pairwise, nonblocking), on the largest node count; a black tick marks the whole operation's time.
        Phases timed alone (isolated), the run with the smallest total (see locality_common.py).""",
           "breakdown_node_aware-*.csv (scripts/batch/alltoall_breakdown.sbatch)", locality_common.breakdown_by_inner,
           ("node_aware", "Node-aware timing breakdown")),
    Figure("ppg_fig08", f"{PPG}, Figure 8 (multi-lane GPU-aware performance on 8 nodes of Delta, varying buffer "
           "sizes)", f"""
        the standard MPI_Allreduce (ppg_standard) against the multi-lane allreduce (ppg_lane with the system
        MPI's allreduce between nodes), one process per GPU, all GPUs of every node, time against the buffer
        size in floats, on all the nodes of the run. {PPG_RUNS} (the paper's run-to-run variation, 10 runs).""",
           "allreduce_ppg_sizes-p1-*.csv (scripts/batch/allreduce_ppg.sbatch)", ppg_common.standard_vs_lane, ("sizes",)),
    Figure("ppg_fig09", f"{PPG}, Figure 9 (multi-lane GPU-aware performance of 2^27 floats on Delta, varying node "
           "counts)", f"""
        the standard MPI_Allreduce (ppg_standard) against the multi-lane allreduce (ppg_lane with the system
        MPI's allreduce between nodes), one process per GPU, all GPUs of every node, time of the node-scaling
        buffer against the node count (1, 2, 4, ... nodes of one launch, mcb --nodes). {PPG_RUNS} (the paper's
        run-to-run variation).""",
           "allreduce_ppg_nodes-p1-*.csv (scripts/batch/allreduce_ppg.sbatch)", ppg_common.standard_vs_lane, ("nodes",)),
    Figure("ppg_fig10", f"{PPG}, Figure 10 (a standard MPI_Allreduce with multiple processes per GPU on Delta)", f"""
        the standard allreduce (ppg_standard: each of a GPU's PPG processes allreduces its slice of the buffer)
        with PPG 1, 2, 4, 8, 16, one line per PPG, time against the node count at the node-scaling buffer (2^27
        floats in the paper). Against node count because the paper's text reads this figure that way (speedups
        growing with the node count, over 1.7x at 32 nodes); Figure 12 gives the sizes. {PPG_RUNS}.""",
           "allreduce_ppg_nodes-p*-*.csv, 2 PPG or more (scripts/batch/allreduce_ppg.sbatch)", ppg_common.by_ppg,
           ("nodes", "ppg_standard")),
    Figure("ppg_fig11", f"{PPG}, Figure 11 (the multi-lane all-reduce with multiple processes per GPU on Delta)",
           f"""
        the multi-lane allreduce (ppg_lane, the system MPI's allreduce between nodes) with PPG 1, 2, 4, 8, 16,
        one line per PPG, time against the node count at the node-scaling buffer (2^27 floats in the paper), as
        Figure 10 (the paper's 1.39x is read at 8 nodes). {PPG_RUNS}.""",
           "allreduce_ppg_nodes-p*-*.csv, 2 PPG or more (scripts/batch/allreduce_ppg.sbatch)", ppg_common.by_ppg,
           ("nodes", "ppg_lane", "system")),
    Figure("ppg_fig12", f"{PPG}, Figure 12 (standard and multi-lane algorithms with multiple processes per GPU on "
           "8 nodes of Delta, varying buffer sizes)", f"""
        the standard allreduce, the multi-lane one (system MPI between nodes) and the multi-lane one with the
        ring between nodes, with 1 process per GPU (dashed, open markers) and the largest PPG of the files
        (solid; 16 in the paper), time against the buffer size in floats on all the nodes of the run.
        {PPG_RUNS}.""",
           "allreduce_ppg_sizes-p*-*.csv, 2 PPG or more (scripts/batch/allreduce_ppg.sbatch)", ppg_common.one_vs_most,
           ("sizes",)),
    Figure("ppg_fig13", f"{PPG}, Figure 13 (standard and multi-lane algorithms with multiple processes per GPU of "
           "2^27 floats on Delta, varying node counts)", f"""
        the standard allreduce, the multi-lane one (system MPI between nodes) and the multi-lane one with the
        ring between nodes, with 1 process per GPU (dashed, open markers) and the largest PPG of the files
        (solid; 16 in the paper), time at the node-scaling buffer against the node count. {PPG_RUNS}.""",
           "allreduce_ppg_nodes-p*-*.csv, 2 PPG or more (scripts/batch/allreduce_ppg.sbatch)", ppg_common.one_vs_most,
           ("nodes",)),
    Figure("locality_fig10", f'{LOCALITY}, Figure 10 ("Various Sizes, 32 Nodes")', """
        every alltoall algorithm against the system MPI, time against bytes per process (4 B to 4 KiB) on the
        largest node count, pairwise inner exchanges solid, nonblocking dashed, 4 processes per leader or group,
        the minimum of the runs.""",
           "alltoall_sizes-*.csv (scripts/batch/alltoall_sizes.sbatch)", locality_common.by_size),
    Figure("locality_fig15", f'{LOCALITY}, Figure 15 ("Dane, 1024 Integer Message Size, 2 to 32 nodes, Pairwise '
           'Node Aware")', """
        the time of each phase of the node-aware alltoall with a pairwise inner exchange (inter-node, repack,
        intra-node) as stacked bars against the number of nodes, at 4096 bytes (1024 ints) per process; a black
        tick marks the whole operation's time. Phases timed alone (isolated), the run with the smallest total (see
        locality_common.py); one launch with mcb --nodes, the nodes column varies inside a file.""",
           f"breakdown_nodes-*.csv {BREAKDOWN}", locality_common.phases_by_nodes, (4096,)),
    Figure("locality_fig16", f'{LOCALITY}, Figure 16 ("Dane, 1024 Integers, 32 Nodes, Various Processes per Leader, '
           'Locality Aware Timing Breakdown")', """
        the time of each phase of the locality-aware alltoall with a pairwise inner exchange (inter-node, repack,
        intra-node) as stacked bars against the processes per group (1, 2, 4, 8, 16; a group of all the ranks of a
        node is node-aware), at 4096 bytes (1024 ints) per process on the largest node count; a black tick marks
        the whole operation's time. Phases timed alone (isolated), the run with the smallest total.""",
           f"breakdown_groups-*.csv {BREAKDOWN}", locality_common.phases_by_group, (4096,)),
    Figure("multiradix_fig12", f"{MULTIRADIX}, Figure 12 (allreduce on 1 node with 4 Grace CPUs, 288 tasks, in-place "
           "operation)", """
        Figures 9-11's top panel with MPI_IN_PLACE as the send buffer: time against message size (float sums) of
        the system MPI (MPI_Allreduce, MPI_Allreduce_init), the shared-memory recursive exchange, cyclic shift and
        tree through the persistent (solid) and blocking (dashed) interfaces, and the point-to-point recursive
        doubling, Rabenseifner and ring (dotted); the minimum of the runs. One panel per task count found.""",
           "allreduce_node_inplace-*.csv (scripts/batch/allreduce_node.sbatch)", multiradix_common.in_place),
    Figure("multiradix_fig13", f"{MULTIRADIX}, Figure 13 (allreduce on 4 nodes: 128 tasks per node on AMD EPYC, top; "
           "288 on Grace, bottom)", """
        time against message size (float sums) of the system MPI (MPI_Allreduce, and MPI_Allreduce_init, which
        the paper's HPE MPI lacked), the shared-memory recursive exchange, cyclic shift and tree (persistent
        interface) with the system MPI's allreduce between the nodes (solid) or mcb's recursive exchange (dashed;
        the paper's latency-optimal inter-node part), and the point-to-point recursive doubling, Rabenseifner and
        ring over all the ranks (dotted); the minimum of the runs. One panel per (nodes, tasks per node) found:
        one sbatch run per machine.""",
           "allreduce_nodes-*.csv (scripts/batch/allreduce_nodes.sbatch)", multiradix_common.several_nodes),
    Figure("tra_fig12", "alltoall-tunable-radix-tra, Figure 12 (Polaris, weak scaling)", """
        TRA (r = ceil(sqrt(P)), blue), TRA2 (r1 = ceil(sqrt(Q)), r2 = N, green) and the system MPI_Alltoall
        (pink) against the process count P, one panel per block size S; mean over the iterations with the
        standard deviation as error bars. The same data as Figure 10 (plots/tra_fig10.py, whose loading and
        style it uses); mcb --nodes: P varies within a file.""",
           "tra_compare-*.csv (scripts/batch/tra_compare.sbatch)", tra_fig10.by_ranks),
]


class Unit(NamedTuple):
    """What plots/all.py runs: a row of TABLE or a figure script."""
    name: str  # the row's name, or the script's file name without .py
    figures: dict  # FIGURES: {figure name: the data it needs}
    make: Callable  # make(directory, outdir)
    doc: str
    where: str  # "plots/figure.py" (a row of TABLE) or "plots/NAME.py"


def heading(doc):
    """The paper and figure that open a docstring: its text up to the first
    ':' outside parentheses."""
    text, depth = " ".join(doc.split()), 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if c == ":" and depth == 0:
            return text[:i]
    return text


def figures():
    """Every figure of plots/all.py, sorted by name: TABLE's rows and the
    scripts of plots/ that define FIGURES and make()."""
    units = [Unit(f.name, {f.name: f.data}, f.make, f.doc, "plots/figure.py") for f in TABLE]
    for file in sorted(os.listdir(HERE)):
        if file.endswith(".py") and file not in ("all.py", "mcbplot.py", "figure.py"):
            module = importlib.import_module(file[:-3])
            if hasattr(module, "FIGURES") and hasattr(module, "make"):
                units.append(Unit(file[:-3], module.FIGURES, module.make, module.__doc__, f"plots/{file}"))
    names = [u.name for u in units]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        sys.exit(f"figure.py: {', '.join(twice)}: both a row of TABLE and a script in plots/")
    return sorted(units, key=lambda u: u.name)


def main():
    units = {u.name: u for u in figures()}
    named = next((a for a in sys.argv[1:] if a in units), None)  # NAME --help: that figure's text
    p = argparse.ArgumentParser(prog="figure.py", description=units[named].doc if named else __doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", nargs="?", metavar="NAME", help="the figure (--list names them)")
    p.add_argument("directory", nargs="?", metavar="RESULTS_DIR",
                   help="results directory (the scripts' MCB_RESULTS), e.g. plots/sample")
    p.add_argument("-o", "--outdir", help="where the PNG and PDF go (default RESULTS_DIR/figures)")
    p.add_argument("--list", action="store_true", help="every figure: its paper and figure, data and source")
    args = p.parse_args()
    if args.list:
        for u in units.values():
            print(f"{u.name:20} {heading(u.doc)}\n{'':20}   reads {'; '.join(u.figures.values())}; in {u.where}")
        return 0
    if not args.name or not args.directory:
        p.error("NAME and RESULTS_DIR are needed (--list names the figures)")
    if args.name not in units:
        p.error(f"no figure {args.name} (--list names them)")
    mcbplot.run(units[args.name].make, args.directory, args.outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
