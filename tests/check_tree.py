#!/usr/bin/env python3
"""The floors of src/ and the tree table of docs/development.md (issue 42).

  check_tree.py floors SOURCE_DIR   no #include points up a floor
  check_tree.py table SOURCE_DIR    the "## Tree" table names every folder that is there, and only those
  check_tree.py length SOURCE_DIR   no function of src/ over 100 lines
  check_tree.py paths SOURCE_DIR    every file of the tree that README.md and docs/*.md name is there

Floors, from the bottom: 0 core/ (libmcb's core), 1 harness/ (the benchmark
harness), 2 the collectives (alltoall/, allgather/, allreduce/, rooted/,
pingpong/: their algorithms, built into libmcb, include only the core; their
harness descriptions and mains the harness too), 3 what uses them
(breakdown/, fft/, tools/, preload/, tune/). A file includes only what
stands on its own floor or below; an include is resolved as the compiler
does (the including file's folder first, then the build's include folders).
Prints one line per failure and "tree check (CHECK): N failures".
"""
import os
import re
import sys

FLOORS = {"core": 0, "harness": 1, "alltoall": 2, "allgather": 2, "allreduce": 2, "reduce_scatter": 2, "rooted": 2,
          "pingpong": 2,
          "breakdown": 3, "fft": 3, "tools": 3, "preload": 3, "tune": 3}
NAMES = ["the core", "the harness", "the collectives", "the binaries and libraries on top"]
# The build's include folders (src/CMakeLists.txt, core/ and harness/), in order.
INCLUDE_DIRS = ["core", ".", "alltoall", "allgather", "allreduce", "reduce_scatter", "rooted", "pingpong"]
SOURCES = (".cpp", ".hpp", ".h", ".c", ".cu", ".hip")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LIMIT = 100


def sources(src):
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(SOURCES):
                yield os.path.join(root, f)


def floor_of(src, path):
    top = os.path.relpath(path, src).split(os.sep)[0]
    return FLOORS.get(top)


def floors(root):
    src = os.path.join(root, "src")
    failures = []
    tops = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    failures += [f"src/{d}/: a folder with no floor (tests/check_tree.py FLOORS)" for d in tops if d not in FLOORS]
    for path in sources(src):
        mine = floor_of(src, path)
        if mine is None:
            continue
        for name in INCLUDE.findall(open(path, encoding="utf-8").read()):
            candidates = [os.path.join(os.path.dirname(path), name)] + [os.path.join(src, d, name) for d in INCLUDE_DIRS]
            found = next((c for c in candidates if os.path.isfile(c)), None)
            if found is None:
                continue  # a generated or system header
            theirs = floor_of(src, found)
            if theirs is not None and theirs > mine:
                failures.append(f"{os.path.relpath(path, root)} ({NAMES[mine]}) includes "
                                f"{os.path.relpath(found, root)} ({NAMES[theirs]}), a floor above")
    return failures


def table(root):
    """Every folder of src/ (two levels) and scripts/ (one level, packages
    included) named in the Tree table's first column, and every path the
    table names there."""
    text = open(os.path.join(root, "docs", "development.md"), encoding="utf-8").read()
    section = text.split("\n## Tree\n", 1)[1].split("\n## ", 1)[0]
    named = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            named.update(p.rstrip("/") for p in re.findall(r"`([^`]+)`", first))
    failures = [f"docs/development.md, Tree: `{p}` is not there" for p in sorted(named)
                if not os.path.exists(os.path.join(root, p))]
    want = []
    for d in sorted(os.listdir(os.path.join(root, "src"))):
        if os.path.isdir(os.path.join(root, "src", d)):
            want.append(f"src/{d}")
            for sub in sorted(os.listdir(os.path.join(root, "src", d))):
                if os.path.isdir(os.path.join(root, "src", d, sub)) and sub != "mcb":  # mcb/: the public headers
                    want.append(f"src/{d}/{sub}")
    for d in sorted(os.listdir(os.path.join(root, "scripts"))):
        if os.path.isdir(os.path.join(root, "scripts", d)) and not d.startswith((".", "__")):
            want.append(f"scripts/{d}")
    failures += [f"docs/development.md, Tree: no row names `{w}/`" for w in want if w not in named]
    return failures


def functions(text):
    """(name, first line, lines) of every function body at namespace or class
    scope: a '{' after ')' (or after a qualifier of it) outside any function."""
    code = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    stack = []  # True: a function body
    out = []
    for m in re.finditer(r"[{}]", code):
        if m.group(0) == "{":
            inside = any(stack)
            before = code[:m.start()].rstrip()
            head = re.sub(r"\b(const|noexcept|override|final|mutable)\s*$", "", before).rstrip()
            head = re.sub(r"->\s*[\w:<>,\s*&]+$", "", head).rstrip()  # a trailing return type
            is_fn = not inside and head.endswith(")") and not re.search(r"\b(if|for|while|switch|catch)\s*\(.*\)$",
                                                                      head.splitlines()[-1] if head else "")
            if is_fn:
                depth, i = 0, len(head) - 1  # the '(' that the last ')' closes, and the name before it
                while i >= 0:
                    depth += {")": 1, "(": -1}.get(head[i], 0)
                    if depth == 0:
                        break
                    i -= 1
                name = re.search(r"([~\w:]+)\s*$", head[:max(i, 0)])
                stack.append((name.group(1) if name else "?", code.count("\n", 0, m.start()) + 1))
            else:
                stack.append(False)
        elif stack:
            top = stack.pop()
            if top:
                out.append((top[0], top[1], code.count("\n", 0, m.start()) + 1 - top[1] + 1))
    return out


def length(root):
    failures = []
    for path in sources(os.path.join(root, "src")):
        for name, line, n in functions(open(path, encoding="utf-8").read()):
            if n > LIMIT:
                failures.append(f"{os.path.relpath(path, root)}:{line}: {name} has {n} lines (at most {LIMIT})")
    return failures


PATH = re.compile(r"(?<![\w./-])((?:src|scripts|plots|tests|ci|data|examples|cmake)/[\w./-]*\w\.(?:py|sh|sbatch|md|cpp|hpp|"
                  r"c|cu|cmake|txt|xml|tsv))(?![\w/-])")


# The worked examples of docs/development.md: a new algorithm, a new collective.
EXAMPLES = ("src/alltoall/classic/reverse_pairwise.cpp", "src/gather/")


def paths(root):
    """Every path of a file of the tree (src/, scripts/, plots/, tests/, ci/,
    data/, examples/, cmake/) that README.md and docs/*.md name: there. The
    measurement records under docs/measurements/ keep the paths of their
    day."""
    failures = []
    pages = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
                                   if f.endswith(".md"))
    for page in pages:
        for n, line in enumerate(open(os.path.join(root, page), encoding="utf-8"), 1):
            for path in PATH.findall(line):
                if re.search(r"[*{]|[A-Z]{3,}", path) or path.startswith(EXAMPLES):
                    continue  # a pattern, a placeholder (NAME.py), or the worked examples of development.md
                if not os.path.exists(os.path.join(root, path)):
                    failures.append(f"{page}:{n}: `{path}` is not there")
    return failures


def main():
    checks = {"floors": floors, "table": table, "length": length, "paths": paths}
    if len(sys.argv) != 3 or sys.argv[1] not in checks:
        sys.exit(__doc__)
    failures = checks[sys.argv[1]](sys.argv[2])
    for f in failures:
        print("FAIL: " + f)
    print(f"tree check ({sys.argv[1]}): {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
