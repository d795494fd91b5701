#!/usr/bin/env bash
# iobench sweep: what its restore journal and its plan may not make root do.
#  - a journal another user wrote (chown nobody), or one in a folder others
#    may write, is refused whole, naming the path, owner and mode, and
#    nothing in it happens (neither by --restore nor by the next sweep);
#  - lines planted in a real journal of a SIGKILLed sweep are refused and
#    left alone while the sweep's own entries are undone: a `cmd` line never
#    runs (no canary file), an `image` line for a file no sweep made (it
#    survives), a `mount` line for a tmpfs the test mounted (it stays
#    mounted), a `loop` line for a loop device the test attached (it stays
#    attached);
#  - the SIGKILLed sweep's command `sleep 300 & sleep 300` keeps running in
#    its process group after the kill; --restore ends every process of it
#    (with a cgroup, and without one: IOBENCH_SWEEP_CGROUP=0) and then
#    detaches the sweep's loop device;
#  - a factor level, template or option naming a block device the sweep was
#    not offered (a loop device the test made; also as --opt=DEV, opt=DEV,
#    a symbolic link to it, and through a template's {FACTOR}) is refused at
#    plan time with the plan's line and column, and the device's signature
#    is unchanged (blkid before and after); the same for a job's
#    exec_prerun and the exec engine's arguments (the job's own device may
#    be named).
# Only loop devices, files and mounts this script made are touched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep_lib.sh"
need_root
d=$(sweep_dir)
SWEEP_OWN=$d
cd "$d" || exit 1
chmod 0700 "$d"

# --- the journal's owner and folder ----------------------------------------
mkdir -m 0700 "$d/own"
canary=$d/canary
touch "$d/victim"
printf 'cmd touch%%20%s\nimage %s\n' "$canary" "$d/victim" >"$d/own/r.db-sweep-journal"
chmod 0600 "$d/own/r.db-sweep-journal"
chown nobody "$d/own/r.db-sweep-journal"
"$IOBENCH" sweep --restore --db="$d/own/r.db" >own.out 2>own.err
rc=$?
check "a journal owned by another user: --restore refuses it (exit $rc)" test "$rc" -ne 0
check "... naming the path, the owner and the mode" \
  grep -q "the journal '$d/own/r.db-sweep-journal' is owned by nobody (uid [0-9]*) with mode 0600" own.err
check "... and nothing in it happened (no canary, the file it names is there)" \
  test ! -e "$canary" -a -e "$d/victim"
cat >own.plan <<PLAN
[target]
image = $d/own-img/disk.img
image_size = 64m
fs = ext4
[factors]
read_ahead_kb = 128
[workload]
command = true
PLAN
"$IOBENCH" sweep own.plan --db="$d/own/r.db" >own2.out 2>own2.err
rc=$?
check "the next sweep refuses to start on it too (exit $rc), nothing done" \
  test "$rc" -ne 0 -a ! -e "$canary" -a -e "$d/victim" -a ! -e "$d/own-img" \
  -a -n "$(grep 'owned by nobody' own2.err)"
chown root "$d/own/r.db-sweep-journal"
chmod 0777 "$d/own"
"$IOBENCH" sweep --restore --db="$d/own/r.db" >own3.out 2>own3.err
rc=$?
check "a journal in a folder others may write is refused (exit $rc), folder and mode named" \
  test "$rc" -ne 0 -a -n "$(grep "its folder '$d/own' is owned by root (uid 0) with mode 0777" own3.err)"
check "... and nothing in it happened" test ! -e "$canary" -a -e "$d/victim"
chmod 0700 "$d/own"
rm -f "$d/own/r.db-sweep-journal"

# --- a SIGKILLed sweep, its journal with lines planted -----------------------
db=$d/r.db
journal=$db-sweep-journal
cat >kill.plan <<PLAN
[target]
image = $d/img/disk.img
image_size = 64m
fs = ext4
[factors]
read_ahead_kb = 128
[workload]
command = sleep 300 & sleep 300
drop_caches = none
PLAN
# the process group of the command: the "procs" line whose group runs two sleeps
command_group() {
  local pg
  for pg in $(sed -n 's/^procs \([0-9]*\):.*/\1/p' "$journal" 2>/dev/null); do
    [ "$(pgrep -g "$pg" -x sleep | wc -l)" -ge 2 ] && { echo "$pg"; return 0; }
  done
  return 1
}
# kill_sweep [PLAN]: start the sweep, SIGKILL it once its command runs; sets PG, PID
kill_sweep() {
  "$IOBENCH" sweep "${1:-kill.plan}" --db="$db" >kill.out 2>kill.err &
  PID=$!
  SWEEP_PIDS="$SWEEP_PIDS $PID"
  local i
  PG=
  for i in $(seq 150); do PG=$(command_group) && break; sleep 0.1; done
  SWEEP_LOOP=$(losetup -a | grep -F "($d/img/disk.img)" | cut -d: -f1)
  # a sweep that ended before its command ran: say why
  kill -0 "$PID" 2>/dev/null || echo "# the sweep ended before the kill: $(tail -5 kill.err | tr '\n' ' ')"
  kill -KILL "$PID"
  wait "$PID" 2>/dev/null
  sleep 0.3
}
# the live processes of the group (a zombie is dead, waiting for init to reap it)
procs_left() {
  local p
  for p in $(pgrep -g "$PG" 2>/dev/null); do
    [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null)" = Z ] || printf '%s ' "$p"
  done
}

# what the test owns, for the planted lines
tm=$d/tm
mkdir "$tm"
mount -t tmpfs -o size=1m iobench-test "$tm" && reg mount "$tm"
tm_id=$(awk -v m="$tm" '$5 == m { id = $1 } END { print id }' /proc/self/mountinfo)
tdev=$(mkloop 16m)
tback=$(losetup -n -O BACK-FILE "$tdev")
tdevino=$(loop_back "$tdev")

kill_sweep
check "the sweep's command ran in a group of its own ($PG)" test -n "$PG"
check "after the SIGKILL the command's processes still run ($(procs_left))" test -n "$(procs_left)"
cg=$(sed -n 's/^procs \([0-9]*\):.* \(\/.*iobench-sweep-[0-9-]*\)$/\1 \2/p' "$journal" |
  awk -v pg="$PG" '$1 == pg { print $2 }')
if [ -d /sys/fs/cgroup/unified ] || [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
  check "its processes are in a cgroup of their own (${cg:-none}: $(tr '\n' ' ' <"$cg/cgroup.procs" 2>/dev/null))" \
    test -n "$cg" -a -n "$(grep -x "$(pgrep -g "$PG" -x sleep | head -1)" "$cg/cgroup.procs" 2>/dev/null)"
fi
n=$(wc -l <"$journal")
{
  echo "cmd touch%20$canary"
  echo "image $d/victim"
  echo "made $n $(stat -c '%Hd:%Ld:%i' "$d/victim")"
  echo "mount $tm iobench-test"
  echo "made $((n + 3)) $tm_id@iobench-test"
  echo "image $tback"
  echo "made $((n + 5)) $tdevino"
  echo "loop $tdevino $tback"
} >>"$journal"
"$IOBENCH" sweep --restore --db="$db" >restore.out 2>restore.err
rc=$?
check "--restore exits non-zero: planted entries were refused (exit $rc)" test "$rc" -ne 0
check "the planted cmd line never ran (no canary) and is named as refused" \
  test ! -e "$canary" -a -n "$(grep 'cmd touch.*refused: a journal never carries a command' restore.err)"
check "the planted image line is refused and the file survives" \
  test -e "$d/victim" -a -n "$(grep "image $d/victim): refused" restore.err)"
check "the planted mount line is refused and the tmpfs stays mounted" \
  test -n "$(grep "mount $tm iobench-test): refused" restore.err)" -a \
  "$(awk -v m="$tm" '$5 == m' /proc/self/mountinfo | wc -l)" -ge 1
check "the planted loop line is refused and the test's loop device stays attached" \
  test -n "$(grep "loop $tdevino $tback): refused" restore.err)" -a "$(loop_back "$tdev")" = "$tdevino" \
  -a -e "$tback"
check "no process of the killed command is left ($(procs_left))" test -z "$(procs_left)"
check "its cgroup is gone (${cg:-none})" test -z "$cg" -o ! -e "$cg"
check "the sweep's loop device is detached and its image removed" \
  test -z "$(losetup -a | grep -F "($d/img/disk.img")" -a ! -e "$d/img/disk.img"
check "the sweep's mount is gone" test -z "$(grep " /tmp/iobench-sweep-$PID " /proc/mounts)"
check "the journal keeps the refused entries (5 to undo)" \
  test "$("$IOBENCH" sweep --restore --db="$db" 2>&1 | grep -c refused)" = 5
rm -f "$journal"

# --- the same without cgroups: the process group, verified by start time ------
# (the plan named through a symbolic link, its image relative to it: the
# journal's paths are those of the stored plan)
ln -s "$d" "$d/link"
sed "s|^image = .*|image = img/disk.img|" kill.plan >kill2.plan
export IOBENCH_SWEEP_CGROUP=0
kill_sweep link/kill2.plan
unset IOBENCH_SWEEP_CGROUP
check "without a cgroup: the command's group ($PG) runs after the SIGKILL" \
  test -n "$PG" -a -n "$(procs_left)" -a -z "$(grep '^procs .*/iobench-sweep-' "$journal")"
"$IOBENCH" sweep --restore --db="$db" >restore2.out 2>restore2.err
rc=$?
check "--restore exits 0 ($(tr '\n' ' ' <restore2.err))" test "$rc" -eq 0
check "no process of the group is left ($(procs_left))" test -z "$(procs_left)"
check "the loop device is detached, the image and journal gone" \
  test -z "$(losetup -a | grep -F "($d/img/disk.img")" -a ! -e "$d/img/disk.img" -a ! -e "$journal"

# --- plan time: operands that name a device not offered -----------------------
vdev=$(mkloop 64m)
mkfs.ext4 -q -F -L victimfs "$vdev" >/dev/null 2>&1
before=$(blkid -p -o export "$vdev" | sort)
ln -s "$vdev" "$d/vlink"
vname=${vdev#/dev/}
cat >dev.plan <<PLAN
[target]
image = $d/pimg/a.img
image = $d/pimg/b.img
image_size = 128m
fs = btrfs
[factors]
mkfs.btrfs = -K | $vdev
[workload]
command = true
PLAN
plan_refused() { # NAME PLAN LINE COL: the sweep refuses PLAN at LINE:COL, nothing made
  "$IOBENCH" sweep "$2" --db="$d/p.db" >"$2.out" 2>"$2.err"
  local rc=$?
  check "$1: refused at plan time (exit $rc) with $2:$3:$4 ($(head -c 300 "$2.err"))" \
    test "$rc" -ne 0 -a -n "$(grep -F "$2:$3:$4: error:" "$2.err")"
  check "$1: the message names the device" grep -q "names block device $vdev" "$2.err"
  check "$1: nothing was made (no image, no journal)" test ! -e "$d/pimg" -a ! -e "$d/p.db-sweep-journal"
}
plan_refused "mkfs.btrfs level $vdev" dev.plan 7 19
"$IOBENCH" sweep dev.plan --dry-run --db="$d/p.db" >dry.out 2>dry.err
check "--dry-run refuses it as well" test $? -ne 0 -a -n "$(grep -F 'dev.plan:7:19: error:' dry.err)"
sed "s|^mkfs.btrfs = .*|mkfs.btrfs = -K \| --rootdir=/x --device=$d/vlink|" dev.plan >opt.plan
plan_refused "--opt=SYMLINK" opt.plan 7 32
sed "s|^mkfs.btrfs = .*|mount.btrfs = noatime \| compress=zstd,device=$vdev|" dev.plan >mnt.plan
plan_refused "mount option device=DEV" mnt.plan 7 25
sed "s|^mkfs.btrfs = .*|lv = $vname\nsetup = wipefs -a /dev/{lv}|" dev.plan >tpl.plan
plan_refused "a setup template's /dev/{lv}" tpl.plan 8 9
sed "s|^command = true|command = dd if=/dev/zero of=$vdev bs=4k count=1; sync|; s|^mkfs.btrfs = .*|mkfs.btrfs = -K|" \
  dev.plan >cmd.plan
plan_refused "the command's of=DEV" cmd.plan 9 27
# --- the programs a job runs: exec_prerun, the exec engine ---------------------
odev=$(mkloop 16m)
cat >pre.fio <<JOB
[pre]
filename=$d/pre.dat
size=1m
rw=read
exec_prerun=wipefs -a $vdev
JOB
"$IOBENCH" run pre.fio >pre.out 2>pre.err
rc=$?
check "a job's exec_prerun naming a device not offered is refused (exit $rc)" \
  test "$rc" -ne 0 -a -n "$(grep "refusing exec_prerun 'wipefs -a $vdev'.*names block device $vdev" pre.err)"
cat >own.fio <<JOB
[own]
filename=$odev
size=1m
rw=read
exec_prerun=blockdev --getsize64 $odev
JOB
"$IOBENCH" run own.fio >own.out 2>own.err
check "an exec_prerun naming the job's own device runs ($(head -c 200 own.err))" \
  test $? -eq 0 -a -n "$(grep 16777216 own.prerun.txt 2>/dev/null)"
cat >exe.fio <<JOB
[exe]
ioengine=exec
program=wipefs
arguments=-a $d/vlink
runtime=1
JOB
"$IOBENCH" run exe.fio >exe.out 2>exe.err
rc=$?
check "the exec engine's arguments naming a device not offered are refused (exit $rc)" \
  test "$rc" -ne 0 -a -n "$(grep "names block device $vdev" exe.err)"
after=$(blkid -p -o export "$vdev" | sort)
check "the offered-to-nobody device's signature is unchanged" test -n "$before" -a "$before" = "$after"
exit $E2E_FAILED
