#!/usr/bin/env python3
# The project speaks for itself: no comment, message or document in a
# tracked file refers to what a reader of the repository cannot see.
# (a) No issue number ("issue 15", "Issue 14's", "issues 13 and 14"): an
#     issue tracker is not part of the tree; say what the code does and why.
# (b) No seed ("seed 003", "seeds 000 and 004"): the studies the project
#     started from are outside it; name what they did ("a bonnie++ line of
#     an XFS RAID study", tests/data/seed003's job files) instead.
# (c) No path to the material beside the repository (../shared) in a
#     document or in src/, examples/ and meson.build; the tests, scripts
#     and benchmarks that read it (IOR's source, fio's, the studies' files)
#     may name it where they do.
# Fixture folders (tests/data/, tests/fuzz/corpus/) hold users' files as
# they were written and are data. PENDING lists the files whose comments
# are reworded when they move (the folders below are being split); a file
# it names that is clean already, or that is gone, is reported. The
# checker is checked first on planted lines.
import os
import re
import subprocess
import sys

TOP = os.path.abspath(os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", "..")))
FIXTURES = ("tests/data/", "tests/fuzz/corpus/")
SELF = "tests/e2e/test_doc_refs.py"
# where ../shared may be named: the code that reads it
SHARED_OK = ("tests/", "scripts/", "bench/", ".ci/")
# prefix -> why its references stay for now
PENDING = {
}

ISSUE = re.compile(r"\bissues?(?:\s+#?|#|-)?\d+", re.I)
SEED = re.compile(r"\bseeds?\s+\d{3}\b", re.I)
SHARED = re.compile(r"\.\./shared\b")


def is_doc(rel):
    base = os.path.basename(rel)
    return base.endswith((".md", ".1", ".txt")) or base.startswith("README")


def refs(rel, text):
    """[(line, what)] of the references RELATIVE's TEXT makes."""
    bad = []
    shared_ok = rel.startswith(SHARED_OK) and not is_doc(rel)
    for no, line in enumerate(text.split("\n"), 1):
        for rx, what in ((ISSUE, "an issue number"), (SEED, "a seed")):
            for m in rx.finditer(line):
                bad.append((no, f"{what}: '{m.group(0)}'"))
        if not shared_ok:
            for m in SHARED.finditer(line):
                bad.append((no, "a path outside the repository: '../shared'"))
    return bad


results = []


def check(cond, what):
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + what)


# ---- the checker on planted lines ----
plant = ("/* as issue 15 asked */\n"
         "# seed 003's job files, seeds 000 and 004\n"
         "see ../shared/DESIGN.md\n"
         "tests/data/seed003/random-write-test.fio; an I/O issue; seeded randomly\n"
         "Issue #7 and 2 issues, 3 ways; research/issue14-gaps.md\n")
got = refs("src/x/y.c", plant)
want = [(1, "an issue number: 'issue 15'"), (2, "a seed: 'seed 003'"), (2, "a seed: 'seeds 000'"),
        (3, "a path outside the repository: '../shared'"), (5, "an issue number: 'Issue #7'"), (5, "an issue number: 'issue14'")]
check(got == want, f"the checker on planted lines: the references found at their lines, the "
      f"harmless words beside them not (found {got})")
check(refs("tests/e2e/lib.sh", "ANCHORS=$TOP/../shared/anchors\n") == [] and
      refs("tests/e2e/x.md", "see ../shared/anchors\n") != [],
      "the checker lets a test's code name ../shared, never a document")

# ---- the repository ----
files = subprocess.run(["git", "-C", TOP, "ls-files", "-co", "--exclude-standard"],
                       capture_output=True, text=True, check=True).stdout.split("\n")
bad, pending_hit = [], set()
for rel in sorted(set(files) - {""}):
    if rel.startswith(FIXTURES) or rel == SELF:
        continue
    full = os.path.join(TOP, rel)
    if not os.path.isfile(full):
        continue
    try:
        text = open(full, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue  # binary
    found = refs(rel, text)
    held = next((p for p in PENDING if rel.startswith(p)), None)
    if held and found:
        pending_hit.add(held)
        continue
    bad += [f"{rel}:{no}: {what}" for no, what in found]
check(not bad, f"no tracked file names an issue number, a seed or ../shared where it may not "
      f"({len(bad)}: {'; '.join(bad[:20])}{' ...' if len(bad) > 20 else ''})")
stale = sorted(set(PENDING) - pending_hit)
check(not stale, f"every PENDING entry still holds a reference (clean or gone: {stale})")
sys.exit(0 if all(results) else 1)
