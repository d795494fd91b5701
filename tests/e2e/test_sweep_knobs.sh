#!/usr/bin/env bash
# Knobs the kernel changes as a side effect are put back, and one iobench
# at a time turns a device's knobs. On the script's own loop devices, each
# set first to mq-deadline with fifo_batch=7, nr_requests=64 (so
# async_depth=64) and read_ahead_kb=300 (none of them defaults), the whole
# writable queue/ and queue/iosched/ state is compared before and after:
#  - a sweep whose points write max_sectors_kb (the kernel resets
#    read_ahead_kb) and scheduler = none (it resets nr_requests and every
#    iosched/ value): the points saw the changed values, and afterwards
#    every value is back; a stale lock file of a dead pid blocks nothing
#    and holds the sweep's pid after;
#  - the same sweep SIGKILLed in a point, then `sweep --restore`;
#  - `run --ioscheduler=none` on a job whose file is on an ext4 on the
#    device: the switch happened during the run, everything is back after;
#  - two sweeps on two databases on directories of one filesystem on the
#    device at once: the second is refused naming the device and the first
#    one's pid (so is a run --ioscheduler= meanwhile, before it lays out
#    its file), and after both the knobs equal the snapshot.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
cd "$d" || exit 1
# qstate DEV: every writable file of its queue/ and queue/iosched/, "NAME=VALUE"
qstate() {
  local q f
  q=/sys/block/$(basename "$(readlink -f "$1")")/queue
  for f in "$q"/* "$q"/iosched/*; do
    [ -f "$f" ] || continue
    case $(stat -c %a "$f") in 2*|3*|6*|7*) echo "${f#"$q"/}=$(cat "$f" 2>/dev/null)" ;; esac
  done
}
# prep DEV: mq-deadline with values that are not its defaults
prep() {
  local q=/sys/block/$(basename "$1")/queue
  echo mq-deadline >"$q/scheduler" && echo 64 >"$q/nr_requests" && echo 7 >"$q/iosched/fifo_batch" &&
    echo 300 >"$q/read_ahead_kb"
}
same() { diff "$1" "$2" | sed -n 's/^</  was:/p; s/^>/  now:/p'; cmp -s "$1" "$2"; }

dev=$(mkloop 300m) || exit 1
name=$(basename "$dev")
q=/sys/block/$name/queue
grep -qw mq-deadline "$q/scheduler" || { echo "skip: no mq-deadline for loop devices"; exit 77; }
prep "$dev" || { not_ok "cannot prepare $dev's queue"; exit 1; }
qstate "$dev" >before
check "the prepared queue: mq-deadline, nr_requests 64, async_depth 64, fifo_batch 7, read_ahead_kb 300" \
  grep -qx 'iosched/async_depth=64' before
lockfile=/run/iobench/knobs-$(cat /sys/block/"$name"/dev).lock
mkdir -p /run/iobench
printf '%-11d\n' 999999 >"$lockfile" # a dead pid's lock file

cat >k.plan <<PLAN
[target]
device = $dev
fs = ext4
[factors]
max_sectors_kb = 256 | 512
scheduler = none
[workload]
command = echo ra=\$(cat $q/read_ahead_kb) \$(grep -o '\\[[a-z-]*\\]' $q/scheduler) >>$d/mid.txt
PLAN
"$IOBENCH" sweep k.plan --allow-destroy="$dev" --db="$d/a.db" >a.out 2>a.err &
apid=$!
wait $apid
check "a sweep turning max_sectors_kb and scheduler exits 0" test $? -eq 0
check "its points ran with read_ahead_kb reset and no scheduler (none)" \
  test "$(grep -c '^ra=[0-9]* \[none\]$' mid.txt)" = 2 -a -z "$(grep '^ra=300 ' mid.txt)"
qstate "$dev" >after
check "after the sweep: every writable queue and iosched value as before" same before after
check "it said which files it left out (read-only)" grep -q 'left out: .*max_hw_sectors_kb.*(read-only)' a.err
check "the dead pid's lock file did not block it; its pid is in it now" test "$(tr -d ' \n' <"$lockfile")" = "$apid"

# --- SIGKILL in a point, then --restore ------------------------------------
cat >job.fio <<JOB
[w]
ioengine=psync
size=4m
bs=64k
rw=randwrite
time_based=1
runtime=30
JOB
printf '[target]\ndevice = %s\nfs = ext4\n[factors]\nmax_sectors_kb = 256\nscheduler = none\n[workload]\njob = job.fio\n' "$dev" >kill.plan
"$IOBENCH" sweep kill.plan --allow-destroy="$dev" --db="$d/k.db" >k.out 2>k.err &
kpid=$!
for i in $(seq 100); do
  pgrep -f -P $kpid -- '--label=' >/dev/null && break
  sleep 0.1
done
sleep 0.5
qstate "$dev" >mid
kill -KILL $kpid
wait $kpid 2>/dev/null
check "the killed sweep's point had the queue changed (scheduler none)" grep -q '^scheduler=\[none\]' mid
check "its journal holds the queue's snapshot" grep -q "^qsnap $name@" "$d/k.db-sweep-journal"
sleep 0.5
"$IOBENCH" sweep --restore --db="$d/k.db" >r.out 2>r.err
check "sweep --restore exits 0" test $? -eq 0
qstate "$dev" >after
check "after SIGKILL and --restore: every writable queue and iosched value as before" same before after
check "and the filesystem is unmounted" test -z "$(findmnt -n -S "$dev")"

# --- run --ioscheduler=none on a file on the device -------------------------
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1
mnt=$(tmpdir)
mount "$dev" "$mnt" && echo "mount $mnt" >>"$E2E_REG"
prep "$dev"
qstate "$dev" >before
cat >sched.fio <<JOB
[s]
ioengine=psync
filename=$mnt/f
size=4m
bs=64k
rw=write
time_based=1
runtime=2
ioscheduler=none
JOB
"$IOBENCH" run --db="$d/run.db" sched.fio >run.out 2>run.err &
rpid=$!
seen=
for i in $(seq 50); do
  grep -q '^\[none\]' "$q/scheduler" && { seen=1; break; }
  sleep 0.1
done
wait $rpid
check "run --ioscheduler=none exits 0" test $? -eq 0
check "the queue was switched to none while it ran" test -n "$seen"
qstate "$dev" >after
check "after the run: the scheduler back, and nr_requests and every iosched value too" same before after

# --- two sweeps on two databases touching the device at once ---------------
# (the first holds the device 20 s: each refusal below waits 5 s for it)
mkdir -p "$mnt/a" "$mnt/b"
for x in a b; do
  printf '[target]\ndir = %s\n[factors]\nscheduler = none\nread_ahead_kb = 128\n[workload]\ncommand = sleep %s\n' \
    "$mnt/$x" "$([ $x = a ] && echo 20 || echo 1)" >two$x.plan
done
"$IOBENCH" sweep twoa.plan --db="$d/two-a.db" >ta.out 2>ta.err &
tapid=$!
for i in $(seq 100); do
  [ "$(tr -d ' \n' <"$lockfile" 2>/dev/null)" = "$tapid" ] && grep -q '^qsnap' "$d/two-a.db-sweep-journal" 2>/dev/null && break
  sleep 0.1
done
t0=$(date +%s)
"$IOBENCH" sweep twob.plan --db="$d/two-b.db" >tb.out 2>tb.err
tbrc=$?
tbs=$(( $(date +%s) - t0 ))
check "the second sweep (another database, same device) is refused (exit 1)" test $tbrc -eq 1
check "it names the device and the first sweep's pid, after waiting 5 s for it to let go (${tbs}s)" \
  grep -q "knobs of $name ($(cat /sys/block/"$name"/dev)) are held by another iobench, pid $tapid (its lock .*, waited 5 s)" tb.err
check "the refused sweep left no journal" test ! -e "$d/two-b.db-sweep-journal"
sed "s|^filename=.*|filename=$mnt/g|" sched.fio >sched2.fio
"$IOBENCH" run --db="$d/run.db" sched2.fio >run2.out 2>run2.err
check "run --ioscheduler= on the device meanwhile is refused too, naming the pid, before its layout" \
  test $? -ne 0 -a -n "$(grep "pid $tapid" run2.err)" -a ! -e "$mnt/g"
wait $tapid
check "the first sweep ran to its end (exit 0)" test $? -eq 0
qstate "$dev" >after
check "after both: every writable queue and iosched value as before" same before after

# a holder that ends within the 5 s is waited for (a sweep ending lets go of
# its device's lock just after it detaches its loop device)
sed 's/^command = sleep 20$/command = sleep 2/' twoa.plan >twoc.plan
"$IOBENCH" sweep twoc.plan --db="$d/two-c.db" >tc.out 2>tc.err &
tcpid=$!
for i in $(seq 100); do
  [ "$(tr -d ' \n' <"$lockfile" 2>/dev/null)" = "$tcpid" ] && grep -q '^qsnap' "$d/two-c.db-sweep-journal" 2>/dev/null && break
  sleep 0.1
done
"$IOBENCH" sweep twob.plan --db="$d/two-d.db" >td.out 2>td.err
tdrc=$?
wait $tcpid
check "a sweep started while another ends waits for its lock and runs (exit $tdrc)" test $tdrc -eq 0
qstate "$dev" >after
check "after those two: every writable queue and iosched value as before" same before after
finish
