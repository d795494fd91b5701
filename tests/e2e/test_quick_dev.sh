#!/usr/bin/env bash
# `iobench quick` on block devices: two loop devices with data print one
# table with a row group per device (hdparm -t buffered and --direct, the
# SEQ1M and RND4K read rows, hdparm -T's cached reads) and are left
# unchanged (sha256 of their images); --allow-destroy=A adds A's write rows
# only (A changes, B does not); a device with a mounted filesystem is read
# as well and never written (even when --allow-destroy names it: refused);
# a directory among devices, or a second directory, is refused; one device in JSON carries the
# cached-read job; --memory-limit works on a device.
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
