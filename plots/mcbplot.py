"""Shared style and helpers of the figures in plots/ (a script per paper
figure, or a row of plots/figure.py's TABLE; plots/all.py runs them all).

A figure whose script would only call a helper of locality_common.py or
ppg_common.py with a few arguments is a row of plots/figure.py's TABLE
(name, paper and figure, what it shows, data, helper and arguments), run
alone as `/usr/bin/python3 plots/figure.py NAME RESULTS_DIR [-o OUTDIR]`.
A figure script, for a figure with logic of its own:
  - has a docstring naming the paper, the figure, what it shows and the
    results files it reads (written by a script in scripts/);
  - defines FIGURES = {"name": "what it needs"} for plots/all.py's listing and
    make(directory, outdir), which loads the CSV files with load(), raises
    Skip (with the reason) when they are missing or cannot make the figure,
    and ends every figure with finish();
  - ends with `if __name__ == "__main__": mcbplot.main(make)`, so that
    `/usr/bin/python3 plots/NAME.py RESULTS_DIR [-o OUTDIR]` works alone.

finish() saves PNG and PDF and prints one summary line per figure, which the
tests read:
    figure NAME: S series, P panels, N points: OUT/NAME.png OUT/NAME.pdf
A series is one legend entry (a line, a bar stack's segment, a heat map's
category), counted over all panels.

Conventions taken from the papers: log2 size axes, the system MPI in black,
solid lines for a pairwise inner exchange and dashed ones for a nonblocking
one, markers on every point, the minimum over repeated runs (the locality
paper) unless a figure says otherwise.
"""
import argparse
import glob
import os
import re
import sys

# One line, not a traceback, when this python3 lacks Debian's libraries
# (scripts/lib/needs.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from lib import needs  # noqa: E402

needs.need("matplotlib", "pandas", "numpy")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator  # noqa: E402

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 7,
    "legend.frameon": False,
    "lines.linewidth": 1.4,
    "lines.markersize": 4,
}
plt.rcParams.update(STYLE)

# One colour per algorithm across every figure; the system MPI in black.
COLORS = {
    "system": "black",
    "system_persistent": "dimgray",
    "pairwise": "tab:gray",
    "nonblocking": "tab:brown",
    "bruck": "tab:olive",
    "hierarchical": "tab:blue",
    "multileader": "tab:orange",
    "node_aware": "tab:green",
    "locality_aware": "tab:red",
    "multileader_node_aware": "tab:purple",
    "tra": "tab:blue",
    "tra2": "tab:green",
    "ring": "tab:blue",
    "neighbor_exchange": "tab:orange",
    "recursive_doubling": "tab:green",
    "sparbit": "tab:red",
    "rabenseifner": "tab:orange",
    "recursive_exchange": "tab:green",
    "lane": "tab:blue",
    "ppg_standard": "tab:blue",
    "ppg_lane": "tab:red",
    "shm_recursive_exchange": "tab:red",
    "shm_cyclic_shift": "tab:purple",
    "shm_tree": "tab:cyan",
}
PALETTE = plt.rcParams["axes.prop_cycle"].by_key()["color"]
MARKERS = "os^vD<>ph*"

# Readable names of the algorithms, as the papers call them.
NAMES = {
    "system": "System MPI",
    "system_persistent": "System MPI (persistent)",
    "pairwise": "Pairwise",
    "nonblocking": "Nonblocking",
    "bruck": "Bruck",
    "hierarchical": "Hierarchical",
    "multileader": "Multi-leader",
    "node_aware": "Node-aware",
    "locality_aware": "Locality-aware",
    "multileader_node_aware": "Multi-leader + node-aware",
    "tra": "TRA",
    "tra2": "TRA2",
    "ring": "Ring",
    "neighbor_exchange": "Neighbor exchange",
    "recursive_doubling": "Recursive doubling",
    "sparbit": "Sparbit",
    "rabenseifner": "Rabenseifner",
    "lane": "Multi-lane",
    "ppg_standard": "Standard",
    "ppg_lane": "Multi-lane",
    "shm_recursive_exchange": "SHM recursive exchange",
    "shm_cyclic_shift": "SHM cyclic shift",
    "shm_tree": "SHM tree",
}


class Skip(Exception):
    """This figure cannot be made from the directory: the message says why."""


def read_csv(path):
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def load(directory, pattern, script, phase="total"):
    """Every CSV (or .csv.gz) in `directory` matching the glob `pattern`, one
    frame with a `file` column and `run` (from -run{r} in the name, else 1).
    Only rows of `phase` (None: every phase). Rows whose validation failed are
    dropped with a warning. Raises Skip naming `script` when nothing is there."""
    paths = sorted(glob.glob(os.path.join(directory, pattern)) + glob.glob(os.path.join(directory, pattern + ".gz")))
    if not paths:
        raise Skip(f"no {pattern} in {directory} (run {script})")
    frames = []
    for p in paths:
        f = read_csv(p)
        f["file"] = os.path.basename(p)
        m = re.search(r"-run(\d+)\.csv", p)
        f["run"] = int(m.group(1)) if m else 1
        frames.append(f)
    df = pd.concat(frames, ignore_index=True)
    if "validation" in df.columns:
        bad = df["validation"] == "fail"
        if bad.any():
            print(f"warning: {bad.sum()} rows of {pattern} failed validation: left out", file=sys.stderr)
            df = df[~bad]
    if phase is not None and "phase" in df.columns:
        df = df[df["phase"] == phase]
    if "params" in df.columns:
        df["params"] = df["params"].fillna("none").astype(str)
    if df.empty:
        raise Skip(f"{pattern} in {directory}: no {phase or ''} rows")
    return df.copy()


def param(params, key):
    """The value of `key` in a "k=v;k=v" params string, or None."""
    for kv in str(params).split(";"):
        k, _, v = kv.partition("=")
        if k == key:
            return v
    return None


def inner_style(params):
    """The papers' line style: dashed for a nonblocking inner exchange."""
    return "--" if param(params, "inner") == "nonblocking" else "-"


def best_of_runs(df, keys, stat="avg_us"):
    """The minimum of `stat` over repeated runs for each combination of
    `keys` (the locality paper plots the minimum of its runs)."""
    return df.groupby(keys, as_index=False, dropna=False)[stat].min()


def runs_spread(df, keys, stat="avg_us"):
    """Mean, min and max of `stat` over repeated runs (the PPG paper's error
    bars show the run-to-run variation): columns mean, lo, hi."""
    g = df.groupby(keys, dropna=False)[stat]
    return pd.DataFrame({"mean": g.mean(), "lo": g.min(), "hi": g.max()}).reset_index()


def size_label(b):
    b = int(b)
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift} {unit}"
    return f"{b} B"


def log2_axis(ax, axis="x", label=None, sizes=False):
    """Log base 2 axis; `sizes` labels the ticks 4 B, 1 KiB, ..."""
    if axis == "x":
        ax.set_xscale("log", base=2)
        target = ax.xaxis
        if label:
            ax.set_xlabel(label)
    else:
        ax.set_yscale("log", base=2)
        target = ax.yaxis
        if label:
            ax.set_ylabel(label)
    if sizes:
        target.set_major_formatter(FuncFormatter(lambda v, _: size_label(v) if v >= 1 else ""))
        target.set_major_locator(LogLocator(base=2, numticks=12))


def time_axis(ax, label="time (us)"):
    ax.set_yscale("log")
    ax.set_ylabel(label)


def color(algorithm, index=0):
    return COLORS.get(algorithm, PALETTE[index % len(PALETTE)])


def label(algorithm, params="none", keys=()):
    """ "Node-aware (pairwise)", plus the values of `keys` from params."""
    text = NAMES.get(algorithm, algorithm)
    inner = param(params, "inner")
    extra = [inner] if inner else []
    extra += [f"{k}={param(params, k)}" for k in keys if param(params, k) is not None]
    return text + (f" ({', '.join(extra)})" if extra else "")


def panels(n, ncols=None, width=4.2, height=3.2, sharey=False):
    """A figure of n panels; returns (fig, flat list of axes); extra axes hidden."""
    ncols = ncols or min(n, 3)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False, sharey=sharey)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def describe(df):
    """'MPI library version, N nodes x K ranks' of the first row, for titles."""
    r = df.iloc[0]
    lib, version = str(r.get("mpi_library", "")), str(r.get("mpi_version", ""))
    if "SMPI" in lib:
        # Files written before the platform column have none: name the
        # platforms the others give.
        named = sorted({str(p) for p in df["platform"].dropna() if str(p) not in ("none", "")}) \
            if "platform" in df.columns else []
        on = f" on {', '.join(named)}" if named else ""
        return f"SimGrid SMPI {version}{on} (simulated)"
    return f"{lib} {version}".strip()


def count_series(fig):
    labels = set()
    for ax in fig.axes:
        for _, lab in zip(*ax.get_legend_handles_labels()):
            if not lab.startswith("_"):
                labels.add(lab)
    return len(labels)


def count_points(fig):
    n = 0
    for ax in fig.axes:
        for line in ax.get_lines():
            if not line.get_label().startswith("_"):
                n += len(line.get_xdata())
        n += len(ax.patches) + sum(len(c.get_offsets()) for c in ax.collections if hasattr(c, "get_offsets"))
    return n


def finish(fig, name, outdir, series=None, title=None):
    """Saves NAME.png and NAME.pdf in outdir and prints the summary line.
    `series`: the number of series when the legend does not say it (heat maps)."""
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    os.makedirs(outdir, exist_ok=True)
    paths = [os.path.join(outdir, f"{name}.{ext}") for ext in ("png", "pdf")]
    for p in paths:
        fig.savefig(p)
    n_series = count_series(fig) if series is None else series
    n_panels = sum(1 for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>")
    print(f"figure {name}: {n_series} series, {n_panels} panels, {count_points(fig)} points: {' '.join(paths)}")
    plt.close(fig)
    return paths


def main(make):
    """Command line of one figure script: NAME.py RESULTS_DIR [-o OUTDIR]."""
    caller = sys.modules["__main__"]
    p = argparse.ArgumentParser(description=caller.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("directory", help="results directory (the scripts' MCB_RESULTS), e.g. plots/sample")
    p.add_argument("-o", "--outdir", help="where the PNG and PDF go (default DIRECTORY/figures)")
    args = p.parse_args()
    run(make, args.directory, args.outdir)


def run(make, directory, outdir=None):
    """make(directory, outdir) as a command line runs it: exit 1 when the
    directory is missing, 3 (with the reason) when Skip says it lacks data."""
    if not os.path.isdir(directory):
        sys.exit(f"{os.path.basename(sys.argv[0])}: {directory}: no such directory")
    try:
        make(directory, outdir or os.path.join(directory, "figures"))
    except Skip as e:
        print(f"skipped: {e}")
        sys.exit(3)
