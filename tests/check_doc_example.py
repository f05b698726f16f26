#!/usr/bin/env python3
"""The worked example of docs/development.md, "Adding an algorithm", done
as the document says (issue 31): in a scratch copy of the source tree, the
document's C++ block becomes the file it names and the registry gets the one
line it names; then only mcb_alltoall is configured and built, and the new
algorithm must appear in --list and run and pass under the existing sweep's
`--algorithm all -c`, with nothing else edited.

    check_doc_example.py SOURCE_DIR SCRATCH_DIR --cmake-args "-DMCB_MPI=openmpi ..." -- RUN_MPI_PREFIX...

RUN_MPI_PREFIX is tests/run_mpi.py with its launcher arguments (as the
CTest suite calls it). Exit 0 when every check passed; one FAIL line each
otherwise.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def extract(doc_text):
    """(path of the new file, its code, the registry line, the registry macro) from the document."""
    section = doc_text.split("## Adding an algorithm", 1)
    if len(section) != 2:
        fail("docs/development.md has no section 'Adding an algorithm'")
    body = section[1].split("\n## ", 1)[0]
    # src/COLLECTIVE/NAME.cpp or, in a family folder, src/COLLECTIVE/FAMILY/NAME.cpp
    m = re.search(r"`(src/[a-z_]+/(?:[a-z_]+/)?[a-z_0-9]+\.cpp)`,?\s*```cpp\n(.*?)```", body, re.S)
    if not m:
        fail("no `src/...cpp` followed by a ```cpp block in 'Adding an algorithm'")
    line = re.search(r"in `(MCB_[A-Z_]+_ALGORITHMS)`, the line\s+`(X\([a-z_0-9]+\))`", body)
    if not line:
        fail("no 'in `MCB_..._ALGORITHMS`, the line `X(name)`' in 'Adding an algorithm'")
    return m.group(1), m.group(2), line.group(2), line.group(1)


def main():
    argv = sys.argv[1:]
    if "--" not in argv or len(argv) < 4:
        sys.exit(__doc__)
    split = argv.index("--")
    own, run_mpi = argv[:split], argv[split + 1:]
    source, scratch = own[0], own[1]
    cmake_args = shlex.split(own[3]) if len(own) > 3 and own[2] == "--cmake-args" else []
    path, code, line, macro = extract(open(os.path.join(source, "docs", "development.md")).read())
    name = re.match(r"X\((.*)\)", line).group(1)

    # The tree as it is (tracked files of the working tree), then the two edits.
    shutil.rmtree(scratch, ignore_errors=True)
    files = subprocess.run(["git", "-C", source, "ls-files", "-z"], capture_output=True, text=True, check=True)
    for rel in files.stdout.split("\0"):
        if rel and os.path.isfile(os.path.join(source, rel)):
            os.makedirs(os.path.dirname(os.path.join(scratch, rel)) or scratch, exist_ok=True)
            shutil.copy2(os.path.join(source, rel), os.path.join(scratch, rel))
    if os.path.exists(os.path.join(scratch, path)):
        fail("%s exists already: the example must be a new file" % path)
    with open(os.path.join(scratch, path), "w") as f:
        f.write(code)
    registry = os.path.join(scratch, *path.split("/")[:2], "registry.cpp")  # the collective's, at its top
    text = open(registry).read()
    head = "#define %s(X) \\\n" % macro
    if head not in text:
        fail("%s has no '#define %s(X) \\'" % (registry, macro))
    with open(registry, "w") as f:
        f.write(text.replace(head, head + "  %s \\\n" % line, 1))

    build = os.path.join(scratch, "build")
    # ccache (CI's) then finds the objects of the suite's own build: the same
    # sources at the same paths relative to the tree.
    env = dict(os.environ, CCACHE_BASEDIR=os.path.realpath(scratch))
    for cmd in (["cmake", "-S", scratch, "-B", build, "-DCMAKE_BUILD_TYPE=Release"] + cmake_args,
                ["cmake", "--build", build, "-j", str(os.cpu_count() or 2), "--target", "mcb_alltoall"]):
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            fail("%s failed:\n%s" % (" ".join(cmd[:3]), (r.stdout + r.stderr)[-3000:]))
    binary = os.path.join(build, "src", "mcb_alltoall")
    listed = subprocess.run(run_mpi + ["-n", "1", "--", binary, "--list"], capture_output=True, text=True)
    if not re.search(r"^  %s " % re.escape(name), listed.stdout, re.M):
        fail("%s is not in mcb_alltoall --list:\n%s" % (name, listed.stdout + listed.stderr))
    # The existing sweep's command (alltoall_every_algorithm_p5_*): every
    # algorithm of --list ran and every table passed, the new one included.
    for n, extra in ((5, []), (6, ["--ranks-per-node", "3", "--rank-order", "cyclic"])):
        cmd = run_mpi + ["-n", str(n), "--expect-ranks", "--expect-every-algorithm", "--expect-rows-per-block", "3",
                         "--expect-stdout", "algorithm %s$" % name, "--", binary, "-c", "-m", "1,8,1000", "-i", "2",
                         "-x", "1", "--algorithm", "all"] + extra
        r = subprocess.run(cmd, capture_output=True, text=True)
        print(r.stdout[-2000:] if r.returncode else "P=%d%s: every algorithm passed, %s among them" %
              (n, " " + " ".join(extra) if extra else "", name))
        if r.returncode != 0:
            fail("the sweep at P=%d failed (above)" % n)
    print("doc example: %s (%s, one line %s) built, listed and validated" % (path, name, line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
