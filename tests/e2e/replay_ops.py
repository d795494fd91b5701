#!/usr/bin/env python3
"""The I/O a replay did to one file, from an `strace -f -y` log.

Usage: replay_ops.py TRACE PATH [iolog]. With TRACE an strace log (traced
with -e trace=execve,pread64,pwrite64,fsync,fdatasync,fallocate,ioctl),
prints one line per operation on PATH by any thread but the traced
program's first one (iobench's main thread creates files, fio's parent
process does no job I/O): "read OFF LEN", "write OFF LEN", "trim OFF LEN"
(fallocate punching a hole, or BLKDISCARD), "sync", "datasync". With
`iolog` instead of a trace, TRACE is a fio iolog (version 2 or 3) and its
I/O lines on PATH are printed the same way, so the two can be diffed.
"""
import re
import sys

LINE = re.compile(r'^(\d+) +(\w+)\((\d+)<([^>]*)>(.*)\) += (-?\d+)')


def from_trace(trace, path):
    main, out = None, []
    for line in open(trace, errors='replace'):
        m = re.match(r'^(\d+) +execve\(', line)
        if m and main is None:
            main = m.group(1)
            continue
        m = LINE.match(line.rstrip('\n'))
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


if __name__ == '__main__':
    ops = from_iolog(sys.argv[1], sys.argv[2]) if sys.argv[3:] == ['iolog'] else \
        from_trace(sys.argv[1], sys.argv[2])
    print('\n'.join(ops))
