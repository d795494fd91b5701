#!/usr/bin/env bash
# e2e: serial
# Workload options that decide when and how long jobs run, checked against
# fio's definitions: ramp_time, startdelay, wait_for, stonewall, new_group,
# several job files, thread, rate_iops, number_ios, loops with time_based,
# and memory that stays flat however long a job runs. Order in time is read
# from strace timestamps of each job's pread64 calls (iotrace.py); the other
# parts of this suite are test_workload_opts_data.sh (offsets, randomness,
# buffers, files) and test_workload_opts_sync.sh (syncs, cache, statistics).
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
e2e_trace_helpers
now() { date +%s.%N; }

head -c 4m /dev/urandom >"$d/c.dat"
for f in a b c e; do head -c 1m /dev/urandom >"$d/$f.dat"; done

# --- ramp_time ---------------------------------------------------------
t0=$(now)
j --name=ramp --ioengine=null --rw=read --bs=4k --size=1g --time_based --runtime=1 --ramp_time=1 >"$d/ramp.json"
t1=$(now)
pycheck "ramp_time=1 runtime=1: measured runtime is 1 s, elapsed and wall time 2 s" "$d/ramp.json" "$t0" "$t1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
wall = float(sys.argv[3]) - float(sys.argv[2])
assert 900 <= j["read"]["runtime"] <= 1300, j["read"]["runtime"]
assert 900 <= j["job_runtime"] <= 1300, j["job_runtime"]
assert j["elapsed"] >= 2, j["elapsed"]
assert 1.9 <= wall < 4, wall
PY

if [ $have_strace = 1 ]; then
  # A size-bound job: the ramp's I/O counts towards size (fio: ramp is lead-in
  # time of the same workload), only the I/O after it is reported.
  trace "$d/ramp2.tr" "$IOBENCH" run --output-format=json --name=ramp2 --rw=read --bs=4k --size=4m \
    --rate_iops=1000 --ramp_time=1 --filename="$d/c.dat" >"$d/ramp2.json" 2>>"$d/err"
  pycheck "ramp_time on a size-bound job: 1024 reads in all, only those after the ramp reported" "$d/ramp2.json" "$d/ramp2.tr" <<'PY'
import json, sys, iotrace
j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
n = len(iotrace.data_ops(iotrace.load(sys.argv[2])))
assert n == 1024, ("preads", n)
assert 0 < j["total_ios"] < 300, j["total_ios"]
assert j["io_bytes"] == 4096 * j["total_ios"], j
assert j["runtime"] < 500, j["runtime"]
PY
fi

# number_ios counts only measured I/O (fio resets its I/O count after the ramp)
j --name=rampn --rw=randread --bs=4k --size=1m --number_ios=150 --rate_iops=100 --ramp_time=1 \
  --filename="$d/a.dat" >"$d/rampn.json"
pycheck "ramp_time + number_ios=150: 150 measured I/Os after a 1 s ramp" "$d/rampn.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["read"]["total_ios"] == 150, j["read"]["total_ios"]
assert 1300 <= j["read"]["runtime"] <= 1800, j["read"]["runtime"]
assert j["elapsed"] >= 2, j["elapsed"]
PY

# --- startdelay, wait_for, new_group, stonewall ------------------------
# Every job reads its own file at 200 IOPS for 1 s, so the trace is small and
# each job's first and last read time when it ran.
cat >"$d/order.fio" <<EOF
[global]
rw=randread
bs=4k
size=1m
rate_iops=200
time_based
runtime=1
[a]
filename=$d/a.dat
[b]
filename=$d/b.dat
wait_for=a
[c]
filename=$d/c.dat
new_group
[e]
filename=$d/e.dat
stonewall
EOF
t0=$(now)
if [ $have_strace = 1 ]; then
  trace "$d/order.tr" "$IOBENCH" run --output-format=json "$d/order.fio" >"$d/order.json" 2>>"$d/err"
else
  j "$d/order.fio" >"$d/order.json"
fi
t1=$(now)
pycheck "groups: a,b group 0; new_group c group 1; stonewall e group 2" "$d/order.json" <<'PY'
import json, sys
g = {j["jobname"]: j["groupid"] for j in json.load(open(sys.argv[1]))["jobs"]}
assert g == {"a": 0, "b": 0, "c": 1, "e": 2}, g
PY
pycheck "wait_for=a: b's elapsed includes the wait (>= 2 s), a's does not" "$d/order.json" <<'PY'
import json, sys
e = {j["jobname"]: j["elapsed"] for j in json.load(open(sys.argv[1]))["jobs"]}
assert e["b"] >= 2 and e["a"] <= 1, e
PY
# the jobs' runtimes add up to 3 s when they run in that order: the run
# cannot be shorter; longer only says the machine was busy (the order
# itself is the trace check's), so the upper bound only catches a hang
pycheck "whole run: a, then b after a, then e after all: at least 3 s" "$t0" "$t1" <<'PY'
import sys
wall = float(sys.argv[2]) - float(sys.argv[1])
assert 2.9 <= wall < 30, wall
PY
if [ $have_strace = 1 ]; then
  pycheck "trace: b starts after a's last read; new_group c overlaps a; stonewall e starts after a, b, c end" \
    "$d/order.tr" "$d" <<'PY'
import sys, iotrace
ev = iotrace.data_ops(iotrace.load(sys.argv[1]))
span = {}
for e in ev:
    n = e["path"].rsplit("/", 1)[1][0]
    lo, hi = span.get(n, (e["t"], e["t"]))
    span[n] = (min(lo, e["t"]), max(hi, e["t"]))
assert set(span) == set("abce"), span
a, b, c, e = (span[k] for k in "abce")
assert b[0] >= a[1], ("b before a ended", a, b)
assert c[0] < a[1] and a[0] < c[1], ("c does not overlap a", a, c)
assert e[0] >= max(a[1], b[1], c[1]), ("e started early", e)
for k, (lo, hi) in span.items():
    assert 0.8 <= hi - lo <= 1.3, (k, hi - lo)
PY
fi

cat >"$d/delay.fio" <<EOF
[global]
rw=randread
bs=4k
size=1m
rate_iops=200
time_based
runtime=1
[a]
filename=$d/a.dat
[d1]
filename=$d/b.dat
startdelay=1
[dr]
filename=$d/e.dat
startdelay=1-2
EOF
if [ $have_strace = 1 ]; then
  trace "$d/delay.tr" "$IOBENCH" run --output-format=json "$d/delay.fio" >"$d/delay.json" 2>>"$d/err"
else
  j "$d/delay.fio" >"$d/delay.json"
fi
pycheck "startdelay=1: elapsed 2 s against 1 s, runtime still 1 s; startdelay=1-2: 2-3 s" "$d/delay.json" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
assert jobs["a"]["elapsed"] == 1, jobs["a"]["elapsed"]
assert jobs["d1"]["elapsed"] == 2, jobs["d1"]["elapsed"]
assert 2 <= jobs["dr"]["elapsed"] <= 3, jobs["dr"]["elapsed"]
for j in jobs.values():
    assert 900 <= j["read"]["runtime"] <= 1300, (j["jobname"], j["read"]["runtime"])
PY
if [ $have_strace = 1 ]; then
  pycheck "trace: startdelay=1 job's first read 1 s after the undelayed one's; 1-2 within [1, 2] s" "$d/delay.tr" <<'PY'
import sys, iotrace
first = {}
for e in iotrace.data_ops(iotrace.load(sys.argv[1])):
    first.setdefault(e["path"].rsplit("/", 1)[1], e["t"])
a = first["a.dat"]
assert 0.9 <= first["b.dat"] - a <= 1.3, first["b.dat"] - a
assert 0.9 <= first["e.dat"] - a <= 2.2, first["e.dat"] - a
PY
fi

# --- several job files --------------------------------------------------
for f in 1 2; do
  cat >"$d/f$f.fio" <<EOF
[global]
rw=randread
bs=4k
size=1m
rate_iops=200
time_based
runtime=1
[f${f}x]
filename=$d/$( [ $f = 1 ] && echo a || echo c ).dat
[f${f}y]
filename=$d/$( [ $f = 1 ] && echo b || echo e ).dat
EOF
done
if [ $have_strace = 1 ]; then
  trace "$d/files.tr" "$IOBENCH" run --output-format=json "$d/f1.fio" "$d/f2.fio" >"$d/files.json" 2>>"$d/err"
else
  j "$d/f1.fio" "$d/f2.fio" >"$d/files.json"
fi
pycheck "two job files: groups 0,0,1,1 in file order" "$d/files.json" <<'PY'
import json, sys
g = [(j["jobname"], j["groupid"]) for j in json.load(open(sys.argv[1]))["jobs"]]
assert g == [("f1x", 0), ("f1y", 0), ("f2x", 1), ("f2y", 1)], g
PY
if [ $have_strace = 1 ]; then
  pycheck "trace: the jobs of a file run together, the second file after the first" "$d/files.tr" <<'PY'
import sys, iotrace
span = {}
for e in iotrace.data_ops(iotrace.load(sys.argv[1])):
    n = e["path"].rsplit("/", 1)[1]
    lo, hi = span.get(n, (e["t"], e["t"]))
    span[n] = (min(lo, e["t"]), max(hi, e["t"]))
x1, y1, x2, y2 = span["a.dat"], span["b.dat"], span["c.dat"], span["e.dat"]
assert x1[0] < y1[1] and y1[0] < x1[1], ("first file's jobs do not overlap", x1, y1)
assert x2[0] < y2[1] and y2[0] < x2[1], ("second file's jobs do not overlap", x2, y2)
assert min(x2[0], y2[0]) >= max(x1[1], y1[1]), ("second file started early", x1, y1, x2, y2)
PY
fi

# --- thread -------------------------------------------------------------
printf '[global]\nthread\n[t]\nrw=randread\nbs=4k\nsize=1m\nfilename=%s\n' "$d/a.dat" >"$d/thread.fio"
j "$d/thread.fio" >"$d/th.json"; rc=$?
check "thread in a job file is accepted (exit 0, 1 MiB read)" \
  test "$rc:$(json_get "$d/th.json" 'd["jobs"][0]["read"]["io_bytes"]')" = 0:1048576
if [ $have_strace = 1 ]; then
  trace "$d/th1.tr" "$IOBENCH" run --output-format=json "$d/thread.fio" >"$d/th1.json" 2>>"$d/err"
  trace "$d/th0.tr" "$IOBENCH" run --output-format=json --name=t --rw=randread --bs=4k --size=1m \
    --filename="$d/a.dat" >"$d/th0.json" 2>>"$d/err"
  pycheck "thread: same I/O (bytes, count, offset sequence) as without it" "$d/th1.json" "$d/th0.json" "$d/th1.tr" "$d/th0.tr" <<'PY'
import json, sys, iotrace
r1 = json.load(open(sys.argv[1]))["jobs"][0]["read"]
r0 = json.load(open(sys.argv[2]))["jobs"][0]["read"]
assert (r1["io_bytes"], r1["total_ios"]) == (r0["io_bytes"], r0["total_ios"]) == (1 << 20, 256), (r1, r0)
o1 = [e["off"] for e in iotrace.data_ops(iotrace.load(sys.argv[3]))]
o0 = [e["off"] for e in iotrace.data_ops(iotrace.load(sys.argv[4]))]
assert len(o1) == 256 and o1 == o0
PY
fi

# --- rate_iops, number_ios, loops -------------------------------------------
j --name=ri --rw=randread --bs=4k --size=1m --number_ios=100 --rate_iops=100 --filename="$d/a.dat" >"$d/ri.json"
pycheck "rate_iops=100, number_ios=100: 100 I/Os in about 1 s, iops about 100" "$d/ri.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert r["total_ios"] == 100, r["total_ios"]
assert 900 <= r["runtime"] <= 1300, r["runtime"]
assert 80 <= r["iops"] <= 115, r["iops"]
PY
j --name=rt --rw=randread --bs=4k --size=1m --time_based --runtime=1 --rate_iops=300 --filename="$d/a.dat" >"$d/rt.json"
pycheck "rate_iops=300 time_based 1 s: about 300 I/Os" "$d/rt.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert 270 <= r["total_ios"] <= 320, r["total_ios"]
PY
j --name=nx --rw=read --bs=4k --size=1m --number_ios=1000 --filename="$d/a.dat" >"$d/nx.json"
check "number_ios=1000 does not extend a 256-block job" test "$(json_get "$d/nx.json" 'd["jobs"][0]["read"]["total_ios"]')" = 256
j --name=nl --rw=read --bs=4k --size=1m --number_ios=100 --loops=3 --filename="$d/a.dat" >"$d/nl.json"
check "number_ios=100 loops=3: 100 I/Os per loop, as fio" test "$(json_get "$d/nl.json" 'd["jobs"][0]["read"]["total_ios"]')" = 300
j --name=lt --ioengine=null --rw=read --bs=64k --size=1m --loops=3 --time_based --runtime=1 >"$d/lt.json"
pycheck "loops=3 with time_based: runs the whole 1 s, well past 3 passes" "$d/lt.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert 900 <= r["runtime"] <= 1300, r["runtime"]
assert r["io_bytes"] > 3 * (1 << 20), r["io_bytes"]
PY
if [ $have_strace = 1 ]; then
  trace "$d/loops.tr" "$IOBENCH" run --output-format=json --name=lr --rw=randread --bs=4k --size=1m --loops=3 \
    --filename="$d/a.dat" >"$d/loops.json" 2>>"$d/err"
  pycheck "loops=3 randread: three passes, each touching every block once, in a new order" "$d/loops.tr" <<'PY'
import sys, iotrace
o = [e["off"] for e in iotrace.data_ops(iotrace.load(sys.argv[1]))]
assert len(o) == 768, len(o)
p = [o[i * 256:(i + 1) * 256] for i in range(3)]
for q in p:
    assert sorted(q) == list(range(0, 1 << 20, 4096))
assert p[0] != p[1] and p[1] != p[2]
PY
fi

# --- memory stays flat --------------------------------------------------
# Peak RSS varies by a few hundred KiB from run to run (page faults in the
# libraries: 3460-3740 KiB over five identical 1 s runs), so each figure is
# the smallest of three runs and the bound is 1 MiB: still far below what
# one byte per I/O would leak (millions of I/Os in the extra 2 s).
rss1() { /usr/bin/time -f %M -o "$d/rss" "$IOBENCH" run "$@" >/dev/null 2>>"$d/err"; cat "$d/rss"; }
rss() { { rss1 "$@"; rss1 "$@"; rss1 "$@"; } | sort -n | head -1; }
if [ -x /usr/bin/time ]; then
  n1=$(rss --name=m --ioengine=null --rw=randread --bs=4k --size=1g --time_based --runtime=1)
  n3=$(rss --name=m --ioengine=null --rw=randread --bs=4k --size=1g --time_based --runtime=3)
  p1=$(rss --name=m --rw=randread --bs=4k --size=4m --invalidate=0 --time_based --runtime=1 --filename="$d/c.dat")
  p3=$(rss --name=m --rw=randread --bs=4k --size=4m --invalidate=0 --time_based --runtime=3 --filename="$d/c.dat")
  echo "# peak RSS KiB: null 1s=$n1 3s=$n3, psync 1s=$p1 3s=$p3"
  check "null engine: peak RSS of a 3 s job within 1 MiB of a 1 s job" test $((n3 - n1)) -lt 1024
  check "psync randread: peak RSS of a 3 s job within 1 MiB of a 1 s job" test $((p3 - p1)) -lt 1024
else
  not_ok "/usr/bin/time is installed (needed for peak RSS)"
fi
finish
