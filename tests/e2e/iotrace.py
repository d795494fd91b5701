#!/usr/bin/env python3
"""Read an `strace -f -ttt -y` log of an iobench run into I/O events.

Used by the workload-option e2e tests to see which offsets a job really
touched and when. Trace with `-e trace=execve,...`: the execve line names
iobench's main thread, whose calls (laying files out) are dropped unless
keep_main; so are the monitor thread's reads of /proc and /sys. Calls
split by another thread ("<unfinished ...>" then
"<... resumed>") are joined. Each event is a dict: tid, t (seconds, at the
call's start), op (pread64, pwrite64, fsync, fdatasync...), path, off, len,
ret. Run as a script, `iotrace.py TRACE` prints one line per event.
"""
import re
import sys

HEAD = re.compile(r'^(\d+) +(\d+\.\d+) (.*)$')
CALL = re.compile(r'^(\w+)\((\d+)<([^>]*)>(.*)\) += (-?\d+)')
START = re.compile(r'^(\w+)\((.*) <unfinished \.\.\.>$')
RESUMED = re.compile(r'^<\.\.\. (\w+) resumed>(.*)\) += (-?\d+)')
TAIL = re.compile(r', (\d+), (\d+)$')


def _event(tid, t, op, text, ret):
    m = re.match(r'^(\d+)<([^>]*)>(.*)$', text)
    if not m:
        return None
    path, rest = m.group(2), m.group(3)
    off = length = None
    mt = TAIL.search(rest)
    if op in ('pread64', 'pwrite64') and mt:
        length, off = int(mt.group(1)), int(mt.group(2))
    elif op.startswith(('preadv', 'pwritev')):
        mv = re.search(r'\], \d+, (\d+)', rest)
        if mv:
            off = int(mv.group(1))
        length = int(ret)
    return dict(tid=tid, t=t, op=op, path=path, off=off, len=length, ret=int(ret))


def load(path, keep_main=False):
    events, main, pending = [], None, {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        h = HEAD.match(line)
        if not h:
            continue
        tid, t, body = int(h.group(1)), float(h.group(2)), h.group(3)
        if body.startswith('execve(') and main is None:
            main = tid
            continue
        m = START.match(body)
        if m:
            pending[tid] = (t, m.group(1), m.group(2))
            continue
        m = RESUMED.match(body)
        if m and tid in pending:
            t0, op, args = pending.pop(tid)
            ev = _event(tid, t0, op, args + m.group(2), m.group(3))
        else:
            m = CALL.match(body)
            if not m:
                continue
            op, fd, fpath, rest, ret = m.groups()
            ev = _event(tid, t, op, '%s<%s>%s' % (fd, fpath, rest), ret)
        # the system monitor's reads of /proc and /sys are not job I/O
        if ev and (keep_main or tid != main) and not ev['path'].startswith(('/proc/', '/sys/')):
            events.append(ev)
    events.sort(key=lambda e: e['t'])
    return events


def data_ops(events, path=None, ops=('pread64', 'pwrite64')):
    return [e for e in events if e['op'] in ops and (path is None or e['path'] == path)]


if __name__ == '__main__':
    for e in load(sys.argv[1]):
        print(e['tid'], '%.6f' % e['t'], e['op'], e['path'], e['off'], e['len'], e['ret'])
