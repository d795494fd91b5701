#!/usr/bin/env bash
# iobench sweep: the example plans of the XFS RAID and the ext3/ext4/XFS studies
# (examples/sweep-raid-xfs.plan, examples/sweep-ext3-ext4-xfs.plan) list
# their full plans in a dry run and run in a reduced size: small images
# and files, 000's five bonnie lines at their smallest sizes (without -b)
# at one level of each factor, 003's three filesystems with the four job
# files; afterwards no loop device, mount or mount point of its own is left.
# Apart from test_sweep_run.sh to keep each script under 40 seconds.
# Not serial: it compares only what its own sweeps could change, and the
# reduced plans drop only their own target's page cache (drop_caches =
# target), not the machine's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep_lib.sh"
need_root
d=$(sweep_dir)
SWEEP_OWN=$d
db=$d/r.db
cd "$d" || exit 1
q() { sqlite3 "$db" "$1"; }
sweep_snapshot before
# --- the two studies' examples ---------------------------------------
ex=$TOP/examples
sweep_run --dry-run "$ex/sweep-raid-xfs.plan" --db="$db" >ex0.out 2>&1
check "sweep-raid-xfs.plan: 18 points (3 mkfs.xfs x 3 read_ahead_kb x 2 nr_requests), 5 bonnie lines each" \
  test "$(grep -c '^point ' ex0.out)" = 18 -a "$(grep -c 'iobench bonnie --db' ex0.out)" = 90
sweep_run --dry-run "$ex/sweep-ext3-ext4-xfs.plan" --db="$db" >ex3.out 2>&1
check "sweep-ext3-ext4-xfs.plan: 3 points, each one run of the four job files" \
  test "$(grep -c '^point ' ex3.out)" = 3 -a "$(grep -c 'iobench run .*random-write-test.fio .*random-write-test-buf.fio .*sequential-write-test.fio .*sequential-write-test-buf.fio' ex3.out)" = 3
# reduced: a 600 MiB image (XFS wants a 64 MiB log with su=), each factor at
# its first level, the bonnie lines at their smallest sizes without -b
sed -e 's|^image = .*|image = img/raid.img|; s/^image_size = .*/image_size = 600m/' \
    -e '/^mkfs.xfs\|^read_ahead_kb\|^nr_requests/s/ | .*//' \
    -e 's/-r 4092 -s 20480/-r 4 -s 8/; s/-r 4092/-r 0/; s/ -b$//' \
    -e 's/-n \([0-9]*\):\([0-9]*\):\([0-9]*\):[0-9]*/-n 1:\2:\3:1/; s/-n 1:17000000:17000000:1/-n 1:16384:16384:1/' \
    -e 's/-n 1:1000000:100000:1/-n 1:20000:2000:1/' -e '/^\[workload\]/a drop_caches = target' \
    "$ex/sweep-raid-xfs.plan" >ex0.plan
sweep_run ex0.plan --db="$db" >ex0run.out 2>ex0run.err
check "sweep-raid-xfs.plan, reduced, runs: its point's five bonnie lines stored" \
  test "$(q "SELECT count(*) FROM runs r JOIN sweeps s ON s.id = r.sweep_id WHERE s.plan_path LIKE '%/ex0.plan' AND r.kind = 'bonnie' AND r.exit_status = 0")" = 5
mkdir -p jobs
for f in "$ex"/sweep-jobs/*.fio; do
  sed -e 's/size=5G/size=4m/; s/numjobs=5/numjobs=1/; s/runtime=10/runtime=1/' "$f" >"jobs/${f##*/}"
done
sed -e 's|^image = .*|image = img/msa70.img|; s/^image_size = .*/image_size = 300m/; s|sweep-jobs/|jobs/|; /^repeat/d' -e '/^\[workload\]/a drop_caches = target' \
  "$ex/sweep-ext3-ext4-xfs.plan" >ex3.plan
sweep_run ex3.plan --db="$db" >ex3run.out 2>ex3run.err
check "sweep-ext3-ext4-xfs.plan, reduced, runs: ext3, ext4 and xfs each stored with the four jobs" \
  test "$(q "SELECT group_concat(l.value, ',') FROM (SELECT l.value FROM runs r JOIN sweeps s ON s.id = r.sweep_id
      JOIN labels l ON l.run_id = r.id AND l.key = 'fs' WHERE s.plan_path LIKE '%/ex3.plan' AND r.exit_status = 0
      AND (SELECT count(*) FROM jobs WHERE run_id = r.id) = 4 ORDER BY l.value) l")" = "ext3,ext4,xfs"
sweep_snapshot after
check "after the examples: the loop devices, mounts and mount points of its sweeps gone" sweep_same before after
exit $E2E_FAILED
