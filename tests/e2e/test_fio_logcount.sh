#!/usr/bin/env bash
# e2e: serial
# How many lines fio 3.33 writes, side by side with fio: the averaged logs
# of a 2 s job with log_avg_msec=100 and log_hist_msec=100 (lines per log
# and direction within one of fio's, the fields of fio's lines; the bw/iops
# line due at the runtime's end, the latency logs' last partial window, no
# last partial histogram line); --bandwidth-log (no line without progress
# display or JSON, one line at the end with JSON, lines while --eta=always
# draws the progress and for each --status-interval JSON report); number_ios (ignored by a time_based job, a cap per
# loop otherwise).
set -u
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
data=$d/data
dd if=/dev/zero of="$data" bs=1M count=16 status=none

# --- averaged logs: counts per direction within one line of fio's ---------
both avg --name=a --filename="$data" --size=16m --ioengine=psync --rw=randrw --bs=4k \
  --time_based --runtime=2 --write_bw_log=j --write_iops_log=j --write_lat_log=j \
  --write_hist_log=j --log_avg_msec=100 --log_hist_msec=100
pyrun "averaged logs: lines per direction, fields and last windows as fio's" "$d/avg/fio" "$d/avg/iob" <<'PY'
import glob, json, os, sys
dfio, diob = sys.argv[1], sys.argv[2]
def ok(c, m): print(("ok - " if c else "not ok - ") + m)
want = ["j_%s.1.log" % k for k in ("bw", "clat", "clat_hist", "iops", "lat", "slat")]
got = sorted(os.path.basename(p) for p in glob.glob(dfio + "/j_*.log"))
ok(got == want, "fio wrote the six logs %s (found %s)" % (want, got))
ok(all(os.path.exists(diob + "/" + n) for n in want),
   "iobench wrote the same six logs (missing: %s)" % [n for n in want if not os.path.exists(diob + "/" + n)])
def rows(p): return [[x.strip() for x in l.split(",")] for l in open(p) if l.strip()]
def per_dir(r, n):
    c, f = {}, 1 if "hist" in n else 2  # the direction's field
    for x in r:
        c[x[f]] = c.get(x[f], 0) + 1
    return c
runtime, win = 2000, 100
for p in sorted(glob.glob(dfio + "/j_*.log")):
    n = os.path.basename(p)
    if "slat" in n:  # psync: no submission latency, both empty
        ok(os.path.getsize(p) == 0 and os.path.getsize(diob + "/" + n) == 0, n + ": empty in both")
        continue
    rf, ri = rows(p), rows(diob + "/" + n)
    cf, ci = per_dir(rf, n), per_dir(ri, n)
    # fio writes no line for a window it stalled through (a loaded machine):
    # then iobench's count is held to fio's unstalled one
    ideal = runtime // win - (1 if "hist" in n else 0)
    good = sorted(cf) == sorted(ci) and all(
        abs(cf[k] - ci[k]) <= 1 or abs(ci[k] - ideal) <= 1 for k in cf)
    ok(good, "%s: lines per direction fio %s, iobench %s (within 1; unstalled %d)" % (n, cf, ci, ideal))
    ok({len(x) for x in rf} == {len(x) for x in ri},
       "%s: fields per line fio %s, iobench %s" % (n, {len(x) for x in rf}, {len(x) for x in ri}))
    ti = [int(x[0]) for x in ri]
    if "_bw." in n or "_iops." in n:
        ok(max(ti) == runtime and all(t % win == 0 for t in ti) and all(x[3] == "0" for x in ri),
           "%s: the line due at the runtime's end is written (last at %d ms), stamps multiples of %d ms, bs 0"
           % (n, max(ti), win))
    elif "hist" not in n:
        ok(max(ti) >= runtime - win, "%s: the last partial window is written (last at %d ms)" % (n, max(ti)))
    else:
        js = json.load(open(diob + "/out.json"))["jobs"][0]
        total = sum(int(v) for x in ri for v in x[3:])
        want = js["read"]["clat_ns"]["N"] + js["write"]["clat_ns"]["N"]
        ok(0 < total < want, "%s: no last partial window: %d of the JSON's %d I/Os" % (n, total, want))
PY

# --- --bandwidth-log ---------------------------------------------------------
# bwl NAME OUTPUT-ARGS...: fio and iobench in $d/bwl_NAME/{fio,iob}
bwl() {
  local n=$1; shift
  mkdir -p "$d/bwl_$n/fio" "$d/bwl_$n/iob"
  (cd "$d/bwl_$n/fio" && fio --bandwidth-log --name=b --filename="$data" --size=16m --rw=write \
     --bs=4k --time_based --runtime=1 "$@" >/dev/null 2>&1)
  (cd "$d/bwl_$n/iob" && "$IOBENCH" run --bandwidth-log --name=b --filename="$data" --size=16m \
     --rw=write --bs=4k --time_based --runtime=1 "$@" >/dev/null 2>&1)
}
bwl normal --output=out.txt
bwl json --output-format=json --output=out.json
bwl eta --eta=always --output=out.txt
bwl status --status-interval=1 --output-format=json --output=out.json --runtime=2
pyrun "--bandwidth-log: agg-*_bw.log lines as fio's" "$d" <<'PY'
import os, sys
d = sys.argv[1]
def ok(c, m): print(("ok - " if c else "not ok - ") + m)
def lines(case, tool, f):
    p = "%s/bwl_%s/%s/agg-%s_bw.log" % (d, case, tool, f)
    return [[x.strip() for x in l.split(",")] for l in open(p)] if os.path.exists(p) else None
for case in ("normal", "json", "eta", "status"):
    for f, code in (("read", "0"), ("write", "1"), ("trim", "2")):
        lf, li = lines(case, "fio", f), lines(case, "iob", f)
        if li is None or lf is None:
            ok(False, "%s: agg-%s_bw.log missing (fio %s, iobench %s)" % (case, f, lf is not None, li is not None))
            continue
        if case == "normal":
            good = len(lf) == len(li) == 0
        elif case == "json":
            good = len(lf) == len(li) == 1
        elif case == "eta":  # a line about every 500-750 ms while the progress is drawn
            good = abs(len(lf) - len(li)) <= 1 and len(li) >= 1
        else:  # a line for each JSON status report (1 s, 2 s) and maybe the last
            good = abs(len(lf) - len(li)) <= 1 and len(li) >= 2
        ok(good, "%s: agg-%s_bw.log lines fio %d, iobench %d" % (case, f, len(lf), len(li)))
        if li:
            ok(all(len(x) == 5 and x[2] == code and x[3] == "0" and x[0].isdigit() and x[1].isdigit()
                   for x in li) and {len(x) for x in lf} == {5},
               "%s: agg-%s_bw.log lines 'time, KiB/s, %s, 0, prio' as fio's" % (case, f, code))
PY

# --- number_ios --------------------------------------------------------------
both nio_tb --name=n --filename="$data" --size=16m --rw=read --bs=4k --number_ios=64 \
  --time_based --runtime=500ms
both nio --name=n --filename="$data" --size=16m --rw=read --bs=4k --number_ios=64
both nio_loops --name=n --filename="$data" --size=16m --rw=read --bs=4k --number_ios=64 --loops=2
ios() { json_get "$1" 'd["jobs"][0]["read"]["total_ios"]'; }
check "number_ios=64 with time_based: ignored, the whole runtime as fio ($(ios "$d/nio_tb/fio/out.json") / $(ios "$d/nio_tb/iob/out.json") I/Os)" \
  test "$(ios "$d/nio_tb/fio/out.json")" -gt 64 -a "$(ios "$d/nio_tb/iob/out.json")" -gt 64
check "number_ios=64: 64 I/Os in both" test "$(ios "$d/nio/fio/out.json")" = 64 -a "$(ios "$d/nio/iob/out.json")" = 64
check "number_ios=64 loops=2: 128 I/Os in both" \
  test "$(ios "$d/nio_loops/fio/out.json")" = 128 -a "$(ios "$d/nio_loops/iob/out.json")" = 128
check "iobench wrote nothing to stderr" bash -c "! cat $d/*/iob.err | grep -q ."
finish
