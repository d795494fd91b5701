#!/usr/bin/env bash
# e2e: serial
# Anomaly warnings provoked by real conditions on loop
# devices. Each case makes its condition happen for real, shows with raw
# kernel counters taken around the run (diskstats, vmstat, slabinfo, a
# /proc sampler) that it did, so that a missing warning reads as a false
# negative and not as a failed provocation, then checks that the JSON
# report's "warnings" carry that warning with its evidence and lack the
# warnings that cannot apply. A clean direct-I/O random read at QD1 must
# raise none, and the ext4 journal traffic of a job doing fsync=1 must not
# be blamed on an unrelated writer. "load" is never asserted absent, except
# in the clean case when the test's own sampler saw the machine quiet: other
# work on a shared machine makes it true for real. warn_check.py judges.
# Everything made or changed here (loop devices and their write_cache,
# mounts, swap, memory cgroups, the blkio write throttle, dirty sysctls,
# background processes) is undone by the EXIT trap.
. "$(dirname "$0")/lib.sh"
need_root
HERE=$(cd "$(dirname "$0")" && pwd)
ALL="page-cache-read page-cache-write reclaim swap dirty-limit load device-saturated cpu-bound foreign-io slab-growth write-cache"
NCPU=$(nproc)
BUSY_LIMIT=$((2 * 1 + NCPU + 1)) # iobench's load limit for one job (the monitor counts itself)
d=$(tmpdir)

# --- what the EXIT trap undoes besides lib.sh's registry -------------------
BG_PIDS=""
DIRTY_SAVED=""
dirty_now() {
  cat /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio \
    /proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_background_bytes | tr '\n' ' '
}
restore_dirty() {
  [ -n "$DIRTY_SAVED" ] || return 0
  set -- $DIRTY_SAVED
  # writing a *_bytes value zeroes its *_ratio twin and the other way round
  if [ "$3" != 0 ]; then echo "$3" >/proc/sys/vm/dirty_bytes; else echo "$1" >/proc/sys/vm/dirty_ratio; fi
  if [ "$4" != 0 ]; then echo "$4" >/proc/sys/vm/dirty_background_bytes
  else echo "$2" >/proc/sys/vm/dirty_background_ratio; fi
  DIRTY_SAVED=""
}
stop_bg() {
  local p
  for p in $BG_PIDS; do kill -9 "$p" 2>/dev/null; done
  for p in $BG_PIDS; do wait "$p" 2>/dev/null; done
  BG_PIDS=""
}
drop_cgroups() {
  local cg p i
  for cg in $(cat "$d/cgroups" 2>/dev/null); do
    for i in 1 2 3 4 5 6 7 8 9 10; do
      [ -d "$cg" ] || break
      for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
      rmdir "$cg" 2>/dev/null && break
      sleep 0.2
    done
  done
  [ -f "$d/cgroups" ] && : >"$d/cgroups"
}
restore_wc() { [ -z "${WC_RESTORE:-}" ] || echo "$WC_ORIG" >"/sys/block/$WC_RESTORE/queue/write_cache"; WC_RESTORE=""; }
unthrottle() { [ -z "${THROTTLED:-}" ] || echo "$THROTTLED 0" >"$THROTTLE"; THROTTLED=""; }
wcleanup() { stop_bg; restore_wc; unthrottle; restore_dirty; drop_cgroups; cleanup; }
trap wcleanup EXIT

# mkcgroup LIMIT: a memory cgroup (v1, else v2) limited to LIMIT; prints its
# path and lists it in $d/cgroups for drop_cgroups
mkcgroup() {
  local cg
  if [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    cg=/sys/fs/cgroup/memory/iobench-warn.$$.$RANDOM
    mkdir "$cg" || return 1
    echo "$cg" >>"$d/cgroups"
    echo "$1" >"$cg/memory.limit_in_bytes" || return 1
  elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    cg=/sys/fs/cgroup/iobench-warn.$$.$RANDOM
    mkdir "$cg" || return 1
    echo "$cg" >>"$d/cgroups"
    echo "$1" >"$cg/memory.max" || return 1
  else
    return 1
  fi
  echo "$cg"
}
# in_cgroup CG CMD...: run CMD inside the cgroup
in_cgroup() { local cg=$1; shift; sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }

# snap FILE DEV: uptime, DEV's diskstats line, the buffer_head slab line, vmstat
snap() {
  {
    echo "t $(cut -d' ' -f1 /proc/uptime)"
    [ "$2" = - ] || awk -v n="$2" '$3 == n { print "disk", $0 }' /proc/diskstats
    awk '$1 == "buffer_head" { print "slab", $0 }' /proc/slabinfo
    cat /proc/vmstat
  } >"$1"
}
# measure CASE DEV CMD...: CMD (an iobench run printing JSON) between two
# snapshots; the report goes to $d/CASE.json
measure() {
  local c=$1 dev=${2#/dev/} rc; shift 2
  echo "# $c: starts at ${SECONDS}s"
  snap "$d/$c.a" "$dev"
  "$@" >"$d/$c.json" 2>"$d/$c.err"; rc=$?
  snap "$d/$c.b" "$dev"
  check "$c: the run exits 0" test $rc -eq 0
  [ $rc -eq 0 ] || sed 's/^/#   /' "$d/$c.err"
}
# verdict CASE <<statements (see warn_check.py)
verdict() { python3 "$HERE/warn_check.py" verdict "$1" "$d" || E2E_FAILED=1; }
# sampler CASE SECS IV: the /proc sampler in the background; sampled waits for it
sampler() { python3 "$HERE/warn_check.py" sample "$2" "$3" "$d/$1.sample" & smp=$!; BG_PIDS="$BG_PIDS $smp"; }
sampled() {
  local p keep=""
  wait $smp
  for p in $BG_PIDS; do [ "$p" = "$smp" ] || keep="$keep $p"; done
  BG_PIDS=$keep
}
# but ID...: $ALL without these IDs
but() { local i out=""; for i in $ALL; do [[ " $* " == *" $i "* ]] || out="$out $i"; done; echo $out; }
IOB() { "$IOBENCH" run --output-format=json "$@"; }

# --- the filesystem most cases use: ext4 without lazy init, so no kernel
# thread writes to it behind the jobs' backs
A=$(mkfs_mount ext4 512M -E lazy_itable_init=0,lazy_journal_init=0) || { not_ok "make an ext4 loop filesystem"; finish; }
ADEV=$(findmnt -n -o SOURCE "$A"); AN=${ADEV#/dev/}
"$IOBENCH" run --no-monitor --rw=write --bs=1m --end_fsync=1 --name=lay --filename="$A/f32" --size=32m \
  --name=lay2 --filename="$A/f128" --size=128m >/dev/null 2>&1
check "lay out the test files" test "$(stat -c %s "$A/f32" "$A/f128" | tr '\n' ' ')" = "33554432 134217728 "
sync

# --- clean: direct random reads at QD1 raise nothing ------------------------
sampler clean 3.3 0.1
measure clean "$ADEV" IOB --name=clean --filename="$A/f32" --size=32m --rw=randread --bs=4k \
  --direct=1 --ioengine=psync --time_based --runtime=3
sampled
if python3 -c "import json,sys; sys.exit(json.load(open('$d/clean.sample'))['tasks'] <= $BUSY_LIMIT)"; then
  echo "# clean: other work kept the machine busy ($(cat "$d/clean.sample")): load may be raised for real"
  only=load
else
  only=
fi
verdict clean <<EOF
raw the job read from the device (direct I/O) :: r['disk.rsect'] * 512 >= j['jobs'][0]['read']['io_bytes'] > 0
only $only
EOF

# --- page-cache-read: re-reading a cached 32 MiB file -----------------------
# (the direct=1 run above dropped its cache, as fio's does: warm it again)
cat "$A/f32" >/dev/null
measure pcr "$ADEV" IOB --name=pcr --filename="$A/f32" --size=32m --rw=randread --bs=4k \
  --invalidate=0 --rate=32m --time_based --runtime=2
verdict pcr <<EOF
raw the job read >= 8 MiB, the device less than half of it :: j['jobs'][0]['read']['io_bytes'] >= 8 << 20 and r['disk.rsect'] * 512 < j['jobs'][0]['read']['io_bytes'] / 2
has page-cache-read :: through the page cache; $AN read
absent $(but page-cache-read load)
EOF

# --- page-cache-write: 64 MiB buffered, never flushed ----------------------
measure pcw "$ADEV" IOB --name=pcw --filename="$A/w64" --size=64m --rw=write --bs=64k
verdict pcw <<EOF
raw the device wrote less than half of what the job wrote :: r['disk.wsect'] * 512 < j['jobs'][0]['write']['io_bytes'] / 2
has page-cache-write :: wrote 64\.0MiB through the page cache with no fsync; [0-9.]+MiB \([0-9.]+%\) of it was still in memory, unwritten, when it ended; $AN wrote
has write-cache :: queue/write_cache is "write back"
absent $(but page-cache-write write-cache load cpu-bound)
EOF
# the same warnings close the normal text report
"$IOBENCH" run --name=pcw --filename="$A/w16" --size=16m --rw=write --bs=64k >"$d/pcw.txt" 2>"$d/pcw.txterr"
check "pcw: the text report ends with a Warnings: section listing both, each naming its group and job, with evidence and advice" \
  python3 - "$d/pcw.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
sec = t[t.rindex("\nWarnings:\n") + 11:]
for wid in ("page-cache-write", "write-cache"):
    assert re.search(r"^  %s \(group 0, job 'pcw'\): .+\n    evidence: .+\n    what to do: .+$" % wid,
                     sec, re.M), (wid, sec)
EOF
rm -f "$A/w64" "$A/w16"; sync

# --- cpu-bound: the null engine keeps one thread on a core -----------------
# The thread never blocks; whether it also gets >= 90% of a core depends on
# what else the machine runs, so the raw check is the scheduler's: on the
# CPU or waiting for it (schedstat) for >= 90% of the job's runtime, with
# no voluntary context switch (it never waited for anything else).
echo "# cpu: starts at ${SECONDS}s"
snap "$d/cpu.a" -
"$IOBENCH" run --output-format=json --name=burn --ioengine=null --size=1g --rw=randread --bs=4k --time_based --runtime=2 \
  >"$d/cpu.json" 2>"$d/cpu.err" &
pid=$!
python3 "$HERE/warn_check.py" threads $pid 0.05 "$d/cpu.sample" || not_ok "cpu: the threads sampled (warn_check.py exited $?)"
wait $pid; rc=$?
snap "$d/cpu.b" -
check "cpu: the run exits 0" test $rc -eq 0
verdict cpu <<EOF
note the busiest thread (schedstat) :: s
note the job's usr + sys :: j['jobs'][0]['usr_cpu'] + j['jobs'][0]['sys_cpu']
raw the job thread was runnable >= 90% of the job's runtime and never blocked :: s['run_ns'] + s['wait_ns'] >= 0.9e6 * j['jobs'][0]['job_runtime'] and s['voluntary'] <= 2
has cpu-bound :: job 'burn' used [0-9]+% of a core
absent $(but cpu-bound load)
EOF

# --- foreign-io: dd writes another file on the same filesystem -------------
# dd is fed 2 MiB every 0.1 s so that it is alive (and named) before, during
# and after the run; the job is capped at 500 IOPS so dd's I/O dominates
( echo $BASHPID >"$d/feeder.pid"; for i in $(seq 80); do head -c 2M /dev/zero; sleep 0.1; done ) |
  dd of="$A/other" bs=1M iflag=fullblock oflag=direct status=none &
ddpid=$!
BG_PIDS="$BG_PIDS $ddpid"
sleep 0.5
BG_PIDS="$BG_PIDS $(cat "$d/feeder.pid")"
dd_before=$(awk '/^write_bytes/ {print $2}' /proc/$ddpid/io)
measure foreign "$ADEV" IOB --name=victim --filename="$A/f32" --size=32m --rw=randread --bs=4k \
  --direct=1 --rate_iops=500 --time_based --runtime=4
dd_after=$(awk '/^write_bytes/ {print $2}' /proc/$ddpid/io 2>/dev/null)
stop_bg
verdict foreign <<EOF
raw dd (pid $ddpid) wrote >= 16 MiB during the run ($dd_before -> $dd_after) :: ${dd_after:-0} - ${dd_before:-0} >= 16 << 20
raw the device moved >= 16 MiB more than the job :: (r['disk.rsect'] + r['disk.wsect']) * 512 - j['jobs'][0]['read']['io_bytes'] >= 16 << 20
has foreign-io :: files on its filesystem: .*dd\[$ddpid\]
absent $(but foreign-io load)
EOF
rm -f "$A/other"; sync

# --- no foreign-io for the job's own journal ------------------------------
# fsync after every 4 KiB append makes ext4 write its journal and metadata,
# several times the data, to the job's device, while an unrelated dd writes
# a file on another filesystem: nobody else touched the job's device, so
# foreign-io must stay quiet (/proc/PID/io does not say which device). For
# this case the loop device says "write through", so that an fsync does not
# wait for the disk under the image and the journal traffic does not depend
# on that disk's flush speed; the job is capped at 2000 fsyncs a second.
U=$(tmpdir)
( echo $BASHPID >"$d/feeder2.pid"; for i in $(seq 50); do head -c 1M /dev/zero; sleep 0.1; done ) |
  dd of="$U/unrelated" bs=1M iflag=fullblock oflag=direct status=none &
ddpid=$!
BG_PIDS="$BG_PIDS $ddpid"
sleep 0.5
BG_PIDS="$BG_PIDS $(cat "$d/feeder2.pid")"
WC_ORIG=$(cat "/sys/block/$AN/queue/write_cache")
WC_RESTORE=$AN
echo "write through" >"/sys/block/$AN/queue/write_cache"
dd_before=$(awk '/^write_bytes/ {print $2}' /proc/$ddpid/io)
measure journal "$ADEV" IOB --name=journal --filename="$A/jrnl" --size=256m --rw=write --bs=4k \
  --fsync=1 --rate_iops=2000 --time_based --runtime=2.5
dd_after=$(awk '/^write_bytes/ {print $2}' /proc/$ddpid/io 2>/dev/null)
stop_bg
restore_wc
verdict journal <<EOF
raw dd (pid $ddpid) wrote >= 4 MiB during the run, on another filesystem :: ${dd_after:-0} - ${dd_before:-0} >= 4 << 20 and $(stat -c %d "$U") != $(stat -c %d "$A")
raw $AN wrote >= 16 MiB and 1/4 more than the job (journal and metadata) :: r['disk.wsect'] * 512 - j['jobs'][0]['write']['io_bytes'] >= max(16 << 20, j['jobs'][0]['write']['io_bytes'] / 4)
absent $(but load)
EOF
rm -f "$A/jrnl" "$U/unrelated"; sync

# --- write-cache: direct writes, no flush, on a "write back" device --------
measure wc "$ADEV" IOB --name=dw --filename="$A/dw" --size=32m --rw=write --bs=64k --direct=1
verdict wc <<EOF
raw $AN reports a volatile write cache :: open('/sys/block/$AN/queue/write_cache').read() == 'write back\n'
raw the device wrote what the job wrote :: r['disk.wsect'] * 512 >= j['jobs'][0]['write']['io_bytes']
has write-cache :: written with no fsync.*/sys/block/$AN/queue/write_cache is "write back"
absent $(but write-cache load cpu-bound)
EOF
rm -f "$A/dw"; sync

# --- device-saturated: 1 MiB direct reads, 32 in flight ---------------------
# The loop device does direct I/O to its image for this case, so the disk
# under it keeps the queue full: buffered, the loop's own workers compete
# for the CPU and %util wavers around 95 on a busy machine.
losetup --direct-io=on "$ADEV" 2>/dev/null || echo "# sat: $AN cannot do direct I/O to its image; buffered"
measure sat "$ADEV" IOB --name=sat --filename="$A/f128" --size=128m --rw=randread --bs=1m \
  --direct=1 --ioengine=io_uring --iodepth=32 --time_based --runtime=4
losetup --direct-io=off "$ADEV" 2>/dev/null
verdict sat <<EOF
note the monitor's summary of $AN :: [(m['duration'], x['%util'], x['aqu-sz']) for m in [j['iobench']['monitor']['summary']] for x in m['disks'] if x['name'] == '$AN']
note the job's runtime (ms) and raw diskstats io_ms, weighted_ms :: j['jobs'][0]['job_runtime'], r['disk.io_ms'], r['disk.weighted_ms']
raw diskstats: busy >= 95% of the job's runtime, >= 8 requests queued on average :: r['disk.io_ms'] >= 0.95 * j['jobs'][0]['job_runtime'] and r['disk.weighted_ms'] >= 8 * j['jobs'][0]['job_runtime']
has device-saturated :: %util [0-9]+, aqu-sz [0-9.]+
absent $(but device-saturated load)
EOF

# --- load: eight busy loops beside a one-job run ---------------------------
for i in 1 2 3 4 5 6 7 8; do nice -n 19 sh -c 'while :; do :; done' & BG_PIDS="$BG_PIDS $!"; done
sampler load 3.5 0.1
measure load "$ADEV" IOB --name=calm --filename="$A/f32" --size=32m --rw=randread --bs=4k \
  --direct=1 --rate_iops=200 --time_based --runtime=3
sampled
stop_bg
verdict load <<EOF
raw the sampler saw more than $BUSY_LIMIT tasks running or blocked :: s['tasks'] > $BUSY_LIMIT
has load :: up to [0-9]+ tasks running or blocked
absent $(but load)
EOF

# --- dirty-limit: a 2 MiB dirty limit under a buffered writer --------------
# The loop device's writes are also capped at 8 MB/s (cgroup v1 blkio, root
# group, which holds the flusher threads) so that writeback cannot keep up
# whatever the disk under the image does at the moment: the writer is then
# throttled for the whole run.
dirty_orig=$(dirty_now)
DIRTY_SAVED=$dirty_orig
echo $((2 << 20)) >/proc/sys/vm/dirty_bytes
echo $((1 << 20)) >/proc/sys/vm/dirty_background_bytes
THROTTLE=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
if [ -w $THROTTLE ]; then
  THROTTLED=$(lsblk -dno MAJ:MIN "$ADEV" | tr -d ' ')
  echo "$THROTTLED $((8 << 20))" >$THROTTLE || THROTTLED=""
fi
[ -n "${THROTTLED:-}" ] || echo "# dirty: no cgroup v1 blkio throttle here; writeback runs at the disk's speed"
sampler dirty 3.5 0.02
measure dirty "$ADEV" IOB --monitor-interval=0.1 --name=dirt --filename="$A/dirt" --size=64m \
  --rw=write --bs=64k --time_based --runtime=3
sampled
unthrottle
restore_dirty
check "dirty: vm.dirty_* restored to $dirty_orig" test "$(dirty_now)" = "$dirty_orig"
check "dirty: no write throttle left on $AN" eval "! grep -q '^$(lsblk -dno MAJ:MIN "$ADEV" | tr -d ' ') ' $THROTTLE 2>/dev/null"
verdict dirty <<EOF
note sampler maxima :: s
note the job's write clat max (ms), bandwidth (KiB/s) :: j['jobs'][0]['write']['clat_ns']['max'] / 1e6, j['jobs'][0]['write']['bw']
raw nr_dirty + nr_writeback (what the kernel holds against the limit) reached 90% of nr_dirty_threshold :: s['dirty_wb_frac'] >= 0.9
has dirty-limit :: nr_dirty \+ nr_writeback reached [0-9]+ pages
has write-cache :: write back
absent page-cache-read page-cache-write reclaim swap foreign-io slab-growth
EOF
rm -f "$A/dirt"; sync

# --- swap: a memory hog three times its cgroup's limit, swap on a loop -----
# (it writes no zero byte: a zero-filled page goes out as a swap entry with
# no I/O, swpout_zero, not pswpout; a slow first pass under load wrote 0s)
SDEV=$(mkloop 256M) && mkswap "$SDEV" >/dev/null 2>&1 && swapon "$SDEV" && reg swap "$SDEV"
check "swap: a swap area on $SDEV is active" grep -q "^$SDEV " /proc/swaps
if cg=$(mkcgroup 64M); then
  in_cgroup "$cg" python3 -c '
import mmap, time
n = 192 << 20; m = mmap.mmap(-1, n); end = time.monotonic() + 6; i = 0
while time.monotonic() < end:
    for off in range(0, n, 4096): m[off] = i % 255 + 1
    i += 1' &
  BG_PIDS="$BG_PIDS $!"
  sleep 0.5
  measure swap "$ADEV" IOB --name=calm --filename="$A/f32" --size=32m --rw=randread --bs=4k \
    --direct=1 --rate_iops=200 --time_based --runtime=3
  stop_bg
  verdict swap <<EOF
raw the system swapped >= 64 pages during the run :: r.get('vm.pswpin', 0) + r.get('vm.pswpout', 0) >= 64
has swap :: pswpin \+[0-9]+, pswpout \+[0-9]+
absent page-cache-read page-cache-write dirty-limit device-saturated foreign-io slab-growth write-cache cpu-bound
EOF
else
  not_ok "swap: make a memory cgroup (neither cgroup v1 memory nor v2 memory.max here)"
fi
swapoff "$SDEV" 2>/dev/null

# --- reclaim: a buffered read 4x larger than the reader's memory cgroup -----
if cg=$(mkcgroup 32M); then
  measure reclaim "$ADEV" in_cgroup "$cg" "$IOBENCH" run --output-format=json --name=squeeze \
    --filename="$A/f128" --size=128m --rw=read --bs=64k --time_based --runtime=3
  verdict reclaim <<EOF
note reclaim counters that moved :: {k: v for k, v in r.items() if 'scan' in k or 'steal' in k or 'allocstall' in k}
raw reclaim scanned >= the 96 MiB the cgroup could not hold :: r.get('vm.pgscan_file', 0) + r.get('vm.pgscan_anon', 0) >= (96 << 20) // 4096
has reclaim :: pgscan|allocstall|kswapd
absent page-cache-read page-cache-write swap dirty-limit foreign-io slab-growth write-cache
EOF
else
  not_ok "reclaim: make a memory cgroup (neither cgroup v1 memory nor v2 memory.max here)"
fi
drop_cgroups

# --- slab-growth: 256 MiB through ext4 with 1 KiB blocks -------------------
B=$(mkfs_mount ext4 512M -b 1024 -E lazy_itable_init=0,lazy_journal_init=0) || not_ok "make a 1k-block ext4"
BDEV=$(findmnt -n -o SOURCE "$B")
measure slab "$BDEV" IOB --warn-slab=4m --name=bh --filename="$B/bh" --size=256m --rw=write \
  --bs=1m --end_fsync=1
verdict slab <<EOF
raw the buffer_head slab grew by more than 4 MiB :: r['slab_bh'] > 4 << 20
has slab-growth :: buffer_head grew by [0-9.]+[KMG]iB to [0-9.]+[KMG]iB \(threshold 4\.0+MiB\)
absent page-cache-read page-cache-write swap foreign-io write-cache dirty-limit reclaim
EOF

echo "# total ${SECONDS}s"
finish
