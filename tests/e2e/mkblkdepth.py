#!/usr/bin/env python3
"""Write a blktrace (the documented struct blk_io_trace records, as
mkblktrace.py) whose events follow a pattern, for the tests of the queue
depth a replay takes from a trace. Usage: mkblkdepth.py OUT DEVICE PATTERN.
Each letter is one event 1 ms after the last, on 4 KiB blocks one after the
other: Q/q queues a new read/write, M/m queues one and back-merges it, C/c
completes the oldest read/write in flight (e.g. QQQCQQCCCC).
"""
import struct
import sys

out, dev, pat = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MAGIC = 0x65617407
fmt = '<IIQQIIIIIHH'
recs, inflight, nxt = [], {1: [], 2: []}, 0
t = 1000000


def rec(t, sector, n, action):
    recs.append(struct.pack(fmt, MAGIC, len(recs) + 1, t, sector, n, action, 42, dev, 0, 0, 0))


for c in pat:
    t += 1000
    d = 1 if c.isupper() else 2
    if c in 'QqMm':
        s = nxt * 8
        nxt += 1
        rec(t, s, 4096, 1 | (d | 16) << 16)        # __BLK_TA_QUEUE
        if c in 'Mm':
            rec(t, s, 4096, 3 | (d | 16) << 16)    # __BLK_TA_BACKMERGE
        else:
            inflight[d].append(s)
    else:
        s = inflight[d].pop(0)
        rec(t, s, 4096, 8 | (d | 128) << 16)       # __BLK_TA_COMPLETE

open(out, 'wb').write(b''.join(recs))
