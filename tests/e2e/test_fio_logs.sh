#!/usr/bin/env bash
# e2e: serial
# fio's time-series logs: iobench and fio run the same 2 s jobs with
# write_bw_log/write_iops_log/write_lat_log and the logs are compared for
# format and line counts (fio_logs_check.py): log_avg_msec=100 on the null
# engine and on a file with log_offset and log_max_value, per_job_logs=0
# with numjobs=2, per-I/O lines against total_ios. The histogram log is read
# by fio's own fiologparser_hist.py (Debian ships it gzipped as doc) and its
# percentiles agree with the JSON's within a bin; a .log.fz is read back by
# fio --inflate-log; and fio's installed consumers (fio2gnuplot,
# fio_generate_plots, fio_jsonplus_clat2csv) read both tools' output alike.
set -u
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3   # Debian's python, which has python3-pandas/numpy
CHK="$PY $TOP/tests/e2e/fio_logs_check.py"
d=$(tmpdir)
data=$d/data
dd if=/dev/zero of="$data" bs=1M count=64 status=none

LOGS="--write_bw_log=j --write_iops_log=j --write_lat_log=j"

both null_avg100 --name=n --ioengine=null --rw=randrw --bs=4k --size=1g --time_based --runtime=2 \
  $LOGS --log_avg_msec=100
$CHK same "$d/null_avg100/fio" "$d/null_avg100/iob" 1 100 || true

both psync_max --name=p --filename="$data" --size=64m --ioengine=psync --rw=randrw --bs=4k \
  --time_based --runtime=2 $LOGS --log_avg_msec=100 --log_max_value=1 --log_offset=1
$CHK same "$d/psync_max/fio" "$d/psync_max/iob" 1 100 || true

both perjob0 --name=pj --filename="$data" --size=64m --ioengine=psync --rw=randread --bs=4k \
  --time_based --runtime=2 --numjobs=2 $LOGS --log_avg_msec=500 --per_job_logs=0
$CHK same "$d/perjob0/fio" "$d/perjob0/iob" 2 500 || true

both perio --name=po --filename="$data" --size=64m --ioengine=psync --rw=randread --bs=4k \
  --time_based --runtime=2 --rate_iops=200 $LOGS --log_offset=1
# per I/O the count is the I/O count, which the load of the machine moves:
# format against fio's, count against each tool's own total_ios
$CHK same "$d/perio/fio" "$d/perio/iob" 1000000 || true
$CHK perio "$d/perio/fio" "$d/perio/iob" || true

# histogram log, coarseness 2: fio's shape, counts = JSON N, and fio's parser
mkdir -p "$d/hist"
(cd "$d/hist" && "$IOBENCH" run --output-format=json --name=h --filename="$data" --size=64m \
  --ioengine=psync --rw=randread --bs=4k --time_based --runtime=2 --write_hist_log=j \
  --log_hist_msec=100 --log_hist_coarseness=2 >out.json 2>err)
$CHK hist - "$d/hist" 2 || true
if [ -f /usr/share/doc/fio/fiologparser_hist.py.gz ] && $PY -c 'import pandas, numpy' 2>/dev/null; then
  zcat /usr/share/doc/fio/fiologparser_hist.py.gz >"$d/flh.py"
  (cd "$d/hist" && $PY "$d/flh.py" --noweight -i 5000 --percentiles 50:99 j_clat_hist.1.log >parsed.txt 2>parsed.err)
  $PY - "$d/hist" <<'PYEOF' && ok "fiologparser_hist.py: median and p99 within a bin (6.25% at coarseness 2) of the JSON's" || not_ok "fiologparser_hist.py percentiles vs JSON: $(cat "$d/hist/parsed.txt" "$d/hist/parsed.err" | tail -3 | tr '\n' ' ')"
import json, sys
d = sys.argv[1]
lines = [l for l in open(d + "/parsed.txt") if l.strip()]
head = [x.strip() for x in lines[0].split(",")]
vals = [float(x) for x in lines[-1].split(",")]
row = dict(zip(head, vals))
rd = json.load(open(d + "/out.json"))["jobs"][0]["read"]
pct, total = rd["clat_ns"]["percentile"], rd["total_ios"]
# one coarse bin (4 fine bins of 1/64 each) plus the JSON's own bin
slack = 4 / 64 + 1 / 64
bad = 0
for key, p in (("50%", "50.000000"), ("99%", "99.000000")):
    got, want = row[key], pct[p]
    print("# %s: fiologparser_hist %.0f, JSON %d (%d of %d I/Os in the log)" % (key, got, want, row["samples"], total))
    if abs(got - want) <= want * slack:
        continue
    # the log has no line for the last partial interval (as fio's), so its
    # I/Os are in the JSON only; on a loaded machine they can be the slow
    # ones, which moves the log's p99 (never its median) within the tail
    if key == "99%" and row["samples"] < total and \
            pct["95.000000"] * (1 - slack) <= got <= pct["99.900000"] * (1 + slack):
        print("#   the log lacks %d I/Os of the last interval: p99 within the JSON's p95..p99.9" % (total - row["samples"]))
        continue
    bad = 1
sys.exit(bad)
PYEOF
else
  not_ok "fiologparser_hist.py needs fio's doc copy and python3-pandas/numpy (scripts/deps.sh)"
fi

# compressed logs: fio reads iobench's .fz as its own
mkdir -p "$d/fz"
(cd "$d/fz" && "$IOBENCH" run --output-format=json --name=c --filename="$data" --size=64m \
  --ioengine=psync --rw=randread --bs=4k --time_based --runtime=1 --write_lat_log=j \
  --log_compression=16k --log_store_compressed=1 --log_offset=1 --prio=3 --log_prio=1 >out.json 2>err)
n=$(json_get "$d/fz/out.json" 'd["jobs"][0]["read"]["total_ios"]')
got=$(fio --inflate-log="$d/fz/j_clat.1.log.fz" | wc -l)
check "fio --inflate-log reads iobench's j_clat.1.log.fz: $got lines, total_ios $n" test "$got" = "$n"
first=$(fio --inflate-log="$d/fz/j_clat.1.log.fz" | head -1)
check "inflated lines carry offset and prio 0x4003: '$first'" \
  bash -c "[[ '$first' =~ ^[0-9]+,\ [0-9]+,\ 0,\ 4096,\ [0-9]+,\ 0x4003$ ]]"
check "an empty slat log is one empty zlib stream (8 bytes, as fio)" test "$(stat -c %s "$d/fz/j_slat.1.log.fz")" = 8

# fio's consumers on both tools' output
for t in fio iob; do
  (cd "$d/null_avg100/$t" && fio_generate_plots plot >gp.out 2>&1; echo $? >gp.rc)
  (cd "$d/null_avg100/$t" && $PY /usr/bin/fio2gnuplot -b >f2g.out 2>&1; echo $? >f2g.rc)
done
for f in gp.rc f2g.rc; do
  check "$f: same exit status on both tools' logs" cmp -s "$d/null_avg100/fio/$f" "$d/null_avg100/iob/$f"
done
check "fio_generate_plots drew the same plots from both" \
  test "$(cd "$d/null_avg100/fio" && ls *.svg)" = "$(cd "$d/null_avg100/iob" && ls *.svg)"
check "fio_generate_plots drew lat, clat, bw, iops" \
  test "$(cd "$d/null_avg100/iob" && ls plot-*.svg | wc -l)" -ge 4
check "fio2gnuplot wrote the same files from both" \
  test "$(cd "$d/null_avg100/fio" && ls result* *.gnuplot 2>/dev/null)" = "$(cd "$d/null_avg100/iob" && ls result* *.gnuplot 2>/dev/null)"
check "fio2gnuplot computed an average from iobench's bw log" test -s "$d/null_avg100/iob/result.average"
for t in fio iob; do
  mkdir -p "$d/jp/$t"
  if [ $t = fio ]; then
    fio --name=x --ioengine=null --size=16m --rw=randrw --output-format=json+ --output="$d/jp/$t/o.json" >/dev/null 2>&1
  else
    "$IOBENCH" run --name=x --ioengine=null --size=16m --rw=randrw --output-format=json+ >"$d/jp/$t/o.json" 2>/dev/null
  fi
  (cd "$d/jp/$t" && $PY /usr/bin/fio_jsonplus_clat2csv o.json o.csv >gen.out 2>&1 &&
    $PY /usr/bin/fio_jsonplus_clat2csv o.json o.csv --validate >val.out 2>&1)
  check "fio_jsonplus_clat2csv generates and validates $t's json+" grep -q validated "$d/jp/$t/val.out"
done
check "fio_jsonplus_clat2csv: same CSV header from both" \
  test "$(head -1 "$d/jp/fio/o_job0.csv")" = "$(head -1 "$d/jp/iob/o_job0.csv")"

check "no job wrote to stderr but warnings" bash -c "! grep -h 'error' $d/*/iob.err"
finish
