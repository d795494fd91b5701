#!/usr/bin/env bash
# iobench sweep, the running half: the CI acceptance plan (image
# files on loop devices, fs = ext4 | xfs | btrfs x read_ahead_kb = 128 |
# 4096 x scheduler = none | mq-deadline, a tiny fio job, repeat 2) stores
# all 12 points with their labels, as a sweep whose points are all done,
# each run measured with the point's knobs in force (its stored sysinfo),
# and leaves no loop device, mount or mount point of its own behind (and
# the queue knobs of the devices it gave its sweeps as they were); a
# plan naming a mounted device, or one not in --allow-destroy, is refused
# before anything changes; a plan error is reported as file:line:col; a
# failed point is recorded with its message and the sweep goes on; a race
# on a mounted directory finds the point whose factor sets a higher rate=
# on the job and ends with the analysis; --dry-run changes nothing (the examples: test_sweep_examples.sh).
# Not serial: it compares only what its own sweeps could change
# (sweep_lib.sh), turns no vm sysctl, and its plans drop only their own
# target's page cache (drop_caches = target), not the machine's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep_lib.sh"
need_root
d=$(sweep_dir)
SWEEP_OWN=$d
db=$d/r.db
cd "$d" || exit 1
cat >job.fio <<'JOB'
[w]
ioengine=psync
direct=1
size=4m
bs=64k
rw=randwrite
JOB
cat >ci.plan <<'PLAN'
[target]
image = img/disk.img
image_size = 300m

[factors]
fs = ext4 | xfs | btrfs
read_ahead_kb = 128 | 4096
scheduler = none | mq-deadline

[workload]
job = job.fio
repeat = 2
drop_caches = target

[design]
type = full
goal = write bw
PLAN
q() { sqlite3 "$db" "$1"; }

# --- dry run: every step listed, nothing changed ---------------------------
sweep_snapshot before
sweep_run --dry-run ci.plan --db="$db" >dry.out 2>dry.err
check "--dry-run exits 0" test $? -eq 0
check "--dry-run lists the 12 points" test "$(grep -c '^point [0-9]*/12: ' dry.out)" = 12
check "--dry-run shows the mkfs, mount, knob writes and the run of each point" \
  test "$(grep -c 'mkfs\.' dry.out)" = 12 -a "$(grep -c '  mount -t' dry.out)" = 12 \
  -a "$(grep -c 'queue/read_ahead_kb = ' dry.out)" = 12 -a "$(grep -c 'queue/scheduler = ' dry.out)" = 12 \
  -a "$(grep -c 'iobench run --db=' dry.out)" = 12
sweep_snapshot after
check "--dry-run: no loop device, mount or mount point of its own made" sweep_same before after
check "--dry-run creates no image, database or journal" test ! -e img -a ! -e "$db" -a ! -e "$db-sweep-journal"

# --- the CI plan -------------------------------------------------------------
sweep_run ci.plan --db="$db" >run.out 2>run.err
rc=$?
check "the sweep exits 0" test $rc -eq 0
check "it said point 12 of 12 with an ETA" grep -q 'point 12 of 12: .*ETA' run.err
check "24 runs (12 points x repeat 2) stored, all exit 0, all of sweep 1" \
  test "$(q "SELECT count(*) FROM runs WHERE sweep_id = 1 AND exit_status = 0")" = 24
check "12 distinct points stored" test "$(q "SELECT count(DISTINCT sweep_point) FROM runs")" = 12
check "each run has the labels fs, read_ahead_kb and scheduler" \
  test "$(q "SELECT count(*) FROM labels WHERE key IN ('fs','read_ahead_kb','scheduler')")" = 72
check "every combination of labels is there, twice" \
  test "$(q "SELECT count(*) FROM (SELECT f.value, r.value, s.value, count(*) AS n FROM labels f
      JOIN labels r ON r.run_id = f.run_id AND r.key = 'read_ahead_kb'
      JOIN labels s ON s.run_id = f.run_id AND s.key = 'scheduler'
      WHERE f.key = 'fs' GROUP BY 1, 2, 3 HAVING n = 2)")" = 12
check "the sweep is stored done, with its design, goal, seed and factors" \
  test "$(q "SELECT state, design, goal, seed > 0, factors FROM sweeps WHERE id = 1")" = \
  'done|full|write bw|1|["fs","read_ahead_kb","scheduler"]'
check "its 12 points are stored done" test "$(q "SELECT count(*) FROM sweep_points WHERE sweep_id = 1 AND state = 'done'")" = 12
# each run was measured with its point's knobs: its stored sysinfo says so
check "every run's sysinfo shows its point's read_ahead_kb and scheduler on the loop device" python3 - "$db" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
bad = n = 0
for rid, ra, sch, js in db.execute(
        "SELECT r.id, (SELECT value FROM labels WHERE run_id = r.id AND key = 'read_ahead_kb'), "
        "(SELECT value FROM labels WHERE run_id = r.id AND key = 'scheduler'), e.json "
        "FROM runs r JOIN run_env e ON e.run_id = r.id WHERE r.sweep_id = 1"):
    n += 1
    dev = json.loads(js)["sysinfo"]["devices"][0]
    if not dev["name"].startswith("loop") or str(dev["queue"]["read_ahead_kb"]) != ra or dev["queue"]["scheduler"] != sch:
        print("run %s: labels %s %s, sysinfo %s %s" % (rid, ra, sch, dev["name"], dev["queue"]))
        bad += 1
sys.exit(bad != 0 or n != 24)
PY
sweep_snapshot after
check "after the sweep: its loop devices, mounts and mount point gone" sweep_same before after
check "the image, its directory, the mount point and the journal are gone" \
  test ! -e img -a ! -e "$db-sweep-journal" -a ! -e "/tmp/iobench-sweep-$SWEEP_PID"
check "iobench results list --label selects a point's runs" \
  test "$("$IOBENCH" results list --db="$db" --label fs=xfs --label scheduler=none | grep -c 'read_ahead_kb=')" = 4

# --- a failed point is recorded and the sweep goes on ------------------------
cat >fail.plan <<'PLAN'
[target]
image = img/disk.img
image_size = 300m
fs = ext4
[factors]
mkfs.ext4 = -I 100 | -I 256
[workload]
job = job.fio
drop_caches = target
PLAN
sweep_run fail.plan --db="$db" >fail.out 2>fail.err
check "a sweep with a failed point exits 1" test $? -eq 1
check "the failed point is stored failed with mkfs's message" \
  test "$(q "SELECT count(*) FROM sweep_points WHERE sweep_id = 2 AND state = 'failed' AND message LIKE 'mkfs.ext4 exited with status 1%'")" = 1
check "the other point ran and is stored" \
  test "$(q "SELECT count(*) FROM runs WHERE sweep_id = 2 AND sweep_point = 'mkfs.ext4=-I 256'")" = 1
sweep_snapshot after
check "after the failed point: its loop devices, mounts and mount point gone" sweep_same before after

# --- refusals before anything changes ---------------------------------------
mnt=$(mkfs_mount ext4 32m)
mdev=$(findmnt -n -o SOURCE "$mnt")
free_dev=$(mkloop 32m)
sweep_snapshot before "$mdev" "$free_dev"
for what in mounted unnamed; do
  dev=$mdev; allow=(--allow-destroy="$mdev")
  [ $what = unnamed ] && { dev=$free_dev; allow=(); }
  printf '[target]\ndevice = %s\nfs = ext4\n[factors]\nread_ahead_kb = 128 | 256\n[workload]\njob = job.fio\ndrop_caches = target\n' "$dev" >dev.plan
  sweep_run dev.plan "${allow[@]}" --db="$db" >dev.out 2>dev.err
  rc=$?
  if [ $what = mounted ]; then
    check "a plan naming a mounted device is refused (exit 1, 'mounted' said)" test $rc -eq 1 -a -n "$(grep 'mounted' dev.err)"
  else
    check "a plan naming a device not in --allow-destroy is refused, naming the flag" test $rc -eq 1 -a -n "$(grep -- '--allow-destroy' dev.err)"
  fi
  check "$what device: no sweep stored, no journal left" test "$(q "SELECT count(*) FROM sweeps")" = 2 -a ! -e "$db-sweep-journal"
  sweep_snapshot after "$mdev" "$free_dev"
  check "$what device: knobs, mounts and loop devices as before" sweep_same before after
done
check "the mounted filesystem is still mounted and intact" test -n "$(findmnt -n "$mnt")"

# --- race on a mounted directory: a factor set on the job (rate=) wins -------
cat >rate.fio <<'JOB'
[w]
ioengine=psync
size=1m
bs=64k
rw=write
JOB
printf '[target]\ndir = %s\n[factors]\njob.rate = 4m | 16m\nread_ahead_kb = 256\n[workload]\njob = rate.fio\ndrop_caches = target\n[design]\ntype = race\ngoal = write bw\nmin_repeat = 2\nmax_repeat = 2\n' "$mnt" >race.plan
sweep_snapshot before "$mdev"
sweep_run race.plan --db="$db" >race.out 2>race.err
check "a race exits 0" test $? -eq 0
sid=$(q "SELECT max(id) FROM sweeps")
nr=$(q "SELECT count(*) FROM runs WHERE sweep_id = $sid")
check "the race ran each of its 2 points twice (min_repeat = max_repeat = 2: $nr runs)" test "$nr" = 4
check "the race's best point is a rate=16m one" grep -q 'race over after .* best point: job.rate=16m read_ahead_kb=256' race.err
check "the sweep ends with its analysis, job.rate's share first" \
  test -n "$(grep -A1 '^importance' race.out | grep 'job.rate ')"
check "every run of the race is stored with --set rate= as its point says" \
  test "$(q "SELECT count(*) FROM runs r JOIN job_options o ON o.run_id = r.id AND o.key = 'rate'
      JOIN labels l ON l.run_id = r.id AND l.key = 'job.rate' AND l.value = o.value WHERE r.sweep_id = $sid")" = "$nr"
"$IOBENCH" sweep report "$sid" --db="$db" >report.out 2>report.err
check "sweep report ID takes the sweep's stored goal when --goal is not given" \
  grep -q '^goal: write bw' report.out
sweep_snapshot after "$mdev"
check "after the race: the directory's queue knobs as before" sweep_same before after

# --- plan errors as file:line:col -------------------------------------------
printf '[target]\nimage = x.img\nimage_size = 300m\n[factors]\nfs = ext4\nread_ahead_kb = 128 || 4096\nkernel.cmdline = a | b\nmd.chunk = 64k | 256k\n[workload]\njob = job.fio\ncommand = dd if=/dev/zero\n[design]\ngoal = write bandwidth\n' >bad.plan
sweep_run bad.plan --db="$db" >bad.out 2>bad.err
check "a bad plan exits 1" test $? -eq 1
check "an empty level is reported at its line and column" grep -q '^bad.plan:6:22: error: empty level' bad.err
check "a kernel boot parameter is refused as out of scope" grep -q '^bad.plan:7:1: error: .*out of scope' bad.err
check "md.chunk is refused: the array must be made again (setup/teardown templates)" \
  grep -q "^bad.plan:8:1: error: 'md.chunk': .*made again at each point.*setup = template" bad.err
check "a job with a command = is refused as a mix" grep -q '^bad.plan:11:1: error: .*not a mix' bad.err
check "a goal that names no figure is reported at its value" grep -q '^bad.plan:13:8: error: ' bad.err
check "nothing was made for the bad plan" test ! -e x.img -a "$(q "SELECT count(*) FROM sweeps")" = "$sid"
exit $E2E_FAILED
