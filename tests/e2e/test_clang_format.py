#!/usr/bin/env python3
"""The C sources keep the layout of .clang-format, as a ratchet.

clang-format (with the repository's .clang-format) is run on every
tracked .c and .h file and the lines it would change are counted. Most of
the tree is written in that layout; the rest (hand-aligned continuation
lines and comment columns, which clang-format would rewrap into worse
ones) is counted per file in tests/data/clang-format-baseline.txt. The
check fails when a file has more such lines than its baseline, or a file
not in the baseline has any: new and changed code is laid out as
.clang-format says. A file with fewer lines than its baseline is named,
so that the baseline is lowered (`--update` rewrites it).
"""
import concurrent.futures
import difflib
import os
import shutil
import subprocess
import sys

TOP = os.path.abspath(os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", "..")))
BASE = os.path.join(TOP, "tests", "data", "clang-format-baseline.txt")
failed = 0
n = 0


def check(ok, what):
    global failed, n
    n += 1
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        failed += 1


def changed_lines(fmt, rel):
    path = os.path.join(TOP, rel)
    src = open(path, encoding="utf-8").read().splitlines()
    out = subprocess.run([fmt, "--style=file", "--assume-filename=" + path, path],
                         capture_output=True, text=True, cwd=TOP)
    if out.returncode != 0:
        return rel, -1
    new = out.stdout.splitlines()
    d = sum(1 for l in difflib.unified_diff(src, new, lineterm="", n=0)
            if l.startswith("-") and not l.startswith("---"))
    return rel, d


def counts(fmt, files):
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
        return dict(ex.map(lambda f: changed_lines(fmt, f), files))


def main():
    fmt = shutil.which("clang-format")
    if not fmt:
        check(False, "clang-format is installed (scripts/deps.sh's test set)")
        return
    # the counter first, on a planted file: one badly indented line of three
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(os.path.join(TOP, ".clang-format"), d)
        p = os.path.join(d, "planted.c")
        open(p, "w").write("int f(void)\n{\n    return 1;\n}\n")
        out = subprocess.run([fmt, "--style=file", p], capture_output=True, text=True, cwd=d).stdout
        k = sum(1 for l in difflib.unified_diff(open(p).read().splitlines(), out.splitlines(), lineterm="", n=0)
                if l.startswith("-") and not l.startswith("---"))
        check(k == 1, "the counter finds the one line a planted file indents with spaces (%d)" % k)
    files = subprocess.run(["git", "-C", TOP, "ls-files", "*.c", "*.h"], capture_output=True,
                           text=True, check=True).stdout.split()
    got = counts(fmt, files)
    broken = [f for f, k in got.items() if k < 0]
    check(not broken, "clang-format reads every file (%s)" % " ".join(broken[:5]))
    if "--update" in sys.argv:
        with open(BASE, "w") as o:
            o.write("# lines clang-format would change, per file (tests/e2e/test_clang_format.py --update)\n")
            for f in sorted(got):
                if got[f] > 0:
                    o.write("%d %s\n" % (got[f], f))
        print("# wrote", BASE)
    base = {}
    for l in open(BASE):
        if l.strip() and not l.startswith("#"):
            k, f = l.split(None, 1)
            base[f.strip()] = int(k)
    worse = ["%s (%d > %d)" % (f, k, base.get(f, 0)) for f, k in sorted(got.items()) if k > base.get(f, 0)]
    check(not worse, "no file has more lines off .clang-format's layout than its baseline: %s"
          % ("; ".join(worse[:10]) or "none"))
    better = ["%s (%d < %d)" % (f, got.get(f, 0), k) for f, k in sorted(base.items()) if got.get(f, 0) < k]
    if better:
        print("# below their baseline (lower it with --update): " + "; ".join(better[:10]))
    total = sum(k for k in got.values() if k > 0)
    print("# %d of the tree's lines are off the layout, in %d of %d files"
          % (total, sum(1 for k in got.values() if k > 0), len(files)))


main()
print("%d passed, %d failed" % (n - failed, failed))
sys.exit(1 if failed else 0)
