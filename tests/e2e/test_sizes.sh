#!/usr/bin/env bash
# Size-bounded jobs do exactly the bytes asked for; random jobs without
# norandommap touch every block; numjobs with group_reporting is one entry;
# read jobs lay their file out first; unlink removes the files. Every run
# exits 0.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
failed_runs=""
j() {
  "$IOBENCH" run --output-format=json "$@" 2>>"$d/err"
  local rc=$?
  [ $rc -eq 0 ] || failed_runs+="[${1} exit $rc] "
}

j --name=w --rw=write --bs=4k --size=12m --filename="$d/w.dat" >"$d/w.json"
check "write 12m: io_kbytes == 12288" test "$(json_get "$d/w.json" 'd["jobs"][0]["write"]["io_kbytes"]')" = 12288
check "write 12m: file is 12 MiB" test "$(stat -c %s "$d/w.dat")" = 12582912

j --name=r --rw=randread --bs=4k --size=8m --filename="$d/r.dat" >"$d/r.json"
check "randread 8m: 2048 I/Os, 8192 KiB" test "$(json_get "$d/r.json" '(d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["read"]["io_kbytes"])')" = "(2048, 8192)"
# fio's note is part of its normal report, never of the JSON nor of stderr
"$IOBENCH" run --name=r --rw=read --bs=4k --size=1m --filename="$d/r1.dat" >"$d/r1.txt" 2>"$d/r1.err"; rc=$?
check "read job laid out its file: the note in the normal report, stderr empty" \
  bash -c "[ $rc -eq 0 ] && grep -q '^r: Laying out IO file (1 file / 1MiB)' '$d/r1.txt' && [ ! -s '$d/r1.err' ]"
check "... and not in the JSON nor on stderr" bash -c "! grep -q 'Laying out' '$d/r.json' '$d/err'"

j --name=rw --rw=randrw --rwmixread=70 --bs=4k --size=16m --filename="$d/rw.dat" >"$d/rw.json"
python3 - "$d/rw.json" <<'PY' && ok "randrw 70/30: total bytes exact, mix near 70%" || not_ok "randrw 70/30: total bytes exact, mix near 70%"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r, w = j["read"]["io_bytes"], j["write"]["io_bytes"]
assert r + w == 16 << 20, (r, w)
assert 0.65 < r / (r + w) < 0.75, r / (r + w)
PY

j --name=g --rw=randwrite --bs=4k --size=4m --numjobs=5 --group_reporting --directory="$d" >"$d/g.json"
check "numjobs=5 + group_reporting: one entry" test "$(json_get "$d/g.json" 'len(d["jobs"])')" = 1
check "numjobs=5 + group_reporting: 5 x 4m written" test "$(json_get "$d/g.json" 'd["jobs"][0]["write"]["io_kbytes"]')" = 20480
j --name=n --rw=randwrite --bs=4k --size=1m --numjobs=3 --directory="$d" >"$d/n.json"
check "numjobs=3 without group_reporting: three entries" test "$(json_get "$d/n.json" 'len(d["jobs"])')" = 3

j --name=bs --rw=write --bsrange=4k-64k --size=8m --filename="$d/bs.dat" >"$d/bs.json"
check "bsrange: exact size still" test "$(json_get "$d/bs.json" 'd["jobs"][0]["write"]["io_kbytes"]')" = 8192

j --name=sp --rw=randread --bssplit=4k/50:64k/50 --size=8m --filename="$d/sp.dat" >"$d/sp.json"
check "bssplit=4k/50:64k/50: exactly 8 MiB read in both block sizes (between 128 and 2048 I/Os)" \
  test "$(json_get "$d/sp.json" '(d["jobs"][0]["read"]["io_kbytes"], 128 < d["jobs"][0]["read"]["total_ios"] < 2048, d["jobs"][0]["write"]["io_kbytes"])')" = "(8192, True, 0)"

j --name=l --rw=read --bs=64k --size=4m --loops=3 --filename="$d/l.dat" >"$d/l.json"
check "loops=3: three passes" test "$(json_get "$d/l.json" 'd["jobs"][0]["read"]["io_kbytes"]')" = 12288

j --name=ni --rw=randread --bs=4k --size=8m --number_ios=100 --filename="$d/r.dat" >"$d/ni.json"
check "number_ios=100" test "$(json_get "$d/ni.json" 'd["jobs"][0]["read"]["total_ios"]')" = 100

j --name=io --rw=read --bs=4k --size=4m --io_size=10m --filename="$d/l.dat" >"$d/io.json"
check "io_size larger than size wraps" test "$(json_get "$d/io.json" 'd["jobs"][0]["read"]["io_kbytes"]')" = 10240

j --name=f --rw=write --bs=4k --size=1m --fsync=16 --filename="$d/f.dat" >"$d/f.json"
check "fsync=16: 15 syncs for 256 writes (as fio: none after the last)" test "$(json_get "$d/f.json" 'd["jobs"][0]["sync"]["total_ios"]')" = 15

j --name=tb --rw=randread --bs=4k --size=1m --time_based --runtime=1 --filename="$d/r.dat" >"$d/tb.json"
check "time_based runtime=1: runs about 1 s" test "$(json_get "$d/tb.json" '900 <= d["jobs"][0]["read"]["runtime"] <= 1500')" = True
check "time_based: more than one pass" test "$(json_get "$d/tb.json" 'd["jobs"][0]["read"]["io_kbytes"] > 1024')" = True

j --name=rate --rw=write --bs=4k --size=2m --rate=1m --filename="$d/rate.dat" >"$d/rate.json"
check "rate=1m: 2 MiB takes about 2 s" test "$(json_get "$d/rate.json" '1700 <= d["jobs"][0]["write"]["runtime"] <= 2600')" = True

j --name=u --rw=write --bs=4k --size=1m --unlink=1 --filename="$d/u.dat" >/dev/null
check "unlink=1 removes the file" test ! -e "$d/u.dat"

j --name=nf --rw=write --bs=4k --size=2m --nrfiles=4 --directory="$d" >"$d/nf.json"
check "nrfiles=4: four files of 512 KiB" \
  test "$(ls "$d"/nf.0.* | wc -l) $(stat -c %s "$d"/nf.0.[0-3] | sort -u)" = "4 524288"
check "every run exits 0 ${failed_runs}" test -z "$failed_runs"
finish
