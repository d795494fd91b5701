#!/usr/bin/env python3
# The manual names only what iobench has, and names all of its flags.
# (a) Every flag (--NAME) that README.md or a page of doc/ names is one that
#     iobench or iobench-mpi has: a command's flag (`iobench help words
#     flags CMD`), a job option as run's flag (`help words options`), or a
#     flag that a command's, a subcommand's or iobench-mpi's --help text
#     names (sweep report's --factors, mdtest's --show-perrank-statistics).
#     Other programs' flags the pages quote (mpirun's --hostfile, mdadm's
#     --create) are listed in FOREIGN below with the reason.
# (b) Every job option a page names as NAME=VALUE inside `code` is one of
#     the option table's or an engine's (`help words options`); other keys
#     written that way (a label, a mount option, dd's operand) are listed in
#     OTHER_KEYS with the reason.
# (c) Every long flag of every command (`help words flags CMD`) and of
#     iobench-mpi run is named on some page: a flag added to the tables
#     without a word in the manual fails here, as curl's tests fail on an
#     undocumented option.
# The checker is checked first: a planted page with an unknown flag and an
# unknown option beside known ones must be caught, page and line.
# doc/iobench.1 is generated from the tables and not read here.
import glob
import os
import re
import subprocess
import sys

TOP = os.path.abspath(os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", "..")))
IOBENCH = os.environ.get("IOBENCH", os.path.join(TOP, "build", "iobench"))
MPI = os.path.join(os.path.dirname(IOBENCH), "iobench-mpi")

# flag -> why a page may name it although iobench has no such flag
FOREIGN = {
    "hostfile": "mpirun's, in doc/mpi.md's examples",
    "map-by": "mpirun's, in doc/mpi.md's examples",
    "allow-run-as-root": "mpirun's, what it wants as root",
    "oversubscribe": "mpirun's, for more ranks than cores",
    "saveRankPerformanceDetails": "mdtest's, in the column of mdtest's names",
    "create": "mdadm's, in a sweep's setup template",
    "chunk": "mdadm's, in a sweep's setup template",
    "stop": "mdadm's, in a sweep's teardown template",
    "device": "a program's operand the guard looks at (--device=/dev/x)",
    "variant": "debootstrap's, which CI's fresh root is made with",
    "numj": "a prefix of --numjobs, the example of run's prefix matching",
    "outptu": "a misspelt --output, the example of the 'did you mean' message",
}
# key -> why a page may write KEY=VALUE in code although it is no job option
OTHER_KEYS = {
    "fs": "a label (--label fs=xfs) and a selection of runs",
    "device": "a mount option in a comma list the guard looks at",
    "of": "dd's operand the guard looks at",
    "buildtype": "Meson's option",
    "kernel.sched_autogroup_enabled": "a sysctl",
}

FLAG = re.compile(r"(?<![\w-])--([a-zA-Z][\w-]*[a-zA-Z0-9])")
SPAN = re.compile(r"`([^`\n]+)`")
KEY = re.compile(r"(?:^|(?<=[\s\[(]))([a-z][a-z0-9_.]*)=")

results = []


def check(cond, what):
    results.append(bool(cond))
    print(("ok - " if cond else "not ok - ") + what)


def out(*argv):
    r = subprocess.run(list(argv), capture_output=True, text=True)
    return r.stdout + r.stderr


def words(*topic):
    r = subprocess.run([IOBENCH, "help", "words", *topic], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"not ok - iobench help words {' '.join(topic)} failed: {r.stderr.strip()}")
    return r.stdout.split()


def pages(root):
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "doc", "*.md")))


def unknown(root, flags, options):
    """[(page, line, word, kind)] of the flags and options the pages name
    that iobench lacks (FOREIGN's and OTHER_KEYS' left out)."""
    bad = []
    for p in pages(root):
        rel = os.path.relpath(p, root)
        for no, line in enumerate(open(p, encoding="utf-8"), 1):
            for m in FLAG.finditer(line):
                f = m.group(1)
                if f not in flags and f not in FOREIGN:
                    bad.append((rel, no, "--" + f, "flag"))
            for span in SPAN.findall(line):
                for k in KEY.findall(span):
                    if k not in options and k not in OTHER_KEYS:
                        bad.append((rel, no, k + "=", "option"))
    return bad


def say(bad):
    return "; ".join(f"{p}:{n}: {w} ({k})" for p, n, w, k in bad[:15]) + (" ..." if len(bad) > 15 else "")


# ---- what iobench has ----
commands = words("commands")
cmd_flags = {}  # command -> its long flags, from the tables
for c in commands:
    cmd_flags[c] = {w.lstrip("-").rstrip("=") for w in words("flags", c) if w.startswith("--")}
options = {w[2:].rstrip("=") for w in words("options") if w.startswith("--")}
flags = set(options)
for c in commands:
    flags |= cmd_flags[c]
    flags |= set(FLAG.findall(out(IOBENCH, c, "--help")))
    for sub in words("subcommands", c):
        flags |= set(FLAG.findall(out(IOBENCH, c, sub, "--help")))
have_mpi = os.access(MPI, os.X_OK)
check(have_mpi, f"iobench-mpi is built beside iobench ({MPI}; scripts/build.sh builds it)")
mpi_run = set()
if have_mpi:
    mpi_run = set(FLAG.findall(out(MPI, "run", "--help"))) - set(FLAG.findall(out(IOBENCH, "run", "--help")))
    for argv in (["--help"], ["run", "--help"], ["meta", "--help"], ["bonnie", "--help"]):
        flags |= set(FLAG.findall(out(MPI, *argv)))

# ---- the checker on a planted page ----
plant_dir = subprocess.run(["mktemp", "-d", "/tmp/iobench-docflags.XXXXXX"], capture_output=True,
                           text=True, check=True).stdout.strip()
try:
    os.makedirs(os.path.join(plant_dir, "doc"))
    open(os.path.join(plant_dir, "README.md"), "w").write(
        "Run `iobench run --output-format=json --rw=read job.fio`.\n")
    open(os.path.join(plant_dir, "doc", "x.md"), "w").write(
        "A known flag --no-store and option `bs=4k`, mpirun's --hostfile.\n"
        "An unknown flag --no-such-flag here.\n"
        "An unknown option `nosuchoption=1` there, `rw=read iodepth=4 notone=2`.\n")
    found = unknown(plant_dir, flags, options)
    want = [("doc/x.md", 2, "--no-such-flag", "flag"), ("doc/x.md", 3, "nosuchoption=", "option"),
            ("doc/x.md", 3, "notone=", "option")]
    check(found == want, f"the checker on planted pages: the unknown flag and options caught at "
          f"their lines, the known ones not (found: {found})")
finally:
    subprocess.run(["rm", "-rf", plant_dir])

# ---- the manual ----
docs = pages(TOP)
check(len(docs) > 10, f"README.md and the pages of doc/ are there ({len(docs)} files)")
bad = unknown(TOP, flags, options)
check(not bad, f"every flag and job option README.md and doc/ name exists ({len(bad)} unknown: {say(bad)})")
named = set()
for p in docs:
    named |= set(FLAG.findall(open(p, encoding="utf-8").read()))
missing = [f"{c} --{f}" for c in commands for f in sorted(cmd_flags[c]) if f not in named]
missing += [f"iobench-mpi run --{f}" for f in sorted(mpi_run) if f not in named]
check(not missing, f"every long flag of every command is named in README.md or doc/ "
      f"({len(missing)} not: {', '.join(missing)})")
text = "".join(open(p, encoding="utf-8").read() for p in docs)
unused = [f"--{f}" for f in FOREIGN if f"--{f}" not in text]
unused += [f"{k}=" for k in OTHER_KEYS if f"{k}=" not in text]
check(not unused, f"every word FOREIGN and OTHER_KEYS list is still named ({unused})")
sys.exit(0 if all(results) else 1)
