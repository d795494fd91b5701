#!/usr/bin/env bash
# e2e: serial
# The last interval of the averaged bw/iops/lat logs, side by side with fio
# 3.33: 3 s time_based jobs with log_avg_msec=1000 and 500 on
# the null engine, randrw, numjobs=2 with and without per_job_logs,
# log_max_value=1, bench-fio's options on a file (libaio, direct), a
# size-limited job that ends mid-interval, and per-I/O logs
# (log_avg_msec=0). Per log and direction (lastlog_check.py):
#   bw/iops: iobench writes a line at every multiple of log_avg_msec up to
#     the runtime's end (the last full interval included), stamped exactly
#     so; fio's timer writes the same stamps within its lateness but the
#     last one only when it fires before its job has stopped (a race: in
#     about a third of fio's logs), so fio has iobench's count or one less;
#     no line for the partial interval of a job that ends between two
#     multiples, in either;
#   lat/clat/slat: the windows close at the multiples, the last partial
#     window at the job's end is written by both (within 10 ms of the
#     job's runtime; a log numjobs=2 share ends with the job that ends
#     last, which a loaded machine may start later: within a quarter
#     interval); counts within one (fio and iobench may both close a window
#     at the end's own millisecond and then write the few I/Os after it as
#     one more line);
#   per-I/O: one line per I/O, the last within 100 ms of the runtime's end.
set -u
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
data=$d/data
dd if=/dev/zero of="$data" bs=1M count=64 status=none

L="--write_bw_log=j --write_iops_log=j --write_lat_log=j"
N="--name=n --ioengine=null --rw=randrw --bs=4k --size=1g --time_based --runtime=3"
F="--name=f --filename=$data --size=64m --ioengine=psync --rw=randrw --bs=4k"

both null1000 $N $L --log_avg_msec=1000
both null500 $N $L --log_avg_msec=500
both nj2 $N --numjobs=2 $L --log_avg_msec=1000
both nj2pj0 $N --numjobs=2 --per_job_logs=0 $L --log_avg_msec=1000
both max1 $N $L --log_avg_msec=1000 --log_max_value=1
both sized $F --rate_iops=1000 --size=10m $L --log_avg_msec=1000
both benchfio --name=b --filename="$data" --size=64m --ioengine=libaio --direct=1 --iodepth=4 \
  --rw=randread --bs=4k --write_bw_log=X --write_iops_log=X --write_lat_log=X --log_avg_msec=1000 \
  --runtime=3 --time_based
both perio $F --time_based --runtime=3 --rate_iops=20 $L

# the checker's "not ok" lines fail this script too (its exit status), not
# only in run_all.sh's count
out=$(python3 "$TOP/tests/e2e/lastlog_check.py" "$d" null1000:1000 null500:500 nj2:1000 nj2pj0:1000 \
  max1:1000 sized:1000 benchfio:1000 perio:0 2>&1) || not_ok "lastlog_check.py failed: $(tail -1 <<<"$out")"
echo "$out"
grep -q '^not ok' <<<"$out" && E2E_FAILED=1
check "iobench wrote nothing to stderr" bash -c "! cat $d/*/iob.err | grep -q ."
finish
