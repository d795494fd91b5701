"""The lines of an `strace -f` trace with every split call joined.

When another traced thread or process makes a call while one is in a
call, strace prints the first as "PID call(args <unfinished ...>" and
later "PID <... call resumed>rest". lines(PATH) yields each call as one
line (without its PID), in the order the calls started; the blanks around
the cut vary (a write's arguments come before it, a read's buffer after
it, and the resumed ") = N" is padded), so parsers should allow \\s* there.
"""
import re

_RESUMED = re.compile(r"<\.\.\. \w+ resumed>(.*)")
_UNFINISHED = "<unfinished ...>"


def lines(path):
    pending = {}
    for l in open(path):
        pid, rest = (l.rstrip("\n").split(None, 1) + [""])[:2]
        if rest.endswith(_UNFINISHED):
            pending[pid] = rest[:-len(_UNFINISHED)]
            continue
        m = _RESUMED.match(rest)
        if m:
            rest = pending.pop(pid, "") + m.group(1)
        yield rest
