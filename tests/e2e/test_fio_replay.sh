#!/usr/bin/env bash
# Replay, side by side with fio 3.33: an iolog fio writes (version 3) is
# replayed by iobench with the same offsets, lengths and directions (its own
# write_iolog of the replay, and strace), and an iolog iobench writes is
# replayed by fio (strace); a hand-written version 2 log with wait, sync,
# datasync and trim lines, with replay_scale/replay_align, replay_redirect
# and read_iolog_chunked, does the same I/O under both tools (fio 3.33 drops
# a text log's trims, "bad ddir: 2", and ignores replay_skip on text logs:
# iobench does what fio's documentation says, checked against the log);
# replay_time_scale stretches and squeezes the log's timing. blktrace input:
# blktrace cannot trace in this container (no access to the debugfs trace
# files), so the test builds a trace from the documented struct
# blk_io_trace layout (mkblktrace.py, native and big-endian), runs it
# through blkparse -d as a user would, and both tools replay it on a loop
# device the test creates (found in /dev by its number) and, redirected,
# on a file, with replay_skip. merge_blktrace_file (fio 3.33's merge writes
# an empty file: it reads each record into a pointer) is checked against
# its documented meaning with blkparse. Refusals: version 1 logs, a missing
# file the log reads, chunked from standard input, verify, a log that
# writes to a device with a filesystem, write_iolog onto a block device.
set -u
. "$(dirname "$0")/lib.sh"
need_root
OPS="python3 -S $TOP/tests/e2e/replay_ops.py"
MKBT="python3 -S $TOP/tests/e2e/mkblktrace.py"
d=$(tmpdir)
ST="strace -f -y -qq -e trace=execve,pread64,pwrite64,fsync,fdatasync,fallocate,ioctl"
f=$d/data
dd if=/dev/zero of="$f" bs=1M count=1 status=none

# A: fio's version 3 log, replayed by iobench
fio --name=w --filename="$f" --size=256k --bs=4k --rw=randrw --fsync=4 --number_ios=24 \
  --write_iolog="$d/fio.log" >/dev/null 2>&1
check "fio wrote a version 3 iolog" grep -qx 'fio version 3 iolog' "$d/fio.log"
$ST -o "$d/a.st" "$IOBENCH" run --name=r --read_iolog="$d/fio.log" --write_iolog="$d/a.log" \
  --output-format=json >"$d/a.json" 2>"$d/a.err"
check "iobench replays fio's log without error" test "$(json_get "$d/a.json" 'd["jobs"][0]["error"]')" = 0
check "iobench's write_iolog of the replay is fio's log, line for line (times aside)" \
  diff <(cut -d' ' -f2- "$d/fio.log") <(cut -d' ' -f2- "$d/a.log")
check "the replay's I/O (strace) is the log's I/O" $OPS "$f" "$d/fio.log" "$d/a.st"
check "the log's syncs count in the sync figures" \
  test "$(json_get "$d/a.json" 'd["jobs"][0]["sync"]["total_ios"]')" = "$(grep -c ' sync ' "$d/fio.log")"

# B: iobench's log, replayed by fio
"$IOBENCH" run --name=w --filename="$f" --size=256k --bs=4k --rw=randrw --fsync=3 --number_ios=20 \
  --write_iolog="$d/iob.log" >/dev/null 2>&1
pycheck "iobench's iolog: fio's version 3 header, add/open/close, times in us that never go back, syncs at the last offset" "$d/iob.log" "$f" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split('\n')
assert lines[0] == 'fio version 3 iolog', lines[0]
body = [l.split() for l in lines[1:] if l]
assert [b[2] for b in body[:2]] == ['add', 'open'] and body[-1][2] == 'close', body
ts = [int(b[0]) for b in body]
assert ts == sorted(ts), ts
assert all(b[1] == sys.argv[2] for b in body)
assert sum(b[2] in ('read', 'write') for b in body) == 20 and sum(b[2] == 'sync' for b in body) >= 1
# as fio: a sync line carries the offset of the I/O before it, and length 0
assert all(b[3:] == [a[3], '0'] for a, b in zip(body, body[1:]) if b[2] == 'sync'), body
EOF
$ST -o "$d/b.st" fio --name=r --read_iolog="$d/iob.log" >/dev/null 2>"$d/b.err"
check "fio replays iobench's log with the same I/O" $OPS "$f" "$d/iob.log" "$d/b.st"

# C, D: a version 2 log under both tools, with the replay options (one run
# of each tool, a job per case, each on its own file, one after the other:
# fio 3.33 loses syncs of replays that run at the same time)
mkv2() {
  echo 'fio version 2 iolog'; echo "$1 add"; echo "$1 open"; echo "$1 write 8192 4096"
  echo "$1 wait 1 0"; echo "$1 read 0 8192"; echo "$1 trim 4096 4096"; echo "$1 sync 0 0"
  echo "$1 datasync 0 0"; echo "$1 write 65536 12288"; echo "$1 read 20480 4096"; echo "$1 close"
}
fb=$d/data_b; f2=$d/other; f3=$d/third
for x in "$fb" "$f2" "$f3"; do dd if=/dev/zero of="$x" bs=1M count=1 status=none; done
v2=$d/v2.log; mkv2 "$f" >"$v2"; mkv2 "$fb" >"$d/v2b.log"
V2JOBS=(--name=plain --read_iolog="$v2" --name=scaled --stonewall --read_iolog="$d/v2b.log" --replay_scale=3
  --replay_align=4096 --name=redirected --read_iolog="$v2" --replay_redirect="$f2" --stonewall)
$ST -o "$d/v2.fio" fio "${V2JOBS[@]}" >/dev/null 2>"$d/v2.ferr"
$ST -o "$d/v2.iob" "$IOBENCH" run "${V2JOBS[@]}" >/dev/null 2>"$d/v2.ierr"
for x in "$f:plain" "$fb:replay_scale=3 replay_align=4096" "$f2:replay_redirect"; do
  check "v2 log, ${x#*:}: fio and iobench do the same I/O (fio 3.33 drops trims)" \
    $OPS "${x%%:*}" "$d/v2.fio" "$d/v2.iob" --drop2=trim
done
check "v2 log: iobench does every line, its trim too" $OPS "$f" "$v2" "$d/v2.iob"
check "replay_scale=3 replay_align=4096: offsets divided, then rounded down" \
  diff <(printf 'write 0 4096\nread 0 8192\ntrim 0 4096\nsync\ndatasync\nwrite 20480 12288\nread 4096 4096\n') \
  <($OPS "$fb" "$d/v2.iob")
check "replay_redirect: all of the log's I/O on the other file" diff <($OPS "$f" "$v2") <($OPS "$f2" "$d/v2.iob")
"$IOBENCH" run --name=r --read_iolog="$v2" --read_iolog_chunked=1 --ioengine=libaio --iodepth=4 \
  --write_iolog="$d/chunked.log" >/dev/null 2>&1
check "read_iolog_chunked=1 (libaio, iodepth=4): the same I/O, in order" \
  $OPS "$f" "$v2" "$d/chunked.log"
"$IOBENCH" run --name=r --read_iolog="$v2" --replay_skip=read,trim --write_iolog="$d/skip.log" \
  >/dev/null 2>&1
check "replay_skip=read,trim leaves those out (iobench, as fio's documentation says)" \
  $OPS "$f" "$v2" "$d/skip.log" --drop=read,trim
"$IOBENCH" run --name=r --read_iolog="$v2" --replay_skip=sync --write_iolog="$d/skips.log" \
  >/dev/null 2>&1
check "replay_skip=sync leaves syncs out and keeps datasyncs, as fio" \
  $OPS "$f" "$v2" "$d/skips.log" --drop=sync

"$IOBENCH" run --readonly --name=r --read_iolog="$v2" --output-format=json >"$d/ro.json" 2>/dev/null
check "--readonly: the log's reads and syncs are replayed, its writes and trims left out and said so" \
  test "$(json_get "$d/ro.json" '"%d/%d/%d/%d %d" % (tuple(d["jobs"][0][k]["total_ios"] for k in ("read", "write", "trim", "sync")) + (sum("not replayed: read-only" in w["message"] for w in d["iobench"]["warnings"]),))')" = "2/0/0/2 1"

# replay timing: two gaps of 150 ms (lower bounds only: a sleep is never shorter)
v3=$d/v3.log
{ echo 'fio version 3 iolog'; echo "10 $f add"; echo "20 $f open"; echo "30 $f read 0 4096"
  echo "150030 $f read 4096 4096"; echo "300030 $f read 8192 4096"; echo "300040 $f close"; } >"$v3"
span() { # OPTIONS...: us between the first and the last read of the replay
  "$IOBENCH" run --name=t --read_iolog="$v3" --write_iolog="$d/t.log" "$@" >/dev/null 2>&1
  awk '$3 == "read" { if (!n++) a = $1; b = $1 } END { print b - a }' "$d/t.log"; rm -f "$d/t.log"
}
s100=$(span); s50=$(span --replay_time_scale=50); s200=$(span --replay_time_scale=200)
check "the log's timing is kept (300 ms of gaps took $s100 us)" test "$s100" -ge 270000
check "replay_time_scale=50: half the rate (took $s50 us)" test "$s50" -ge 540000
check "replay_time_scale=200: twice the rate (took $s200 us, at least 135000)" test "$s200" -ge 135000
"$IOBENCH" run --name=t --read_iolog="$v3" --replay_no_stall=1 --write_iolog="$d/ns.log" >/dev/null 2>&1
check "replay_no_stall: the same reads, in order" $OPS "$f" "$v3" "$d/ns.log"

# blktrace input, on a loop device made here and redirected to a file
loop=$(mkloop 1M)
num=$(( ($(stat -c '0x%t' "$loop") << 20) | $(stat -c '0x%T' "$loop") ))
(cd "$d" && $MKBT t.blktrace.0 "$num" >t.ios && blkparse -i t -d t.bin -o /dev/null >/dev/null 2>&1)
check "blkparse reads the trace built from struct blk_io_trace" test -s "$d/t.bin"
BTJOBS=(--name=dev --read_iolog="$d/t.bin" --name=skip --read_iolog="$d/t.bin" --replay_skip=write,trim
  --replay_redirect="$f3" --stonewall)
$ST -o "$d/bt.fio" fio "${BTJOBS[@]}" >/dev/null 2>"$d/bt.ferr"
$ST -o "$d/bt.iob" "$IOBENCH" run "${BTJOBS[@]}" >/dev/null 2>"$d/bt.ierr"
check "blktrace on the device it was traced on: fio and iobench do the same I/O" \
  $OPS "$loop" "$d/bt.fio" "$d/bt.iob"
check "blktrace: queue events as reads, writes, trims and a flush's sync; zero bytes skipped" \
  diff <(printf 'write 0 4096\nwrite 4096 8192\nread 0 4096\ntrim 32768 4096\nsync\nread 12288 16384\nwrite 65536 4096\n') \
  <($OPS "$loop" "$d/bt.iob" | tee "$d/device.ops")
check "blktrace with replay_skip=write,trim: fio and iobench do the same I/O" $OPS "$f3" "$d/bt.fio" "$d/bt.iob"
"$IOBENCH" run --name=b --read_iolog="$d/t.bin" --replay_redirect="$f2" --write_iolog="$d/redir.log" \
  >/dev/null 2>&1
check "blktrace with replay_redirect: the same I/O on the file" \
  diff "$d/device.ops" <($OPS "$f2" "$d/redir.log")
(cd "$d" && $MKBT be.blktrace.0 "$num" big >/dev/null)
"$IOBENCH" run --name=b --read_iolog="$d/be.blktrace.0" --write_iolog="$d/be.log" >"$d/be.out" 2>&1
check "a big-endian blktrace (blktrace's own file, not blkparse's) replays the same I/O" \
  diff "$d/device.ops" <($OPS "$loop" "$d/be.log")
check "blktrace: a zero-byte trace is said to be skipped (in the report)" grep -q 'zero-byte trace' "$d/be.out"

# merge_blktrace_file: by time, scalars and iterations (u is another device)
(cd "$d" && $MKBT u.bin $((num + 1)) little 50 >/dev/null && cp t.blktrace.0 v.bin)
"$IOBENCH" run --merge-blktrace-only --name=m --read_iolog="$d/u.bin:$d/v.bin" \
  --merge_blktrace_file="$d/merged.bin" --merge_blktrace_scalars=50:100 --merge_blktrace_iters=2:1 \
  >/dev/null 2>"$d/m.err"
(cd "$d" && cp merged.bin merged.blktrace.0 && blkparse -i merged -f '%T.%9t %a %m %d %S %N\n' 2>/dev/null |
  grep ' Q ' >m.txt)
pycheck "merge: 2 passes of the first trace at half its times, 1 of the second, in time order" "$d/m.txt" "$((num & 0xfffff))" <<'EOF'
import sys
ev = [l.split() for l in open(sys.argv[1])]
t = [round(float(e[0]) * 1e6) for e in ev]       # us since the merged trace's first event
assert t == sorted(t), t
u = [x for x, e in zip(t, ev) if int(e[2]) == int(sys.argv[2]) + 1]
v = [x for x, e in zip(t, ev) if int(e[2]) == int(sys.argv[2])]
assert len(u) == 16 and len(v) == 8, (len(u), len(v))  # 8 queue events a pass
assert all(b - a == 200 for a, b in zip(v, v[1:])), v  # scalar 100: as traced
gaps = [b - a for a, b in zip(u, u[1:])]
assert gaps.count(100) == 14, gaps                     # scalar 50: 200 us become 100
assert u[0] == 0 and v[0] == 475, (u[0], v[0])         # u at 1050 us / 2, v at 1000 us
EOF
"$IOBENCH" run --name=m --read_iolog="$d/u.bin:$d/v.bin" --merge_blktrace_file="$d/m2.bin" \
  --merge_blktrace_scalars=50 >/dev/null 2>"$d/m2.err"
check "merge_blktrace_scalars needs one value per trace" grep -q 'has 1 values for the 2 files' "$d/m2.err"

# refusals
printf 'rw, 0, 4096\n' >"$d/v1.log"
"$IOBENCH" run --name=r --read_iolog="$d/v1.log" >/dev/null 2>"$d/e1"
check "a version 1 log is refused, as fio refuses it" grep -q 'version 1 is no longer supported' "$d/e1"
printf 'fio version 2 iolog\n%s add\n%s read 0 4096\n' "$d/nope" "$d/nope" >"$d/nf.log"
"$IOBENCH" run --name=r --read_iolog="$d/nf.log" >/dev/null 2>"$d/e2"
check "a file the log only reads must exist" grep -q "which the iolog '.*' reads, does not exist" "$d/e2"
"$IOBENCH" run --name=r --read_iolog=- --read_iolog_chunked=1 <"$v2" >/dev/null 2>"$d/e3"
check "read_iolog_chunked refuses standard input" grep -q 'needs a log iobench can read twice' "$d/e3"
"$IOBENCH" run --name=r --read_iolog=- <"$v2" >/dev/null 2>"$d/e3b"
check "read_iolog=- reads the log from standard input" test $? = 0
"$IOBENCH" run --name=r --read_iolog="$v2" --verify=crc32c >/dev/null 2>"$d/e4"
check "verify with read_iolog is refused, not ignored" grep -q 'verify= with read_iolog= is not implemented yet' "$d/e4"
fsdev=$(mkloop 2M)
mkfs.ext4 -q -F "$fsdev" >/dev/null 2>&1
printf 'fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n%s close\n' "$fsdev" "$fsdev" "$fsdev" "$fsdev" >"$d/fs.log"
"$IOBENCH" run --name=r --read_iolog="$d/fs.log" >/dev/null 2>"$d/e5"
check "the device guard refuses a log that writes to a device with a filesystem" \
  grep -q "refusing to write to '$fsdev' (named by the iolog" "$d/e5"
"$IOBENCH" run --name=r --read_iolog="$v2" --write_iolog="$loop" >/dev/null 2>"$d/e6"
check "write_iolog never writes onto a block device" grep -q "cannot write the iolog '$loop'" "$d/e6"
exit $E2E_FAILED
