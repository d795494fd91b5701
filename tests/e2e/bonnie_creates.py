#!/usr/bin/env python3
"""The create phases of a bonnie++ or iobench bonnie run, from its strace
(`strace -f -y -e trace=openat`: -y prints the path of the fd each create
returns, so the file's directory is known whichever fd it was named from):
one line per create phase,

    test=T kind=K dirs=D names=H

T counts the tests of -x (a sequential phase after a random one starts the
next; --precise may repeat each phase of a test), K is "seq" when every name starts with its file's number in 10 hex digits
(bonnie++'s sequential names), "ran" when every name ends with it (its
random names), "other" otherwise; D is the number of files created in each
directory, in the order the phase went through them ("00000:257,00001:257,
..."; "." without -n :::dirs); H is a hash of the phase's names in order.
A phase is N consecutive file creations (open with O_CREAT), N = FILES.

usage: bonnie_creates.py STRACE_FILE FILES
"""
import hashlib
import itertools
import re
import sys

# the created file's path: ".../Bonnie.PID[.COPY]/[ddddd/]name"
OPEN = re.compile(r'openat\(.*O_CREAT.*= \d+<[^>]*/Bonnie\.\d+(?:\.\d+)?/([^>]*)>')


def kind(names):
    base = [n.rsplit("/", 1)[-1] for n in names]
    if all(b[:10] == f"{i:010x}" for i, b in enumerate(base)):
        return "seq"
    if all(b[-10:] == f"{i:010x}" and len(b) <= 22 for i, b in enumerate(base)):
        return "ran"
    return "other"


def joined(path):
    """The trace's lines, a call another thread split into "PID call(args
    <unfinished ...>" and "PID <... call resumed>rest" joined into one."""
    pending = {}
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        pid = line.split(" ", 1)[0]
        if line.endswith("<unfinished ...>"):
            pending[pid] = line[:-len("<unfinished ...>")]
            continue
        m = re.match(r"^(\d+) +<\.\.\. \w+ resumed>(.*)", line)
        if m and pid in pending:
            line = pending.pop(pid) + m.group(2)
        yield line


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    test, phase, last = 0, [], "ran"
    for line in joined(path):
        m = OPEN.search(line)
        if not m:
            continue
        if "Bonnie." in m.group(1):
            continue  # the I/O tests' file
        phase.append(m.group(1))
        if len(phase) < n:
            continue
        dirs = ",".join(f"{d}:{len(list(g))}" for d, g in
                        itertools.groupby(x.rsplit("/", 1)[0] if "/" in x else "." for x in phase))
        h = hashlib.sha1("\n".join(phase).encode()).hexdigest()[:12]
        k = kind(phase)
        if k == "seq" and last != "seq":
            test += 1
        print(f"test={test} kind={k} dirs={dirs} names={h}")
        phase, last = [], k


if __name__ == "__main__":
    main()
