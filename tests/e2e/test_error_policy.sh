#!/usr/bin/env bash
# Error policies (continue_on_error, ignore_error) driven by the faulty
# engine, with fio 3.33's rules: none stops at the first injected EIO;
# read/io/all go on and count exactly the injected errors (total_err and
# first_error in JSON, the normal "errors" line and terse's two fields);
# only EIO/EILSEQ go on unless ignore_error lists others; ignore_error=EIO
# does not hide the errors, it lets the job go on after them (counted).
# The exit status stays non-zero. faulty_delay shows in clat. Disk full on
# a 32 MiB ext4: clear message, partial results, exit 1, no leftover file
# with unlink=1, for writes and for a layout that does not fit.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
f=$d/data
truncate -s 1m "$f"
base=(--name=ep --bs=4k --size=1m --filename="$f" --ioengine=faulty)
# j FILE EXPR: python expression over the first job (j), its iobench entry (x)
j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); j=d['jobs'][0]; x=d['iobench']['jobs'][0]; print($2)" "$1"; }

# none (the default): the first injected EIO (I/O 10, offset 36864) stops it
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --output-format=json >"$d/none.json" 2>"$d/none.err"
rc=$?
check "none: exit status 1 (got $rc)" test $rc -eq 1
check "none: stops at the first error: 9 blocks read, error 5, at offset 36864" \
  test "$(j "$d/none.json" '(j["read"]["io_bytes"], j["error"], x["total_err"], x["first_error_offset"])')" = "(36864, 5, 1, 36864)"
check "none: no total_err/first_error keys (as fio without continue_on_error)" \
  test "$(j "$d/none.json" '"total_err" in j or "first_error" in j')" = False
check "none: message names offset, file and errno text" \
  grep -q "offset 36864 of '$f' failed: Input/output error" "$d/none.err"

# read, io, all, 1: go on; exactly the 25 injected errors are counted
for p in read io all 1; do
  "$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --continue_on_error=$p \
    --output-format=json >"$d/$p.json" 2>"$d/$p.err"
  rc=$?
  check "continue_on_error=$p: exit status stays 1 (got $rc)" test $rc -eq 1
  check "continue_on_error=$p: total_err 25, first_error 5, 256 issued, 231 blocks read" \
    test "$(j "$d/$p.json" '(j["total_err"], j["first_error"], j["error"], j["read"]["total_ios"], j["read"]["io_bytes"] // 4096)')" = "(25, 5, 5, 256, 231)"
  check "continue_on_error=$p: iobench counts 25 read errors, first at offset 36864" \
    test "$(j "$d/$p.json" '(x["errors"], x["first_error_offset"])')" = "({'read': 25, 'write': 0, 'verify': 0}, 36864)"
done
check "the first error that goes on is reported once on stderr" \
  test "$(grep -c 'going on' "$d/read.err")" -eq 1
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --continue_on_error=read --error_dump=1 \
  --output-format=json >/dev/null 2>"$d/dump.err"
check "error_dump=1 prints every error (25)" test "$(grep -c 'going on' "$d/dump.err")" -eq 25

# the normal output's errors line and terse's two fields (after the disks)
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --continue_on_error=read >"$d/n.out" 2>/dev/null
check "normal: errors line with total=25 and first_error=5" \
  grep -Eq "^     errors    : total=25, first_error=5/<.*Input/output error" "$d/n.out"
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --continue_on_error=read \
  --output-format=terse >"$d/t.out" 2>/dev/null
check "terse: the line ends with total_err;first_error" grep -q ';25;5$' "$d/t.out"
"$IOBENCH" run "${base[@]}" --rw=read --output-format=terse >"$d/t0.out" 2>/dev/null
check "terse: no error fields without continue_on_error" \
  test "$(tr ';' '\n' <"$d/t0.out" | wc -l)" -eq $(( $(tr ';' '\n' <"$d/t.out" | wc -l) - 2 ))

# kinds: write errors do not let a read go on, and the reverse
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --continue_on_error=write \
  --output-format=json >"$d/w.json" 2>/dev/null
rc=$?
check "continue_on_error=write does not cover reads: stops at the first, exit 1" \
  test "$(j "$d/w.json" 'j["read"]["io_bytes"]') $rc" = "36864 1"
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --continue_on_error=verify \
  --output-format=json >"$d/v.json" 2>/dev/null
rc=$?
check "continue_on_error=verify does not cover reads: stops, exit 1" \
  test "$(j "$d/v.json" 'j["read"]["io_bytes"]') $rc" = "36864 1"
"$IOBENCH" run "${base[@]}" --rw=write --faulty_fail=offset:8k,100k --continue_on_error=write \
  --output-format=json >"$d/wr.json" 2>/dev/null
check "writes: offset:8k,100k fails exactly 2 writes, first at 8192; 254 written" \
  test "$(j "$d/wr.json" '(j["total_err"], x["errors"]["write"], x["first_error_offset"], j["write"]["total_ios"], j["write"]["io_bytes"] // 4096)')" = "(2, 2, 8192, 256, 254)"

# ENOSPC is not a "non-fatal" error for fio unless ignore_error lists it
"$IOBENCH" run "${base[@]}" --rw=write --faulty_fail=every:10 --faulty_errno=ENOSPC \
  --continue_on_error=all --output-format=json >"$d/ns.json" 2>"$d/ns.err"
check "faulty_errno=ENOSPC with continue_on_error=all: stops at the first (as fio)" \
  test "$(j "$d/ns.json" '(j["error"], j["write"]["io_bytes"])')" = "(28, 36864)"
check "faulty_errno=ENOSPC: the message says No space left on device" \
  grep -q "offset 36864 of '$f' failed: No space left on device" "$d/ns.err"
"$IOBENCH" run "${base[@]}" --rw=write --faulty_fail=every:10 --faulty_errno=ENOSPC \
  --ignore_error=,ENOSPC --output-format=json >"$d/ig.json" 2>/dev/null
rc=$?
check "ignore_error=,ENOSPC: writes go on, 25 counted, first_error 28, exit 1" \
  test "$(j "$d/ig.json" '(j["total_err"], j["first_error"], j["write"]["io_bytes"] // 4096)') $rc" = "(25, 28, 231) 1"
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --ignore_error=EIO \
  --output-format=json >"$d/ie.json" 2>/dev/null
check "ignore_error=EIO: reads go on and the errors are still counted (fio's meaning)" \
  test "$(j "$d/ie.json" '(j["total_err"], j["read"]["io_bytes"] // 4096)')" = "(25, 231)"
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --faulty_errno=EINVAL --ignore_error=EIO \
  --output-format=json >"$d/ie2.json" 2>/dev/null
check "ignore_error=EIO does not cover EINVAL: stops" test "$(j "$d/ie2.json" '(j["error"], j["read"]["io_bytes"])')" = "(22, 36864)"
"$IOBENCH" run "${base[@]}" --rw=read --faulty_fail=every:10 --ignore_error=EIO --continue_on_error=none \
  --output-format=json >"$d/ie3.json" 2>/dev/null
check "continue_on_error=none after ignore_error=EIO stops again (later option wins, as fio)" \
  test "$(j "$d/ie3.json" 'j["read"]["io_bytes"]')" = 36864
"$IOBENCH" run "${base[@]}" --rw=read --ignore_error=EBOGUS >"$d/bad.out" 2>"$d/bad.err"
rc=$?
check "ignore_error: an unknown errno name is refused at the option, exit 1, nothing run" \
  test "$rc $(grep -c "^<command line>:[0-9]*:[0-9]*: error: invalid error 'EBOGUS' for option 'ignore_error'" "$d/bad.err") $(wc -c <"$d/bad.out")" = "1 1 0"

# an async inner engine goes through the same policy
"$IOBENCH" run "${base[@]}" --rw=randread --iodepth=8 --faulty_engine=io_uring --faulty_fail=every:10 \
  --continue_on_error=read --output-format=json >"$d/ur.json" 2>/dev/null
check "io_uring inside faulty: 25 errors counted, 231 blocks read" \
  test "$(j "$d/ur.json" '(j["total_err"], j["read"]["io_bytes"] // 4096, j["read"]["total_ios"])')" = "(25, 231, 256)"

# faulty_delay shows in clat
for e in psync io_uring; do
  "$IOBENCH" run "${base[@]}" --rw=read --faulty_engine=$e --faulty_delay=50ms \
    --faulty_delay_select=every:64 --output-format=json >"$d/dl.json" 2>/dev/null
  check "faulty_delay=50ms over $e: clat max >= 50 ms, median well below" \
    test "$(j "$d/dl.json" 'j["read"]["clat_ns"]["max"] >= 50000000 and j["read"]["clat_ns"]["percentile"]["50.000000"] < 50000000')" = True
done

# disk full on a 32 MiB ext4
if [ "$(id -u)" -ne 0 ]; then
  skip_check "disk full (ENOSPC) on a 32 MiB ext4" "needs root for a loop device"
  finish
fi
mnt=$(mkfs_mount ext4 32M) || { not_ok "mount a 32 MiB ext4"; finish; }
# (fallocate=none: a sparse layout, so the writes themselves meet the full
# disk; with preallocation the job is refused before it starts, see below)
"$IOBENCH" run --name=full --rw=write --bs=64k --size=64m --filename="$mnt/full.dat" --unlink=1 \
  --fallocate=none --output-format=json >"$d/full.json" 2>"$d/full.err"
rc=$?
check "ENOSPC write: exit status 1, no crash (got $rc)" test $rc -eq 1
check "ENOSPC write: message names file, offset and bytes written" \
  grep -Eq "write of 65536 bytes at offset [0-9]+ of '$mnt/full.dat' failed: No space left on device \(after [0-9]+ bytes\)" "$d/full.err"
check "ENOSPC write: partial results (some MiB written, error 28)" \
  test "$(j "$d/full.json" 'j["write"]["io_bytes"] > 1048576 and j["error"] == 28')" = True
check "ENOSPC write: unlink=1 leaves no file" test ! -e "$mnt/full.dat"

"$IOBENCH" run --name=full --rw=write --bs=64k --size=64m --filename="$mnt/full.dat" --unlink=1 \
  --fallocate=none --ioengine=io_uring --iodepth=8 --output-format=json >"$d/fullu.json" 2>"$d/fullu.err"
rc=$?
check "ENOSPC write over io_uring: exit 1, partial results, no file" \
  test "$rc $(j "$d/fullu.json" 'j["error"] == 28 and j["write"]["io_bytes"] > 0') $([ -e "$mnt/full.dat" ] && echo left || echo gone)" = "1 True gone"

"$IOBENCH" run --name=lay --rw=read --bs=64k --size=64m --filename="$mnt/lay.dat" --unlink=1 \
  >"$d/lay.out" 2>"$d/lay.err"
rc=$?
check "layout larger than the free space: exit status 1 (got $rc)" test $rc -eq 1
check "layout larger than the free space: refused first, naming needed and available bytes" \
  grep -Eq "job 'lay': laying out '$mnt/lay.dat' needs 64.0 MiB \(67108864 bytes\), but the filesystem at $mnt \(ext4 on /dev/loop[0-9]+\) has [0-9.]+ MiB \([0-9]+ bytes\) available \(statvfs f_bavail\)" "$d/lay.err"
check "layout larger than the free space: no file is created" test ! -e "$mnt/lay.dat"
"$IOBENCH" run --name=full --rw=write --bs=64k --size=64m --filename="$mnt/full.dat" \
  >"$d/lay3.out" 2>"$d/lay3.err"
check "a writer whose preallocation does not fit: refused, exit 1, no file, fallocate=none named" \
  test "$? $([ -e "$mnt/full.dat" ] && echo left || echo none) $(grep -c "needs 64.0 MiB.*available (statvfs f_bavail); a job that only writes can lay its file out sparse instead (fallocate=none)" "$d/lay3.err")" = "1 none 1"

"$IOBENCH" run --name=a --rw=read --bs=64k --size=8m --filename="$mnt/a.dat" --unlink=1 \
  --name=lay --rw=read --bs=64k --size=64m --filename="$mnt/lay.dat" --unlink=1 >/dev/null 2>"$d/lay2.err"
rc=$?
check "a second job's layout that does not fit: exit 1 and the first job's file is never made" \
  test "$rc $(ls "$mnt" | grep -c '\.dat$')" = "1 0"
"$IOBENCH" run --name=a --rw=read --bs=64k --size=16m --filename="$mnt/a.dat" \
  --name=b --rw=read --bs=64k --size=16m --filename="$mnt/b.dat" >/dev/null 2>"$d/sum.err"
check "two layouts that fit one by one but not together: refused, summed, no file" \
  test "$? $(ls "$mnt" | grep -c '\.dat$') $(grep -c "jobs 'a' and others: laying out 2 files needs 32.0 MiB (33554432 bytes) together, but the filesystem at $mnt" "$d/sum.err")" = "1 0 1"
touch "$mnt/mine.dat"
"$IOBENCH" run --name=a --rw=read --bs=64k --size=8m --filename="$mnt/mine.dat" --unlink=1 \
  --name=lay --rw=read --bs=64k --size=64m --filename="$mnt/lay.dat" --unlink=1 >/dev/null 2>&1
check "a layout failure keeps a file that was there before the run" test -e "$mnt/mine.dat"
finish
