#!/usr/bin/env bash
# fio's generic options of issue 14 item 4, groups think time, rate and flow
# (and the groups after them as they come): each check runs a job of a
# fraction of a second and asserts the option's effect (I/O counts bounded
# by the stalls asked for, CPU time of a spin, gaps between I/Os seen by
# strace, the queue depth reached, the error a job stops with), not only
# that the option parses. Bounds only ever lean on sleeps lasting at least
# as long as asked, never on the machine being fast.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
e2e_trace_helpers
# jj NAME ARGS...: a JSON run into $d/NAME.json, its exit status in $d/NAME.rc
jj() { local n=$1; shift; "$IOBENCH" run --output-format=json "$@" >"$d/$n.json" 2>"$d/$n.err"; echo $? >"$d/$n.rc"; }
# jv NAME EXPR: EXPR (python, on job 0 as j) of run NAME
jv() { json_get "$d/$1.json" "(lambda j: $2)(d['jobs'][0])" 2>/dev/null; }
N=(--name=t --ioengine=null --size=1g --bs=4k)

# --- think time ---------------------------------------------------------------
jj tt "${N[@]}" --runtime=300ms --time_based --thinktime=50ms
n=$(jv tt 'j["read"]["total_ios"]')
check "thinktime=50ms over 300 ms: each I/O is followed by a stall, so 1..7 I/Os (got $n)" \
  test "${n:-0}" -ge 1 -a "${n:-99}" -le 7
jj ttb "${N[@]}" --runtime=300ms --time_based --thinktime=50ms --thinktime_blocks=10
n=$(jv ttb 'j["read"]["total_ios"]')
check "thinktime_blocks=10: 10 I/Os per stall, more than one burst and at most 7 (got $n I/Os)" \
  test "${n:-0}" -gt 10 -a "${n:-999}" -le 70
jj ttsp "${N[@]}" --runtime=300ms --time_based --thinktime=20ms --thinktime_spin=20ms
jj ttsl "${N[@]}" --runtime=300ms --time_based --thinktime=20ms
sp=$(jv ttsp 'round(j["usr_cpu"] + j["sys_cpu"], 2)'); sl=$(jv ttsl 'round(j["usr_cpu"] + j["sys_cpu"], 2)')
n=$(jv ttsp 'j["read"]["total_ios"]')
check "thinktime_spin=thinktime: the stall burns CPU (cpu $sp% against $sl% sleeping), still <= 16 I/Os ($n)" \
  python3 -c "import sys; sp, sl, n = float('$sp'), float('$sl'), int('$n'); sys.exit(not (sp >= 5 and sp > 2 * sl and 1 <= n <= 16))"
jj ttdepth --name=t --ioengine=libaio --iodepth=32 --size=4m --filename="$d/q.dat" --thinktime=1ms --thinktime_blocks=4
jj ttdepth0 --name=t --ioengine=libaio --iodepth=32 --size=4m --filename="$d/q.dat"
check "thinktime_blocks=4 caps iodepth=32 at 4 (iodepth_level above 4: 0%; without thinktime 32 is reached)" \
  test "$(jv ttdepth 'sum(v for k, v in j["iodepth_level"].items() if k in ("8", "16", "32", ">=64")) == 0')" = True -a \
  "$(jv ttdepth0 'j["iodepth_level"]["32"] > 0')" = True
jj ttissue --name=t --ioengine=libaio --iodepth=8 --size=1m --filename="$d/q.dat" --thinktime=1ms \
  --thinktime_blocks=4 --thinktime_blocks_type=issue
check "thinktime_blocks_type=issue runs (256 reads, 4 at a time)" \
  test "$(jv ttissue 'j["read"]["total_ios"]')/$(jv ttissue 'sum(v for k, v in j["iodepth_level"].items() if k in ("8", "16", "32", ">=64")) == 0')" = 256/True
"$IOBENCH" run --parse-only "${N[@]}" --thinktime_blocks_type=foo >/dev/null 2>"$d/ttbad.err"; rc=$?
check "thinktime_blocks_type=foo: refused with the values fio takes" \
  test $rc -ne 0 -a -n "$(grep "invalid value 'foo' for option 'thinktime_blocks_type': use complete or issue" "$d/ttbad.err")"
if [ $have_strace = 1 ]; then
  head -c 1m /dev/zero >"$d/it.dat"
  trace "$d/it.tr" "$IOBENCH" run --name=t --filename="$d/it.dat" --size=1m --runtime=500ms --time_based \
    --thinktime=100ms --thinktime_iotime=100ms >/dev/null 2>>"$d/err"
  pycheck "thinktime_iotime=100ms: bursts of many reads separated by 1..3 stalls of >= 100 ms" "$d/it.tr" <<'PY'
import sys, iotrace
ev = [e for e in iotrace.data_ops(iotrace.load(sys.argv[1]), ops=("pread64",)) if e["path"].endswith("it.dat")]
gaps = [b["t"] - a["t"] for a, b in zip(ev, ev[1:])]
stalls = [i for i, g in enumerate(gaps) if g >= 0.099]
assert 1 <= len(stalls) <= 3, (len(ev), stalls)
assert stalls[0] >= 10 and all(b - a >= 10 for a, b in zip(stalls, stalls[1:])), stalls
PY
fi
finish
