"""compare.py's --html page as a browser shows it: headless Chromium loads
the page of make_csvs.py's report scenario and dumps its DOM after the load
event (when the page's script has noted on <body> how many plots decoded),
and check() compares what it shows with the scenario's known answer: one
decoded plot per collective, the regression and the faster row marked in
the table, the row NEW lacks listed, the environment difference, the MPI
library strings in the title, the verdict, nothing fetched from outside.

A negative control proves the checks can fail: the same page with its
regression row unmarked and one plot's PNG broken must fail those checks.
Used by run_case.py's case html.
"""
import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser

import make_csvs

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def chromium():
    """The Chromium to use: $MCB_CHROMIUM if set (empty: none), else the
    first of chromium, chromium-browser on the PATH; None if none."""
    if "MCB_CHROMIUM" in os.environ:
        return shutil.which(os.environ["MCB_CHROMIUM"]) if os.environ["MCB_CHROMIUM"] else None
    return next((b for b in map(shutil.which, ("chromium", "chromium-browser")) if b), None)


def dump_dom(browser, page):
    """The DOM of page after its load event, as headless Chromium serializes it."""
    with tempfile.TemporaryDirectory(prefix="mcb-chromium-") as profile:
        p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom",
                            "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, timeout=90)
    if p.returncode != 0 or "<body" not in p.stdout:
        tail = "\n".join(p.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"{browser} --dump-dom {page}: exit {p.returncode}, no DOM; stderr ends:\n{tail}")
    return p.stdout


class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag, **attrs):
        """Descendants with this tag whose attributes contain attrs (class: one of its classes)."""
        out = []
        for c in self.children:
            if isinstance(c, str):
                continue
            if c.tag == tag and all(v in c.attrs.get("class", "").split() if k == "cls" else c.attrs.get(k) == v
                                    for k, v in attrs.items()):
                out.append(c)
            out += c.all(tag, **attrs)
        return out


class Tree(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.root = Node("#document", [])
        self.stack = [self.root]
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs)
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def table_rows(table):
    """[(the row's class, {column: cell text})] of a table."""
    cols = [th.text().strip() for th in table.all("th")]
    return [(tr.attrs.get("class", ""), dict(zip(cols, (td.text().strip() for td in tr.all("td")))))
            for tr in table.all("tr") if tr.all("td")]


def one(nodes, what, problems):
    if len(nodes) != 1:
        problems.append(f"{len(nodes)} {what}, expected 1")
        return Node("#missing", [])
    return nodes[0]


def problems_of(dom, raw):
    """What the rendered page (dom) and its file (raw) get wrong."""
    problems = []
    doc = Tree(dom).root
    body = one(doc.all("body"), "<body>", problems)
    plots = doc.all("img", cls="plot")
    colls = sorted(img.attrs.get("data-collective", "?") for img in plots)
    if colls != ["allgather", "alltoall"]:
        problems.append(f"plots for {colls}, expected one per collective: allgather, alltoall")
    for img in plots:
        if not int(img.attrs.get("data-natural-width") or 0) > 0:
            problems.append(f"the plot of {img.attrs.get('data-collective')} did not decode "
                            f"(naturalWidth {img.attrs.get('data-natural-width')!r})")
    if body.attrs.get("data-plots-decoded") != f"{len(plots)}/{len(plots)}":
        problems.append(f"<body data-plots-decoded={body.attrs.get('data-plots-decoded')!r}>, expected all of "
                        f"{len(plots)} (did the page's script run?)")

    rows = table_rows(one(doc.all("table", cls="rows"), "table of rows", problems))
    for flag, cls, expected in (("REGRESSION", "regression", make_csvs.REPORT_REGRESSIONS),
                                ("faster", "faster", make_csvs.REPORT_FASTER)):
        marked = {(r.get("collective"), r.get("algorithm"), r.get("params"), int(r.get("size", -1)))
                  for k, r in rows if cls in k.split() and r.get("flag") == flag}
        if marked != expected:
            problems.append(f"rows marked {cls} (class and flag {flag}): {sorted(marked)}, expected {sorted(expected)}")
    if len(rows) != 23:
        problems.append(f"{len(rows)} compared rows in the table, expected 23")

    lacks = one(doc.all("section", id="new-lacks"), "section new-lacks", problems)
    listed = {(r.get("collective"), r.get("algorithm"), r.get("params"), int(r.get("size", -1)))
              for table in lacks.all("table") for _, r in table_rows(table)}
    if listed != make_csvs.REPORT_LACKS or "(1)" not in lacks.text():
        problems.append(f"rows NEW lacks listed {sorted(listed)}, expected {sorted(make_csvs.REPORT_LACKS)}")

    env = {r.get("field"): (r.get("BASE"), r.get("NEW"))
           for table in one(doc.all("section", id="environment"), "section environment", problems).all("table")
           for _, r in table_rows(table)}
    if env.get("env UCX_TLS") != ("rc", "tcp") or "mpi_library_string" not in env or len(env) != 2:
        problems.append(f"environment differences {env}, expected UCX_TLS rc -> tcp and mpi_library_string")

    title = one(doc.all("h1"), "<h1>", problems).text()
    if not ("Open MPI v4.1.4" in title and "Open MPI v5.0.7" in title):
        problems.append(f"title {title!r} does not name both library strings")
    verdict = " ".join(one(doc.all("p", cls="verdict"), "verdict", problems).text().split())
    if not (verdict.startswith("FAIL (exit 1): 1 regression, 1 faster, 21 unchanged")
            and "1 row NEW lacks" in verdict):
        problems.append(f"verdict {verdict!r}")
    outside = re.findall(r"""(?:src|href)\s*=\s*["']?(?!data:|#)[^"'\s>]+|@import|url\(\s*["']?(?!data:)""", raw)
    if outside:
        problems.append(f"the page refers to outside resources: {outside[:3]}")
    return problems


def check(browser, page, work):
    """Problems of page as rendered, after the negative control passed."""
    with open(page, encoding="utf-8") as f:
        raw = f.read()
    problems = problems_of(dump_dom(browser, page), raw)
    print(f"html page: {len(problems)} problem(s) in {page} as {os.path.basename(browser)} renders it")

    # Negative control: unmark the regression, break the first plot's PNG.
    broken = raw.replace('<tr class="regression">', "<tr>").replace("base64,iVBOR", "base64,AAAAiVBOR", 1)
    control = os.path.join(work, "report-broken.html")
    with open(control, "w", encoding="utf-8") as f:
        f.write(broken)
    found = problems_of(dump_dom(browser, control), broken)
    for what in ("rows marked regression", "did not decode", "data-plots-decoded"):
        if not any(what in p for p in found):
            problems.append(f"negative control: a page with its regression unmarked and a broken plot passes "
                            f"the check {what!r}")
    print(f"html page: negative control (regression unmarked, a plot broken): {len(found)} problem(s) found")
    return problems
