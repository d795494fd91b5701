#!/usr/bin/env bash
# fio's generic options, first half: groups think time, rate and flow
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

# --- rate and flow ------------------------------------------------------------
# rate_min/rate_iops_min: fio settles 2 s, then checks each rate_cycle window
jj rmin "${N[@]}" --runtime=3s --time_based --rate_min=1000g --rate_cycle=100 &
jj rimin "${N[@]}" --runtime=3s --time_based --rate_iops_min=1000000000 --rate_cycle=100ms &
jj rmet "${N[@]}" --runtime=2300ms --time_based --rate=1m --rate_min=100k --rate_cycle=100 &
wait
check "rate_min not met: the job stops with EIO (error 5, exit 1) after the 2 s settling and one 100 ms window ($(jv rmin 'j["job_runtime"]') ms)" \
  test "$(cat "$d/rmin.rc")/$(jv rmin 'j["error"]')/$(jv rmin '2100 <= j["job_runtime"] < 3000')" = 1/5/True
check "rate_min not met: stderr says which minimum and what the job got" \
  grep -q "job 't': rate_min=1073741824000B/s not met for reads, got [0-9]*B/s over [0-9]* ms" "$d/rmin.err"
check "rate_iops_min not met: EIO after the settling ($(jv rimin 'j["job_runtime"]') ms), message names the IOPS" \
  test "$(cat "$d/rimin.rc")/$(jv rimin 'j["error"]')/$(jv rimin '2100 <= j["job_runtime"] < 3000')/$(grep -c 'rate_iops_min=1000000000 not met for reads, got [0-9]* IOPS' "$d/rimin.err")" = 1/5/True/1
check "rate_min met (rate=1m, rate_min=100k): the job runs its 2.3 s, error 0" \
  test "$(cat "$d/rmet.rc")/$(jv rmet 'j["error"]')/$(jv rmet 'j["job_runtime"] >= 2300')" = 0/0/True
# bad ARGS: the job is refused with the message $BAD (check's local d hides ours)
BADERR=$d/bad.err
bad() { "$IOBENCH" run --parse-only "${N[@]}" "$@" >/dev/null 2>"$BADERR" && return 1; grep -q -- "$BAD" "$BADERR"; }
BAD="rate_min=104857600 B/s is above rate=10485760 B/s for reads"
check "rate_min above rate is refused, as fio" bad --rate=10m --rate_min=100m
BAD="rate_iops_min=100 is above rate_iops=50 for reads"
check "rate_iops_min above rate_iops is refused" bad --rate_iops=50 --rate_iops_min=100
BAD="rate_min and rate_iops_min are mutually exclusive"
check "rate_min with rate_iops_min is refused, as fio" bad --rate_min=1m --rate_iops_min=10
BAD="invalid value 'foo' for option 'rate_process': use linear or poisson"
check "rate_process=foo is refused with the values fio takes" bad --rate_process=foo
check "ratemin and ratecycle are fio's aliases" "$IOBENCH" run --output=/dev/null --parse-only "${N[@]}" --ratemin=1k --ratecycle=500
# rate_ignore_thinktime: 20 I/Os at 1000 IOPS then 30 ms of thinktime; caught up
# afterwards by default, not with rate_ignore_thinktime=1 (<= 8 cycles of 50 ms)
R=("${N[@]}" --runtime=400ms --time_based --rate_iops=1000 --thinktime=30ms --thinktime_blocks=20)
jj rit0 "${R[@]}"; jj rit1 "${R[@]}" --rate_ignore_thinktime=1
a=$(jv rit0 'j["read"]["total_ios"]'); b=$(jv rit1 'j["read"]["total_ios"]')
check "rate_ignore_thinktime=1: no catching up after the stalls ($b I/Os <= 180; $a without it)" \
  test "${b:-999}" -le 180 -a "${a:-0}" -gt "${b:-999}"
if [ $have_strace = 1 ]; then
  # poisson: with a fixed seed some I/O runs well ahead of the linear
  # schedule (gaps are exponential); linear never does (its sleeps end on time or late)
  head -c 4m /dev/zero >"$d/p.dat"
  for p in linear poisson; do
    trace "$d/rp_$p.tr" "$IOBENCH" run --name=t --filename="$d/p.dat" --size=4m --rate_iops=200 --runtime=500ms \
      --time_based --rate_process=$p --randseed=3 >/dev/null 2>>"$d/err"
  done
  pycheck "rate_process=poisson: I/Os up to 30+ ms ahead of the 5 ms linear grid, linear not; about 200 IOPS both" \
    "$d/rp_linear.tr" "$d/rp_poisson.tr" <<'PY'
import sys, iotrace
def ahead(path):
    ts = [e["t"] for e in iotrace.data_ops(iotrace.load(path), ops=("pread64",)) if e["path"].endswith("p.dat")]
    return len(ts), max(k * 0.005 - (t - ts[0]) for k, t in enumerate(ts))
(nl, al), (np, ap) = ahead(sys.argv[1]), ahead(sys.argv[2])
assert al < 0.03 and ap >= 0.03, (al, ap)
assert 50 <= nl <= 101 and 50 <= np <= 160, (nl, np)
PY
  # flow: a (weight 3, rate-limited) and b (weight 1, unlimited) in one flow group
  head -c 4m /dev/zero >"$d/fa.dat"; head -c 4m /dev/zero >"$d/fb.dat"
  printf '[global]\nbs=4k\nsize=4m\ntime_based\n[a]\nfilename=%s\nflow=3\nrate_iops=300\nruntime=300ms\n[b]\nfilename=%s\nflow=1\nruntime=400ms\n' \
    "$d/fa.dat" "$d/fb.dat" >"$d/flow.fio"
  sed 's/^flow=1$/flow=1\nflow_sleep=20ms/' "$d/flow.fio" >"$d/flows.fio"
  sed 's/^flow=1$/flow=1\nflow_id=2/' "$d/flow.fio" >"$d/flowid.fio"
  for f in flow flows flowid; do trace "$d/$f.tr" "$IOBENCH" run "$d/$f.fio" >/dev/null 2>>"$d/err"; done
  cat >"$d/flow.py" <<'PY'
import sys, iotrace
ev = sorted((e["t"], e["path"].endswith("fa.dat")) for e in iotrace.data_ops(iotrace.load(sys.argv[1]), ops=("pread64",))
            if e["path"].endswith(("fa.dat", "fb.dat")))
alast = max(t for t, isa in ev if isa)
na = nb = 0; worst = -1e9; bts = []
for t, isa in ev:
    if t > alast:
        break
    if isa:
        na += 1
    else:
        nb += 1; bts.append(t); worst = max(worst, nb - na / 3)
gap = max((b - a for a, b in zip(bts, bts[1:])), default=0)
print(na, nb, round(worst, 2), round(gap, 3))
PY
  read -r na nb worst _ <<<"$(python3 "$d/flow.py" "$d/flow.tr")"
  check "flow=3 against flow=1: while a runs ($na reads) b keeps to a third of them ($nb, at most 2 ahead: $worst)" \
    python3 -c "import sys; sys.exit(not ($worst <= 2.5 and $nb >= $na / 6 and $na >= 50))"
  read -r na nb worst gap <<<"$(python3 "$d/flow.py" "$d/flows.tr")"
  check "flow_sleep=20ms: the held job sleeps 20 ms at a time (largest gap ${gap}s) and still keeps its share" \
    python3 -c "import sys; sys.exit(not ($gap >= 0.02 and $worst <= 2.5))"
  read -r na nb worst _ <<<"$(python3 "$d/flow.py" "$d/flowid.tr")"
  check "flow_id=2 for b: separate flow groups, b is not held ($nb reads beside $na)" \
    python3 -c "import sys; sys.exit(not ($nb > $na))"
fi
# --- latency targets ----------------------------------------------------------
jj ml "${N[@]}" --runtime=1s --time_based --max_latency=1ns
check "max_latency=1ns: the first I/O stops the job with ETIMEDOUT (error 110, exit 1, 1 I/O)" \
  test "$(cat "$d/ml.rc")/$(jv ml 'j["error"]')/$(jv ml 'j["read"]["total_ios"]')" = 1/110/1
check "max_latency: stderr names the latency, the limit and the I/O" \
  grep -q "job 't': latency of [0-9]* ns exceeds max_latency=1 ns: read of 4096 bytes at offset 0 of" "$d/ml.err"
jj mlw "${N[@]}" --rw=rw --runtime=1s --time_based --max_latency=10s,1ns
check "max_latency=10s,1ns: per direction: reads pass, the first write stops the job" \
  test "$(jv mlw 'j["error"]')/$(jv mlw 'j["write"]["total_ios"]')/$(grep -c 'exceeds max_latency=1 ns: write' "$d/mlw.err")" = 110/1/1
jj mlok "${N[@]}" --runtime=200ms --time_based --max_latency=10s
check "max_latency=10s is never hit: the job runs its time, error 0" \
  test "$(cat "$d/mlok.rc")/$(jv mlok 'j["error"]')/$(jv mlok 'j["job_runtime"] >= 200')" = 0/0/True
L=(--name=t --ioengine=libaio --iodepth=8 --filename="$d/q.dat" --size=4m --rw=randread --runtime=5s --time_based)
jj lt "${L[@]}" --latency_target=10s --latency_window=50ms
check "latency_target met at every depth: 1, 2, 4, 8, then one window at 8 and the job stops (depth $(jv lt 'j["latency_depth"]'), $(jv lt 'j["job_runtime"]') ms)" \
  test "$(jv lt 'j["latency_depth"]')/$(jv lt 'j["job_runtime"] < 2500')/$(jv lt 'j["iodepth_level"]["8"] >= 50')/$(jv lt 'j["error"]')" = 8/True/True/0
check "latency_target: the JSON carries fio's keys (target ns, window us, percentile)" \
  test "$(jv lt '(j["latency_target"], j["latency_window"], j["latency_percentile"])')" = "(10000000000, 50000, 100.0)"
jj ltr "${L[@]}" --runtime=400ms --latency_target=10s --latency_window=50ms --latency_run=1
check "latency_run=1: the job keeps running its 400 ms at the depth found ($(jv ltr 'j["latency_depth"]'))" \
  test "$(jv ltr 'j["latency_depth"]')/$(jv ltr 'j["job_runtime"] >= 400')" = 8/True
jj lt1 "${L[@]}" --latency_target=1ns
check "latency_target=1ns: missed at depth 1, so ETIMEDOUT as in fio" \
  test "$(jv lt1 'j["error"]')/$(grep -c 'exceeds latency_target=1 ns' "$d/lt1.err")" = 110/1
# every 4th I/O 20 ms late (faulty engine): 25% over a 10 ms target
F=(--name=t --ioengine=faulty --faulty_delay=20ms --faulty_delay_select=every:4 --filename="$d/q.dat" --size=4m
   --runtime=600ms --time_based --iodepth=4 --latency_target=10ms --latency_window=100ms)
jj lp70 "${F[@]}" --latency_percentile=70
jj lp80 "${F[@]}" --latency_percentile=80
check "latency_percentile=70 with 25% slow I/Os: every window meets it, depth 4 found, the job stops early" \
  test "$(jv lp70 'j["latency_depth"]')/$(jv lp70 'j["job_runtime"] < 600')/$(jv lp70 'j["error"]')" = 4/True/0
check "latency_percentile=80 with 25% slow I/Os: no window meets it, depth stays 1 for the whole runtime" \
  test "$(jv lp80 'j["latency_depth"]')/$(jv lp80 'j["job_runtime"] >= 600')/$(jv lp80 'j["error"]')" = 1/True/0
BAD="invalid percentage '0' for option 'latency_percentile': must be above 0 and at most 100"
check "latency_percentile=0 is refused" bad --latency_percentile=0
finish
