#!/usr/bin/env bash
# iobench sweep: a `command =` workload and nested factors.
# fs = ext4 | xfs with mkfs.xfs = two inode sizes (3 points, not 4) and
# a RAID study's kind of command (dd ...; sync, with {dev}, {fs} and {mnt}
# filled in), repeat 2: 6 runs stored, each one job "command" timed (its
# runtime is the elapsed time the goal reads), the target's written bytes
# as its write direction, the command in its job file and its stdout and
# stderr in its normal rendering; `sweep report` analyses all 6 runs, not
# the 4 of xfs, and names the nested factor "mkfs.xfs (within fs=xfs)" in
# text and JSON. A command that exits 3 is a failed point with its status
# and stderr line, no run stored. drop_caches = target drops the file the
# last repetition wrote (fincore: 1024 pages after the write, 0 before the
# next), and its dry run drops nothing of the machine's; the example's
# default (all) drops the machine's. md.stripe_cache_size on a loop device or
# on image files is refused before anything changes (no md array). Seed
# 002's example plan lists its
# points in a dry run and runs reduced (a 600 MiB image: XFS with a
# stripe unit wants a 64 MiB log). Afterwards the script's loop
# devices, mounts and mount points are gone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep_lib.sh"
need_root
d=$(sweep_dir)
SWEEP_OWN=$d
db=$d/r.db
cd "$d" || exit 1
q() { sqlite3 "$db" "$1"; }
sweep_snapshot before
cat >c.plan <<'PLAN'
[target]
image = img/disk.img
image_size = 300m

[factors]
fs = ext4 | xfs
mkfs.xfs = -i size=512 | -i size=1024

[workload]
command = dd if=/dev/zero of={mnt}/big bs=1M count=16 status=none; sync; echo wrote {fs} on {dev}; echo to-stderr >&2
repeat = 2
drop_caches = target

[design]
goal = elapsed
PLAN
sweep_run c.plan --db="$db" >c.out 2>c.err
check "a command sweep exits 0" test $? -eq 0
check "3 points (mkfs.xfs only at xfs), 6 runs stored, exit 0" \
  test "$(q "SELECT count(DISTINCT sweep_point) || '/' || count(*) FROM runs WHERE sweep_id = 1 AND exit_status = 0")" = 3/6
check "each run is one job 'command' with its runtime" \
  test "$(q "SELECT count(*) FROM figures WHERE job_name = 'command' AND name = 'job_runtime' AND value > 0")" = 6
check "its write direction: the 16 MiB dd wrote to the target, counted once (not again on the disk under the image)" \
  test "$(q "SELECT count(*) FROM figures WHERE job_name = 'command' AND direction = 'write' AND name = 'io_bytes' AND value >= 16777216 AND value < 2 * 16777216")" = 6
check "the command, with {mnt} filled in, is the run's job file" \
  test "$(q "SELECT count(*) FROM job_files WHERE name = 'command' AND CAST(content AS TEXT) LIKE 'dd if=/dev/zero of=/tmp/iobench-sweep-$SWEEP_PID/big %; sync; echo wrote % on /dev/loop%'")" = 6
check "stdout ({fs}, {dev} filled in) and stderr are kept with the run" \
  test "$(q "SELECT count(*) FROM renderings WHERE format = 'normal' AND CAST(content AS TEXT) LIKE '%stdout (%'||char(10)||'wrote xfs on /dev/loop%stderr (10 bytes):'||char(10)||'to-stderr%'")" = 4
check "the sweep's own analysis names the nested factor" grep -q '^  mkfs.xfs (within fs=xfs) (best: ' c.out
"$IOBENCH" sweep report 1 --db="$db" --output-format=json >rep.json 2>rep.err
check "sweep report: all 6 runs analysed (none left out), 3 points" \
  test "$(json_get rep.json '"%d/%d/%d" % (d["runs"], d["skipped"]["no_label"], len(d["points"]))')" = 6/0/3
check "sweep report JSON: fs over all runs, mkfs.xfs within fs=xfs" \
  test "$(json_get rep.json '"|".join("%s:%s:%d" % (e["factor"], e["within"], sum(l["runs"] for l in e["levels"])) for e in d["main_effects"])')" = "fs:None:6|mkfs.xfs:fs=xfs:4"
check "sweep report JSON: the ext4 point has no mkfs.xfs level (null)" \
  test "$(json_get rep.json '[p["levels"]["mkfs.xfs"] for p in d["points"] if p["levels"]["fs"] == "ext4"]')" = "[None]"
"$IOBENCH" sweep report 1 --db="$db" --goal 'write bw' >bw.out 2>&1
check "the goal 'write bw' reads the command's bytes over its time" grep -q '^goal: write bw .* 6 run(s), 3 point(s)' bw.out

# --- drop_caches = target: the file the last repetition wrote is not cached -
printf '[target]\nimage = img/dc.img\nimage_size = 300m\nfs = ext4\n[factors]\nread_ahead_kb = 128\n[workload]\ncommand = fincore -n -o PAGES {mnt}/f 2>/dev/null || echo none; dd if=/dev/zero of={mnt}/f bs=1M count=4 status=none; fincore -n -o PAGES {mnt}/f\nrepeat = 2\ndrop_caches = target\n' >dc.plan
sweep_run --dry-run dc.plan --db="$db" >dcdry.out 2>&1
check "drop_caches = target: the dry run says it syncs and drops the target's files and devices only" \
  test "$(grep -c "^  syncfs /tmp/iobench-sweep-$SWEEP_PID; drop the page cache of its files and its devices' buffers$" dcdry.out)" = 2 \
    -a -z "$(grep 'echo 3 > /proc/sys/vm/drop_caches' dcdry.out)"
sweep_run dc.plan --db="$db" >dc.out 2>dc.err
sid=$(q "SELECT max(id) FROM sweeps")
out=$(q "SELECT group_concat(replace(substr(CAST(g.content AS TEXT), instr(CAST(g.content AS TEXT), 'stdout (')), char(10), ' '), '|') FROM runs r JOIN renderings g ON g.run_id = r.id AND g.format = 'normal' WHERE r.sweep_id = $sid ORDER BY r.id")
check "drop_caches = target: 1024 pages cached after the write, none before the second repetition ($out)" \
  test -n "$(echo "$out" | grep -E '^stdout \([0-9]+ bytes\): none +1024 stderr.*\|stdout \([0-9]+ bytes\): +0 +1024 stderr')"

# --- a failing command: a failed point with its status -----------------------
printf '[target]\nimage = img/f.img\nimage_size = 300m\nfs = ext4\n[factors]\nread_ahead_kb = 128\n[workload]\ncommand = echo doomed >&2; exit 3\ndrop_caches = target\n' >fail.plan
sweep_run fail.plan --db="$db" >fail.out 2>fail.err
sid=$(q "SELECT max(id) FROM sweeps")
check "the failing command's point is failed with its exit status and stderr" \
  test "$(q "SELECT state || ': ' || message FROM sweep_points WHERE sweep_id = $sid")" = "failed: the command exited with status 3: doomed"
check "and no run is stored for it" test "$(q "SELECT count(*) FROM runs WHERE sweep_id = $sid")" = 0

# --- md knobs: refused on a target that is no md array ---------------------
# (this machine has no md driver: tests/unit/test_sweep_md.c turns them on
# a fake sysfs tree)
ldev=$(mkloop 64m)
printf '[target]\ndevice = %s\nfs = ext4\n[factors]\nmd.stripe_cache_size = 256 | 4096\n[workload]\ncommand = sync\n' "$ldev" >md.plan
nsweeps=$(q "SELECT count(*) FROM sweeps")
sweep_snapshot mdbefore "$ldev"
sweep_run md.plan --allow-destroy="$ldev" --db="$db" >md.out 2>md.err
check "md.stripe_cache_size on a loop device is refused before anything changes, saying why" \
  test $? -eq 1 -a -n "$(grep "md.plan:5:1: factor 'md.stripe_cache_size': target '$ldev' (${ldev#/dev/}) is not an md array (no /sys/block/${ldev#/dev/}/md)" md.err)"
sweep_snapshot mdafter "$ldev"
check "nothing stored, no journal, the device's knobs and mounts as before" \
  test "$(q "SELECT count(*) FROM sweeps")" = "$nsweeps" -a ! -e "$db-sweep-journal"
check "the device's knobs and mounts as before" sweep_same mdbefore mdafter
printf '[target]\nimage = img/m.img\nimage_size = 300m\nfs = ext4\n[factors]\nmd.stripe_cache_size = 256 | 4096\n[workload]\ncommand = sync\n' >mdimg.plan
sweep_run mdimg.plan --db="$db" >mdimg.out 2>mdimg.err
check "md.stripe_cache_size on image files is refused when the plan is read" \
  test $? -eq 1 -a -n "$(grep "^mdimg.plan:6:1: error: .*image files attached as loop devices, not an md array" mdimg.err)" -a ! -e img/m.img

# --- the dd; sync example ---------------------------------------------------------
ex=$TOP/examples/sweep-dd-sync.plan
"$IOBENCH" sweep --dry-run "$ex" --db="$db" >ex.out 2>&1
check "sweep-dd-sync.plan: 4 points (ext4, xfs x 3 stripe units), 3 timed dd; sync each after the machine's page cache is dropped" \
  test "$(grep -c '^point ' ex.out)" = 4 -a "$(grep -c 'timed) sh -c .dd if=/dev/zero of=/tmp/iobench-sweep-[0-9]*/bigfile bs=1M count=10240; sync' ex.out)" = 12 \
    -a "$(grep -c '^  sync; echo 3 > /proc/sys/vm/drop_caches$' ex.out)" = 12
sed -e 's|^image = .*|image = img/dd.img|; s/^image_size = .*/image_size = 600m/; s/count=10240/count=8/; s/^repeat = .*/repeat = 1/' -e '/^\[workload\]/a drop_caches = target' \
  "$ex" >ex.plan
sweep_run ex.plan --db="$db" >exrun.out 2>exrun.err
check "sweep-dd-sync.plan, reduced, runs: its 4 points each stored with the elapsed time" \
  test "$(q "SELECT count(*) FROM runs r JOIN sweeps s ON s.id = r.sweep_id WHERE s.plan_path LIKE '%/ex.plan' AND r.exit_status = 0")" = 4 \
  -a -n "$(grep '^goal: elapsed (lower is better), 4 run(s), 4 point(s)' exrun.out)"
# a relative --db names the database where the sweep was started, though
# the points run in their target's directory
mkdir -p rel/t
printf '[target]\ndir = %s/rel/t\n[factors]\njob.bs = 4k | 64k\n[workload]\njob = %s/rel/j.fio\n[design]\ngoal = write bw\n' "$d" "$d" >rel/p.plan
printf '[w]\nrw=write\nsize=256k\nioengine=psync\nfilename=f\n' >rel/j.fio
(cd rel && sweep_run p.plan --db=rel.db >p.out 2>p.err)
check "a relative --db: both points stored in the database beside the plan, none in the target directory" \
  test "$(sqlite3 rel/rel.db "SELECT count(*) FROM runs WHERE sweep_id IS NOT NULL")" = 2 -a ! -e rel/t/rel.db
sweep_snapshot after
check "afterwards: the script's loop devices, mounts and mount points are gone" sweep_same before after
check "and so are the images" test ! -e img/disk.img -a ! -e img/dd.img
exit $E2E_FAILED
