#!/usr/bin/env python3
# Every path iobench writes goes through the device guard (src/sys/dev/),
# judged on the opened descriptor, and nothing is removed, truncated,
# renamed or made outside it but in the few places listed with a reason. This test reads the sources and finds
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

# Calls that change or remove what a path names: each one outside
# src/sys/dev/ (devguard_unlink_created, devguard_create_shared are the
# helpers there) must be listed below by its file and function.
MUTATORS = re.compile(r"\b(unlink|unlinkat|remove|truncate|ftruncate|rename|renameat|renameat2|"
                      r"mkdir|mkdirat|rmdir)\s*\(")
# a function's definition: a line at column 0 naming it, not a statement
FUNC_HEAD = re.compile(r"^[A-Za-z_][^\n;{}=]*?\b(\w+)\s*\([^;]*$", re.M)

# (file, functions) -> why their calls of MUTATORS are safe
MUTATORS_ALLOWED = {
    ("src/workload/setup/files.c", ("layout", "layout_alloc")):
        "the job's own target: ftruncate sizes the file the job lays out and writes (the "
        "files this run created are removed through devguard_unlink_created)",
    ("src/workload/setup/files.c", ("make_parent_dirs",)):
        "mkdir of the missing folders above a job's file: creates only, removes nothing",
    ("src/workload/files/fileopen.c", ("job_files_unlink",)):
        "unlink=1: the job's own target files, regular files only (fio's unlink)",
    ("src/workload/bufmem.c", ("job_bufmem_map",)):
        "ftruncate and unlink of the buffer file its O_CREAT|O_EXCL open made a moment "
        "before (unlink only when sizing it failed); the end of the job removes it "
        "through devguard_unlink_created",
    ("src/meta/meta.c", ("item", "tree", "clean_up", "meta_run")):
        "the metadata workload's tree, inside the folder meta_run creates for it",
    ("src/workload/trigger.c", ("trigger_check",)):
        "--trigger-file: the file the user makes as the signal, consumed as fio consumes it, "
        "only when it is an empty regular file (lstat)",
    ("src/engines/fileops.c", ("filedelete_queue",)):
        "the filedelete engine deletes the job's own files: what the job asks for",
    ("src/engines/ftruncate.c", ("ftruncate_queue",)):
        "the ftruncate engine truncates the job's own file: what the job asks for",
    ("src/engines/mmap.c", ("grow",)):
        "the mmap engine extends the job's own file for a write past its end",
    ("src/engines/e4defrag.c", ("e4defrag_queue",)):
        "inplace=1 empties the donor after each move: a donor this run created "
        "(devguard_create_shared)",
    ("src/engines/net.c", ("unlink_socket",)):
        "a unix socket's path, removed only when it is a socket (S_ISSOCK)",
    ("src/bonnie/bonnie_copy.c", ("make_workdir", "io_tests")):
        "bonnie's own scratch folder (mkdir makes it, refusing one that exists) and "
        "its test file inside it",
    ("src/bonnie/bonnie_cleanup.c", ("remove_tree",)):
        "bonnie's scratch tree, which bonnie made",
    ("src/bonnie/bonnie_files.c", ("make_dirs", "remove_dirs", "walk_dirs", "walk_random")):
        "bonnie's file tests, inside its own scratch folder",
    ("src/bonnie/bonnie_iotests.c", ("create_io",)):
        "bonnie's I/O test file, inside its own scratch folder",
    ("src/dist/dist_bonnie.c", ("prepare", "dist_bonnie_finish")):
        "the MPI bonnie's per-rank folder, which prepare makes",
    ("src/verify/verify_state.c", ("verify_state_save",)):
        "iobench's own verify state file, replaced atomically through its .tmp (fio's "
        "NAME-verify.state)",
    ("src/cmd/quick/quick.c", ("quick_dir",)):
        "quick's own data file iobench-quick.PID.tmp, the job's target, removed after",
    ("src/store/store_path.c", ("make_parents",)):
        "mkdir of the results database's missing folders: creates only",
    ("src/sys/cgroup2.c", ("cgroup2_prepare", "cgroup2_remove")):
        "a cgroup v2 folder of iobench's own under the cgroup2 mount",
    ("src/sys/memcg.c", ("memcg_create",)):
        "the memory cgroup iobench creates for --memory-limit",
    ("src/sys/memcg_keeper.c", ("cleanup", "memcg_sweep_stale")):
        "memory cgroups iobench created (named iobench-PID), removed when empty",
    ("src/sweep/sweep_journal.c", ("undo_one", "sweep_journal_reset", "sweep_journal_close")):
        "the sweep's restore journal (its own file) and what it records the sweep made",
    ("src/sweep/sweep_target.c", ("make_parents", "make_image", "sweep_target_setup",
                                   "make_dir")):
        "a sweep's image file and work folders, which the sweep creates",
    ("src/sweep/sweep_journal.c", ("load",)):
        "ftruncate cuts a torn last line off the sweep's own journal (its owner and mode "
        "checked on the descriptor first)",
    ("src/sweep/sweep_jproof.c", ("remove_proven",)):
        "unlinkat of an image only while it has the device and inode recorded when the "
        "sweep created it",
    ("src/sweep/sweep_group.c", ("make_cgroup", "sweep_group_end")):
        "the cgroup iobench-sweep-PID-N the sweep makes for one command, removed when empty",
    ("src/sys/sysknob_lock.c", ("check_dir",)):
        "mkdir of /run/iobench, the knob locks' folder: creates only; its owner and mode "
        "are checked after",
}

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
    ("src/sweep/sweep_group.c", "O_WRONLY"):
        "cgroup.procs and cgroup.kill of the cgroup the sweep made for one command, "
        "opened without O_CREAT",
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
    # open/openat/open64: read-only only when it says O_RDONLY (or O_PATH, which
    # opens for no I/O at all) and nothing that writes
    return bool(WRITE_FLAGS.search(args)) or ("O_RDONLY" not in args and "O_PATH" not in args)


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


def mutator_calls(text):
    """(line, name, function) of every call of MUTATORS in C text, comments
    and string literals removed; function is the definition it is in."""
    s = strip_comments(text)
    s = re.sub(r'"(\\.|[^"\\])*"', '""', s)
    heads = [(m.start(), m.group(1)) for m in FUNC_HEAD.finditer(s)]
    for m in MUTATORS.finditer(s):
        before = s[max(0, m.start() - 2):m.start()]
        if before.endswith("->") or before.endswith("."):
            continue
        fn = [h[1] for h in heads if h[0] < m.start()]
        yield s[:m.start()].count("\n") + 1, m.group(1), fn[-1] if fn else "?"


def scan_mutators(root):
    """Yield (path, line, call, function, allowed_key or None)."""
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
            for line, name, fn in mutator_calls(text):
                key = next((k for k in MUTATORS_ALLOWED if k[0] == rel and fn in k[1]), None)
                yield rel, line, name, fn, key


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

# the mutators' checker on fixtures
fixture = '''
static int a(const char *p)
{
	return unlink(p);
}
int b(struct x *o,
      int fd)
{
	o->unlink(fd); /* unlink(p) in a comment */
	puts("rename(a, b)");
	return ftruncate(fd, 0) + mkdir("d", 0755);
}
'''
found = list(mutator_calls(fixture))
check(found == [(4, "unlink", "a"), (11, "ftruncate", "b"), (11, "mkdir", "b")],
      "the mutators' checker finds unlink, ftruncate and mkdir with their functions and "
      "passes o->unlink(, comments and strings (found %s)" % found)

used = set()
bad = []
for rel, line, name, fn, key in scan_mutators(TOP):
    if key:
        used.add(key)
    else:
        bad.append("%s:%d: %s() in %s()" % (rel, line, name, fn))
check(not bad, "no unlink, remove, truncate, rename, mkdir or rmdir outside src/sys/dev/ but in "
      "the %d listed places%s" % (len(MUTATORS_ALLOWED), "" if not bad else ": " + "; ".join(bad) +
      " (remove what iobench made through devguard_unlink_created in sys/dev/guardopen.h, "
      "or list the function here with the reason it is safe)"))
stale = sorted(set(MUTATORS_ALLOWED) - used)
check(not stale, "every listed place still has such a call%s" %
      ("" if not stale else ": stale %s" % stale))
for k, why in MUTATORS_ALLOWED.items():
    if not why.strip():
        check(False, "%s lacks its reason" % (k,))

sys.exit(0 if all(results) else 1)
