#!/usr/bin/env python3
"""The I/O a replay did to one file, from an `strace -f -y` log or an iolog.

Usage: replay_ops.py PATH SRC [SRC2] [--drop=KINDS] [--drop2=KINDS].
A SRC is a fio iolog (version 2 or 3: its I/O lines on PATH) or an strace
log (traced with -e trace=execve,pread64,pwrite64,fsync,fdatasync,
fallocate,ioctl: the operations on PATH of every thread but the traced
program's first one, since iobench's main thread creates files and fio's
parent process does no job I/O). Each operation is a line "read OFF LEN",
"write OFF LEN", "trim OFF LEN" (fallocate punching a hole, or
BLKDISCARD), "sync" or "datasync". With one SRC they are printed; with two
they are compared (after dropping the KINDS, e.g. trim,sync, of each) and
the exit status says whether they are the same, a diff printed if not.
"""
import re
import sys

LINE = re.compile(r'^(\d+) +(\w+)\((\d+)<([^>]*)>(.*)\) += (-?\d+)')


def joined(trace):
    """The trace's lines, a call another thread split into "PID call(args
    <unfinished ...>" and "PID <... call resumed>rest" joined into one."""
    pending = {}
    for line in open(trace, errors='replace'):
        line = line.rstrip('\n')
        pid = line.split(' ', 1)[0]
        if line.endswith('<unfinished ...>'):
            pending[pid] = line[:-len('<unfinished ...>')]
            continue
        m = re.match(r'^(\d+) +<\.\.\. \w+ resumed>(.*)', line)
        if m and pid in pending:
            line = pending.pop(pid) + m.group(2)
        yield line


def from_trace(trace, path):
    main, out = None, []
    for line in joined(trace):
        m = re.match(r'^(\d+) +execve\(', line)
        if m and main is None:
            main = m.group(1)
            continue
        m = LINE.match(line)
        if not m or m.group(1) == main or m.group(4) != path:
            continue
        op, rest, ret = m.group(2), m.group(5), int(m.group(6))
        if ret < 0:
            continue
        if op in ('pread64', 'pwrite64'):
            t = re.search(r', (\d+), (\d+)$', rest)
            out.append('%s %s %s' % ('read' if op == 'pread64' else 'write', t.group(2), t.group(1)))
        elif op in ('fsync', 'fdatasync'):
            out.append(op[1:] if op == 'fsync' else 'datasync')
        elif op == 'fallocate' and 'PUNCH_HOLE' in rest:
            t = re.search(r', (\d+), (\d+)$', rest)
            out.append('trim %s %s' % (t.group(1), t.group(2)))
        elif op == 'ioctl' and 'BLKDISCARD' in rest:
            t = re.search(r'\[(\d+), (\d+)\]', rest)
            out.append('trim %s %s' % (t.group(1), t.group(2)))
    return out


def from_iolog(log, path):
    lines = open(log).read().split('\n')
    v3 = lines[0].startswith('fio version 3 iolog')
    out = []
    for line in lines[1:]:
        f = line.split()
        if v3:
            f = f[1:]
        if len(f) != 4 or f[0] != path:
            continue
        if f[1] in ('sync', 'datasync'):
            out.append(f[1])
        elif f[1] != 'wait':
            out.append('%s %s %s' % (f[1], f[2], f[3]))
    return out


def ops_of(src, path):
    with open(src, errors='replace') as f:
        head = f.readline()
    return from_iolog(src, path) if head.startswith('fio version') else from_trace(src, path)


if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if not a.startswith('--drop')]
    drops = {a.split('=')[0]: set(a.split('=', 1)[1].split(',')) for a in sys.argv[1:]
             if a.startswith('--drop')}
    path, srcs = args[0], args[1:]
    lists = [[o for o in ops_of(s, path) if o.split()[0] not in drops.get(k, ())]
             for s, k in zip(srcs, ('--drop', '--drop2'))]
    if len(lists) == 1:
        print('\n'.join(lists[0]))
        sys.exit(0)
    if lists[0] == lists[1]:
        sys.exit(0)
    import difflib
    sys.stdout.writelines(difflib.unified_diff([o + '\n' for o in lists[0]],
                                               [o + '\n' for o in lists[1]], srcs[0], srcs[1]))
    sys.exit(1)
