#!/usr/bin/env bash
# The device guard and storage shared between devices, on loop devices and
# images made here (no other device is touched). Each refusal is checked
# without and with --allow-destroy naming the device: exit 1, a message
# naming what shares the storage and where it is mounted, and the sha256 of
# the image the write would have reached unchanged:
#   - an image attached twice, one mounted (also through a hard link);
#   - an image attached at 0 while attached at 1 MiB and mounted (no
#     signature at 0: only the new rule sees it), also for trim and a
#     second attachment at 1 MiB;
#   - a stacked loop device: loop X with ext4, an image on it attached as Y
#     and mounted: writing X, and writing Y's sibling (another loop over the
#     same image); X after a lazy umount; X with Y attached but unmounted;
#   - a loop device over a block device: writing that device while the
#     loop over it is mounted, and a second loop over the same device (and
#     the device is written once that loop device is unmounted);
#   - a loop device over an active swap file;
#   - an image on btrfs (anonymous device numbers) attached as a loop device;
#   - an erofs image mounted straight from its file: a loop device over it,
#     and the device holding it;
#   - bonnie -d on such a device is refused (not a directory), image unchanged.
# Negative controls: a loop over a copy of a mounted image (same file name,
# same bytes, another inode; its file on a mounted filesystem) and a loop
# over an image attached twice with neither in use are written.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

# sha FILE [BYTES]: sha256 of FILE (of its first BYTES); sync DEV first to
# see a write through DEV (fsync, not a whole-machine sync: the machine is
# shared)
sha() { if [ -n "${2:-}" ]; then head -c "$2" "$1"; else cat "$1"; fi | sha256sum | cut -d' ' -f1; }
# attach ARGS...: losetup -f --show ARGS, removed by cleanup (errors of the
# setup steps go to $d/setup.err, which setup_failed shows)
# (retried: another process on the machine may take the free device first)
attach() {
  local dev i
  for i in 1 2 3; do
    dev=$(losetup -f --show "$@" 2>>"$d/setup.err") && { reg loop "$dev"; echo "$dev"; return 0; }
    sleep 0.2
  done
  return 1
}
# mnt DEV [OPTS]: mount DEV on a fresh directory (read-only by default, so
# the filesystem itself does not change the bytes compared); prints it
mnt() { local m; m=$(tmpdir); reg mount "$m"; mount -o "${2:-ro}" "$1" "$m" 2>>"$d/setup.err" || return 1; echo "$m"; }
setup_failed() { not_ok "$1 ($(tail -3 "$d/setup.err" | tr '\n' ' '))"; finish; }
says() { if grep -qF -- "$2" "$d/err"; then ok "$1: message says '$2'"; else not_ok "$1: message says '$2' (got: $(tail -1 "$d/err"))"; fi; }
lacks() { if grep -qF -- "$2" "$d/err"; then not_ok "$1: message does not say '$2' (got: $(tail -1 "$d/err"))"; else ok "$1: message does not say '$2'"; fi; }
mkfs4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" >/dev/null 2>>"$d/setup.err"; }

# refused DESC DEV FILE TEXT [RW] [BYTES]: `iobench run --rw=RW` (write) of
# 1 MiB to DEV, without and with --allow-destroy=DEV, exits 1 saying TEXT
# and that a device in use is never written to, and FILE's sha256 (of its
# first BYTES) after both is what it was before.
refused() {
  local desc=$1 dev=$2 file=$3 text=$4 rw=${5:-write} bytes=${6:-} before rc allow what
  sync "$dev"; before=$(sha "$file" "$bytes")
  for allow in "" "--allow-destroy=$dev"; do
    what="$desc${allow:+, with $allow}"
    "$IOBENCH" run --name=w --rw="$rw" --size=1m --filename="$dev" $allow >"$d/out" 2>"$d/err"; rc=$?
    check "$what: exit 1" test $rc -eq 1
    says "$what" "$text"
    says "$what" "a device in use is never written to, even with --allow-destroy"
  done
  sync "$dev"
  check "$desc: sha256 of $(basename "$file") unchanged by both" test "$(sha "$file" "$bytes")" = "$before"
}

# passes DESC DEV FILE [ARGS]: a 1 MiB write to DEV exits 0 and changes FILE
passes() {
  local desc=$1 dev=$2 file=$3 before rc; shift 3
  sync "$dev"; before=$(sha "$file")
  "$IOBENCH" run --name=w --rw=write --size=1m --filename="$dev" "$@" >"$d/out" 2>"$d/err"; rc=$?
  check "$desc: exit 0" test $rc -eq 0
  sync "$dev"
  check "$desc: the image changed" test "$(sha "$file")" != "$before"
}

# 1. the image attached twice, one mounted
mkdir "$d/one"; i1=$d/one/disk.img
truncate -s 8M "$i1"; mkfs4 -L shared "$i1"
a1=$(attach "$i1") && b1=$(attach "$i1") && m1=$(mnt "$b1") || setup_failed "attach an image twice and mount it"
refused "image attached twice, one mounted" "$a1" "$i1" \
  "$a1 shares its storage with $b1 (same backing file $i1, offset 0), which is mounted at $m1"
ln "$i1" "$d/one/link.img"
c1=$(attach "$d/one/link.img") || setup_failed "attach a hard link of the image"
refused "the same image through a hard link (compared by inode)" "$c1" "$i1" \
  "$c1 shares its storage with $b1 (same backing file $i1, offset 0), which is mounted at $m1"
# bonnie needs a directory: a device is refused before the guard is asked
before=$(sha "$i1")
for allow in "" "--allow-destroy=$a1"; do
  "$IOBENCH" bonnie -d "$a1" -u root -s 0 -n 1 $allow >"$d/out" 2>"$d/err"; rc=$?
  check "bonnie -d $a1${allow:+ $allow}: exit 1" test $rc -eq 1
  says "bonnie -d $a1${allow:+ $allow}" "not a directory"
done
sync "$a1"
check "bonnie: sha256 of the image unchanged" test "$(sha "$i1")" = "$before"

# 2. attached at 1 MiB and mounted; attached at 0 (no signature there) and
# a second time at 1 MiB
mkdir "$d/two"; i2=$d/two/disk.img
truncate -s 8M "$i2"
b2=$(attach -o 1048576 "$i2") && mkfs4 -L inner "$b2" && m2=$(mnt "$b2") &&
  a2=$(attach "$i2") && c2=$(attach -o 1048576 "$i2") || setup_failed "attach an image at 1 MiB and at 0"
check "offset: nothing at offset 0 for libblkid (only the new rule sees it)" \
  test -z "$(blkid -p -o value -s TYPE "$a2" 2>/dev/null)"
refused "attached at 0 while attached at 1 MiB and mounted" "$a2" "$i2" \
  "$a2 shares its storage with $b2 (same backing file $i2, offset 1048576), which is mounted at $m2"
lacks "attached at 0" "signature found"
refused "trim, attached at 0 while attached at 1 MiB and mounted" "$a2" "$i2" \
  "$a2 shares its storage with $b2 (same backing file $i2, offset 1048576), which is mounted at $m2" trim
says "trim" "refusing to trim '$a2'"
refused "a second attachment at 1 MiB" "$c2" "$i2" \
  "$c2 shares its storage with $b2 (same backing file $i2, offset 1048576), which is mounted at $m2"

# 3. stacked: loop X with ext4, an image on it attached as Y and mounted
mkdir "$d/three"; xi=$d/three/disk.img
truncate -s 32M "$xi"
x=$(attach "$xi") && mkfs4 "$x" && mx=$(mnt "$x" noatime) || setup_failed "make loop X with ext4"
yi=$mx/y.img
truncate -s 8M "$yi"; mkfs4 -L stacked "$yi"
y=$(attach -r "$yi") && my=$(mnt "$y") && y2=$(attach "$yi") || setup_failed "attach an image on X as Y and mount it"
refused "Y's sibling (another loop over Y's image)" "$y2" "$yi" \
  "$y2 shares its storage with $y (same backing file $yi, offset 0), which is mounted at $my"
losetup -d "$y2"
# X's own filesystem read-only from here, so X's bytes stay as they are (Y
# is read-only, so the remount is allowed)
mount -o remount,ro "$mx" || setup_failed "remount X's filesystem read-only"
refused "X, under the mounted Y" "$x" "$xi" \
  "$x holds the filesystem of $yi, the backing file of $y, which is mounted at $my"
says "X" "$x is mounted at $mx"
umount -l "$mx"
refused "X, its filesystem lazily unmounted (alive through Y)" "$x" "$xi" \
  "the backing file of $y, which is mounted at $my"
says "X, lazily unmounted" "$x holds the filesystem of "
lacks "X, lazily unmounted" "is busy"
umount "$my"
refused "X, Y attached but not mounted (Y keeps X's filesystem in use)" "$x" "$xi" \
  "the backing file of $y; "
says "X, Y not mounted" "first detach the loop devices backed by files on it"

# 4. a loop device over a block device
mkdir "$d/four"; bi=$d/four/disk.img
truncate -s 8M "$bi"
b=$(attach "$bi") && z=$(attach "$b") && mkfs4 -L overdev "$z" && mz=$(mnt "$z") &&
  z2=$(attach "$b") || setup_failed "attach a loop device over a loop device"
refused "the backing device of a mounted loop device" "$b" "$bi" \
  "$b is the backing device of $z, which is mounted at $mz"
refused "another loop device over that device" "$z2" "$bi" \
  "$z2 is backed by $b, which is the backing device of $z, which is mounted at $mz"
umount "$mz"
passes "the backing device of an unmounted loop device (not in use: a view of its bytes)" \
  "$b" "$bi" --allow-destroy="$b"

# 5. a loop device over an active swap file (only its header is compared:
# the kernel may swap pages out to the rest)
mkdir "$d/five"; truncate -s 16M "$d/five/disk.img"
w=$(attach "$d/five/disk.img") && mkfs4 "$w" && mw=$(mnt "$w" noatime) || setup_failed "make a filesystem for a swap file"
dd if=/dev/zero of="$mw/swapfile" bs=1M count=4 status=none; chmod 600 "$mw/swapfile"
mkswap -q "$mw/swapfile" >/dev/null 2>&1
reg swap "$mw/swapfile"
if swapon "$mw/swapfile" 2>"$d/swapon.err"; then
  s=$(attach "$mw/swapfile") || setup_failed "attach a loop device over a swap file"
  refused "a loop device over an active swap file" "$s" "$mw/swapfile" \
    "$s is backed by $mw/swapfile, which is used as swap" write 4096
  says "swap file" "first swapoff its backing file"
else
  skip_check "a loop device over an active swap file" "this kernel refused swapon of a file on ext4: $(cat "$d/swapon.err")"
fi

# 6. btrfs: files carry the subvolume's anonymous device number
if need_cmd mkfs.btrfs btrfs-progs; then
  mkdir "$d/six"; ti=$d/six/disk.img
  truncate -s 32M "$ti"
  t=$(attach "$ti") && mkfs.btrfs -q -f --mixed "$t" >/dev/null 2>&1 && mt=$(mnt "$t" rw) ||
    { not_ok "make btrfs on a loop device"; finish; }
  truncate -s 4M "$mt/y.img"
  u=$(attach -r "$mt/y.img") || setup_failed "attach an image on btrfs"
  mount -o remount,ro "$mt" || setup_failed "remount the btrfs read-only"
  refused "btrfs holding an attached image" "$t" "$ti" \
    "$t holds the filesystem of $mt/y.img, the backing file of $u"
fi

# 6b. a filesystem mounted straight from a file (erofs, Linux 6.12+): a loop
# device over that file, and the device holding the file
if need_cmd mkfs.erofs erofs-utils && grep -qw erofs /proc/filesystems; then
  mkdir -p "$d/erofs/src"; head -c 2M /dev/urandom >"$d/erofs/src/f"
  truncate -s 16M "$d/erofs/disk.img"
  e=$(attach "$d/erofs/disk.img") && mkfs4 "$e" && me=$(mnt "$e" noatime) || setup_failed "ext4 for an erofs image"
  mkfs.erofs "$me/e.img" "$d/erofs/src" >/dev/null 2>>"$d/setup.err" || setup_failed "mkfs.erofs"
  mef=$(tmpdir); reg mount "$mef"
  if python3 - "$me/e.img" "$mef" 2>>"$d/setup.err" <<'EOF'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), b"erofs", 1, None):  # MS_RDONLY
    sys.exit(os.strerror(ctypes.get_errno()))
EOF
  then
    el=$(attach "$me/e.img") || setup_failed "attach the erofs image"
    refused "a loop device over a file mounted as erofs" "$el" "$me/e.img" \
      "$el is backed by $me/e.img, which is mounted at $mef"
    says "erofs file" "first unmount its backing file"
    losetup -d "$el"
    mount -o remount,ro "$me" || setup_failed "remount the filesystem holding the erofs image read-only"
    refused "the device holding a file mounted as erofs" "$e" "$d/erofs/disk.img" \
      "$e holds the filesystem of $me/e.img, which is mounted at $mef"
  else
    skip_check "a filesystem mounted from a file (erofs)" "this kernel cannot mount erofs from a file: $(tail -1 "$d/setup.err")"
  fi
elif command -v mkfs.erofs >/dev/null; then
  skip_check "a filesystem mounted from a file (erofs)" "no erofs in this kernel"
fi

# 7. negative controls: a copy of a mounted image is another inode, whatever
# its name and bytes; two attachments of an image, neither in use
mkdir -p "$d/seven/p" "$d/seven/q"; pi=$d/seven/p/disk.img; qi=$d/seven/q/disk.img
truncate -s 8M "$pi"; mkfs4 -L same "$pi"; cp "$pi" "$qi"
p=$(attach "$pi") && mp=$(mnt "$p") && q=$(attach "$qi") || setup_failed "attach two images"
sync "$p"; before=$(sha "$pi")
passes "a copy of a mounted image (same name and bytes, another inode) with --allow-destroy" \
  "$q" "$qi" --allow-destroy="$q"
lacks "copy of a mounted image" "$p"
check "copy of a mounted image: the mounted image is unchanged" test "$(sha "$pi")" = "$before"
mkdir "$d/eight"; ri=$d/eight/disk.img
truncate -s 8M "$ri"
r1=$(attach "$ri") && r2=$(attach "$ri") || setup_failed "attach a blank image twice"
passes "an image attached twice, neither in use (no signature, no flag needed)" "$r1" "$ri"
finish
