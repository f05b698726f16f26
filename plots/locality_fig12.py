#!/usr/bin/env python3
"""alltoall-manycore-locality, Figure 12 ("Message Size 4096 bytes, Node
Scaling"): every alltoall algorithm of the paper against the system MPI at
4096 bytes per process, time against the number of nodes (2 to 32 in the
paper), pairwise inner exchanges solid, nonblocking dashed, 4 processes per
leader or group, the minimum of the runs.

Data: alltoall_nodes-*.csv from scripts/alltoall_nodes.sbatch (one launch
with mcb --nodes: the nodes column varies inside a file).
    /usr/bin/python3 plots/locality_fig12.py RESULTS_DIR [-o OUTDIR]
"""
import mcbplot

NAME = "locality_fig12"
FIGURES = {NAME: "alltoall_nodes-*.csv (scripts/alltoall_nodes.sbatch)"}
SIZE = 4096
# The paper's series, as in Figure 10: the system MPI and Algorithms 3-5 with both inner exchanges.
ALGORITHMS = ["system", "hierarchical", "multileader", "node_aware", "locality_aware", "multileader_node_aware"]


def make(directory, outdir):
    df = mcbplot.load(directory, "alltoall_nodes-*.csv", "scripts/alltoall_nodes.sbatch")
    df = df[df["algorithm"].isin(ALGORITHMS) & (df["size_bytes"] == SIZE)]
    if df.empty:
        raise mcbplot.Skip(f"alltoall_nodes-*.csv has no {SIZE} B rows of the paper's algorithms")
    nodes = sorted(df["nodes"].unique())
    if len(nodes) < 2:
        raise mcbplot.Skip(f"alltoall_nodes-*.csv has one node count ({nodes[0]}): node scaling needs several")
    best = mcbplot.best_of_runs(df, ["algorithm", "params", "nodes"])
    fig, (ax,) = mcbplot.panels(1, width=6.5, height=5)
    for (algorithm, params), s in sorted(best.groupby(["algorithm", "params"]),
                                         key=lambda kv: (ALGORITHMS.index(kv[0][0]), mcbplot.inner_style(kv[0][1]))):
        ax.plot(s["nodes"], s["avg_us"], mcbplot.inner_style(params), marker="o",
                color=mcbplot.color(algorithm), label=mcbplot.label(algorithm, params))
    mcbplot.log2_axis(ax, "x", "nodes")
    ax.set_xticks(nodes, [str(n) for n in nodes])
    ax.minorticks_off()
    mcbplot.time_axis(ax)
    ax.legend(ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    ax.set_title(f"{mcbplot.size_label(SIZE)} per process, {nodes[0]} to {nodes[-1]} nodes x "
                 f"{df['ranks_per_node'].iloc[0]} ranks; {mcbplot.describe(df)}")
    mcbplot.finish(fig, NAME, outdir)


if __name__ == "__main__":
    mcbplot.main(make)
