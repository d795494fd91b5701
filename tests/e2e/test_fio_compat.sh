#!/usr/bin/env bash
# Compatibility with fio 3.33's output: for several kinds of job, run fio and
# iobench on the same job and check that every key path of fio's JSON exists
# in ours (json_fields.py), that the terse lines have fio's field count, and
# that the normal output has fio's line structure; both tools must exit 0
# and print something for a comparison to count (two empty outputs agree);
# and that slat, clat and lat relate as in fio for sync and async engines.
. "$(dirname "$0")/lib.sh"
need_cmd fio fio || finish
d=$(tmpdir)
cases=(
  "psync-randrw|--name=a --ioengine=psync --rw=randrw --bs=4k --size=4m --filename=$d/a.dat"
  "null|--name=n --ioengine=null --rw=randread --bs=4k --size=64m"
  "group|--name=g --rw=randwrite --bs=4k --size=1m --numjobs=3 --group_reporting --directory=$d"
  "two-jobs|--name=x --rw=read --size=2m --filename=$d/x.dat --name=y --rw=write --size=2m --filename=$d/y.dat --stonewall"
  "sync-fsync|--name=s --ioengine=sync --rw=write --bs=4k --size=1m --fsync=8 --filename=$d/s.dat"
)
for c in "${cases[@]}"; do
  name=${c%%|*}; args=${c#*|}
  # shellcheck disable=SC2086
  fio $args --output-format=json+ >"$d/fio.json" 2>/dev/null; frc=$?
  # shellcheck disable=SC2086
  "$IOBENCH" run $args --output-format=json+ >"$d/iob.json" 2>/dev/null; irc=$?
  check "$name: fio and iobench exit 0 (fio $frc, iobench $irc)" test $frc -eq 0 -a $irc -eq 0
  if python3 "$TOP/tests/e2e/json_fields.py" "$d/fio.json" "$d/iob.json" >"$d/missing.txt"; then
    ok "$name: every fio JSON key path is present"
  else
    not_ok "$name: key paths missing from iobench's JSON"; head -20 "$d/missing.txt"
  fi
  # shellcheck disable=SC2086
  fio $args --output-format=terse >"$d/fio.terse" 2>/dev/null
  # shellcheck disable=SC2086
  "$IOBENCH" run $args --output-format=terse >"$d/iob.terse" 2>/dev/null
  fn=$(grep '^3;' "$d/fio.terse" | head -1 | awk -F';' '{print NF}')
  in=$(grep '^3;' "$d/iob.terse" | head -1 | awk -F';' '{print NF}')
  check "$name: terse has fio's $fn fields (ours: $in)" test -n "$fn" -a "$fn" = "$in"
  # the bw and iops sample lines exist only for a job longer than bwavgtime
  # (500 ms): every job runs one second (global options, before the first
  # --name), or a slow moment of one tool makes the outputs differ
  # shellcheck disable=SC2086
  fio --time_based --runtime=1 $args >"$d/fio.txt" 2>/dev/null
  # shellcheck disable=SC2086
  "$IOBENCH" run --time_based --runtime=1 $args >"$d/iob.txt" 2>/dev/null
  # iobench's own sections after fio's (monitor summary, warnings) are not fio's
  shape() { sed '/^System (monitor/,$d' "$1" | grep -oE '^ *(read|write|clat|lat|bw|iops|cpu|IO depths|submit|complete|issued rwts|latency|Run status group [0-9]+|READ|WRITE|Disk stats|[a-z]+: \(g=[0-9]+\)|[a-z]+: \(groupid=[0-9]+)' | sed 's/^ *//' | sort -u; }
  if [ "$(shape "$d/fio.txt" | wc -l)" -ge 10 ] && diff <(shape "$d/fio.txt") <(shape "$d/iob.txt") >"$d/shape.diff"; then
    ok "$name: normal output has fio's lines"
  else
    not_ok "$name: normal output lines differ from fio's (or fio printed none)"; cat "$d/shape.diff" 2>/dev/null
  fi
done

# slat, clat and lat as fio defines them: lat starts when the unit is
# prepared, clat when it is issued, slat (async engines only) between the
# two. Sync engines: no slat samples and lat > clat (fio's differ by tens
# of ns); async engines: every I/O has a slat and lat = slat + clat. The
# same relations are checked on fio's JSON and on ours, and must agree.
lat_kind() { python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
r = json.loads(text[text.index("{"):])["jobs"][0]["read"]
s, c, l = r["slat_ns"], r["clat_ns"], r["lat_ns"]
keys = "keys=" + ",".join(sorted(s)) + "/" + ",".join(sorted(c)) + "/" + ",".join(sorted(l))
# lat starts before clat (a clock read and the preparation apart): its mean
# is larger, never equal
ok_lat = l["N"] == c["N"] == r["total_ios"] and l["mean"] > c["mean"] and l["min"] >= c["min"] \
    and l["max"] >= c["max"]
if s["N"] == 0:
    kind = "sync"
else:
    kind = "async" if s["N"] == c["N"] and abs(l["mean"] - s["mean"] - c["mean"]) <= 0.01 * l["mean"] \
        else "async-slat-mismatch"
print(kind, "lat>clat" if ok_lat else "lat<=clat", keys)
PY
}
for eng in psync pvsync2 libaio io_uring; do
  args="--name=l --ioengine=$eng --iodepth=4 --rw=randread --bs=4k --size=4m --filename=$d/l.dat"
  # shellcheck disable=SC2086
  fio $args --output-format=json >"$d/fio-l.json" 2>/dev/null
  # shellcheck disable=SC2086
  "$IOBENCH" run $args --output-format=json >"$d/iob-l.json" 2>/dev/null
  fk=$(lat_kind "$d/fio-l.json"); ik=$(lat_kind "$d/iob-l.json")
  want=sync; case $eng in libaio|io_uring) want=async ;; esac
  check "$eng: fio's slat/clat/lat are '$want lat>clat' (fio: ${fk%% keys*})" test "${fk%% keys*}" = "$want lat>clat"
  check "$eng: iobench's slat/clat/lat relate as fio's (${ik%% keys*}; same keys)" test "$ik" = "$fk"
done
finish
