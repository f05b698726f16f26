#!/usr/bin/env python3
"""alltoall-manycore-locality, Figures 17 ("Amber, Various Sizes, 32 Nodes")
and 18 ("Tuolomne, Various Sizes, 32 Nodes"): Figure 10's experiment on
other machines, limited to the algorithms that win at some size (node-aware,
locality-aware, multi-leader + node-aware, 4 processes per leader or group)
against the system MPI, time against bytes per process (4 B to 4 KiB) on
the largest node count, pairwise inner exchanges solid, nonblocking dashed,
the minimum of the runs. One figure per system found:
locality_fig17_18-{system}.

Data: alltoall_systems-{system}-N*-n*-run*.csv from scripts/batch/alltoall_systems.sbatch.
    /usr/bin/python3 plots/locality_fig17_18.py RESULTS_DIR [-o OUTDIR]
"""
import os
import re
import sys

import mcbplot

NAME = "locality_fig17_18"
FIGURES = {f"{NAME}-SYSTEM": "alltoall_systems-SYSTEM-*.csv (scripts/batch/alltoall_systems.sbatch), one per system"}
ALGORITHMS = ["system", "node_aware", "locality_aware", "multileader_node_aware"]
FILE = re.compile(r"alltoall_systems-(.+)-N\d+-n\d+-run\d+\.csv(\.gz)?$")  # system names have no "-"


def make(directory, outdir):
    systems = sorted({m.group(1) for f in os.listdir(directory) if (m := FILE.match(f))})
    if not systems:
        raise mcbplot.Skip(f"no alltoall_systems-SYSTEM-*.csv in {directory} (run scripts/batch/alltoall_systems.sbatch)")
    made = []
    for system in systems:
        try:
            df = mcbplot.load(directory, f"alltoall_systems-{system}-N*-n*-run*.csv", "scripts/batch/alltoall_systems.sbatch")
        except mcbplot.Skip as e:
            print(f"{NAME}: {system}: no figure: {e}", file=sys.stderr)
            continue
        df = df[df["algorithm"].isin(ALGORITHMS)]
        if set(df["algorithm"]) <= {"system"}:
            print(f"{NAME}: {system}: no figure: only the system MPI's rows", file=sys.stderr)
            continue
        nodes = df["nodes"].max()
        df = df[df["nodes"] == nodes]
        best = mcbplot.best_of_runs(df, ["algorithm", "params", "size_bytes"])
        fig, (ax,) = mcbplot.panels(1, width=6.5, height=5.3)
        for (algorithm, params), s in sorted(best.groupby(["algorithm", "params"]), key=lambda kv: (
                ALGORITHMS.index(kv[0][0]), mcbplot.inner_style(kv[0][1]))):
            ax.plot(s["size_bytes"], s["avg_us"], mcbplot.inner_style(params), marker="o",
                    color=mcbplot.color(algorithm), label=mcbplot.label(algorithm, params))
        mcbplot.log2_axis(ax, "x", "bytes per process", sizes=True)
        mcbplot.time_axis(ax)
        ax.legend(ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))
        ax.set_title(f"{system}: various sizes, {nodes} nodes x {df['ranks_per_node'].iloc[0]} ranks; "
                     f"{mcbplot.describe(df)}")
        made += mcbplot.finish(fig, f"{NAME}-{system}", outdir)
    if not made:
        raise mcbplot.Skip(f"alltoall_systems-*.csv of {', '.join(systems)}: no algorithm but the system MPI")


if __name__ == "__main__":
    mcbplot.main(make)
