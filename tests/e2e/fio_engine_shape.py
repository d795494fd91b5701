#!/usr/bin/env python3
"""Compare one job's JSON of iobench with fio's for the same engine job:
print a line per difference (none when they agree) in what the engines
define: bytes and I/Os per direction, which latencies are counted (clat N;
lat and slat N zero or not), the latency buckets (empty or not), and the
key set of each direction section. Timings are never compared.
usage: fio_engine_shape.py IOBENCH.json FIO.json"""
import json
import sys


def job(path):
    return json.load(open(path))["jobs"][0]


def main():
    a, b = job(sys.argv[1]), job(sys.argv[2])
    bad = []
    for d in ("read", "write", "trim"):
        x, y = a[d], b[d]
        missing = set(y) - set(x)
        if missing:
            bad.append(f"{d}: keys fio has and iobench lacks: {sorted(missing)}")
        for k in ("io_bytes", "total_ios", "short_ios", "drop_ios"):
            if x.get(k) != y.get(k):
                bad.append(f"{d}.{k}: iobench {x.get(k)}, fio {y.get(k)}")
        for k in ("clat_ns", "lat_ns", "slat_ns"):
            nx, ny = x[k]["N"], y[k]["N"]
            if (nx == ny) if k == "clat_ns" else (bool(nx) == bool(ny)):
                continue
            bad.append(f"{d}.{k}.N: iobench {nx}, fio {ny}")
    # which bucket an I/O lands in is timing; whether any is filled is not
    fa, fb = (any(any(j[k].values()) for k in ("latency_ns", "latency_us", "latency_ms"))
              for j in (a, b))
    if fa != fb:
        bad.append(f"latency buckets: iobench {'filled' if fa else 'empty'}, "
                   f"fio {'filled' if fb else 'empty'}")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
