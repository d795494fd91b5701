#!/usr/bin/env bash
# Every synchronous engine and the null engine run the same small matrix on a
# file (read, write, randread, randwrite, randrw; buffered and direct) and
# do exactly the bytes asked for.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
for eng in sync psync vsync pvsync pvsync2 null; do
  for rw in read write randread randwrite randrw; do
    for direct in 0 1; do
      "$IOBENCH" run --name=e --ioengine=$eng --rw=$rw --bs=4k --size=2m --direct=$direct \
        --filename="$d/$eng.dat" --output-format=json >"$d/e.json" 2>"$d/e.err"
      got=$(json_get "$d/e.json" 'd["jobs"][0]["read"]["io_kbytes"] + d["jobs"][0]["write"]["io_kbytes"]' 2>/dev/null)
      check "$eng $rw direct=$direct: 2048 KiB" test "$got" = 2048
    done
  done
done
check "null engine creates no file" test ! -e "$d/null.dat"
"$IOBENCH" run --name=x --ioengine=nosuch --size=1m --filename="$d/x" >/dev/null 2>"$d/x.err"
check "unknown engine is an error" test $? -eq 1
finish
