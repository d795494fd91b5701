#!/usr/bin/env python3
"""Write a small blktrace per-CPU file (NAME.blktrace.0) from the documented
layout of struct blk_io_trace (the kernel's <linux/blktrace_api.h>), for the
replay tests on machines where blktrace itself cannot trace (no debugfs
access in a container). blkparse reads it as it reads blktrace's own.

Usage: mkblktrace.py OUT DEVICE [big] [shift_us]. DEVICE is the traced
device's kernel number (major << 20 | minor). Each I/O is a queue event
(Q), its dispatch (D) and completion (C), 200 us apart plus shift_us, after
a process notify with a payload: writes, a read, a discard, a flush, a
larger read, a write, and a zero-byte read (which replays skip). `big`
writes the records big-endian (a trace from another machine). Prints the
queue events as "kind sector bytes" lines.
"""
import struct
import sys

MAGIC = 0x65617400 | 0x07
TC = dict(read=1, write=2, flush=4, queue=16, issue=64, complete=128, notify=1 << 10,
          discard=1 << 13)
IOS = [('write', 0, 4096), ('write', 8, 8192), ('read', 0, 4096), ('discard', 64, 4096),
       ('flush', 0, 0), ('read', 24, 16384), ('write', 128, 4096), ('read', 16, 0)]


def main():
    out, dev = sys.argv[1], int(sys.argv[2])
    fmt = ('>' if 'big' in sys.argv[3:] else '<') + 'IIQQIIIIIHH'
    shift = int(sys.argv[4]) * 1000 if len(sys.argv) > 4 else 0
    recs, seq = [], [0]

    def rec(t, sector, n, action, pdu=b''):
        seq[0] += 1
        recs.append(struct.pack(fmt, MAGIC, seq[0], t, sector, n, action, 42, dev, 0, 0,
                                len(pdu)) + pdu)

    rec(0, 0, 0, TC['notify'] << 16, b'dd\0\0\0\0\0\0')
    t = 1000000 + shift
    for kind, sector, n in IOS:
        cats = TC[kind] | (TC['write'] if kind in ('discard', 'flush') else 0)
        rec(t, sector, n, 1 | (TC['queue'] | cats) << 16)
        rec(t + 2000, sector, n, 7 | (TC['issue'] | cats) << 16)
        rec(t + 90000, sector, n, 8 | (TC['complete'] | cats) << 16)
        print(kind, sector, n)
        t += 200000
    open(out, 'wb').write(b''.join(recs))


main()
