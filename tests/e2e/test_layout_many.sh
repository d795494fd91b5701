#!/usr/bin/env bash
# e2e: long
# Laying out many small files: 10,000 files of 4 KiB take about what a
# plain loop creating and writing them takes (a Python loop in the same
# run, then one sync: iobench's fsync of each file, create_fsync=1, is done
# a batch at a time); they took 41 s, each filling a 1 MiB buffer and
# waiting for its own fsync. SIGTERM ends iobench at once while it
# names, checks or lays out a million files (it went on for seconds), says
# where it stopped and how many files it created, and exits non-zero; with
# unlink=1 the files it created are removed again, without it they stay.
# The bounds are loose on purpose: the suite runs three scripts at a time
# beside others' writeback, where one stat or fsync can block for seconds
# (CI saw 1.8 s for a SIGTERM that waited on one blocked call). They still
# tell the bugs apart: the old layout was 40 times the loop, and running on
# through a million names or 100,000 files takes minutes, not 10 s.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
job=(run --no-store --name=many --rw=read --bs=4k --output-format=terse)

mkdir "$d/py" "$d/lay"
s0=$(date +%s.%N)
python3 - "$d/py" <<'PY' || not_ok "python wrote its files (exit $?)"
import os, sys
b = os.urandom(4096)
for i in range(10000):
    fd = os.open(os.path.join(sys.argv[1], "f.%d" % i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, b)
    os.close(fd)
os.sync()
PY
s1=$(date +%s.%N)
"$IOBENCH" "${job[@]}" --nrfiles=10000 --size=40000k --directory="$d/lay" --create_only=1 >/dev/null 2>"$d/lay.err"
rc=$?
s2=$(date +%s.%N)
py=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", b - a }')
ib=$(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.1f", b - a }')
echo "# 10,000 files of 4 KiB: python ${py}s, iobench ${ib}s"
check "iobench lays out 10,000 files (exit $rc, $(ls "$d/lay" | wc -l) files)" \
  test "$rc" -eq 0 -a "$(ls "$d/lay" | wc -l)" -eq 10000
check "in at most 5 times what the loop takes and 10 s (${ib}s, the loop ${py}s)" \
  awk -v i="$ib" -v p="$py" 'BEGIN { exit !(i <= 5 * p + 10) }'
rm -rf "$d/py" "$d/lay"

# term DIR: run nrfiles=1000000 into DIR and SIGTERM it 2 s in (it is
# still naming or checking them); sets rc, took (ms), err
term() {
  local dir=$1
  mkdir -p "$dir"
  "$IOBENCH" "${job[@]}" --nrfiles=1000000 --size=4000000k --directory="$dir" \
    >/dev/null 2>"$d/term.err" &
  local pid=$! t0 t1
  sleep 2
  t0=$(date +%s%N)
  kill -TERM $pid
  wait $pid
  rc=$?
  t1=$(date +%s%N)
  took=$(( (t1 - t0) / 1000000 ))
  err=$(cat "$d/term.err")
}
term "$d/t1"
echo "# SIGTERM 2 s in: exit $rc after ${took} ms: $err"
check "SIGTERM while it names or checks a million files: exit non-zero within 10 s (${took} ms)" \
  test "$rc" -ne 0 -a "$took" -lt 10000
check "  it says where it stopped, and that it created nothing" \
  sh -c "printf '%s' \"\$1\" | grep -Eq \"job 'many': stopped by a signal while (naming|checking) its files.*none created\"" _ "$err"
check "  and created nothing" test "$(ls "$d/t1" | wc -l)" -eq 0

# nrfiles=100000: the layout starts soon and is far from done when the
# first 50 files are there
term2() { # DIR EXTRA...: like term, SIGTERM once 50 files exist
  local dir=$1
  shift
  mkdir -p "$dir"
  "$IOBENCH" "${job[@]}" --nrfiles=100000 --size=400000k --directory="$dir" "$@" \
    >/dev/null 2>"$d/term.err" &
  local pid=$! n=0
  while [ "$(ls "$dir" | wc -l)" -lt 50 ] && [ $n -lt 1200 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.1
    n=$((n + 1))
  done
  local t0 t1
  t0=$(date +%s%N)
  kill -TERM $pid
  wait $pid
  rc=$?
  t1=$(date +%s%N)
  took=$(( (t1 - t0) / 1000000 ))
  err=$(cat "$d/term.err")
}
term2 "$d/t2"
left=$(ls "$d/t2" | wc -l)
said=$(printf '%s' "$err" | sed -n 's/.*laying out its files: \([0-9]*\) of 100000 created.*/\1/p')
echo "# SIGTERM during the layout: exit $rc after ${took} ms, $left files left: $err"
check "SIGTERM during the layout: exit non-zero within 10 s (${took} ms)" \
  test "$rc" -ne 0 -a "$took" -lt 10000
check "  it says how many files it created ($said), and those are the files left ($left)" \
  test -n "$said" -a "$said" = "$left" -a "$left" -ge 50
term2 "$d/t3" --unlink=1
left=$(ls "$d/t3" | wc -l)
echo "# with unlink=1: exit $rc after ${took} ms, $left files left: $err"
check "with unlink=1: exit non-zero within 10 s (${took} ms), the files it created removed ($left left)" \
  sh -c "[ $rc -ne 0 ] && [ $took -lt 10000 ] && [ $left -eq 0 ] && printf '%s' \"\$1\" | grep -q 'removed again: unlink=1'" _ "$err"
finish
