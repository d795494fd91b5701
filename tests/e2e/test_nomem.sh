#!/usr/bin/env bash
# e2e: long
# Allocations the user sizes (util/xmalloc.h's rule) fail with one exact
# error message and exit status 1, never an abort: verify_backlog beyond
# what can be counted, and, through an LD_PRELOAD shim that fails one chosen
# allocation (tests/e2e/failalloc.c), verify's read-back buffer and backlog
# ring, nrfiles='s name and file tables, bonnie++'s I/O, seeker and
# file-test buffers and the results of -x repeats. With the shim loaded and nothing chosen every run
# succeeds, so each failure is the chosen allocation's. bonnie leaves no
# working directory behind.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
shim=$d/failalloc.so
${CC:-cc} -shared -fPIC -O2 -o "$shim" "$TOP/tests/e2e/failalloc.c" || { not_ok "the allocation shim builds"; finish; }

# expect DESC RC REGEX: the last run exited RC and stderr has exactly one
# line matching REGEX (whole line), and no abort or fatal message
expect() {
  local desc=$1 want=$2 re=$3
  local n; n=$(grep -cxE "$re" "$d/err")
  if [ "$rc" -eq "$want" ] && [ "$n" -eq 1 ] && ! grep -qE 'fatal:|assertion failed' "$d/err"; then
    ok "$desc"
  else
    not_ok "$desc (exit $rc, want $want; $n matching lines)"; sed -n 1,15p "$d/err"
  fi
}
run() { "$IOBENCH" "$@" >"$d/out" 2>"$d/err"; rc=$?; }
fail() { # FUNC:SIZE[:NTH] args...
  local spec=$1; shift
  IOB_FAILALLOC=$spec LD_PRELOAD=$shim "$IOBENCH" "$@" >"$d/out" 2>"$d/err"; rc=$?
}
ok_run() { # desc args...: the shim alone changes nothing
  local desc=$1; shift
  LD_PRELOAD=$shim "$IOBENCH" "$@" >"$d/out" 2>"$d/err"; rc=$?
  if [ "$rc" -eq 0 ] && ! grep -q 'error:' "$d/err"; then ok "$desc"; else not_ok "$desc (exit $rc)"; sed -n 1,10p "$d/err"; fi
}
E='iobench: error: '
NOMEM=': Cannot allocate memory'

run run --name=v --rw=write --size=1m --verify=crc32c --verify_backlog=1152921504606846976 --filename="$d/v.dat"
expect "verify_backlog=2^60 is an error, not an abort" 1 \
  "${E}job 'v': cannot allocate verify_backlog=1152921504606846976 \(32 bytes a write\)$NOMEM"

vjob=(run --name=v --rw=write --bs=20k --size=200k --verify=crc32c --filename="$d/v.dat")
ok_run "shim loaded, nothing chosen: verify job runs" "${vjob[@]}"
fail malloc:20480 "${vjob[@]}"
expect "verify's read-back buffer: error, exit 1" 1 \
  "${E}job 'v': cannot allocate verify's 20480-byte read-back buffer and the positions of 1 file$NOMEM"
fail calloc:32000 run --name=v --rw=write --bs=4k --size=200k --verify=crc32c --verify_backlog=1000 --filename="$d/v.dat"
expect "verify_backlog ring: error, exit 1" 1 \
  "${E}job 'v': cannot allocate verify_backlog=1000 \(32 bytes a write\)$NOMEM"

njob=(run --name=n --rw=read --size=1000m --nrfiles=1000 --ioengine=null)
ok_run "shim loaded, nothing chosen: nrfiles=1000 runs" "${njob[@]}"
fail calloc:8008 "${njob[@]}"
expect "nrfiles: the names' table: error, exit 1" 1 "${E}job 'n': cannot allocate the state of 1000 files \(nrfiles=1000\)$NOMEM"
# the files' table is nrfiles * sizeof(struct job_file), read from the binary's debug info
jf=$(gdb -batch -ex 'print sizeof(struct job_file)' "$IOBENCH" 2>/dev/null | sed -n 's/^\$1 = //p')
if [ -n "$jf" ]; then
  fail calloc:$((jf * 1000)) "${njob[@]}"
  expect "nrfiles: the files' table ($jf bytes a file): error, exit 1" 1 "${E}job 'n': cannot allocate the state of 1000 files \(nrfiles=1000\)$NOMEM"
else
  not_ok "nrfiles: the files' table: gdb cannot read sizeof(struct job_file) from $IOBENCH (scripts/deps.sh installs gdb)"
fi

b=$d/bon; mkdir "$b"
bjob=(bonnie -d "$b" -s 8:32k:30:3 -r 4 -n 1:0:0:1:16k -f -u root -q)
ok_run "shim loaded, nothing chosen: bonnie runs" "${bjob[@]}"
W="${E}$b/Bonnie\.[0-9]+: cannot allocate"
fail memalign:32768:1 "${bjob[@]}"
expect "bonnie's I/O buffer (-s chunk): error, exit 1" 1 "$W the I/O buffer of 32768 bytes$NOMEM"
fail memalign:32768:4 "${bjob[@]}"
expect "bonnie's third seeker's buffer: error, exit 1" 1 "$W a seeker's buffer of 32768 bytes$NOMEM"
fail memalign:16384:1 "${bjob[@]}"
expect "bonnie's file-test buffer (-n chunk): error, exit 1" 1 "$W the file tests' buffer of 16384 bytes$NOMEM"
check "bonnie left no working directory" test -z "$(ls -A "$b")"
fail calloc:+1000000000000 bonnie -d "$b" -s 0 -n 1 -x 4000000000 -u root -q
expect "bonnie -x 4000000000: keeping the results is an error, exit 1" 1 \
  "${E}cannot keep the results of 4000000000 tests \(-x 4000000000\)$NOMEM"
check "... before any test ran" test -z "$(ls -A "$b")"
finish
