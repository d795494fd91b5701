#!/usr/bin/env bash
# Workload options about syncing and the page cache, and the sanity of the
# statistics a job reports: fsync/fdatasync/end_fsync/fsync_on_close counted
# by strace and in the JSON sync section, direct=1 against buffered reads and
# invalidate seen in a private loop device's disk_util, and the internal
# consistency of latency buckets, percentiles, bandwidth and IOPS samples.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
e2e_trace_helpers
tj() { local out=$1; shift; rm -f "$d"/s*.dat; trace "$out" "$IOBENCH" run --output-format=json "$@" >"$out.json" 2>>"$d/err"; }

# --- fsync family: 256 writes of 4k ---------------------------------------------
if [ $have_strace = 1 ]; then
  W=(--rw=write --bs=4k --size=1m --filename="$d/s.dat")
  tj "$d/fs16" --name=f "${W[@]}" --fsync=16
  tj "$d/fs7" --name=f "${W[@]}" --fsync=7
  tj "$d/fds16" --name=f "${W[@]}" --fdatasync=16
  tj "$d/endf" --name=f "${W[@]}" --end_fsync=1
  tj "$d/onclose" --name=f "${W[@]}" --fsync_on_close=1
  tj "$d/none" --name=f "${W[@]}"
  tj "$d/fs2" --name=f --rw=write --bs=4k --size=2m --filename="$d/s1.dat:$d/s2.dat" --fsync=16
  tj "$d/end2" --name=f --rw=write --bs=4k --size=2m --filename="$d/s1.dat:$d/s2.dat" --end_fsync=1
  # counts TRACE: "fsyncs fdatasyncs sync_total_ios sync_lat_N"
  counts() {
    python3 - "$1" <<'PY'
import json, sys, iotrace
ev = iotrace.load(sys.argv[1])
s = json.load(open(sys.argv[1] + ".json"))["jobs"][0]["sync"]
print(sum(e["op"] == "fsync" for e in ev), sum(e["op"] == "fdatasync" for e in ev),
      s["total_ios"], s["lat_ns"]["N"])
PY
  }
  check "fsync=16: 15 fsyncs for 256 writes (as fio: none after the last), sync total_ios and lat N 15" test "$(counts "$d/fs16")" = "15 0 15 15"
  check "fsync=7: floor(256/7) = 36 fsyncs" test "$(counts "$d/fs7")" = "36 0 36 36"
  check "fdatasync=16: 15 fdatasyncs and no fsync, reported in sync (N 15)" test "$(counts "$d/fds16" | cut -d' ' -f1,2,4)" = "0 15 15"
  check "end_fsync=1: one fsync" test "$(counts "$d/endf" | cut -d' ' -f1,2)" = "1 0"
  check "fsync_on_close=1: one fsync" test "$(counts "$d/onclose" | cut -d' ' -f1,2)" = "1 0"
  check "no sync option: no fsync, sync total_ios 0" test "$(counts "$d/none")" = "0 0 0 0"
  pycheck "end_fsync: the fsync comes after the last write" "$d/endf" <<'PY'
import sys, iotrace
ev = iotrace.data_ops(iotrace.load(sys.argv[1]), ops=("pwrite64", "fsync"))
assert len(ev) == 257 and ev[-1]["op"] == "fsync" and ev[-1]["t"] >= ev[-2]["t"], ev[-2:]
PY
  pycheck "fsync=16: an fsync between every 16th write and the next, none after the last (as fio)" "$d/fs16" <<'PY'
import sys, iotrace
ev = iotrace.data_ops(iotrace.load(sys.argv[1]), ops=("pwrite64", "fsync"))
ops = [e["op"] for e in ev]
assert ops == (["pwrite64"] * 16 + ["fsync"]) * 15 + ["pwrite64"] * 16, ops[:20]
PY
  pycheck "fsync=16 over two files: 31 fsyncs of one file each, taking that file's roundrobin turn (as fio)" "$d/fs2" <<'PY'
import sys, iotrace
ev = iotrace.data_ops(iotrace.load(sys.argv[1]), ops=("pwrite64", "fsync"))
syncs = [i for i, e in enumerate(ev) if e["op"] == "fsync"]
assert len(syncs) == 31, len(syncs)
assert all(ev[i - 1]["path"] != ev[i]["path"] != ev[i + 1]["path"] for i in syncs)
PY
  check "end_fsync over two files: one fsync per file" test "$(counts "$d/end2" | cut -d' ' -f1,2)" = "2 0"
fi

# --- direct=1, buffered, invalidate: reads of a just-written file ------------
# On a private loop device so nothing else on the machine adds to its counts.
mnt=
if [ "$(id -u)" -ne 0 ]; then
  skip_check "direct=1, buffered and invalidate reads on a loop device" "needs root for a loop device"
else
  # mkfs_mount by hand: a loop device number can keep a read-only flag that
  # an earlier user set with blockdev --setro, so clear it on ours first
  mnt=$(tmpdir)
  if ! ldev=$(mkloop 64m) || ! blockdev --setrw "$ldev" || ! mkfs.ext4 -q -F "$ldev" >/dev/null 2>&1 ||
     ! mount "$ldev" "$mnt"; then
    not_ok "cache checks: cannot make an ext4 file system on a loop device"
    mnt=
  else
    echo "mount $mnt" >>"$E2E_REG"
  fi
fi
if [ -n "$mnt" ]; then
  dev=$(basename "$(findmnt -n -o SOURCE "$mnt")")
  j --name=w --rw=write --bs=64k --size=8m --filename="$mnt/c.dat" >/dev/null
  # rd ARGS: read_ios of the loop device during a read of the file
  rd() {
    j --name=r --bs=64k --size=8m --filename="$mnt/c.dat" "$@" >"$d/rd.json"
    python3 -c "import json,sys; print([x['read_ios'] for x in json.load(open(sys.argv[1]))['disk_util'] if x['name']==sys.argv[2]][0])" "$d/rd.json" "$dev"
  }
  n_cached=$(rd --rw=read --invalidate=0)
  n_cached_rand=$(rd --rw=randread --bs=4k --invalidate=0)
  # as fio, a direct=1 job drops the file's cached pages too (invalidate=1);
  # DONTNEED drops clean pages only, so the written data is flushed first
  sync "$mnt/c.dat"
  n_direct=$(rd --rw=read --direct=1)
  n_after_direct=$(rd --rw=read --invalidate=0)
  n_inval_rand=$(rd --rw=randread --bs=4k --invalidate=1)
  n_inval_seq=$(rd --rw=read --invalidate=1)
  echo "# $dev read_ios: direct=$n_direct cached=$n_cached cached_rand=$n_cached_rand after_direct=$n_after_direct inval_rand=$n_inval_rand inval_seq=$n_inval_seq"
  check "direct=1: every one of the 128 reads reaches the disk ($n_direct)" test "$n_direct" -ge 128
  check "direct=1 dropped the cache, as fio: the next invalidate=0 read reaches the disk ($n_after_direct)" \
    test "$n_after_direct" -ge 1
  check "buffered invalidate=0 after writing: read from the cache, no disk reads ($n_cached)" test "$n_cached" -le 2
  # (a few reads may be the filesystem's own metadata: 2048 uncached 4k reads would be 2048)
  check "buffered invalidate=0 randread: served by the cache ($n_cached_rand of 2048 reach the disk)" test "$n_cached_rand" -le 64
  check "invalidate=1 randread: the cache was dropped, each 4k read hits the disk ($n_inval_rand of 2048)" test "$n_inval_rand" -ge 2000
  # a request carries at most max_sectors_kb, so reading 8 MiB from the
  # disk takes at least 8192 / max_sectors_kb of them
  maxkb=$(cat "/sys/class/block/$dev/queue/max_sectors_kb")
  check "invalidate=1 sequential read: all 8 MiB come from the disk ($n_inval_seq reads, at least $((8192 / maxkb)))" \
    test "$n_inval_seq" -ge $((8192 / maxkb))
fi

# --- statistics sanity ------------------------------------------------------------
head -c 4m /dev/urandom >"$d/st.dat"
j --name=st --rw=randread --bs=4k --size=4m --invalidate=0 --time_based --runtime=3 --filename="$d/st.dat" >"$d/st.json"
pycheck "latency_ns + latency_us + latency_ms percentages sum to 100" "$d/st.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
t = sum(j["latency_ns"].values()) + sum(j["latency_us"].values()) + sum(j["latency_ms"].values())
assert 99.5 <= t <= 100.5, t
PY
pycheck "clat percentiles: nondecreasing, between min and max (histogram error 0.78%)" "$d/st.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["jobs"][0]["read"]["clat_ns"]
p = [v for _, v in sorted(c["percentile"].items(), key=lambda kv: float(kv[0]))]
assert len(p) == 17, len(p)
assert all(a <= b for a, b in zip(p, p[1:])), p
assert c["min"] * 0.99 <= p[0] and p[-1] <= c["max"] * 1.01, (c["min"], p, c["max"])
assert c["min"] <= c["mean"] <= c["max"], c
PY
pycheck "bw_mean x runtime is io_bytes (within 10%); iops is total_ios / runtime" "$d/st.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
est = r["bw_mean"] * 1024 * r["runtime"] / 1000
assert 0.9 <= est / r["io_bytes"] <= 1.1, (est, r["io_bytes"])
assert abs(r["iops"] - r["total_ios"] * 1000 / r["runtime"]) / r["iops"] < 0.02, r["iops"]
assert 0.85 <= r["iops_mean"] / r["iops"] <= 1.15, (r["iops_mean"], r["iops"])
assert r["bw_min"] <= r["bw_mean"] <= r["bw_max"], r
assert r["clat_ns"]["N"] == r["lat_ns"]["N"] == r["total_ios"], r["total_ios"]
PY
pycheck "3 s job: 5 to 7 bw and iops samples (one per 500 ms)" "$d/st.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert 5 <= r["iops_samples"] <= 7 and 5 <= r["bw_samples"] <= 7, (r["iops_samples"], r["bw_samples"])
PY
pycheck "usr_cpu + sys_cpu > 0; sync engine: iodepth_level 1 is 100%" "$d/st.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["usr_cpu"] + j["sys_cpu"] > 0, (j["usr_cpu"], j["sys_cpu"])
assert j["iodepth_level"]["1"] == 100, j["iodepth_level"]
assert all(v == 0 for k, v in j["iodepth_level"].items() if k != "1"), j["iodepth_level"]
PY
finish
