"""The --html page of scripts/compare/compare.py: one self-contained file (inline
CSS, the plots as base64 PNG, a few lines of inline script that only note
whether each plot decoded), read in any browser without network.

In order: the title (BASE and NEW by the MPI library strings of their run
metadata, else by the CSVs' mpi_library and mpi_version), the verdict and
its counts, the environment differences, one plot per collective
(compare_plot.py), every compared row (flagged ones highlighted), the rows
NEW lacks, the rows BASE lacks and the ratios per algorithm. It lays out
what compare.py computed (a Comparison); it computes nothing itself.
"""
import base64
import html

import compare_plot

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.2em; margin-top: 1.8em; }
.sub { color: #555; margin-top: 0; }
.verdict { font-size: 1.1em; font-weight: 600; padding: .5em .8em; border-radius: 4px; }
.verdict.fail { background: #fde2e2; border-left: 6px solid #c62828; }
.verdict.pass { background: #e3f4e1; border-left: 6px solid #2e7d32; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #e3e3e3; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.rows td, table.lacks td, table.ratios td { font-family: ui-monospace, monospace; font-size: 13px; }
table.facts th { background: none; font-weight: normal; color: #555; white-space: nowrap; }
table.env td { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap;
  word-break: break-all; max-width: 480px; }
tr.regression td { background: #fde2e2; } tr.regression td.flag { color: #b71c1c; font-weight: 700; }
tr.faster td { background: #e3f4e1; } tr.faster td.flag { color: #1b5e20; font-weight: 700; }
table.lacks.fail td { background: #fde2e2; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { color: #555; font-size: 13px; }
.note { color: #8a5300; }
"""

# Notes on <body> how many plots decoded (and each plot's natural width): a
# missing plot is then said on the page, and a test can read it.
SCRIPT = """
window.addEventListener("load", function () {
  var imgs = document.querySelectorAll("img.plot"), ok = 0;
  imgs.forEach(function (img) {
    img.dataset.naturalWidth = img.naturalWidth;
    if (img.complete && img.naturalWidth > 0) ok++;
  });
  document.body.dataset.plotsDecoded = ok + "/" + imgs.length;
  if (ok < imgs.length) {
    var p = document.createElement("p");
    p.className = "note";
    p.textContent = (imgs.length - ok) + " of " + imgs.length + " plots could not be shown.";
    document.getElementById("plots").appendChild(p);
  }
});
"""


def esc(v):
    return html.escape(str(v))


def table(cols, rows, right, cls, row_class=lambda row: ""):
    """An HTML table; row_class(row) gives each row's class."""
    out = [f'<table class="{cls}"><thead><tr>' + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr></thead><tbody>"]
    for row in rows:
        k = row_class(row)
        cells = "".join(f'<td class="{"num" if c in right else "flag" if c == "flag" else ""}">{esc(v)}</td>'
                        for c, v in zip(cols, row))
        out.append(f'<tr class="{k}">{cells}</tr>' if k else f"<tr>{cells}</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def summary(c, a):
    n = len(c.m)
    status = "FAIL" if c.status else "PASS"
    facts = [("regressions", c.regressions), ("faster", c.faster),
             ("unchanged", f"{n - c.regressions - c.faster} (of {n} compared)"),
             ("rows NEW lacks", f"{len(c.new_lacks)}" + (f": {c.new_lacks_why()}" if len(c.new_lacks) else "")),
             ("rows BASE lacks", f"{len(c.base_lacks)} (not compared, never fail)"),
             ("threshold", f"{a.threshold:g} (--threshold)"), ("noise cap", f"{a.max_noise:g} (--max-noise)"),
             ("criterion", c.criterion())]
    if c.skipped:
        facts.append(("skipped", f"{c.skipped} (base below --min-us {a.min_us:g} or a time <= 0)"))
    out = ['<section id="summary"><h2>Summary</h2>',
           f'<p class="verdict {status.lower()}">{status} (exit {c.status}): {esc(c.verdict())}</p>',
           '<table class="facts">']
    out += [f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts]
    out.append("</table>")
    out += [f'<p class="note">{esc(line)}</p>' for line in c.notes()]
    out.append("</section>")
    return out


def environment(env):
    out = ['<section id="environment"><h2>Environment (run metadata, FILE.csv.meta.json)</h2>']
    out += [f'<p class="note">{esc(n)}</p>' for n in env.notes]
    if env.diffs:
        out.append(f"<p>{len(env.diffs)} field(s) differ between BASE and NEW:</p>")
        out.append(table(["field", "BASE", "NEW"], env.diffs, set(), "env"))
    elif env.diffs is not None:
        out.append("<p>The same on both sides (build, MPI, environment variables, placement, hardware).</p>")
    out.append("</section>")
    return out


def plots(c, a, title):
    out = ['<section id="plots"><h2>NEW / BASE per collective</h2>',
           f"<p>x: size in bytes (log2), y: {esc(a.stat)} NEW / BASE (log; above 1: slower), one line per "
           "configuration. Shaded around 1 at each size: where a ratio is not flagged, 1/(1 + threshold + noise) .. "
           f"1 + threshold + noise (threshold {a.threshold:g}, noise capped at {a.max_noise:g}), dark for the least "
           "noisy row of that size, light for the noisiest. Regressions ringed in red, faster rows in green.</p>"]
    for coll, png in compare_plot.png_per_collective(c.m, c.extras, a.threshold, a.stat, title):
        data = base64.b64encode(png).decode("ascii")
        flagged = c.m[c.m["collective"] == coll]["flag"].value_counts()
        out.append(f'<figure><img class="plot" data-collective="{esc(coll)}" alt="{esc(coll)}: NEW / BASE against '
                   f'size" src="data:image/png;base64,{data}"><figcaption>{esc(coll)}: '
                   f'{flagged.get("REGRESSION", 0)} regression(s), {flagged.get("faster", 0)} faster</figcaption>'
                   "</figure>")
    out.append("</section>")
    return out


def write(c, path):
    """Writes the page of the Comparison c to path (OSError if it cannot)."""
    a = c.args
    base_name, new_name = c.env.library("base", c.labels[0]), c.env.library("new", c.labels[1])
    title = f"base: {c.labels[0]}, new: {c.labels[1]}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>mcb compare: {esc(base_name)} \u2192 {esc(new_name)}</title>",
           '<meta name="viewport" content="width=device-width, initial-scale=1">', f"<style>{CSS}</style>",
           "</head><body>",
           f'<h1>mcb compare: <span class="base">{esc(base_name)}</span> \u2192 '
           f'<span class="new">{esc(new_name)}</span></h1>',
           f'<p class="sub">BASE {esc(a.base)} ({esc(c.labels[0])}) \u00b7 NEW {esc(a.new)} ({esc(c.labels[1])})</p>']
    out += summary(c, a) + environment(c.env) + plots(c, a, title)
    cols, rows, right = c.rows_table()
    out += ['<section id="rows"><h2>Rows</h2>', f"<p>{esc(c.criterion())}</p>",
            table(cols, rows, right, "rows", lambda row: {"REGRESSION": "regression", "faster": "faster"}.get(
                row[-1], "")), "</section>"]
    out += [f'<section id="new-lacks"><h2>Rows NEW lacks ({len(c.new_lacks)})</h2>']
    if len(c.new_lacks):
        out.append(f"<p>Every row BASE has and NEW lacks: {esc(c.new_lacks_why())}.</p>")
        out.append(table(*c.lacks_table(c.new_lacks),
                         "lacks fail" if a.missing == "fail" else "lacks"))
    else:
        out.append("<p>None: NEW has every row BASE has.</p>")
    out.append("</section>")
    if len(c.base_lacks):
        out += [f'<section id="base-lacks"><h2>Rows BASE lacks ({len(c.base_lacks)})</h2>',
                "<p>New configurations or sizes: not compared, never fail.</p>",
                table(*c.lacks_table(c.base_lacks), "lacks"), "</section>"]
    cols, rows = c.ratios_table()
    out += ['<section id="ratios"><h2>Ratios per algorithm</h2>', table(cols, rows, set(cols[1:]), "ratios"),
            "</section>", f"<script>{SCRIPT}</script>", "</body></html>"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
