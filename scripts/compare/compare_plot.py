"""The ratio plots of scripts/compare/compare.py: --plot's one figure of every
compared row and --html's one figure per collective, drawn the same way.

x: size in bytes (log2); y: NEW / BASE (log; > 1: slower). One line per
configuration (algorithm, params, ranks, and the key columns that vary);
shaded around 1, per size, the band inside which a ratio is not flagged,
1 / (1 + threshold + noise) .. 1 + threshold + noise: dark for the least
noisy row of that size, light for the noisiest (equal when the rows' noise
is); regressions ringed in red, faster rows in green.
"""
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # scripts/: lib
from lib import needs  # noqa: E402

needs.need("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

SERIES = ["collective", "algorithm", "params", "ranks"]  # + the key columns that vary (extras)
REGRESSION_RING = dict(ls="none", marker="o", ms=9, mfc="none", mec="red", mew=2)
FASTER_RING = dict(ls="none", marker="o", ms=9, mfc="none", mec="green", mew=2)
# Ratios worth a tick on the log axis when the range is narrow (up to 4x); wider ranges get the powers of 2.
NICE = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0]


def size_label(s):
    return f"{s >> 20}M" if s >= 1 << 20 and s % (1 << 20) == 0 else \
        f"{s >> 10}K" if s >= 1024 and s % 1024 == 0 else str(s)


def series_label(d, m, extras):
    label = d["algorithm"] + ("" if d["params"] == "none" else f" {d['params']}")
    if m["collective"].nunique() > 1:
        label = f"{d['collective']} {label}"
    if m["ranks"].nunique() > 1:
        label += f" P={d['ranks']}"
    return label + "".join(f" {c}={d[c]}" for c in extras)


def ratio_ticks(ax):
    lo, hi = ax.get_ylim()
    ticks = [v for v in NICE if lo <= v <= hi] if hi / lo <= 4 else \
        [2.0 ** k for k in range(-20, 21) if lo <= 2.0 ** k <= hi]
    ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator(ticks))
    ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:.3g}"))


def bands(ax, m, threshold):
    """The not-flagged band per size: dark for the least noisy row, light
    for the noisiest."""
    noise = m.groupby("size_bytes")["noise"].agg(["min", "max"]).sort_index()
    x = noise.index.to_numpy(dtype=float)
    if len(x) == 1:  # one size: a band of some width around it
        x, noise = [x[0] / 1.4, x[0] * 1.4], noise.iloc[[0, 0]]
    for col, alpha in (("max", 0.18), ("min", 0.22)):
        band = 1 + threshold + noise[col].to_numpy()
        ax.fill_between(x, 1 / band, band, color="0.45", alpha=alpha, lw=0, zorder=0)
    ax.fill_between([], [], [], color="0.45", alpha=0.3, lw=0,
                    label=f"not flagged: 1/(1+{threshold:g}+noise) .. 1+{threshold:g}+noise")


def draw(ax, m, extras, threshold):
    """The ratios of m (compare.py's compared rows: size_bytes, ratio,
    noise, flag) on ax: the bands, one line per configuration, the flags."""
    bands(ax, m, threshold)
    ax.axhline(1.0, color="k", lw=0.8, zorder=1)
    series = SERIES + extras
    for key, g in m.groupby(series, sort=True):
        g = g.sort_values("size_bytes")
        ax.plot(g["size_bytes"], g["ratio"], marker="o", ms=3, lw=1.2, zorder=2,
                label=series_label(dict(zip(series, key)), m, extras))
        for flag, ring in (("REGRESSION", REGRESSION_RING), ("faster", FASTER_RING)):
            f = g[g["flag"] == flag]
            ax.plot(f["size_bytes"], f["ratio"], zorder=3, **ring)
    for flag, name, ring in (("REGRESSION", "regression", REGRESSION_RING), ("faster", "faster", FASTER_RING)):
        if (m["flag"] == flag).any():
            ax.plot([], [], label=name, **ring)
    ax.set_xscale("log", base=2)
    sizes = sorted(m["size_bytes"].unique())
    if len(sizes) <= 16:
        ax.set_xticks(sizes)
        ax.set_xticklabels([size_label(s) for s in sizes])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_yscale("log")
    ratio_ticks(ax)
    ax.grid(True, which="major", alpha=0.3)


def figure(m, extras, threshold, stat, title):
    fig, ax = plt.subplots(figsize=(9, 5.5))
    draw(ax, m, extras, threshold)
    ax.set_xlabel("size (bytes per block)")
    ax.set_ylabel(f"{stat} NEW / BASE  (> 1: slower)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    return fig


def save(m, extras, threshold, stat, title, path):
    """--plot: every compared row in one figure; the extension of path picks
    the format. Raises ValueError or OSError when it cannot be written."""
    fig = figure(m, extras, threshold, stat, title)
    try:
        fig.savefig(path)
    finally:
        plt.close(fig)


def png_per_collective(m, extras, threshold, stat, title):
    """--html: [(collective, PNG bytes)], one figure per collective."""
    out = []
    for coll, g in m.groupby("collective", sort=True):
        fig = figure(g, extras, threshold, stat, f"{coll}: {title}")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=96)
        plt.close(fig)
        out.append((coll, buf.getvalue()))
    return out
