#!/usr/bin/env bash
# Every synchronous engine and the null engine run the same small matrix on a
# file (read, write, randread, randwrite, randrw; buffered and direct), exit
# 0 and do exactly the bytes asked for in the directions asked for: a read
# job reads 2048 KiB and writes nothing, a write job the reverse, randrw
# does both and 2048 KiB in all; no job trims.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
for eng in sync psync vsync pvsync pvsync2 null; do
  for rw in read write randread randwrite randrw; do
    for direct in 0 1; do
      "$IOBENCH" run --name=e --ioengine=$eng --rw=$rw --bs=4k --size=2m --direct=$direct \
        --filename="$d/$eng.dat" --output-format=json >"$d/e.json" 2>"$d/e.err"; rc=$?
      got=$(io_kbytes_rwt "$d/e.json")
      rwt_ok $rw "$got" 2048; good=$?
      check "$eng $rw direct=$direct: exit 0, $RWT_WANT, no trim (read/write/trim: ${got:-no JSON})" \
        test "$rc" -eq 0 -a "$good" -eq 0
    done
  done
done
check "null engine creates no file" test ! -e "$d/null.dat"
"$IOBENCH" run --name=x --ioengine=nosuch --size=1m --filename="$d/x" >"$d/x.out" 2>"$d/x.err"
check "unknown engine: exit 1" test $? -eq 1
check "... one message, at the option, naming the engine" \
  test "$(grep -c . "$d/x.err")" -eq 1 -a "$(grep -c "^<command line>:2:12: error: invalid ioengine 'nosuch'" "$d/x.err")" -eq 1
check "... nothing ran: no output, no file" test ! -s "$d/x.out" -a ! -e "$d/x"
finish
