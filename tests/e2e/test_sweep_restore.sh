#!/usr/bin/env bash
# iobench sweep, its restore: a sweep SIGKILLed in the middle of
# a point (its filesystem mounted, its queue knobs and a vm sysctl turned,
# its workload running) leaves its journal; `iobench sweep --restore` puts
# the knobs back to the snapshot taken before, unmounts and detaches
# everything, removes the image and empties the journal, and marks the
# sweep interrupted; --resume then runs the points left; a new sweep after
# a SIGKILL restores first without being asked; SIGTERM restores at once.
# Not serial: it compares only what its own sweeps could change
# (sweep_lib.sh), holds the sweep scripts' vm lock while it turns
# vm.dirty_background_ratio, a machine-wide sysctl, and its plans drop only
# their own target's page cache (drop_caches = target).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep_lib.sh"
need_root
d=$(sweep_dir)
SWEEP_OWN=$d
SWEEP_VM=dirty_background_ratio
sweep_vm_lock
db=$d/r.db
journal=$db-sweep-journal
cd "$d" || exit 1
old_dbr=$(cat /proc/sys/vm/dirty_background_ratio)
vm1=$(( old_dbr == 7 ? 8 : 7 )); vm2=$(( old_dbr == 9 ? 11 : 9 ))
# runtime from the environment: long while it is to be killed, short to resume
cat >job.fio <<'JOB'
[w]
ioengine=psync
size=4m
bs=64k
rw=randwrite
time_based=1
runtime=${SWEEP_RT}
JOB
cat >kill.plan <<PLAN
[target]
image = img/disk.img
image_size = 300m
fs = ext4
[factors]
read_ahead_kb = 128 | 4096
scheduler = none | mq-deadline
vm.dirty_background_ratio = $vm1 | $vm2
[workload]
job = job.fio
drop_caches = target
PLAN
q() { sqlite3 "$db" "$1"; }
# the mount points of this script's sweeps that are still there
own_mountpoints() { local p; for p in $SWEEP_PIDS; do [ -e "/tmp/iobench-sweep-$p" ] && echo "$p"; done; }
# start_and_kill SIGNAL PLAN: start a sweep, wait until its first point's
# workload runs (the last knob of the setup journaled), then send SIGNAL
start_and_kill() {
  SWEEP_RT=30 "$IOBENCH" sweep "$2" --db="$db" >sweep.out 2>sweep.err &
  local pid=$! i
  SWEEP_PIDS="$SWEEP_PIDS $pid"
  for i in $(seq 100); do
    grep -q 'dirty_background_ratio' "$journal" 2>/dev/null && pgrep -f -P $pid -- '--label=' >/dev/null && break
    sleep 0.1
  done
  sleep 0.5
  MID_MOUNTED=$(grep -c " /tmp/iobench-sweep-$pid " /proc/mounts)
  MID_VM=$(cat /proc/sys/vm/dirty_background_ratio)
  kill "-$1" $pid
  wait $pid
  KILL_RC=$?
}

sweep_snapshot before
start_and_kill KILL kill.plan
check "the SIGKILLed sweep had its point set up (mounted, vm sysctl turned)" \
  test "$MID_MOUNTED" -ge 1 -a "$MID_VM" != "$old_dbr"
check "it left its journal, with the knobs' old values" grep -q "^knob /proc/sys/vm/dirty_background_ratio $old_dbr\$" "$journal"
sleep 0.3
check "its workload died with it" test -z "$(pgrep -f -- "--db=$db")"
"$IOBENCH" sweep --restore --db="$db" >restore.out 2>restore.err
check "sweep --restore exits 0 and says it restored" test $? -eq 0 -a -n "$(grep restored restore.out)"
sweep_snapshot after
check "after --restore: queue knobs, vm sysctl, mounts and loop devices as in the snapshot" sweep_same before after
check "after --restore: the journal is gone (empty), the image and mount point too" \
  test ! -s "$journal" -a ! -e img -a -z "$(own_mountpoints)"
check "the killed sweep is marked interrupted" test "$(q "SELECT state FROM sweeps WHERE id = 1")" = interrupted
"$IOBENCH" sweep --restore --db="$db" >restore2.out 2>&1
check "a second --restore has nothing to do" grep -q 'nothing to restore' restore2.out

# --- resume: the points left run -----------------------------------------------
SWEEP_RT=1 sweep_run --resume=1 --db="$db" >resume.out 2>resume.err
check "--resume 1 exits 0" test $? -eq 0
check "after --resume every point of sweep 1 is done" \
  test "$(q "SELECT count(*) FROM sweep_points WHERE sweep_id = 1 AND state = 'done'")" = 8 \
  -a "$(q "SELECT state FROM sweeps WHERE id = 1")" = done
check "each of the 8 points has a stored run (the killed one none)" \
  test "$(q "SELECT count(DISTINCT sweep_point) FROM runs WHERE sweep_id = 1 AND exit_status = 0")" = 8
sweep_snapshot after
check "after --resume: knobs, mounts and loop devices as in the snapshot" sweep_same before after

# --- a new sweep after a SIGKILL restores first ---------------------------------
start_and_kill KILL kill.plan
check "the second SIGKILLed sweep left its journal" test -s "$journal"
sed -e 's/^read_ahead_kb = .*/read_ahead_kb = 256/' -e '/^scheduler/d' -e '/^vm\./d' kill.plan >short.plan
SWEEP_RT=1 sweep_run short.plan --db="$db" >short.out 2>short.err
check "the next sweep exits 0" test $? -eq 0
check "it said it restored the interrupted sweep's changes first" grep -q 'restoring what an interrupted sweep left' short.err
check "and ran its own point" test "$(q "SELECT count(*) FROM runs WHERE sweep_point = 'read_ahead_kb=256'")" = 1
sweep_snapshot after
check "after it: knobs, vm sysctl, mounts and loop devices as in the snapshot, no journal" \
  sweep_same before after
check "no journal, image or mount point left" test ! -e "$journal" -a ! -e img -a -z "$(own_mountpoints)"

# --- SIGTERM: restored at once ----------------------------------------------------
start_and_kill TERM kill.plan
check "a SIGTERMed sweep exits 143 and says it restored" test "$KILL_RC" = 143 -a -n "$(grep 'machine is restored' sweep.err)"
sweep_snapshot after
check "after SIGTERM: knobs, vm sysctl, mounts and loop devices as in the snapshot" sweep_same before after
check "after SIGTERM: no journal, image or mount point left" test ! -e "$journal" -a ! -e img -a -z "$(own_mountpoints)"
check "the SIGTERMed sweep is stored interrupted, its point pending" \
  test "$(q "SELECT state FROM sweeps ORDER BY id DESC LIMIT 1")" = interrupted
# whatever happened above, the sysctl is the machine's again
[ "$(cat /proc/sys/vm/dirty_background_ratio)" = "$old_dbr" ] || echo "$old_dbr" >/proc/sys/vm/dirty_background_ratio
exit $E2E_FAILED
