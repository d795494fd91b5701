#!/usr/bin/env bash
# The last gaps between iobench and fio 3.33, each checked side
# by side with fio where the figure is deterministic:
# --memcpytest prints fio's table shape (the same methods, the same piece
# sizes, the same line format; fio's own full table takes minutes, so fio is
# asked for its list and its refusal only, and iobench runs two methods).
# fill_device on a job that only reads: as fio, the file is written until
# the filesystem is full (in writes of bs: the size a full ext4 leaves is
# then fio's to the byte), then read whole; later files stay empty; a full
# filesystem leaves nothing to read and no error; size= wins over it.
# openfiles below nrfiles with verify: the writes close files as they are
# done and the read-back reopens them: the same blocks of the same files
# written and read back as fio (strace), no false failure (sync and libaio,
# verify_backlog, where fio 3.33 spins forever, so fio is not run there),
# and a corrupted block is caught by a verify_only pass in the same file at
# the same offset as fio.
# blktrace replay without iodepth: the trace's depth, probed as fio 3.33
# does (per direction, queue events less merges since the last completion,
# at their most; 1 without completions), so libaio's iodepth distribution
# equals fio's to the decimal; an iodepth= of the job wins (traces built
# from the documented record layout by mkblkdepth.py, as blktrace cannot
# trace in a container).
# fsync=N as fio: the sync comes before the next I/O after the Nth write,
# so none follows the job's last write (end_fsync's does), a loop before the
# last ends with the one due, and a read after the Nth write waits for one.
# A pass over the files ends when its last block is issued and the next
# begins when the I/O in flight is back (io_size= above size, not
# time_based): a 4 KiB file keeps depth 1 at iodepth=8, as fio; the iodepth
# distributions of libaio jobs equal fio's to the decimal.
# rate=1m for 3 s: the per-I/O bw logs of both tools never run ahead of the
# rate's schedule (at most 1 MiB + one block logged in any first second),
# and an async job takes its I/O back before the rate makes it sleep, as
# fio does, so completions are logged when they happen; the figures of the
# first second are in the check's text (timings: not asserted).
set -u
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

# --memcpytest: fio's methods, sizes and line format
fio --memcpytest=list >"$d/fio.types" 2>/dev/null
"$IOBENCH" run --memcpytest=list >"$d/iob.types" 2>/dev/null; rc=$?
check "--memcpytest=list names fio's copy methods and exits 1 as fio" \
  test "$rc" = 1 -a -s "$d/fio.types" -a "$(cat "$d/iob.types")" = "$(cat "$d/fio.types")"
"$IOBENCH" run --memcpytest=nosuch >"$d/bad.out" 2>"$d/bad.err"; rc=$?
check "an unknown method is refused on stderr with the list on stdout (exit 1, as fio)" \
  test "$rc" = 1 -a "$(cat "$d/bad.out")" = "$(cat "$d/fio.types")" -a -s "$d/bad.err"
"$IOBENCH" run --memcpytest=memcpy >"$d/all.out" 2>"$d/all.err"; rc=$?
check "--memcpytest=memcpy runs, exit 0, nothing on stderr" test "$rc" = 0 -a ! -s "$d/all.err"
check "--memcpytest's table is fio's shape: the method, then 11 'N bytes: X MiB/sec' lines" \
  python3 - "$d/all.out" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split('\n')[:-1]
sizes = [8, 16, 96, 128, 256, 512, 2048, 8192, 131072, 262144, 524288]
want = ['memcpy'] + ['\t%d bytes:' % s for s in sizes]
got = [l if not l.startswith('\t') else '\t' + l.split('\t')[1] for l in lines]
assert got == want, (got, want)
for l in lines[1:]:
    assert re.fullmatch(r'\t\d+ bytes:\t[ \d]{4,}\.\d\d MiB/sec', l), l
    assert float(l.split('\t')[2].split()[0]) > 0, l
PY
# fio ignores the unknown names of a list when one is known
"$IOBENCH" run --memcpytest=nosuch,memcpy >"$d/one.out" 2>/dev/null; rc=$?
check "a list with one known method runs that one alone, as fio" \
  test "$rc" = 0 -a "$(grep -v '^	' "$d/one.out")" = memcpy -a "$(grep -c '^	' "$d/one.out")" = 11

# fill_device on a job that only reads, on the test's own 16 MiB ext4
mnt=$(mkfs_mount ext4 16M)
if mountpoint -q "$mnt"; then
  FDJ='import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("err=%d read=%d ios=%d write=%d" % (j["error"], j["read"]["io_bytes"], j["read"]["total_ios"], j["write"]["io_bytes"]))'
  fd_run() { # TOOL TAG ARGS...: the exit status, the files left and what the job did
    local t=$1 tag=$2; shift 2
    rm -f "$mnt"/fd.* "$mnt"/filler.*; sync
    [ "$tag" = full ] && fio --name=filler --directory="$mnt" --rw=write --bs=64k --fill_device=1 >/dev/null 2>&1
    if [ "$t" = fio ]; then fio --output-format=json "$@" >"$d/fd.$t.json" 2>/dev/null
    else "$IOBENCH" run --output-format=json "$@" >"$d/fd.$t.json" 2>/dev/null; fi
    echo "rc=$? $(cd "$mnt" && stat -c '%n:%s' fd.* | tr '\n' ' ')$(python3 -c "$FDJ" "$d/fd.$t.json")" >"$d/fd.$tag.$t"
  }
  for t in fio iob; do
    fd_run $t rand3 --name=fd --directory="$mnt" --rw=randread --bs=48k --nrfiles=3 --fill_fs=1
    fd_run $t full --name=fd --directory="$mnt" --rw=read --bs=64k --fill_device=1
    fd_run $t wsized --name=fd --directory="$mnt" --rw=write --bs=64k --size=8m --fill_device=1
  done
  check "fill_fs, randread bs=48k nrfiles=3: the filesystem filled to fio's byte, fio's file sizes (the later files empty) and reads ($(cat "$d/fd.rand3.fio"))" \
    test "$(cat "$d/fd.rand3.iob")" = "$(cat "$d/fd.rand3.fio")"
  check "fill_device, read, on a full filesystem: an empty file, nothing read, no error, as fio ($(cat "$d/fd.full.fio"))" \
    test "$(cat "$d/fd.full.iob")" = "$(cat "$d/fd.full.fio")"
  check "fill_device with size=8m, write: size wins, as fio ($(cat "$d/fd.wsized.fio"))" \
    test "$(cat "$d/fd.wsized.iob")" = "$(cat "$d/fd.wsized.fio")"
  rm -f "$mnt"/fd.* "$mnt"/filler.*
else
  not_ok "cannot mount a 16 MiB ext4 for fill_device"
fi

# openfiles below nrfiles, with verify
mkdir -p "$d/of"
cat >"$d/ofsets.py" <<'PY'
# strace -> the sorted (file, offset, length) of the writes and of the reads
import re, sys
from strace_lines import lines  # split calls joined
# strace -y names each call's file beside its descriptor: no table of
# descriptors to keep (fio's jobs are processes beside fio's main one,
# whose descriptors have the same numbers: its close(6) is not the job's)
w, r = [], []
for l in lines(sys.argv[1]):
    m = re.search(r'(pread64|pwrite64)\(\d+<[^>]*/(of\.\d+\.\d+)>,.*, (\d+), (\d+)\s*\)\s+=', l)
    if m:
        (w if m.group(1) == 'pwrite64' else r).append((m.group(2), int(m.group(4)), int(m.group(3))))
w.sort(); r.sort()
print("writes=%d reads=%d files=%d readback-is-writes=%s %s" % (len(w), len(r), len(set(x[0] for x in w)), w == r, w))
PY
# the parser on the two cases that made it miss calls: a call split by
# another thread (strace pads the resumed line), and fio's main process
# opening and closing its own descriptor 6 while the job's 6 is a data file
cat >"$d/ofsets.st" <<'ST'
101 openat(AT_FDCWD</tmp/w>, "/tmp/w/of.0.0", O_RDWR|O_CREAT, 0600) = 6</tmp/w/of.0.0>
101 pwrite64(6</tmp/w/of.0.0>, "\312\254"..., 16384, 16384 <unfinished ...>
100 openat(AT_FDCWD</tmp/w>, "/sys/block/vda/stat", O_RDONLY) = 6</sys/block/vda/stat>
100 close(6</sys/block/vda/stat>)  = 0
101 <... pwrite64 resumed>)           = 16384
101 pwrite64(6</tmp/w/of.0.0>, "\312\254"..., 16384, 0) = 16384
101 pread64(6</tmp/w/of.0.0>, "\312\254"..., 16384, 0) = 16384
101 pread64(6</tmp/w/of.0.0>,  <unfinished ...>
100 openat(AT_FDCWD</tmp/w>, "/sys/block/vda/stat", O_RDONLY <unfinished ...>
101 <... pread64 resumed>"\312\254"..., 16384, 16384) = 16384
100 <... openat resumed>)             = 6</sys/block/vda/stat>
ST
check "the strace parser counts split writes and reads and ignores another process's descriptor 6" \
  test "$(PYTHONPATH="$TOP/tests/e2e" python3 "$d/ofsets.py" "$d/ofsets.st" | cut -d' ' -f1-4)" = "writes=2 reads=2 files=1 readback-is-writes=True"
OFJ='import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("err=%d read=%d write=%d" % (j["error"], j["read"]["io_bytes"], j["write"]["io_bytes"]))'
of_run() { # TOOL TAG ARGS... (each tool in a directory of its own)
  local t=$1 tag=$2; shift 2
  mkdir -p "$d/of.$tag.$t.d"; rm -f "$d/of.$tag.$t.d"/*
  if [ "$t" = fio ]; then set -- fio "$@"; else set -- "$IOBENCH" run "$@"; fi
  timeout 60 strace -f -qq -y -e trace=openat,close,pread64,pwrite64 -o "$d/of.$tag.$t.st" "$@" --name=of --directory="$d/of.$tag.$t.d" --output-format=json >"$d/of.$tag.$t.json" 2>/dev/null
  echo "rc=$? $(python3 -c "$OFJ" "$d/of.$tag.$t.json" 2>&1 | tail -1) $(PYTHONPATH="$TOP/tests/e2e" python3 "$d/ofsets.py" "$d/of.$tag.$t.st")" >"$d/of.$tag.$t"
}
for t in fio iob; do
  of_run $t seq --nrfiles=4 --openfiles=2 --size=256k --bs=16k --rw=write --verify=crc32c
  of_run $t rand --nrfiles=4 --openfiles=2 --size=256k --bs=16k --rw=randwrite --verify=md5 --randseed=3
  T=(fio); [ $t = iob ] && T=("$IOBENCH" run)
  rm -f "$d"/of/*
  "${T[@]}" --name=of --directory="$d/of" --nrfiles=4 --openfiles=1 --size=256k --bs=16k --rw=randwrite \
    --verify=crc32c --ioengine=libaio --iodepth=4 --file_service_type=random --output-format=json >"$d/of.aio.$t.json" 2>/dev/null
  echo "rc=$? $(python3 -c "$OFJ" "$d/of.aio.$t.json" 2>&1 | tail -1)" >"$d/of.aio.$t"
done
check "openfiles=1 of 4 files with verify, libaio iodepth=4, file_service_type=random: as fio, no error ($(cat "$d/of.aio.fio"))" \
  bash -c "test \"\$(cat '$d/of.aio.iob')\" = \"\$(cat '$d/of.aio.fio')\" && grep -qx 'rc=0 err=0 read=262144 write=262144' '$d/of.aio.iob'"
for tag in seq rand; do
  check "openfiles=2 of 4 files with verify, $tag: no error, fio's blocks written and read back ($(cut -d' ' -f1-7 "$d/of.$tag.fio"))" \
    bash -c "test \"\$(cat '$d/of.$tag.iob')\" = \"\$(cat '$d/of.$tag.fio')\" && grep -q '^rc=0 err=0 read=262144 write=262144 ' '$d/of.$tag.iob'"
done
check "openfiles with verify: the files were closed and opened again (more opens than files)" \
  test "$(grep -c 'of\.0\.[0-9]", O_' "$d/of.seq.iob.st")" -gt 4
of_run iob backlog --nrfiles=4 --openfiles=2 --size=256k --bs=16k --rw=randwrite --verify=crc32c --verify_backlog=3
check "openfiles=2 with verify_backlog=3: every block read back, no error" \
  bash -c "grep -q '^rc=0 err=0 read=262144 write=262144 writes=16 reads=16 files=4 readback-is-writes=True' '$d/of.backlog.iob'"
VO="--name=of --directory=$d/of --nrfiles=4 --openfiles=2 --size=256k --bs=16k --rw=randwrite --verify=crc32c --randseed=7"
for t in fio iob; do
  rm -f "$d"/of/*
  if [ $t = fio ]; then T=fio; else T="$IOBENCH run"; fi
  $T $VO --do_verify=0 >/dev/null 2>&1
  dd if=/dev/urandom of="$d/of/of.0.2" bs=512 seek=40 count=1 conv=notrunc status=none
  $T $VO --verify_only=1 >"$d/vo.$t" 2>&1; echo "rc=$?" >>"$d/vo.$t"
done
check "openfiles=2, verify_only: fio catches the corrupted block of of.0.2 at offset 16384" \
  bash -c "grep -q 'of/of.0.2.* offset 16384' '$d/vo.fio' && ! grep -q '^rc=0' '$d/vo.fio'"
check "openfiles=2, verify_only: iobench catches it too, in the same file at the same offset" \
  bash -c "grep -q 'of/of.0.2.* offset 16384' '$d/vo.iob' && ! grep -q '^rc=0' '$d/vo.iob'"

# blktrace replay: the queue depth from the trace
loop=$(mkloop 1M)
num=$(( ($(stat -c '0x%t' "$loop") << 20) | $(stat -c '0x%T' "$loop") ))
truncate -s 4M "$d/bt.target"
BTJ='import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("err=%d r=%d w=%d" % (j["error"], j["read"]["total_ios"], j["write"]["total_ios"]),
      sorted((k, v) for k, v in j["iodepth_level"].items() if v))'
bt_case() { # NAME PATTERN TIMES [job options...]
  local name=$1 pat=$2 times=$3; shift 3
  python3 -S "$TOP/tests/e2e/mkblkdepth.py" "$d/bt.$name.bin" "$num" "$(python3 -c "import sys; print(sys.argv[1] * int(sys.argv[2]))" "$pat" "$times")" ||
    not_ok "blktrace $name: mkblkdepth.py made the trace (exit $?)"
  local A=(--name=r --read_iolog="$d/bt.$name.bin" --replay_redirect="$d/bt.target" --ioengine=libaio
    --replay_no_stall=1 "$@" --output-format=json)
  fio "${A[@]}" >"$d/bt.$name.fio.json" 2>/dev/null &
  "$IOBENCH" run "${A[@]}" >"$d/bt.$name.iob.json" 2>/dev/null
  wait
  for t in fio iob; do python3 -c "$BTJ" "$d/bt.$name.$t.json" >"$d/bt.$name.$t" 2>&1 || echo "($t: python exited $?)" >>"$d/bt.$name.$t"; done
  check "blktrace $name ($pat x $times) $*: iodepth distribution as fio's ($(cat "$d/bt.$name.fio"))" \
    test "$(cat "$d/bt.$name.iob")" = "$(cat "$d/bt.$name.fio")"
}
bt_case reset QQQCQQCCCC 40
bt_case explicit QQQCQQCCCC 40 --iodepth=1
bt_case merges QQMMMMMMQQCCCC 20
bt_case writes QQqqqqqqqqccccccccCC 10
check "blktrace: the probed depth is really used (depth 3 and 8 fill the 2 and 8 buckets)" \
  bash -c "grep -q \"('2', 99\" '$d/bt.reset.iob' && grep -q \"('8', 9\" '$d/bt.writes.iob' && grep -q \"('1', 100.0)\" '$d/bt.explicit.iob'"

# fsync=N / fdatasync=N: where the syncs fall (strace of the job's file)
FSO='import re, sys
n, out = 0, []
for l in open(sys.argv[1]):
    if sys.argv[2] not in l:
        continue
    m = re.match(r"\d+\s+(\w+)\(", l)
    if not m:
        continue
    c = m.group(1)
    if c in ("pwrite64", "write"):
        n += 1
    elif c in ("fsync", "fdatasync", "openat", "close"):
        out.append("%s@%d" % (c, n))
print(" ".join(out), "writes=%d" % n)'
fs_case() { # TAG ARGS...: the opens, closes and syncs of the job's file, by the writes before them
  local tag=$1; shift
  rm -f "$d"/fs.fio.f "$d"/fs.iob.f
  local A=(--name=f --bs=4k --rw=write --size=64k "$@")
  strace -f -qq -y -e trace=pwrite64,write,fsync,fdatasync -o "$d/fs.$tag.fio.st" \
    fio --filename="$d/fs.fio.f" "${A[@]}" >/dev/null 2>&1 &
  strace -f -qq -y -e trace=pwrite64,write,fsync,fdatasync -o "$d/fs.$tag.iob.st" \
    "$IOBENCH" run --filename="$d/fs.iob.f" "${A[@]}" >/dev/null 2>&1
  wait
  for t in fio iob; do python3 -c "$FSO" "$d/fs.$tag.$t.st" "$d/fs.$t.f>" >"$d/fs.$tag.$t" || echo "($t: python exited $?)" >>"$d/fs.$tag.$t"; done
  if [ "$(cat "$d/fs.$tag.iob")" = "$(cat "$d/fs.$tag.fio")" ]; then ok "$* as fio: $(cat "$d/fs.$tag.fio")"
  else not_ok "$* as fio: $(cat "$d/fs.$tag.fio"); iobench: $(cat "$d/fs.$tag.iob"); its trace: $(grep -F "$d/fs.iob.f>" "$d/fs.$tag.iob.st" | cut -c1-60 | head -40 | tr '\n' '|')"; fi
}
fs_case four --fsync=4
fs_case data_end --fdatasync=5 --end_fsync=1
fs_case loops --fsync=4 --loops=2 --end_fsync=1
fs_case loops5 --fsync=5 --loops=2
cat >"$d/fsrule.py" <<'PY'
# fio's rule on an strace of one file: a sync right before each read or write that follows
# a multiple of N writes (not 0) unless the I/O before was that sync; none after the last
import re, sys
n, ops = int(sys.argv[2]), []
for l in open(sys.argv[1]):
    m = re.match(r'\d+\s+(\w+)\(', l)
    if sys.argv[3] in l and m:
        ops.append(dict(pwrite64='w', pread64='r', fsync='s').get(m.group(1), ''))
ops = [o for o in ops if o]
want, w = [], 0
for o in [o for o in ops if o != 's']:
    if w and w % n == 0 and (not want or want[-1] != 's'):
        want.append('s')
    want.append(o)
    w += o == 'w'
sys.exit(0 if ops == want and 's' in ops and 'r' in ops else 1)
PY
for t in fio iob; do
  dd if=/dev/zero of="$d/fs.f" bs=64k count=1 status=none
  T=(fio); [ $t = iob ] && T=("$IOBENCH" run)
  strace -f -qq -y -e trace=pwrite64,pread64,fsync -o "$d/fs.rw.$t.st" \
    "${T[@]}" --name=f --filename="$d/fs.f" --bs=4k --rw=randrw --size=64k --fsync=3 >/dev/null 2>&1
done
check "fsync=3, randrw: fio's syncs follow the rule (before reads too)" python3 "$d/fsrule.py" "$d/fs.rw.fio.st" 3 "fs.f>"
check "fsync=3, randrw: iobench's follow the same rule" python3 "$d/fsrule.py" "$d/fs.rw.iob.st" 3 "fs.f>"

# a new pass over the files waits for the I/O in flight (iodepth distribution)
mkdir -p "$d/pw.fio" "$d/pw.iob"
PWJ='import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("err=%d ios=%d" % (j["error"], j["read"]["total_ios"] + j["write"]["total_ios"]),
      sorted((k, v) for k, v in j["iodepth_level"].items() if v))'
pw_case() { # TAG ARGS...: fio and iobench side by side, each in its own directory
  local tag=$1; shift
  local A=(--name=p --bs=4k --io_size=256k --ioengine=libaio --iodepth=8 "$@" --output-format=json)
  fio --directory="$d/pw.fio" "${A[@]}" >"$d/pw.$tag.fio.json" 2>/dev/null &
  "$IOBENCH" run --directory="$d/pw.iob" "${A[@]}" >"$d/pw.$tag.iob.json" 2>/dev/null
  wait
  for t in fio iob; do python3 -c "$PWJ" "$d/pw.$tag.$t.json" >"$d/pw.$tag.$t" 2>&1 || echo "($t: python exited $?)" >>"$d/pw.$tag.$t"; rm -f "$d/pw.$t"/*; done
  check "io_size above size, $*: iodepth distribution as fio's ($(cat "$d/pw.$tag.fio"))" \
    test "$(cat "$d/pw.$tag.iob")" = "$(cat "$d/pw.$tag.fio")"
}
pw_case rand4k --rw=randwrite --size=4k
pw_case rand1k --rw=randwrite --size=4k --bs=1k
pw_case norandmap --rw=randwrite --size=4k --norandommap
pw_case twofiles --rw=write --size=8k --nrfiles=2
check "a 4 KiB file at iodepth=8 keeps one I/O in flight; norandommap reaches 8" \
  bash -c "grep -q \"ios=64 \[('1', 100.0)\]\" '$d/pw.rand4k.iob' && grep -q \"('8', 89\" '$d/pw.norandmap.iob'"

# rate=1m: per-I/O bw logs of 3 s, fio and iobench side by side
mkdir -p "$d/rt.fio" "$d/rt.iob"
RTJ='import sys
rows = [[int(x) for x in l.split(", ")[:4]] for l in open(sys.argv[1])]
sec = [sum(r[3] for r in rows if k * 1000 <= r[0] < (k + 1) * 1000) for k in range(3)]
print(" ".join(map(str, sec)))
# ahead of the rate: more bytes done by the end of a second than the rate
# allows since the start (one block of slack); a second that catches up
# after a stall of the machine is not ahead
ahead = [sum(sec[:k + 1]) > (k + 1) * (1 << 20) + 4096 for k in range(3)]
sys.exit(1 if any(ahead) else 0)'
for e in psync libaio; do
  A=(--name=r --filename=r.dat --size=16m --bs=4k --rw=write --rate=1m --time_based --runtime=3 --ioengine=$e --iodepth=8)
  (cd "$d/rt.fio" && fio "${A[@]}" --write_bw_log=fio >/dev/null 2>&1) &
  (cd "$d/rt.iob" && "$IOBENCH" run "${A[@]}" --write_bw_log=iob >/dev/null 2>&1)
  wait
  check "rate=1m, $e iodepth=8: fio's bytes by the end of each second never beyond the rate ($(python3 -c "$RTJ" "$d/rt.fio/fio_bw.1.log"))" \
    python3 -c "$RTJ" "$d/rt.fio/fio_bw.1.log"
  check "rate=1m, $e iodepth=8: iobench's neither ($(python3 -c "$RTJ" "$d/rt.iob/iob_bw.1.log"))" \
    python3 -c "$RTJ" "$d/rt.iob/iob_bw.1.log"
  rm -f "$d"/rt.*/*
done

# the drains these fixes add, and sync_file_range's, hold a unit: the
# assertion build checks the units stay balanced
if [ -x "${IOBENCH_ASAN:-}" ]; then
  for a in "--sync_file_range=write:8" "--rate=8m --size=64k" "--io_size=256k --size=4k"; do
    rm -f "$d/as.f"
    ASAN_OPTIONS=detect_leaks=0 "$IOBENCH_ASAN" run --name=a --filename="$d/as.f" --size=256k --bs=4k --rw=write \
      --ioengine=libaio --iodepth=4 $a >/dev/null 2>"$d/as.err"
    check "assertion build, libaio iodepth=4 $a: runs clean" test $? = 0 -a ! -s "$d/as.err"
  done
fi

finish
