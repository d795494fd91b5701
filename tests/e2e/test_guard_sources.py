#!/usr/bin/env python3
# Every path iobench writes goes through the device guard (src/sys/dev/),
# judged on the opened descriptor. This test reads the sources and finds
# every call that can open a path for writing (open, openat, creat, fopen
# with a writing mode, mkstemp, truncate, sqlite3_open*) outside
# src/sys/dev/: each must be read-only or one of the few sites listed
# below with the reason it is safe (a kernel interface under /proc or
# /sys, /dev/null, or a descriptor adopted by the guard right after). A
# new raw writable open fails here with its file:line, before a review has
# to catch it. The checker is checked on fixtures first.
import os
import re
import sys

TOP = os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", ".."))
CALLS = re.compile(r"\b(open|openat|open64|creat|fopen|freopen|mkstemp|mkostemp|mkstemps|"
                   r"truncate|sqlite3_open|sqlite3_open_v2)\s*\(")
WRITE_FLAGS = re.compile(r"\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b")

# (file, text the call's arguments contain) -> why the site is safe
ALLOWED = {
    ("src/engines/fileio.c", "f->open_flags"):
        "the engine's open of a job file: job_files_open judges the very descriptor "
        "with devguard_adopt before any I/O, and closes it on a refusal",
    ("src/engines/mmap.c", "flags | O_CLOEXEC"):
        "the mmap engine's open of a job file: adopted by devguard_adopt in "
        "job_files_open like every engine's",
    ("src/sys/memcg_keeper.c", '"/dev/null"'):
        "/dev/null for the keeper's standard streams",
    ("src/sys/memcg.c", "O_WRONLY"):
        "a cgroup v2 control file under /sys/fs/cgroup (memory.max, cgroup.procs)",
    ("src/sys/cgroup2.c", "O_WRONLY"):
        "a cgroup v2 control file (cgroup.type, cgroup.threads) of the job's group, "
        "opened without O_CREAT under the cgroup2 mount ('..' in the name is refused)",
    ("src/sys/iosched.c", "O_WRONLY"):
        "a block queue's sysfs scheduler file (/sys/dev/block/M:N/queue/scheduler), "
        "never a path from the job file",
    ("src/sys/sysknob.c", "O_WRONLY"):
        "a block queue knob (/sys/block/DISK/queue/...) or a vm sysctl (/proc/sys/vm/...) a "
        "sweep turns, never created, the path checked against those roots",
    ("src/sys/dropcache.c", "DROPCACHE_PATH"):
        "/proc/sys/vm/drop_caches",
    ("src/store/store_open.c", "st->vfs_name"):
        "SQLite through the guarded VFS (store_vfs.c), whose xOpen judges each "
        "descriptor SQLite opens (database, journal, WAL)",
}


def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), s, flags=re.S)
    return re.sub(r"//[^\n]*", "", s)


def calls(text):
    """(line, name, args) of every call of CALLS in C text, comments removed."""
    s = strip_comments(text)
    for m in CALLS.finditer(s):
        before = s[max(0, m.start() - 2):m.start()]
        if before.endswith("->") or before.endswith("."):
            continue  # a member such as ops->open(
        i, depth = m.end(), 1
        while depth and i < len(s):
            depth += {"(": 1, ")": -1}.get(s[i], 0)
            i += 1
        args = " ".join(s[m.end():i - 1].split())
        yield s[:m.start()].count("\n") + 1, m.group(1), args


def writable(name, args):
    if name in ("creat", "mkstemp", "mkostemp", "mkstemps", "truncate",
                "sqlite3_open", "sqlite3_open_v2"):
        return True
    if name in ("fopen", "freopen"):
        modes = re.findall(r'"([^"]*)"', args)
        return not modes or any(re.search(r"[wa+]", m) for m in modes[-1:])
    # open/openat/open64: read-only only when it says O_RDONLY and nothing that writes
    return bool(WRITE_FLAGS.search(args)) or "O_RDONLY" not in args


def scan(root):
    """Yield (path, line, call, allowed_key or None) for every writable call."""
    for d, _, files in os.walk(os.path.join(root, "src")):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            full = os.path.join(d, f)
            rel = os.path.relpath(full, root)
            if rel.startswith("src/sys/dev/"):
                continue
            with open(full, encoding="utf-8") as fh:
                text = fh.read()
            for line, name, args in calls(text):
                if not writable(name, args):
                    continue
                key = next((k for k in ALLOWED if k[0] == rel and k[1] in args), None)
                yield rel, line, "%s(%s)" % (name, args), key


results = []


def check(cond, what):
    results.append(cond)
    print(("ok " if cond else "not ok ") + what)


# the checker on fixtures
fixture = '''
int a(void) { return open(p, O_RDONLY | O_CLOEXEC); }
int b(void) { return open(p,
                          O_WRONLY | O_CREAT, 0644); }
FILE *c(void) { return fopen(p, "w"); }
FILE *d(void) { return fopen(p, "re"); }
int e(void) { return ops->open(ctx, f); }
/* open(p, O_RDWR) in a comment */
int g(void) { return openat(dfd, name, flags); }
'''
found = [(line, name) for line, name, args in calls(fixture) if writable(name, args)]
check(found == [(3, "open"), (5, "fopen"), (9, "openat")],
      "the checker flags a multi-line O_WRONLY|O_CREAT open, fopen \"w\" and an open with "
      "unknown flags, and passes O_RDONLY, fopen \"re\", ops->open( and comments (found %s)" % found)

used = set()
bad = []
for rel, line, call, key in scan(TOP):
    if key:
        used.add(key)
    else:
        bad.append("%s:%d: %s" % (rel, line, call))
check(not bad, "no raw writable open outside src/sys/dev/ but the %d listed sites%s"
      % (len(ALLOWED), "" if not bad else ": " + "; ".join(bad) +
         " (open it through devguard_open/devguard_fopen in sys/dev/guardopen.h, "
         "or list it here with the reason it is safe)"))
stale = sorted(set(ALLOWED) - used)
check(not stale, "every listed site still exists%s" % ("" if not stale else ": stale %s" % stale))

sys.exit(0 if all(results) else 1)
