#!/usr/bin/env bash
# e2e: serial
# `iobench quick` on block devices: two loop devices with data print one
# table with a row group per device (hdparm -t buffered and --direct, the
# SEQ1M and RND4K read rows, hdparm -T's cached reads) and are left
# unchanged (sha256 of their images); --allow-destroy=A adds A's write rows
# only (A changes, B does not); a device with a mounted filesystem is read
# as well and never written (even when --allow-destroy names it: refused);
# a directory among devices, or a second directory, is refused; one device in JSON carries the
# cached-read job; --memory-limit works on a device; --repeat on devices
# (with --drop-caches, auto, JSON, several devices) prints each
# repetition's whole table and the summary, and stores each device's
# repetitions as one group.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
a=$(mkloop 48M) || { not_ok "create loop device A"; finish; }
b=$(mkloop 48M) || { not_ok "create loop device B"; finish; }
ia=$(losetup -n -O BACK-FILE "$a"); ib=$(losetup -n -O BACK-FILE "$b")
head -c 40M /dev/urandom >"$d/data"
dd if="$d/data" of="$a" bs=1M conv=fsync status=none
dd if="$d/data" of="$b" bs=1M conv=fsync status=none
sa=$(sha256sum <"$ia"); sb=$(sha256sum <"$ib")
q=("$IOBENCH" quick --runtime=500ms --size=32m)

# the table's fixed columns: device (as wide as the longest name, at least
# 6), test (20), then read MB/s, write MB/s, read IOPS, write IOPS (12 each)
table() { # file -> "device|test|read MB/s|write MB/s" per row
  python3 - "$1" <<'EOF2'
import sys
lines = open(sys.argv[1]).read().split("\n")
start = [i for i, l in enumerate(lines) if l.startswith("device ") and "read MB/s" in l][0]
w = lines[start].index("test") - 1
cur = ""
for l in lines[start + 1:]:
    if not l.strip():
        break
    cur = l[:w].strip() or cur
    cells = [l[w + 22 + 13 * k: w + 22 + 13 * (k + 1)].strip() for k in range(4)]
    print("|".join([cur, l[w + 1:w + 21].strip()] + cells[:2]))
EOF2
}

"${q[@]}" "$a" "$b" >"$d/ro.out" 2>"$d/ro.err"
check "quick A B: exit 0" test $? -eq 0
table "$d/ro.out" >"$d/ro.rows"
check "quick A B: one table" test "$(grep -c '^device  *test  *read MB/s' "$d/ro.out")" = 1
for dev in "$a" "$b"; do
  check "quick A B: a row group for $dev with the hdparm -t, --direct, SEQ1M, RND4K and hdparm -T rows" \
    test "$(grep "^$dev|" "$d/ro.rows" | cut -d'|' -f2 | tr '\n' ,)" = \
    "hdparm -t,hdparm -t --direct,SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T1,RND4K Q1T1,hdparm -T,"
  check "quick A B: $dev's cached-read figure is a number" \
    grep -qE "^$dev\|hdparm -T\|[0-9]+\.[0-9]+\|" "$d/ro.rows"
done
check "quick A B: read rows only (every write cell is '-')" \
  test "$(cut -d'|' -f4 "$d/ro.rows" | sort -u)" = "-"
check "quick A B: every read cell is a figure" \
  test -z "$(cut -d'|' -f3 "$d/ro.rows" | grep -vE '^[0-9]+\.[0-9]+$')"
check "quick A B: image A unchanged" test "$(sha256sum <"$ia")" = "$sa"
check "quick A B: image B unchanged" test "$(sha256sum <"$ib")" = "$sb"

"${q[@]}" "$a" "$b" --allow-destroy="$a" --memory-limit=64m >"$d/rw.out" 2>"$d/rw.err"
check "quick A B --allow-destroy=A: exit 0" test $? -eq 0
table "$d/rw.out" >"$d/rw.rows"
check "quick A B --allow-destroy=A: write figures in A's SEQ1M and RND4K rows" \
  test "$(grep "^$a|[SR][EN][QD]" "$d/rw.rows" | cut -d'|' -f4 | grep -cE '^[0-9]+\.[0-9]+$')" = 4
check "quick A B --allow-destroy=A: no write figure for B" \
  test "$(grep "^$b|" "$d/rw.rows" | cut -d'|' -f4 | sort -u)" = "-"
check "quick A B --allow-destroy=A: image B unchanged" test "$(sha256sum <"$ib")" = "$sb"
check "quick A B --allow-destroy=A: image A written" test "$(sha256sum <"$ia")" != "$sa"
check "quick A B --memory-limit=64m: a memory limit line per device" \
  test "$(grep -c '^Memory limit: 64.0MiB' "$d/rw.out")" = 2

# --repeat on devices: every repetition the whole table, the summary per
# figure, each device's repetitions stored as runs of one group
qr=("$IOBENCH" quick --runtime=100ms --size=8m --no-monitor)
"${qr[@]}" "$a" --allow-destroy="$a" --repeat 2 --drop-caches --db "$d/qr.db" \
  >"$d/rep.out" 2>"$d/rep.err"
check "quick A --repeat 2 --drop-caches: exit 0" test $? -eq 0
check "  two repetitions, each with the whole table (7 rows, write figures in 4)" python3 - "$d/rep.out" <<'PY'
import re, sys
out = open(sys.argv[1]).read()
parts = re.split(r"^repetition (\d)\n", out, flags=re.M)
assert parts[1::2] == ["1", "2"], parts[1::2]
for body in parts[2::2]:
    head, rest = body.split(" write IOPS\n", 1)
    w = head.split("\n")[-1].index("test") - 1
    rows = rest.split("\n\n", 1)[0].split("\n")
    tests = [r[w + 1:w + 21].strip() for r in rows]
    assert tests == ["hdparm -t", "hdparm -t --direct", "SEQ1M Q8T1", "SEQ1M Q1T1",
                     "RND4K Q32T1", "RND4K Q1T1", "hdparm -T"], tests
    assert sum(re.match(r"^\d+\.\d+$", r[w + 35:w + 48].strip()) is not None for r in rows) == 4
PY
check "  the summary: median, CI, CV, min/max and outliers per figure, hdparm -T's too" \
  grep -Eq '^  hdparm-T-cached read bw: median [0-9.]+ KiB/s, .* cv [0-9.]+%, min [0-9.]+, max [0-9.]+, n 2, outliers: ' "$d/rep.out"
check "  caches dropped before each" grep -q '^Repetitions: 2 of 2, caches dropped before each: stop: 2 of 2 repetitions done$' "$d/rep.out"
check "  stored: 2 quick runs in one group" \
  test "$(sqlite3 "$d/qr.db" "SELECT group_concat(kind || ':' || rep_group || ':' || rep_index, ' ') FROM runs")" = "quick:1:0 quick:1:1"
"$IOBENCH" results show 2 --db "$d/qr.db" >"$d/rep2.show"
check "  results show of repetition 2: its table as printed" python3 - "$d/rep.out" "$d/rep2.show" <<'PY'
import sys
out, show = (open(f, "rb").read() for f in sys.argv[1:])
i = out.index(b"\nrepetition 2\n") + 1
assert show.startswith(b"repetition 2\n") and out[i:i + len(show)] == show
assert out[i + len(show):].startswith(b"\nRepetition summary")
PY
"${qr[@]}" "$a" "$b" --repeat 2 --db "$d/qr.db" >"$d/rep2.out" 2>"$d/rep2.err"
check "quick A B --repeat 2: exit 0, two tables" \
  test "$? $(grep -c '^device  *test  *read MB/s' "$d/rep2.out")" = "0 2"
check "  figures named by device" \
  test "$(grep -cE "^  ($a|$b):hdparm-t-direct read bw: median " "$d/rep2.out")" = 2
check "  each device's repetitions a group of their own" \
  test "$(sqlite3 "$d/qr.db" "SELECT group_concat(rep_group || ':' || rep_index, ' ') FROM runs WHERE id > 2")" = "3:0 4:0 3:1 4:1"
check "  image B unchanged" test "$(sha256sum <"$ib")" = "$sb"
"${qr[@]}" "$a" --repeat auto --max-repeat 3 --output-format=json --no-store \
  >"$d/repa.json" 2>"$d/repa.err"
check "quick A --repeat auto --max-repeat 3 --output-format=json: exit 0" test $? -eq 0
check "  JSON: the jobs, the 3 repetitions and the summary under iobench, stopped at the maximum" \
  python3 - "$d/repa.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["jobs"][-1]["jobname"] == "hdparm-T-cached"
r = d["iobench"]
assert [x["repetition"] for x in r["repetitions"]] == [1, 2, 3]
assert all(x["result"]["jobs"][0]["jobname"] == "hdparm-t-buffered" for x in r["repetitions"])
s = r["repeat_summary"]
assert s["mode"] == "auto" and s["stopped_by"] == "max" and s["finished"] == 3
f = {x["name"]: x for x in s["figures"]}
bw = f["1m-read-q8 read bw"]
assert bw["n"] == 3 and bw["min"] <= bw["median"] <= bw["max"]
assert all(k in bw for k in ("ci_lo", "ci_hi", "cv", "outliers"))
PY
check "  the summary on stderr" grep -q '^Repetitions: 3 (--repeat auto:5%, at most 3): ' "$d/repa.err"

# a mounted filesystem: read, never written
mkfs.ext4 -q -F "$b" >/dev/null 2>&1
mnt=$(tmpdir)
mount -o ro "$b" "$mnt" && reg mount "$mnt"
sb=$(sha256sum <"$ib")
"${q[@]}" "$b" >"$d/mnt.out" 2>"$d/mnt.err"
check "quick on a mounted device: exit 0" test $? -eq 0
table "$d/mnt.out" >"$d/mnt.rows"
check "quick on a mounted device: the read rows ran" \
  test "$(cut -d'|' -f3 "$d/mnt.rows" | grep -cE '^[0-9]+\.[0-9]+$')" = 7
check "quick on a mounted device: read only" test "$(cut -d'|' -f4 "$d/mnt.rows" | sort -u)" = "-"
"${q[@]}" "$b" --allow-destroy="$b" >"$d/mntw.out" 2>"$d/mntw.err"
check "quick --allow-destroy on a mounted device: exit 1" test $? -eq 1
check "quick --allow-destroy on a mounted device: refused as mounted" \
  grep -q "refusing to write to '$b': $b is mounted at" "$d/mntw.err"
check "quick on a mounted device: image unchanged" test "$(sha256sum <"$ib")" = "$sb"

"${q[@]}" "$a" "$d" >/dev/null 2>"$d/mix.err"
check "quick DEVICE DIR: exit 1" test $? -eq 1
check "quick DEVICE DIR: says the paths must all be block devices" \
  grep -q "quick measures one directory, or one or more block devices: '$d' is not a block device" "$d/mix.err"
"${q[@]}" "$d" "$mnt" >/dev/null 2>"$d/dirs.err"
check "quick DIR DIR: exit 1" test $? -eq 1
check "quick DIR DIR: refused, naming both" \
  grep -q "quick takes one directory, or one or more block devices; got 2 paths ('$d', '$mnt')" "$d/dirs.err"
"${q[@]}" "$a" --output-format=json >"$d/one.json" 2>/dev/null
check "quick DEVICE --output-format=json: the jobs, hdparm -T's last" \
  test "$(json_get "$d/one.json" '",".join(j["jobname"] for j in d["jobs"])')" = \
  "hdparm-t-buffered,hdparm-t-direct,1m-read-q8,1m-read-q1,4k-randread-q32,4k-randread-q1,hdparm-T-cached"
check "quick DEVICE --output-format=json: the cached reads moved bytes" \
  test "$(json_get "$d/one.json" 'd["jobs"][-1]["read"]["io_bytes"] > 0')" = True
"${q[@]}" "$a" "$b" --output-format=json >/dev/null 2>"$d/j2.err"
rc=$?
check "quick A B --output-format=json: refused (one device per JSON report), exit 1" \
  test "$rc $(grep -c "takes one device" "$d/j2.err")" = "1 1"
finish
