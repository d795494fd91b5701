#!/usr/bin/env bash
# The device guard's rules that test_guard.sh and test_guard_shared.sh do
# not reach, on loop devices made here (no other device is touched): a
# partition whose whole disk is mounted; a device claimed by an exclusive
# open and nothing else (with and without --allow-destroy); a holder that
# is mounted (the message follows the chain); a device named through
# /proc/self/fd; --allow-destroy naming a partition does not allow its
# whole disk, and a value that is not a block device is refused; a
# partition that cannot be probed counts as data; bonnie --readonly; and a
# loop device that cannot be examined, a mount table that cannot be read
# and a chain of loop devices too deep to follow refuse the write (fail
# closed). A device claimed through another device
# that shares its storage is named too.
# Every refusal: exit 1, the message, and the image's sha256 unchanged.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

sha() { sha256sum <"$1" | cut -d' ' -f1; }
attach() {
  local dev i
  for i in 1 2 3; do
    dev=$(losetup -f --show "$@" 2>>"$d/setup.err") && { reg loop "$dev"; echo "$dev"; return 0; }
    sleep 0.2
  done
  return 1
}
mnt() { local m; m=$(tmpdir); reg mount "$m"; mount -o "${2:-ro}" "$1" "$m" 2>>"$d/setup.err" || return 1; echo "$m"; }
setup_failed() { not_ok "$1 ($(tail -3 "$d/setup.err" | tr '\n' ' '))"; finish; }
says() { if grep -qF -- "$2" "$d/err"; then ok "$1: message says '$2'"; else not_ok "$1: message says '$2' (got: $(tail -1 "$d/err"))"; fi; }
mkfs4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" >/dev/null 2>>"$d/setup.err"; }
# img NAME SIZE: a sparse image in $d; prints its path
img() { truncate -s "$2" "$d/$1" && echo "$d/$1"; }

# refused DESC DEV FILE TEXT [IOBENCH ARGS...]: a 1 MiB write to DEV (or
# to what the extra arguments name) exits 1 saying TEXT; FILE's sha256 is
# unchanged
refused() {
  local desc=$1 dev=$2 file=$3 text=$4 before rc; shift 4
  sync "$dev"; before=$(sha "$file")
  "$IOBENCH" run --name=w --rw=write --size=1m --filename="$dev" "$@" >"$d/out" 2>"$d/err"; rc=$?
  check "$desc: exit 1" test $rc -eq 1
  says "$desc" "$text"
  sync "$dev"
  check "$desc: sha256 of the image unchanged" test "$(sha "$file")" = "$before"
}

# mbr DEV START SECTORS: a dos partition table with one Linux partition
mbr() {
  python3 - "$@" <<'EOF'
import struct, sys, os
fd = os.open(sys.argv[1], os.O_RDWR)
mbr = bytearray(512)
mbr[446 + 4] = 0x83
mbr[446 + 8:446 + 16] = struct.pack('<II', int(sys.argv[2]), int(sys.argv[3]))
mbr[510:512] = b'\x55\xaa'
os.pwrite(fd, bytes(mbr), 0)
os.fsync(fd)
EOF
}
# part1 DEV: the kernel's partition 1 of DEV (added by hand: loop devices
# made by losetup -f do not scan partitions)
part1() {
  reg part "$1"
  partx --add "$1" 2>>"$d/setup.err"
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "${1}p1" ] && return 0; sleep 0.1; done
  return 1
}

# 1. a partition whose whole disk is mounted (ext4 on the whole device
# leaves sector 0 alone, so a partition table fits there too)
wd=$(attach "$(img wd.img 16M)") || setup_failed "attach"
mkfs4 -L whole "$wd" && mbr "$wd" 8192 8192 && part1 "$wd" || setup_failed "ext4 and a partition on $wd"
wm=$(mnt "$wd" ro,noload) || setup_failed "mount $wd"
refused "partition of a mounted whole disk" "${wd}p1" "$d/wd.img" "whole disk $wd is mounted at $wm"
refused "partition of a mounted whole disk, with --allow-destroy" "${wd}p1" "$d/wd.img" \
  "a device in use is never written to, even with --allow-destroy: first unmount it" --allow-destroy="${wd}p1"

# 2. claimed by an exclusive open and nothing else
bl=$(attach "$(img bl.img 8M)") && bl2=$(attach "$d/bl.img") || setup_failed "attach twice"
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(30)' "$bl" >"$d/hold.out" 2>&1 &
hold=$!
for _ in $(seq 50); do grep -q held "$d/hold.out" && break; sleep 0.1; done
if grep -q held "$d/hold.out"; then
  refused "claimed by an exclusive open" "$bl" "$d/bl.img" "$bl is busy: the kernel has it claimed"
  refused "claimed by an exclusive open, with --allow-destroy" "$bl" "$d/bl.img" \
    "even with --allow-destroy: first release it" --allow-destroy="$bl"
  refused "another loop device over the image of a claimed one" "$bl2" "$d/bl.img" \
    "$bl2 shares its storage with $bl (same backing file $d/bl.img, offset 0), which is busy: the kernel has it claimed"
else
  not_ok "hold $bl with O_EXCL ($(cat "$d/hold.out"))"
fi
kill "$hold" 2>/dev/null; wait "$hold" 2>/dev/null
"$IOBENCH" run --name=w --rw=write --size=1m --filename="$bl" >"$d/out" 2>"$d/err"
check "released: the write works" test $? -eq 0

# 3. a holder that is mounted: the chain is followed to the mount
hl=$(attach "$(img hl.img 16M)") || setup_failed "attach"
dmname=iobench-rules-$$
reg dm "$dmname"
if dmsetup create "$dmname" --table "0 $(blockdev --getsz "$hl") linear $hl 0" 2>/dev/null; then
  mkfs4 "/dev/mapper/$dmname"
  if hm=$(mnt "/dev/mapper/$dmname"); then
    refused "held by a mounted device-mapper target" "$hl" "$d/hl.img" "$hl is held by dm-"
    says "held, mounted" "($dmname), which is mounted at $hm"
    says "held, mounted" "first stop what holds it"
    umount "$hm"
  else
    not_ok "mount the device-mapper target"
  fi
  dmsetup remove "$dmname"
else
  need_cmd dmsetup dmsetup && skip_check "held by a mounted device-mapper target" "no device-mapper in this kernel"
fi

# 4. named through /proc/self/fd (iobench's own descriptor 9, inherited)
fd_dev=$(attach "$(img fd.img 16M)") || setup_failed "attach"
mkfs4 "$fd_dev"; fm=$(mnt "$fd_dev") || setup_failed "mount $fd_dev"
refused "/proc/self/fd/9 open on a mounted device" /proc/self/fd/9 "$d/fd.img" \
  "it is $fd_dev: $fd_dev is mounted at $fm" 9<"$fd_dev"

# 5. --allow-destroy names one device: not the whole disk through its
# partition; and every value must be a block device
pt=$(attach "$(img pt.img 16M)") || setup_failed "attach"
mbr "$pt" 2048 8192 && part1 "$pt" || setup_failed "partition $pt"
refused "--allow-destroy naming the partition, writing the disk" "$pt" "$d/pt.img" \
  "partition table (dos) found; to destroy its contents anyway, add --allow-destroy=$pt" --allow-destroy="${pt}p1"
refused "--allow-destroy naming a missing path" "$pt" "$d/pt.img" \
  "--allow-destroy='$d/none': No such file or directory" --allow-destroy="$d/none"
refused "--allow-destroy naming a regular file" "$pt" "$d/pt.img" \
  "--allow-destroy='$d/pt.img' is not a block device" --allow-destroy="$d/pt.img"

# 6. a partition that cannot be probed counts as data (fail closed)
rm -f "${pt}p1"
refused "a partition whose node is gone" "$pt" "$d/pt.img" \
  "partition ${pt}p1 cannot be probed for signatures: No such file or directory"
says "a partition whose node is gone" "add --allow-destroy=$pt"

# 7. bonnie --readonly refuses before anything is written
mkdir "$d/bon"
"$IOBENCH" bonnie --readonly -d "$d/bon" -u root -s 0 -n 1 >"$d/out" 2>"$d/err"
check "bonnie --readonly: exit 1" test $? -eq 1
says "bonnie --readonly" "read-only mode"
check "bonnie --readonly: nothing created in -d" test -z "$(ls -A "$d/bon")"

# 8. a loop device that cannot be examined refuses the write: as nobody,
# /dev/loopN of the second attachment cannot be opened for the ioctl and
# its backing file (in a 0700 directory) cannot be stat()ed
mkdir -m 700 "$d/priv"
truncate -s 8M "$d/priv/disk.img"
na=$(attach "$d/priv/disk.img") && nb=$(attach "$d/priv/disk.img") || setup_failed "attach twice"
mode=$(stat -c %a "$na")
trap 'chmod "$mode" "$na" 2>/dev/null; cleanup' EXIT
chmod 600 "$nb"; chmod 666 "$na"
if setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IOBENCH"; then
  before=$(sha "$d/priv/disk.img")
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$IOBENCH" run --no-store --name=w --rw=write --size=1m --filename="$na" >"$d/out" 2>"$d/err"
  check "a loop device that cannot be examined: exit 1" test $? -eq 1
  says "cannot be examined" "$na: cannot check whether it is in use: loop device /dev/loop"
  says "cannot be examined" "cannot be examined: Permission denied"
  check "cannot be examined: sha256 of the image unchanged" test "$(sha "$d/priv/disk.img")" = "$before"
else
  skip_check "a loop device that cannot be examined (as nobody)" "user nobody cannot run $IOBENCH here (a folder above it is closed to others)"
fi
chmod "$mode" "$na"

# 9. the mount table cannot be read (a mount namespace with /proc hidden)
if unshare -m true 2>/dev/null; then
  before=$(sha "$d/bl.img")
  unshare -m sh -c 'mount -t tmpfs none /proc && exec "$@"' sh \
    "$IOBENCH" run --name=w --rw=write --size=1m --filename="$bl" >"$d/out" 2>"$d/err"
  check "no mount table: exit 1" test $? -eq 1
  says "no mount table" "$bl: cannot check whether it is in use: cannot read /proc/self/mountinfo"
  check "no mount table: sha256 of the image unchanged" test "$(sha "$d/bl.img")" = "$before"
else
  skip_check "no mount table (a mount namespace)" "no mount namespaces here (unshare -m fails)"
fi

# 10. a chain of loop devices over loop devices: eight above the device are
# followed; a ninth is refused rather than left unexamined (fail closed)
c0=$(attach "$(img chain.img 8M)") || setup_failed "attach"
top=$c0
for _ in 1 2 3 4 5 6 7 8; do top=$(attach "$top") || setup_failed "attach a loop over $top"; done
"$IOBENCH" run --name=w --rw=write --size=1m --filename="$c0" >"$d/out" 2>"$d/err"
check "eight loop devices stacked over an unused device: the write works" test $? -eq 0
top=$(attach "$top") || setup_failed "attach a ninth loop device"
refused "nine loop devices stacked over the device" "$c0" "$d/chain.img" \
  "$c0: cannot check whether it is in use: more than 8 devices share its storage in a chain"
finish
