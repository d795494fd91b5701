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
      got=$(json_get "$d/e.json" '"%d/%d/%d" % tuple(d["jobs"][0][k]["io_kbytes"] for k in ("read", "write", "trim"))' 2>/dev/null)
      IFS=/ read -r r w t <<<"${got:-x/x/x}"
      case $rw in
        read|randread) want="2048 KiB read, 0 written"; [ "$r" = 2048 ] && [ "$w" = 0 ]; good=$? ;;
        write|randwrite) want="0 read, 2048 KiB written"; [ "$r" = 0 ] && [ "$w" = 2048 ]; good=$? ;;
        randrw) want="both directions, 2048 KiB in all"
                [ "$r" -gt 0 ] 2>/dev/null && [ "$w" -gt 0 ] && [ $((r + w)) -eq 2048 ]; good=$? ;;
      esac
      check "$eng $rw direct=$direct: exit 0, $want, no trim (read/write/trim: ${got:-no JSON})" \
        test "$rc" -eq 0 -a "$good" -eq 0 -a "$t" = 0
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
