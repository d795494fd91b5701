#!/usr/bin/env bash
# The guarded open and the plan before the first byte (the free space
# and /dev included), on loop devices and
# filesystems made here. Each refusal exits 1, names what was found, and a
# sha256 of the image (or file) before and after proves nothing changed:
#  - --output onto a device (by name, through a symlink, with --readonly);
#    own output to /dev/null and, with --readonly, to a regular file works;
#  - a verify state file whose name leads to a device is not written;
#  - two stonewalled jobs: while job a runs (iobench is stopped with SIGSTOP
#    once a's file is open and b's is not, so the swap is not a race), b's
#    laid-out file becomes a symlink to an ext4 device, or b's blank device
#    gets a filesystem and is mounted: b refuses;
#  - while a job writes a device, the device is held O_EXCL: mkfs and mount
#    fail;
#  - filename=x1:/dev/loopN leaves no x1; a direct=1 alignment refusal (also
#    judged by a 4 KiB-sector device before the file exists) and a buffer
#    ENOMEM leave no laid-out file; layouts larger than the free space (one
#    job's, or two clones' together) are refused naming both figures;
#  - a read verify pass over a truncated or deleted file neither extends nor
#    creates it ("file is N bytes, the write pass wrote M");
#  - a missing /dev/loopNp2 is not made a regular file; bonnie -d /dev is
#    refused.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

sum() { sha256sum <"$1" | cut -d' ' -f1; }
says() { # DESC FILE TEXT: FILE contains TEXT
  if grep -qF -- "$3" "$2"; then ok "$1"; else not_ok "$1 (wanted '$3'; got: $(tail -2 "$2"))"; fi
}

el=$(mkloop 64M) || { not_ok "create a loop device"; finish; }
mkfs.ext4 -q -F -L guardo "$el" >/dev/null 2>&1
img=$(losetup -n -O BACK-FILE "$el")

# 1. --output onto a device
before=$(sum "$img")
"$IOBENCH" run --name=w --rw=read --bs=4k --size=64k --filename="$d/q" --output="$el" \
  >"$d/o1.out" 2>"$d/o1.err"
check "--output=DEVICE: exit 1" test $? -eq 1
says "--output=DEVICE: names the device and its ext4 signature" "$d/o1.err" \
  "cannot write the report (--output) to '$el': '$el' is block device"
says "--output=DEVICE: says what is on it" "$d/o1.err" "ext4 signature found, label 'guardo'"
check "--output=DEVICE: the job did not run (no file laid out)" test ! -e "$d/q"
"$IOBENCH" run --readonly --name=w --rw=read --bs=4k --size=64k --filename="$d/q" --output="$el" \
  >"$d/o2.out" 2>"$d/o2.err"
check "--readonly --output=DEVICE: exit 1" test $? -eq 1
says "--readonly --output=DEVICE: names read-only mode too" "$d/o2.err" \
  "read-only mode (--readonly) forbids writing it in any case"
ln -s "$el" "$d/outlink"
"$IOBENCH" run --name=w --rw=read --bs=4k --size=64k --filename="$d/q" --output="$d/outlink" \
  --allow-destroy="$el" >"$d/o3.out" 2>"$d/o3.err"
check "--output through a symlink to the device, even with --allow-destroy naming it: exit 1" test $? -eq 1
says "--output through a symlink: names the device it leads to" "$d/o3.err" "is block device $el ("
check "--output refusals: the image is unchanged" test "$(sum "$img")" = "$before"
echo data >"$d/q"
"$IOBENCH" run --readonly --name=r --rw=read --bs=4 --size=4 --filename="$d/q" --output-format=json \
  --output="$d/r.json" >/dev/null 2>"$d/o4.err"
check "--readonly --output=FILE (a regular file): works" \
  test "$?,$(json_get "$d/r.json" 'd["jobs"][0]["read"]["io_bytes"]' 2>/dev/null)" = "0,4"
"$IOBENCH" run --name=r --rw=read --bs=4 --size=4 --filename="$d/q" --output=/dev/null >/dev/null 2>&1
check "--output=/dev/null (a character device): works" test $? -eq 0

# 2. a verify state file whose name leads to the device
mkdir "$d/cwd"
ln -s "$el" "$d/cwd/local-vs-0-verify.state.tmp"
# the refusal is a warning of the run's report (stderr stays empty: the
# run itself succeeded)
(cd "$d/cwd" && "$IOBENCH" run --name=vs --rw=write --bs=4k --size=64k --verify=crc32c \
  --filename="$d/vs.dat" >"$d/vs.txt" 2>"$d/vs.err")
says "verify_state_save onto a symlink to a device: refused, naming it in the report" "$d/vs.txt" \
  "run-message: job 'vs': cannot save the verify state in 'local-vs-0-verify.state': 'local-vs-0-verify.state.tmp' is block device $el"
check "... and nothing on stderr" test ! -s "$d/vs.err"
check "verify state refused: the image is unchanged" test "$(sum "$img")" = "$before"

# wait_open PID PATH: until PID has PATH open (as /proc/PID/fd shows), 20 s at most
has_open() { local f; for f in /proc/"$1"/fd/*; do [ "$(readlink "$f")" = "$2" ] && return 0; done; return 1; }
wait_open() { local i; for i in $(seq 400); do has_open "$1" "$2" && return 0; kill -0 "$1" 2>/dev/null || return 1; sleep 0.05; done; return 1; }

# two_jobs FILE_OR_DEVICE_OF_B: a reads for 3 s, b (stonewalled) writes 1 MiB to it
two_jobs() {
  printf '[a]\nrw=read\nbs=4k\nsize=1m\ntime_based=1\nruntime=3\nfilename=%s\n\n[b]\nstonewall\nrw=write\nbs=64k\nsize=1m\nfilename=%s\n' \
    "$d/a.dat" "$1" >"$d/sw.fio"
}

# a.dat exists in full beforehand: the run does not lay it out, so a's file
# is open only once job a runs, after every file of the run was laid out
dd if=/dev/zero of="$d/a.dat" bs=1M count=1 status=none

# 3. the stonewall swap: b's laid-out file becomes a symlink to the ext4 device
two_jobs "$d/b.dat"
"$IOBENCH" run "$d/sw.fio" >"$d/sw.out" 2>"$d/sw.err" &
pid=$!
if wait_open $pid "$d/a.dat"; then
  kill -STOP $pid
  check "swap: b's file is laid out and not open yet when it is swapped" \
    test "$(test -f "$d/b.dat" && echo file) $(has_open $pid "$d/b.dat" && echo open || echo closed)" = "file closed"
  rm -f "$d/b.dat" && ln -s "$el" "$d/b.dat"
  kill -CONT $pid
else
  not_ok "swap: job a never had its file open"
fi
wait $pid
check "swap to a symlink: exit 1" test $? -eq 1
says "swap to a symlink: b refuses, naming the symlink and where it leads" "$d/sw.err" \
  "job 'b': refusing to write to '$d/b.dat': '$d/b.dat' was a regular file when the run was set up and is now a symbolic link to '$el'"
says "swap to a symlink: and what is on the device" "$d/sw.err" "ext4 signature found, label 'guardo'"
check "swap to a symlink: the image is unchanged" test "$(sum "$img")" = "$before"

# 4. the stonewall swap: b's blank device gets a filesystem and is mounted
ml=$(mkloop 32M) || { not_ok "create a loop device"; finish; }
mimg=$(losetup -n -O BACK-FILE "$ml")
two_jobs "$ml"
mmnt=$(tmpdir)
"$IOBENCH" run "$d/sw.fio" >"$d/mk.out" 2>"$d/mk.err" &
pid=$!
if wait_open $pid "$d/a.dat"; then
  kill -STOP $pid
  mkfs.ext4 -q -F -L late "$ml" >/dev/null 2>&1
  reg mount "$mmnt"
  mount -o ro "$ml" "$mmnt" || not_ok "mount the new filesystem"
  mbefore=$(sum "$mimg")
  kill -CONT $pid
else
  not_ok "mkfs+mount: job a never had its file open"
  mbefore=$(sum "$mimg")
fi
wait $pid
check "mkfs+mount during job a: exit 1" test $? -eq 1
says "mkfs+mount during job a: b refuses, naming the mount" "$d/mk.err" \
  "job 'b': refusing to write to '$ml': $ml is mounted at $mmnt"
says "mkfs+mount during job a: and the new signature" "$d/mk.err" "ext4 signature found, label 'late'"
check "mkfs+mount during job a: the image is unchanged" test "$(sum "$mimg")" = "$mbefore"
umount "$mmnt"

# 5. a device a job writes is held exclusively: nobody can mount it meanwhile
cl=$(mkloop 16M) || { not_ok "create a loop device"; finish; }
"$IOBENCH" run --name=hold --rw=write --bs=64k --size=16m --time_based --runtime=3 --filename="$cl" \
  >"$d/h.out" 2>"$d/h.err" &
pid=$!
if wait_open $pid "$cl"; then
  kill -STOP $pid
  mkfs.ext4 -q -F "$cl" >"$d/h.mkfs" 2>&1
  check "while a job writes a device, mkfs.ext4 on it fails" test $? -ne 0
  check "and no filesystem appears on it" test -z "$(blkid -p -o value -s TYPE "$cl" 2>/dev/null)"
  hm=$(tmpdir)
  mount "$cl" "$hm" 2>/dev/null && { reg mount "$hm"; umount "$hm"; not_ok "mount of the held device fails"; } \
    || ok "mount of the held device fails"
  kill -CONT $pid
else
  not_ok "hold: the job never had its device open"
fi
wait $pid
hrc=$?
if [ $hrc -eq 0 ]; then ok "the holding job itself ran (exit 0)"
else not_ok "the holding job itself ran (exit $hrc: $(tail -3 "$d/h.err" | tr '\n' ' '))"; fi

# 6. every check of every job before the first byte
"$IOBENCH" run --name=w --rw=write --bs=64k --size=1m --filename="$d/x1:$el" >"$d/x.out" 2>"$d/x.err"
check "filename=x1:DEVICE: exit 1" test $? -eq 1
says "filename=x1:DEVICE: names the device" "$d/x.err" "job 'w': refusing to write to '$el': ext4 signature found"
check "filename=x1:DEVICE: x1 is not laid out" test ! -e "$d/x1"
check "filename=x1:DEVICE: the image is unchanged" test "$(sum "$img")" = "$before"
"$IOBENCH" run --name=w --rw=write --bs=64k --size=1m --filename="$d/w1" \
  --name=v --rw=write --bs=64k --size=1m --filename="$el" >"$d/x2.out" 2>"$d/x2.err"
check "a later job's refused device: the earlier job's file is not laid out either" \
  test "$? $([ -e "$d/w1" ] && echo made || echo none)" = "1 none"
"$IOBENCH" run --name=al --rw=read --bs=1000 --size=1000k --direct=1 --filename="$d/al1:$d/al2" \
  >"$d/al.out" 2>"$d/al.err"
check "direct=1 alignment refusal: exit 1" test $? -eq 1
says "direct=1 alignment refusal: names the alignment" "$d/al.err" "bs=1000 is not a multiple of 512"
check "direct=1 alignment refusal: no file laid out" test "$(ls "$d" | grep -c '^al[12]$')" = 0
k4img=$d/k4.img
truncate -s 64M "$k4img"
if k4=$(losetup -f --show -b 4096 "$k4img" 2>/dev/null); then
  reg loop "$k4"
  mkfs.ext4 -q -F "$k4" >/dev/null 2>&1
  k4m=$(tmpdir); reg mount "$k4m"; mount "$k4" "$k4m"
  "$IOBENCH" run --name=al4 --rw=write --bs=512 --size=64k --direct=1 --filename="$k4m/f" \
    >"$d/al4.out" 2>"$d/al4.err"
  check "direct=1 bs=512 on a 4 KiB-sector device: refused before the file exists" \
    test "$? $([ -e "$k4m/f" ] && echo made || echo none)" = "1 none"
  says "direct=1 on a 4 KiB-sector device: names 4096" "$d/al4.err" "bs=512 is not a multiple of 4096"
  umount "$k4m"
else
  skip_check "direct=1 on a 4 KiB-sector device" "this kernel's loop driver has no 4096-byte sectors (losetup -b 4096)"
fi
"$IOBENCH" run --name=nm --rw=read --bs=1g --size=2g --iodepth=4096 --ioengine=libaio \
  --filename="$d/nm1" --name=nm2 --rw=read --bs=1g --size=2g --iodepth=4096 --ioengine=libaio \
  --filename="$d/nm2" >"$d/nm.out" 2>"$d/nm.err"
check "buffers that cannot be allocated: exit 1" test $? -eq 1
says "buffers that cannot be allocated: says so" "$d/nm.err" "job 'nm'"
check "buffers that cannot be allocated: no file laid out" test ! -e "$d/nm1" -a ! -e "$d/nm2"

# 7. free space, summed over the jobs on one filesystem
fsm=$(mkfs_mount ext4 32M) || { not_ok "mount a 32 MiB ext4"; finish; }
fsdev=$(findmnt -n -o SOURCE "$fsm")
"$IOBENCH" run --name=big --rw=read --bs=64k --size=48m --filename="$fsm/big" >"$d/fs1.out" 2>"$d/fs1.err"
check "a layout larger than the free space: exit 1, no file" \
  test "$? $([ -e "$fsm/big" ] && echo made || echo none)" = "1 none"
says "a layout larger than the free space: needed, available, the filesystem" "$d/fs1.err" \
  "job 'big': laying out '$fsm/big' needs 48.0 MiB (50331648 bytes), but the filesystem at $fsm (ext4 on $fsdev) has"
"$IOBENCH" run --name=cl --rw=read --bs=64k --size=16m --numjobs=2 --directory="$fsm" >"$d/fs2.out" 2>"$d/fs2.err"
check "two clones that fit one by one but not together: exit 1, no file" \
  test "$? $(ls "$fsm" | grep -c '^cl\.')" = "1 0"
says "two clones together: the sum is named" "$d/fs2.err" \
  "jobs 'cl' and others: laying out 2 files needs 32.0 MiB (33554432 bytes) together, but the filesystem at $fsm"

# 8. a read verify pass never extends or creates the file it verifies
vf=$d/v.dat
"$IOBENCH" run --name=v --rw=write --bs=4k --size=1m --verify=crc32c --filename="$vf" >/dev/null 2>&1
truncate -s 512k "$vf"
vbefore=$(sum "$vf")
"$IOBENCH" run --name=v --rw=read --bs=4k --size=1m --verify=crc32c --filename="$vf" >"$d/v1.out" 2>"$d/v1.err"
check "rw=read verify over a truncated file: exit 1" test $? -eq 1
says "rw=read verify over a truncated file: file is N bytes, the write pass wrote M" "$d/v1.err" \
  "job 'v': '$vf' is 524288 bytes, the write pass wrote 1048576"
check "rw=read verify over a truncated file: not extended, unchanged" \
  test "$(stat -c %s "$vf") $(sum "$vf")" = "524288 $vbefore"
"$IOBENCH" run --name=v --rw=write --verify_only=1 --bs=4k --size=1m --verify=crc32c --filename="$vf" \
  >"$d/v2.out" 2>"$d/v2.err"
check "verify_only over a truncated file: exit 1, not extended, unchanged" \
  test "$? $(stat -c %s "$vf") $(sum "$vf")" = "1 524288 $vbefore"
says "verify_only over a truncated file: says what the write pass wrote" "$d/v2.err" \
  "is 524288 bytes, the write pass wrote 1048576"
rm -f "$vf"
"$IOBENCH" run --name=v --rw=read --bs=4k --size=1m --verify=crc32c --filename="$vf" >"$d/v3.out" 2>"$d/v3.err"
check "rw=read verify over a deleted file: exit 1, the file is not recreated" \
  test "$? $([ -e "$vf" ] && echo made || echo none)" = "1 none"
says "rw=read verify over a deleted file: says it does not exist" "$d/v3.err" "job 'v': '$vf' does not exist"

# 9. /dev: a missing partition is not made a regular file; bonnie -d /dev
missing=${el}p2
for rw in write read; do
  "$IOBENCH" run --name=p --rw=$rw --bs=4k --size=64k --filename="$missing" >"$d/p.out" 2>"$d/p.err"
  check "rw=$rw to a missing $missing: exit 1, nothing created" \
    test "$? $([ -e "$missing" ] && echo made || echo none)" = "1 none"
  says "rw=$rw to a missing $missing: says it does not exist" "$d/p.err" \
    "'$missing' does not exist, and iobench does not create files in /dev"
done
[ -f "$missing" ] && rm -f "$missing" # only a regular file a failure made
"$IOBENCH" bonnie -d /dev -s 16 -r 8 -n 0 -u root >"$d/bo.out" 2>"$d/bo.err"
check "bonnie -d /dev: exit 1, no Bonnie.* made in /dev" \
  test "$? $(ls /dev | grep -c '^Bonnie\.')" = "1 0"
says "bonnie -d /dev: says why" "$d/bo.err" "/dev: is /dev's own filesystem"
check "all refusals: the ext4 image is unchanged" test "$(sum "$img")" = "$before"
# with IOBENCH=build-asan/iobench: no sanitizer report in any run's stderr
check "no run printed a sanitizer report" test -z "$(grep -l -e Sanitizer -e 'runtime error' "$d"/*.err)"
finish
