#!/usr/bin/env python3
"""Checks that the documentation stays complete (tests/docs.cmake, label docs).

  check_docs.py options SOURCE_DIR WORK_DIR BINARY...
  check_docs.py columns SOURCE_DIR WORK_DIR BINARY...
  check_docs.py links   SOURCE_DIR

options: every option that `BINARY --help` prints (CLI11's option lines,
  `  -m,--message-size TEXT=...` or `  --algorithm TEXT=all`: the long form
  and the short form) is named in docs/options.md. Named means: inside an
  inline code span (`...`, as in the tables' first column), as a whole
  token (`--radix` does not count for `--radix-intra`, `-m` not for
  `-m4`). An option that --help prints with both forms (`-m,--message-size`)
  must have both in one code span (`-m, --message-size MIN:MAX`), so that a
  short form cannot hide behind an unrelated `-m 4` elsewhere. The output
  of --list (algorithms and their parameters) is not parsed: the parameters
  are options and --help prints them too.
columns: the columns the binaries write are in their tables: the header of
  the CSV that `mcb_alltoall --csv` and `mcb_breakdown --csv` write (run as
  MPI singletons, no launcher) equals, as a set, the column names of the
  table in docs/schema.md (tests/check_schema.py checks the order and the
  types); `--save-iterations` columns are all named on the
  `--save-iterations` row of docs/options.md; `mcb_tra_model --csv` columns
  equal the model's column table in docs/alltoall.md.
links: README.md has at most 300 lines; every relative link and image of
  README.md and of every docs/**/*.md (outside code) points at an existing
  file or directory, and a `#anchor` at a heading of the target page
  (GitHub's slugs); every docs/*.md page is linked from README.md.

Every binary of the list must exist: a missing one (not built, or a name
that is not one of mcb's) is a failure, never a skip; the sixteen binaries
that every build makes must all be in the list (mcb_fft only where FFTW 3
was found). Prints one `FAIL: ...` line per problem and ends with
`docs check (MODE): N failures`; exits 1 on any failure.
"""
import os
import re
import subprocess
import sys

ALWAYS = ["mcb_alltoall", "mcb_allgather", "mcb_allgatherv", "mcb_allreduce", "mcb_reduce", "mcb_bcast",
          "mcb_reduce_scatter_block", "mcb_reduce_scatter", "mcb_gather", "mcb_gatherv", "mcb_scatter", "mcb_scatterv",
          "mcb_copy_bw", "mcb_breakdown", "mcb_pingpong", "mcb_tra_model"]
OPTIONAL = ["mcb_fft"]
README_MAX_LINES = 300

failures = []


def fail(msg):
    failures.append(msg)
    print(f"FAIL: {msg}", flush=True)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def binaries(paths):
    """name -> path for every binary given; a missing or unknown one fails."""
    found = {}
    for path in map(os.path.abspath, paths):
        name = os.path.basename(path)
        if name not in ALWAYS + OPTIONAL:
            fail(f"{path}: not one of mcb's binaries ({', '.join(ALWAYS + OPTIONAL)})")
        elif not (os.path.isfile(path) and os.access(path, os.X_OK)):
            fail(f"{name}: binary missing or not executable: {path}")
        else:
            found[name] = path
    for name in ALWAYS:
        if name not in [os.path.basename(p) for p in paths]:
            fail(f"{name}: not in the list of binaries to check (tests/docs.cmake)")
    return found


def run(cmd, cwd):
    try:
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60,
                              universal_newlines=True)
    except subprocess.TimeoutExpired:
        fail(f"{' '.join(cmd)}: timed out after 60 s")
        return None
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)}: exit status {proc.returncode}: {proc.stdout.strip()[-500:]}")
        return None
    return proc.stdout


def help_options(text):
    """[(short or None, long or None)] from CLI11's --help: the lines after
    'Options:' indented by exactly two spaces and starting with '-'."""
    options = []
    in_options = False
    for line in text.splitlines():
        if line.strip() == "Options:":
            in_options = True
            continue
        if in_options and re.match(r"^\S", line):  # another section (Subcommands: ...)
            break
        m = re.match(r"^  (-[^\s]+)", line) if in_options else None
        if not m:
            continue
        short = long = None
        for name in m.group(1).split(","):
            if re.fullmatch(r"--[A-Za-z0-9][\w-]*", name):
                long = name
            elif re.fullmatch(r"-[A-Za-z0-9]", name):
                short = name
            else:
                fail(f"cannot parse the option {name!r} in the --help line {line!r}")
        options.append((short, long))
    return options


def code_spans(text):
    # Inline code spans only: indented and fenced blocks are examples.
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.findall(r"`([^`\n]+)`", text)


def token_in(token, span):
    return re.search(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", span) is not None


def check_options(source, work, paths):
    doc = os.path.join(source, "docs", "options.md")
    spans = code_spans(read(doc))
    bins = binaries(paths)
    total = 0
    for name, path in sorted(bins.items()):
        out = run([path, "--help"], work)
        if out is None:
            continue
        options = help_options(out)
        if ("-h", "--help") not in options or len(options) < 3:
            fail(f"{name} --help: {len(options)} options parsed, -h,--help not among them, from:\n{out}")
        total += len(options)
        for short, long in options:
            both = [t for t in (short, long) if t]
            if not any(all(token_in(t, s) for t in both) for s in spans):
                shown = ",".join(both)
                fail(f"{name}: option {shown} (from --help) is not named in a code span of docs/options.md"
                     + (" (both forms in one span)" if len(both) == 2 else ""))
    print(f"options: {total} options of {len(bins)} binaries checked against docs/options.md")


def table_after(text, marker):
    """The code spans of the first cells of the Markdown table after marker."""
    start = text.find(marker)
    if start < 0:
        return None
    names = []
    seen_table = False
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            seen_table = True
            first = line.split("|")[1]
            names += re.findall(r"`([a-z0-9_]+)`", first)
        elif seen_table:
            break
    return names


def csv_header(path):
    if not os.path.isfile(path):
        fail(f"{path}: not written")
        return None
    with open(path, encoding="utf-8") as f:
        return f.readline().strip().split(",")


def compare(label, written, documented, where):
    if written is None:
        return
    if not documented:
        fail(f"{label}: no column table found in {where}")
        return
    for c in written:
        if c not in documented:
            fail(f"{label}: column {c} is written but not in the table of {where}")
    for c in documented:
        if c not in written:
            fail(f"{label}: column {c} is in the table of {where} but not written")


def check_columns(source, work, paths):
    bins = binaries(paths)
    os.makedirs(work, exist_ok=True)
    schema = read(os.path.join(source, "docs", "schema.md"))
    m = re.search(r"^#{1,2} Output schema[ \t]*$", schema, re.M)
    section = schema[m.end():].split("\n## ", 1)[0] if m else ""
    documented = re.findall(r"^\| `([a-z0-9_]+)` \| (?:string|integer|float|timestamp) \|", section, re.M)
    if not documented:
        fail("docs/schema.md: no schema table under '# Output schema'")
    counts = {}
    for name, extra in (("mcb_alltoall", ["--save-iterations", os.path.join(work, "iterations.csv")]),
                        ("mcb_breakdown", [])):
        if name not in bins:
            continue
        csv = os.path.join(work, f"{name}.csv")
        for stale in (csv, csv + ".meta.json"):
            if os.path.exists(stale):
                os.remove(stale)
        algorithm = "system" if name == "mcb_alltoall" else "pairwise"
        if run([bins[name], "--algorithm", algorithm, "-m", "1", "-i", "2", "-x", "0", "--csv", csv] + extra,
               work) is None:
            continue
        header = csv_header(csv)
        compare(f"{name} --csv", header, documented, "docs/schema.md")
        counts[name] = len(header or [])
    if "mcb_alltoall" in bins:
        options = read(os.path.join(source, "docs", "options.md"))
        row = [line for line in options.splitlines() if line.startswith("| `--save-iterations")]
        named = set()
        for span in code_spans(row[0] if row else ""):
            named.update(t.strip() for t in span.split(","))
        header = csv_header(os.path.join(work, "iterations.csv"))
        if header is not None:
            for c in header:
                if c not in named:
                    fail(f"mcb_alltoall --save-iterations: column {c} not named on the --save-iterations row of "
                         "docs/options.md")
            counts["--save-iterations"] = len(header)
    if "mcb_tra_model" in bins:
        csv = os.path.join(work, "tra_model.csv")
        if run([bins["mcb_tra_model"], "--ranks", "8", "--ranks-per-node", "4", "--csv", csv], work) is not None:
            alltoall = read(os.path.join(source, "docs", "alltoall.md"))
            header = csv_header(csv)
            compare("mcb_tra_model --csv", header,
                    table_after(alltoall, "The model's CSV has one row per configuration"), "docs/alltoall.md")
            counts["mcb_tra_model"] = len(header or [])
    print(f"columns: {counts} checked against docs/schema.md ({len(documented)} columns), docs/options.md, "
          "docs/alltoall.md")


def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation
    dropped (letters, digits, _, - and spaces kept), spaces to -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = text.lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    result, seen = set(), {}
    in_fence = False
    for line in read(path).splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else re.match(r"^#{1,6} (.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            result.add(s if n == 0 else f"{s}-{n}")
    return result


def prose(text):
    """The text outside code: fenced blocks and inline spans removed (indented
    blocks are kept: no example in them holds a Markdown link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]+`", "", text)


def check_links(source):
    readme = os.path.join(source, "README.md")
    n = len(read(readme).splitlines())
    if n > README_MAX_LINES:
        fail(f"README.md has {n} lines, more than {README_MAX_LINES}: move the reference into docs/")
    pages = [readme]
    for root, _, files in os.walk(os.path.join(source, "docs")):
        pages += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    count = 0
    linked_from_readme = set()
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", prose(read(page))):
            count += 1
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            rel = os.path.relpath(page, source)
            if not os.path.exists(resolved):
                fail(f"{rel}: link {target} points at {os.path.relpath(resolved, source)}, which does not exist")
                continue
            if page == readme:
                linked_from_readme.add(resolved)
            if anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                fail(f"{rel}: link {target}: no heading #{anchor} in {os.path.relpath(resolved, source)}")
    for page in sorted(os.listdir(os.path.join(source, "docs"))):
        path = os.path.join(source, "docs", page)
        if page.endswith(".md") and path not in linked_from_readme:
            fail(f"README.md does not link docs/{page}")
    print(f"links: README.md {n} lines, {count} links in {len(pages)} pages")


def main(argv):
    if len(argv) < 3 or argv[1] not in ("options", "columns", "links"):
        sys.exit(__doc__)
    mode, source = argv[1], os.path.abspath(argv[2])
    if mode == "links":
        check_links(source)
    else:
        if len(argv) < 5:
            sys.exit(__doc__)
        work = os.path.abspath(argv[3])
        os.makedirs(work, exist_ok=True)
        (check_options if mode == "options" else check_columns)(source, work, argv[4:])
    print(f"docs check ({mode}): {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
