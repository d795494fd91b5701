#!/usr/bin/env bash
# The device guard, on loop devices made here (no other device is touched):
# writes are refused, with exit 1, a message naming the device and what was
# found, and the device's bytes unchanged, when the device is mounted, when
# its partition is mounted, when it carries an ext4 signature or only a
# partition table, when it is named through a symlink (and /dev/disk/by-*
# where udev made one), when it is active swap, and when another device
# holds it (device-mapper, where the kernel has it). --allow-destroy naming
# the device lets the write happen (the bytes change); naming another device
# does not; a device in use stays refused even when named. --readonly and
# readonly=1 refuse writes to a regular file too, and reads of a mounted
# device still work.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

sum() { md5sum <"$1" | cut -d' ' -f1; }

# refused DESC DEVICE EXPECTED_TEXT IOBENCH_ARGS...: a 1 MiB write through
# IOBENCH_ARGS must exit 1, say EXPECTED_TEXT and leave DEVICE unchanged.
refused() {
  local desc=$1 dev=$2 text=$3 before rc; shift 3
  before=$(sum "$dev")
  "$IOBENCH" run "$@" >"$d/out" 2>"$d/err"; rc=$?
  check "$desc: exit 1" test $rc -eq 1
  check "$desc: message names $dev" grep -qF -- "$dev" "$d/err"
  if grep -qF -- "$text" "$d/err"; then ok "$desc: message says '$text'"
  else not_ok "$desc: message says '$text' (got: $(tail -1 "$d/err"))"; fi
  check "$desc: $dev unchanged" test "$(sum "$dev")" = "$before"
}

# write FILENAME [EXTRA ARGS]: the iobench arguments of a 1 MiB write
wjob() { local f=$1; shift; echo "$@" --name=w --rw=write --bs=64k --size=1m --filename="$f"; }

# part1 LOOP: a one-partition dos table, and the kernel's partition 1 (added
# by hand when this kernel does not read partition tables of loop devices)
part1() {
  local dev=$1
  if command -v sfdisk >/dev/null; then
    echo 'start=2048, type=83' | sfdisk -q "$dev" >/dev/null 2>&1 || return 1
  else
    python3 - "$dev" <<'EOF' || return 1
import struct, sys, os
fd = os.open(sys.argv[1], os.O_RDWR)
size = os.lseek(fd, 0, os.SEEK_END) // 512
mbr = bytearray(512)
mbr[446 + 4] = 0x83
mbr[446 + 8:446 + 16] = struct.pack('<II', 2048, size - 2048)
mbr[510:512] = b'\x55\xaa'
os.pwrite(fd, bytes(mbr), 0)
os.fsync(fd)
os.close(fd)
EOF
  fi
  reg part "$dev"
  blockdev --rereadpt "$dev" 2>/dev/null
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "${dev}p1" ] && return 0; sleep 0.1; done
  partx --add "$dev" 2>/dev/null
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "${dev}p1" ] && return 0; sleep 0.1; done
  return 1
}

# mount_ro DEV: mount DEV's filesystem read-only (so the filesystem itself
# does not change the bytes the checks compare); prints the mount point
mount_ro() {
  local m; m=$(tmpdir)
  reg mount "$m"
  mount -o ro "$1" "$m" || return 1
  echo "$m"
}

# 1. a mounted device; reads of it still work
mdev=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
mkfs.ext4 -q -F -L guardm "$mdev" >/dev/null 2>&1
mnt=$(mount_ro "$mdev") || { not_ok "mount ext4 on a loop"; finish; }
refused "mounted device" "$mdev" "$mdev is mounted at $mnt" $(wjob "$mdev")
refused "mounted device, even with --allow-destroy naming it" "$mdev" \
  "never written to, even with --allow-destroy: first unmount it" $(wjob "$mdev" --allow-destroy="$mdev")
"$IOBENCH" run --name=r --rw=read --bs=64k --size=4m --filename="$mdev" --output-format=json \
  >"$d/r.json" 2>"$d/r.err"
check "mounted device: reads still work" \
  test "$(json_get "$d/r.json" 'd["jobs"][0]["read"]["io_kbytes"]' 2>/dev/null)" = 4096

# 2. a device whose partition is mounted
pl=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
if part1 "$pl"; then
  mkfs.ext4 -q -F -L guardp "${pl}p1" >/dev/null 2>&1
  if pm=$(mount_ro "${pl}p1"); then
    refused "partition mounted" "$pl" "partition ${pl}p1 is mounted at $pm" $(wjob "$pl")
    refused "mounted partition itself" "${pl}p1" "${pl}p1 is mounted at $pm" $(wjob "${pl}p1")
    umount "$pm"
  else
    not_ok "mount a partition of a loop device"
  fi
  # the partition table and the partition's filesystem, unmounted
  refused "partition with ext4" "$pl" "partition ${pl}p1: ext4 signature found, label 'guardp'" $(wjob "$pl")
else
  not_ok "partition a loop device (sfdisk or an MBR, then partx --add)"
fi

# 3. a partition table only (no partition known to the kernel)
tl=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
python3 - "$tl" <<'EOF' || not_ok "write an MBR partition table onto $tl (python exited $?)"
import struct, sys, os
fd = os.open(sys.argv[1], os.O_RDWR)
mbr = bytearray(512)
mbr[446 + 4] = 0x83
mbr[446 + 8:446 + 16] = struct.pack('<II', 2048, 4096)
mbr[510:512] = b'\x55\xaa'
os.pwrite(fd, bytes(mbr), 0)
os.fsync(fd)
EOF
if [ -b "${tl}p1" ]; then
  echo "# note: this kernel read the partition table of $tl itself"
fi
refused "partition table only" "$tl" "partition table (dos) found" $(wjob "$tl")

# 4. an ext4 signature (not mounted), by name and through symlinks
el=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
mkfs.ext4 -q -F -L guard "$el" >/dev/null 2>&1
refused "ext4 signature" "$el" "ext4 signature found, label 'guard'" $(wjob "$el")
ln -s "$el" "$d/link"
refused "symlink to a device" "$el" "it is $el: ext4 signature found, label 'guard'" $(wjob "$d/link")
byid=
for l in /dev/disk/by-*/*; do
  [ -L "$l" ] && [ "$(readlink -f "$l")" = "$el" ] && { byid=$l; break; }
done
if [ -n "$byid" ]; then
  refused "$byid" "$el" "it is $el: ext4 signature found" $(wjob "$byid")
else
  skip_check "a /dev/disk/by-* link to the device" "no udev here to make one (the symlink case above covers the rule)"
fi

# 5. --allow-destroy: naming another device does not help; naming it (or a
# symlink to it) lets the write happen
other=$(mkloop 16M) || { not_ok "create a loop device"; finish; }
refused "--allow-destroy naming another device" "$el" "add --allow-destroy=$el" \
  $(wjob "$el" --allow-destroy="$other")
if [ -b "${pl}p1" ]; then
  refused "--allow-destroy naming a partition's disk" "${pl}p1" "add --allow-destroy=${pl}p1" \
    $(wjob "${pl}p1" --allow-destroy="$pl")
fi
before=$(sum "$el")
"$IOBENCH" run $(wjob "$el" --allow-destroy="$d/link") --output-format=json >"$d/a.json" 2>"$d/a.err"
rc=$?
check "--allow-destroy through a symlink to it: exit 0" test $rc -eq 0
check "--allow-destroy: 1 MiB written" test "$(json_get "$d/a.json" 'd["jobs"][0]["write"]["io_kbytes"]' 2>/dev/null)" = 1024
check "--allow-destroy: the device's bytes changed" test "$(sum "$el")" != "$before"
check "--allow-destroy: the ext4 signature is gone" test -z "$(blkid -p -o value -s TYPE "$el" 2>/dev/null)"
"$IOBENCH" run $(wjob "$el") >"$d/b.out" 2>"$d/b.err"
check "an unused device without signatures: writes work without --allow-destroy" test $? -eq 0

# 6. swap
sl=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
mkswap -q "$sl" >/dev/null 2>&1
reg swap "$sl"
if swapon "$sl" 2>"$d/swapon.err"; then
  refused "swap" "$sl" "$sl is used as swap" $(wjob "$sl")
  refused "swap, even with --allow-destroy" "$sl" "first swapoff it" $(wjob "$sl" --allow-destroy="$sl")
  swapoff "$sl"
else
  skip_check "an active swap device" "this kernel refused swapon $sl: $(cat "$d/swapon.err")"
fi
refused "swap signature (after swapoff)" "$sl" "swap signature found" $(wjob "$sl")

# 7. held by another device (device-mapper), when the kernel has it
hl=$(mkloop 16M) || { not_ok "create a loop device"; finish; }
dmname=iobench-guard-$$
reg dm "$dmname"
if dmsetup create "$dmname" --table "0 $(blockdev --getsz "$hl") linear $hl 0" 2>/dev/null; then
  refused "held by device-mapper" "$hl" "$hl is held by dm-" $(wjob "$hl")
  dmsetup remove "$dmname"
else
  need_cmd dmsetup dmsetup && skip_check "held by another device (device-mapper)" "no device-mapper in this kernel"
fi

# 8. read-only mode refuses writes to a regular file too
echo data >"$d/file"
before=$(sum "$d/file")
"$IOBENCH" run --readonly --name=w --rw=write --bs=4k --size=64k --filename="$d/file" >"$d/ro.out" 2>"$d/ro.err"
rc=$?
check "--readonly: exit 1" test $rc -eq 1
check "--readonly: message names the job and the mode" \
  grep -qF "job 'w' writes or trims, but read-only mode (--readonly) forbids" "$d/ro.err"
check "--readonly: the file is unchanged" test "$(sum "$d/file")" = "$before"
printf '[w]\nreadonly=1\nrw=randwrite\nbs=4k\nsize=64k\nfilename=%s\n' "$d/file" >"$d/ro.fio"
"$IOBENCH" run "$d/ro.fio" >"$d/ro2.out" 2>"$d/ro2.err"
rc=$?
check "readonly=1: exit 1" test $rc -eq 1
check "readonly=1: message names the job and the option" \
  grep -qF "job 'w' writes or trims, but read-only mode (readonly=1) forbids" "$d/ro2.err"
check "readonly=1: the file is unchanged" test "$(sum "$d/file")" = "$before"
"$IOBENCH" run --readonly --name=r --rw=read --bs=4k --size=64k --filename="$d/new" >"$d/ro3.out" 2>"$d/ro3.err"
check "--readonly: a read job that would lay out a new file is refused" test $? -eq 1
check "--readonly: and the file is not created" test ! -e "$d/new"
"$IOBENCH" run --readonly --name=r --rw=read --bs=4k --size=4m --filename="$el" >"$d/ro4.out" 2>"$d/ro4.err"
check "--readonly: reading a device still works" test $? -eq 0
finish
