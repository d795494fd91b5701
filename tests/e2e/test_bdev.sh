#!/usr/bin/env bash
# Raw block devices: reads work (sync engines, buffered and direct), each
# pass of a buffered read reads the device again (as fio), writes
# pass the device guard (a blank device is written, one with a filesystem is
# refused before any I/O), and disk statistics name the loop device behind a
# file on a loop-mounted filesystem.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
loop=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
for eng in sync psync vsync pvsync pvsync2; do
  "$IOBENCH" run --name=r --ioengine=$eng --rw=randread --bs=4k --size=8m --direct=1 \
    --filename="$loop" --output-format=json >"$d/r.json" 2>"$d/r.err"; rc=$?
  got=$(io_kbytes_rwt "$d/r.json")
  check "$eng: direct randread of a loop device: exit 0, 8192 KiB read, nothing written (${got:-no JSON})" \
    bash -c "[ $rc -eq 0 ] && [ '$got' = 8192/0/0 ]"
done
# buffered reads of a device with loops=3: the device's cache is dropped on
# every pass (BLKFLSBUF, as fio), so each pass reads the device again
rsect() { awk '{print $3}' "/sys/block/$(basename "$loop")/stat"; }
bdread() { # TOOL LOOPS -> 512-byte sectors the device read
  local a; a=$(rsect)
  if [ "$1" = fio ]; then
    fio --output=/dev/null --name=r --filename="$loop" --rw=read --bs=64k --size=16m --loops=$2
  else
    "$IOBENCH" run --output=/dev/null --name=r --filename="$loop" --rw=read --bs=64k --size=16m \
      --loops=$2 2>/dev/null
  fi
  echo $(( $(rsect) - a ))
}
one=$(bdread iobench 1); three=$(bdread iobench 3)
echo "# device sectors read: loops=1 $one, loops=3 $three"
check "buffered read of a device, loops=1: the device reads the pass (16 MiB)" test "$one" -ge 32768
check "buffered read of a device, loops=3: the device reads every pass (>= 2.5x one)" \
  test $((three * 10)) -ge $((one * 25))
if command -v fio >/dev/null; then
  f3=$(bdread fio 3)
  echo "# fio loops=3: $f3 sectors"
  check "loops=3 device reads match fio 3.33's (iobench $three, fio $f3 sectors, within 20%)" \
    test $((three * 10)) -ge $((f3 * 8)) -a $((three * 10)) -le $((f3 * 12))
else
  not_ok "fio is installed (needed to compare device reads)"
fi
# the device guard (test_guard.sh tests it fully): a blank, unused device
# may be written; once it carries a filesystem it is refused, untouched
before=$(md5sum <"$loop")
"$IOBENCH" run --name=w --rw=write --bs=4k --size=1m --filename="$loop" >"$d/w.out" 2>"$d/w.err"
rc=$?
check "write to a blank unused block device: exit 0" test $rc -eq 0
check "write to a blank unused block device: bytes written" test "$(md5sum <"$loop")" != "$before"
mkfs.ext4 -q -F "$loop" >/dev/null 2>&1
before=$(md5sum <"$loop")
"$IOBENCH" run --name=w --rw=write --bs=4k --size=1m --filename="$loop" >"$d/w.out" 2>"$d/w.err"
rc=$?
check "write to a block device with ext4: exit 1" test $rc -eq 1
check "write to a block device with ext4: clear refusal" \
  grep -qF "refusing to write to '$loop': ext4 signature found" "$d/w.err"
check "write to a block device with ext4: device unchanged" test "$(md5sum <"$loop")" = "$before"

mnt=$(mkfs_mount ext4 128M) || { not_ok "mount ext4 on loop"; finish; }
dev=$(findmnt -n -o SOURCE "$mnt"); dev=${dev#/dev/}
"$IOBENCH" run --name=ds --rw=write --bs=64k --size=16m --direct=1 --filename="$mnt/ds.dat" \
  --output-format=json >"$d/ds.json" 2>/dev/null
check "disk_util names $dev" test "$(json_get "$d/ds.json" '[x["name"] for x in d["disk_util"]][0]')" = "$dev"
check "disk_util counts the writes" test "$(json_get "$d/ds.json" 'd["disk_util"][0]["write_ios"] >= 256')" = True
finish
