#!/usr/bin/env python3
# The tests and the code stay inside the project, and the root stays tidy.
# (a) No file under tests/, scripts/, bench/, .ci/ or src/ names an
#     absolute path outside what a new machine has after the README's
#     commands: the repository itself and ../shared are named relatively
#     ($TOP, ../shared), the build folders are under $TOP; /tmp, /proc,
#     /sys, /dev, /run and what Debian's packages install (/usr, /etc,
#     /lib*, /bin, /sbin, /var) are everyone's. Anything else (/work/...,
#     /root/..., /home/..., /mnt/..., /opt/...) exists on one machine only.
#     A path is a word that starts with "/" where a path can start (the
#     line's start, after a blank, "=", "(", ",", ":" and the like, or an
#     opening quote), not inside a word ("$d/out.json", "MiB/s", "</td>")
#     and not in a comment (C's /* */ and //, a shell's or Python's #):
#     comments and docs (*.md, README) give examples (--directory=/mnt/x).
#     A one-part path counts only when it is one of the roots people keep
#     their own files under (/work, /mnt, /home, ...): "/s", "/x" are units
#     and placeholders. /nonexistent... names what must not exist. Fixture
#     folders (tests/data/, tests/fuzz/corpus/) hold users' job files and
#     logs as they were written and are data. What remains is listed in
#     ALLOWED below with the reason, per file: fake paths fed to a parser
#     or joined and compared, never opened.
# (b) The files tracked at the repository's root are the short list ROOT
#     (a test's output committed by mistake, such as the zero-filled "fa"
#     and "tr" of the falloc and ftruncate cases, fails here).
# The checker is checked first: a temporary copy of some scanned files with
# bad paths planted (and harmless ones beside them) must be caught, file
# and line, and a copy with a stray root file must fail (b).
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", "..")))
SCANNED = ("tests", "scripts", "bench", ".ci", "src")
FIXTURES = ("tests/data/", "tests/fuzz/corpus/")
ROOT = {"README.md", "meson.build", "meson_options.txt", "COPYING", "LICENSE", ".gitignore",
        ".clang-format", ".editorconfig", ".gitattributes"}
# first parts of a path that every Debian machine has (or makes for anyone)
SYSTEM = {"tmp", "proc", "sys", "dev", "run", "usr", "etc", "lib", "lib32", "lib64", "libx32",
          "bin", "sbin", "var"}
# one-part paths that name someone's own files
PRIVATE_ROOTS = {"work", "root", "home", "Users", "mnt", "media", "srv", "opt", "scratch", "data",
                 "nfs", "net", "afs", "research"}

# file -> (paths it may name, why); the paths are the words as found
ALLOWED = {
    "tests/unit/test_store.c": (
        {"/env/x.db", "/xdg", "/home/u", "/opt/a.db", "/xdg/iobench/results.db",
         "/home/u/.local/share/iobench/results.db"},
        "fake $IOBENCH_DB, $XDG_DATA_HOME and $HOME values that store_path_resolve joins "
        "and the test compares; nothing is opened"),
    "tests/unit/test_bonnie_args.c": (
        {"/mnt", "/scratch"},
        "the -d values of the studies' bonnie++ command lines, parsed and compared, never used"),
    "tests/unit/test_devguard.c": (
        {"/mnt1", "/mnt/with"},
        "a mountinfo line for the parser (\\040 escapes a blank)"),
    "tests/unit/test_sysinfo_parse.c": (
        {"/mnt1", "/mnt/my", "/swap"},
        "mountinfo and /proc/swaps lines for the parsers"),
    "tests/unit/test_tracefs.c": (
        {"/instances", "/mnt/inst", "/t"},
        "mountinfo lines for tracefs_scan"),
    "tests/unit/test_sysinfo_capture.c": (
        {"/data/f", "/data"},
        "a made-up capture rendered as text; nothing is read"),
    "tests/unit/test_verify.c": ({"/x/f.dat"}, "a file name in a verify failure message"),
    "tests/unit/test_replay.c": (
        {"/x/a", "/x/b", "/y/z"}, "file names in iolog texts and replay_redirect's value"),
    "tests/unit/test_memcg.c": (
        {"/process_api/6abc", "/user.slice/session-1.scope", "/a/b"},
        "cgroup paths in /proc/self/cgroup texts for the parser"),
    "tests/unit/test_anomaly.c": ({"/cg/iobench.1"}, "a memory cgroup's name in a made-up run"),
    "tests/unit/test_sweep_md.c": (
        {"/block", "/block/md3", "/block/md3/md", "/block/loop7", "/block/loop7/queue"},
        "a fake sysfs tree made under a temporary folder (the paths are relative to it)"),
    "tests/unit/test_sysknob_snap.c": (
        {"/block", "/block/loop7", "/block/loop7/queue", "/block/loop7/queue/iosched"},
        "a fake sysfs tree made under a temporary folder (the paths are relative to it)"),
    "tests/unit/test_jobfile.c": (
        {"/msa70/fio/data", "/msa70/fio/data/"},
        "tests/data/seed003's job files name this directory: the test expects the refusal to name it"),
    "tests/e2e/test_fio_engines3.sh": (
        {"/scratch"}, "the directory fio's e4defrag.fio names, replaced by sed"),
    "tests/e2e/test_mpi_run.sh": ({"/src/dist/"}, "a grep pattern on $TOP's files"),
    "src/cmd/run/run_flags.c": ({"/mnt/test"}, "an example in --help's text"),
    "scripts/fresh-root.sh": (
        {"/root", "/ci/main"},
        "paths inside the fresh root it makes, seen from its chroot: root's HOME and the clone"),
    "src/sys/sysknob.c": ({"/queue/scheduler"}, "the end of a sysfs path, compared"),
    "tests/e2e/test_fio_trimzone.sh": ({"/queue/zoned"}, "the end of a sysfs path in a message"),
}

WORD = re.compile(r"/[A-Za-z_][\w.+-]*(?:/[\w.+@%-]*)*")
STARTS = set(" \t=(,:;|<>")


C_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)


def strip_c_comments(text):
    """C and C++ comments blanked, strings kept (newlines kept for line numbers)."""
    return C_TOKENS.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'"
                        else re.sub(r"[^\n]", " ", m.group(0)), text)


def strip_hash_comment(line):
    """A shell's or Python's comment cut: from a # at the line's start or after a blank,
    outside quotes."""
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def path_words(line):
    """The absolute paths a line names, by the rules of the header."""
    for m in WORD.finditer(line):
        p = m.start()
        before = line[p - 1] if p else ""
        if before in "'\"`":
            if line[:p].count(before) % 2 == 0:
                continue  # a closing quote: "$d"/out.json
        elif p and before not in STARTS and line[p - 2:p] != ":-":  # ${X:-/default}
            continue
        if line.startswith("//", p) or (before == ":" and line[p - 2:p] == ":/"):
            continue
        yield m.group(0)


def outside(path):
    parts = path.strip("/").split("/")
    top = parts[0]
    if top in SYSTEM or top.startswith("nonexistent"):
        return False
    if len([x for x in parts if x]) == 1:
        return top in PRIVATE_ROOTS
    return True


def is_doc(rel):
    base = os.path.basename(rel)
    return base.endswith((".md", ".1", ".txt")) or base.startswith("README")


def files_of(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "--"]
                         + list(SCANNED), capture_output=True, text=True, check=True).stdout
    return sorted(set(out.split("\n")) - {""})


# this file names bad paths on purpose (its plants and ALLOWED)
SELF = "tests/e2e/test_tree_hygiene.py"


def scan(root):
    """[(file, line, path)] of the paths outside the project, ALLOWED's left out."""
    bad = []
    for rel in files_of(root):
        if rel.startswith(FIXTURES) or is_doc(rel) or rel == SELF:
            continue
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            continue
        try:
            text = open(full, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue  # binary
        c_like = rel.endswith((".c", ".h", ".cc", ".cpp"))
        if c_like:
            text = strip_c_comments(text)
        allowed = ALLOWED.get(rel, (set(), ""))[0]
        for no, line in enumerate(text.split("\n"), 1):
            if not c_like:
                line = strip_hash_comment(line)
            for p in path_words(line):
                if outside(p) and p not in allowed:
                    bad.append((rel, no, p))
    return bad


def root_strays(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                         check=True).stdout
    return sorted(f for f in set(out.split("\n")) - {""} if "/" not in f and f not in ROOT)


results = []


def check(cond, what):
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + what)


def say(bad):
    return "; ".join(f"{f}:{n}: {p}" for f, n, p in bad[:12]) + (" ..." if len(bad) > 12 else "")


# ---- the checker on a planted copy ----
PLANTS = {
    # file in the copy: (line appended, the path it must report or None)
    "tests/e2e/lib.sh": [('MDTEST=/work/research/mpi/ior/bin/mdtest', "/work/research/mpi/ior/bin/mdtest"),
                         ('cd /root && ls', "/root"),
                         ('MDTEST=${MDTEST:-/home/me/mdtest}', "/home/me/mdtest"),
                         ('x="$d"/out.json; y=/tmp/x; z=/dev/loop0; cat /proc/mounts', None),
                         ('# comment: run it on /mnt/data', None),
                         ('echo "/home/dev/bin/fio"', "/home/dev/bin/fio")],
    "src/sys/tracefs.c": [('static const char *p = "/home/u/.cache/x"; /* and /mnt/x */',
                           "/home/u/.cache/x"),
                          ('static const char *q = "/dev/loop"; // "/work/x"', None),
                          ('static const char *r = "MiB/s </td>";', None)],
    "bench/compare-ior": [('IOR_BIN = "/opt/ior/bin"', "/opt/ior/bin"),
                          ('URL = "https://github.com/hpc/ior"', None)],
    "scripts/deps.sh": [('source /srv/env.sh', "/srv/env.sh")],
    ".ci/run": [('ROOT=/var/tmp/iobench-ci; debootstrap bookworm "$ROOT"', None),
                ('cp -a /work/shared "$ROOT"', "/work/shared")],
}
tmp = tempfile.mkdtemp(prefix="iobench-hygiene.")
try:
    copy = os.path.join(tmp, "repo")
    os.makedirs(copy)
    for rel in list(PLANTS) + ["tests/e2e/test_fio_engines3.sh", "tests/unit/test_store.c"] + \
            [f for f in ROOT if os.path.exists(os.path.join(TOP, f))]:
        src = os.path.join(TOP, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copy(src, os.path.join(copy, rel))
    git = ["git", "-C", copy, "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    clean = scan(copy)
    want = set()
    for rel, lines in PLANTS.items():
        path = os.path.join(copy, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        n = sum(1 for _ in open(path)) if os.path.exists(path) else 0
        with open(path, "a") as f:
            for i, (line, bad) in enumerate(lines):
                f.write(line + "\n")
                if bad:
                    want.add((rel, n + i + 1, bad))
    subprocess.run(git + ["add", "-A"], check=True)
    found = set(scan(copy)) - set(clean)
    check(found == want, f"the checker on a planted copy: the {len(want)} bad paths caught at "
          f"their lines, the harmless ones beside them not (missed: {sorted(want - found)}, "
          f"wrong: {sorted(found - want)})")
    open(os.path.join(copy, "fa"), "w").write("\0" * 64)
    subprocess.run(git + ["add", "fa"], check=True)
    check(root_strays(copy) == ["fa"], f"the checker on a copy with a stray root file 'fa': "
          f"found {root_strays(copy)}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

# ---- the repository ----
bad = scan(TOP)
check(not bad, "tests/, scripts/, bench/, .ci/ and src/ name no absolute path outside the "
      f"project, ../shared, the build folders and the system's ({len(bad)}: {say(bad)})")
unused = []
for rel, (paths, _) in ALLOWED.items():
    full = os.path.join(TOP, rel)
    text = open(full).read() if os.path.exists(full) else ""
    unused += [f"{rel}: {p}" for p in paths if p not in text]
check(not unused, f"every path ALLOWED lists is still named where it says ({unused})")
strays = root_strays(TOP)
check(not strays, f"the files tracked at the root are README.md, meson.build and the other "
      f"project files only (strays: {strays})")
sys.exit(0 if all(results) else 1)
