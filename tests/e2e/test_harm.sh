#!/usr/bin/env bash
# Do no harm when things go wrong: every setup refusal, with a
# global option on the command line and with a [global] section, under the
# ASan build, exits 1 with one message and no sanitizer report, and under
# --output-format=json stdout is one JSON object carrying the error; stop
# signals end sleeping jobs (rate=1, startdelay=3600) and bonnie with
# 128+N and nothing left behind; a closed pipe and a full disk on stdout are
# a message and exit 1; sizes and offsets that overflow, too many threads,
# a thread that cannot start and a directory deleted under a running job
# are refused or fail loudly; and the smaller parse-level cases.
. "$(dirname "$0")/lib.sh"
need_root
A=${IOBENCH_ASAN:-$TOP/build-asan/iobench}
[ -x "$A" ] || { not_ok "a sanitizer build at $A (./scripts/build.sh --asan makes it)"; finish; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
d=$(tmpdir)

sanitized() { grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:|AddressSanitizer" "$1"; }

# refused DESC FRAGMENT OUTFILE ERRFILE RC: exit 1 exactly, no sanitizer
# report, exactly one error line, and it says FRAGMENT
refused() {
  local desc=$1 frag=$2 out=$3 err=$4 rc=$5 n
  n=$(grep -c 'error:' "$err")
  if sanitized "$err"; then not_ok "$desc: sanitizer report"; sed -n 1,20p "$err"
  elif [ "$rc" -ne 1 ]; then not_ok "$desc: exit $rc, not 1"; sed -n 1,5p "$err"
  elif [ "$n" -ne 1 ]; then not_ok "$desc: $n error lines, not one"; sed -n 1,5p "$err"
  elif ! grep -qF -- "$frag" "$err"; then not_ok "$desc: no '$frag' in the message"; sed -n 1,5p "$err"
  else ok "$desc"
  fi
}

# one_json DESC FRAGMENT FILE: FILE holds one JSON object, "jobs": [] and
# the error under iobench
one_json() {
  if python3 - "$3" "$2" <<'PY'; then ok "$1"; else not_ok "$1"; sed -n 1,10p "$3"; fi
import json, sys
text = open(sys.argv[1]).read()
d, end = json.JSONDecoder().raw_decode(text)
assert not text[end:].strip(), "more than one JSON value on stdout"
assert d["jobs"] == [], d["jobs"]
e = d["iobench"]
assert sys.argv[2] in e["error"], e
assert e["errors"] and e["errors"][0] == e["error"], e
PY
}

# case NAME FRAGMENT "GLOBAL OPTIONS" "JOB OPTIONS" [run flags]: the refusal
# three ways: a global option before --name, a [global] section in a job
# file, and the first again as JSON
case_() {
  local name=$1 frag=$2 g=$3 j=$4; shift 4
  local f=$d/$name.fio o
  # shellcheck disable=SC2086
  "$A" run --no-monitor "$@" $g --name=w $j >"$d/$name.out" 2>"$d/$name.err"
  refused "$name, global option on the command line" "$frag" "$d/$name.out" "$d/$name.err" $?
  { echo "[global]"; for o in $g; do echo "${o#--}"; done
    echo "[w]"; for o in $j; do echo "${o#--}"; done; } >"$f"
  "$A" run --no-monitor "$@" "$f" >"$d/$name.fout" 2>"$d/$name.ferr"
  refused "$name, [global] section" "$frag" "$d/$name.fout" "$d/$name.ferr" $?
  # shellcheck disable=SC2086
  "$A" run --no-monitor --output-format=json "$@" $g --name=w $j >"$d/$name.jout" 2>"$d/$name.jerr"
  refused "$name, --output-format=json" "$frag" "$d/$name.jout" "$d/$name.jerr" $?
  one_json "$name, --output-format=json: stdout is one JSON object with the error" "$frag" "$d/$name.jout"
}

# --- every setup refusal, with global options, under ASan ---------------
case_ readonly "read-only mode (--readonly) forbids" "--rw=write --bs=4k" "--size=64k --filename=$d/ro" --readonly
dev=$(mkloop 32M)
mkfs.ext4 -q -F -L harm "$dev" >/dev/null 2>&1
sum0=$(md5sum <"$dev")
case_ guard "refusing to write to '$dev'" "--rw=write --bs=4k" "--size=1m --filename=$dev"
check "guard refusals: the device is unchanged" test "$(md5sum <"$dev")" = "$sum0"
case_ align "is not a multiple of" "--direct=1 --rw=write" "--bs=1000 --size=64k --filename=$d/al"
mnt=$(mkfs_mount ext4 16M)
# a layout larger than the free space is refused before it starts (the
# mid-run ENOSPC is test_error_policy's)
case_ enospc "needs 64.0 MiB (67108864 bytes), but the filesystem at $mnt" "--rw=read --bs=64k" "--size=64m --filename=$mnt/full"
check "layout beyond the free space: no file was created" test ! -e "$mnt/full"
mkdir -p "$d/adir"
case_ directory "is a directory, not a file" "--rw=read --bs=4k" "--size=64k --filename=$d/adir"
case_ pct_missing "size=50% needs" "--rw=read --bs=4k" "--size=50% --filename=$d/missing"
case_ no_size "no size for" "--rw=read --bs=4k" "--filename=$d/missing2"
case_ no_create "does not exist and allow_file_create=0" "--rw=write --allow_file_create=0" "--size=64k --filename=$d/nf"
# a missing directory is made (0700, as fio does); a name under a regular file cannot be
: >"$d/afile"
case_ uncreatable "cannot create '$d/afile/f': Not a directory" "--rw=write --bs=4k" "--size=64k --filename=$d/afile/f"
case_ wait_for "wait_for names 'nobody'" "--rw=write --bs=4k" "--size=64k --wait_for=nobody --filename=$d/wf"
case_ enomem "cannot allocate 4096 buffers" "--ioengine=libaio --rw=write --fallocate=none" \
  "--bs=1g --iodepth=4096 --size=1g --filename=$d/big"
# a bad job file under JSON: the document carries the parse error
"$A" run --output-format=json --name=w --bs=4q >"$d/bad.out" 2>"$d/bad.err"
refused "bad option value under JSON" "invalid block size '4q'" "$d/bad.out" "$d/bad.err" $?
one_json "bad option value: the JSON names file:line:col" "<command line>:2:6: invalid block size" "$d/bad.out"

# --- signals end sleeps at once, with 128+N and nothing left --------------
B=$IOBENCH
waitfile() { local i; for i in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }
# stopped PID: wait for it to end (a sleep that ignores the signal would
# take an hour, so 6 s is no timing threshold); sets RC (or "hung") and MS,
# the milliseconds it took
stopped() {
  local pid=$1 t0 i
  t0=$(date +%s%N)
  for i in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
  if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; wait "$pid"; RC=hung; MS=-; return; fi
  wait "$pid"; RC=$?
  MS=$(( ($(date +%s%N) - t0) / 1000000 ))
}
for sig in INT TERM HUP QUIT; do
  num=$(kill -l "$sig")
  for mode in --rate=1 --startdelay=3600; do
    f=$d/sig.$sig${mode%%=*}.dat
    "$B" run --name=s --rw=write --bs=4k --size=1m "$mode" --unlink=1 --filename="$f" >"$d/sig.out" 2>"$d/sig.err" &
    pid=$!
    waitfile "$f" || not_ok "SIG$sig $mode: the job never laid out its file"
    sleep 0.3
    kill -"$sig" "$pid"
    stopped "$pid"
    if [ "$RC" = hung ]; then not_ok "SIG$sig during $mode: still running 6 s after the signal"
    else
      check "SIG$sig during $mode: exit $RC = 128+$num (stopped after ${MS} ms)" test "$RC" -eq $((128 + num))
      check "SIG$sig during $mode: the unlink=1 file is gone" test ! -e "$f"
    fi
  done
done
# rate= honours runtime: rate=1 with runtime=2 ends by itself
"$B" run --name=r --rw=write --bs=4k --size=1m --rate=1 --runtime=2 --filename="$d/rt.dat" \
  --output-format=json >"$d/rt.json" 2>"$d/rt.err" &
pid=$!
sleep 2
stopped "$pid"
check "rate=1 with runtime=2 ends at its runtime (exit $RC, ${MS} ms after 2 s)" test "$RC" = 0
check "rate=1 with runtime=2: one 4k write in 2 s" \
  test "$(json_get "$d/rt.json" 'd["jobs"][0]["write"]["io_bytes"]')" = 4096
# the same signal twice at once (timeout -s INT signals the child, then its
# process group) is one request: the cleanup still happens
f=$d/dup.dat
timeout -s INT 1 "$B" run --name=s --rw=write --bs=4k --size=1m --rate=1k --unlink=1 \
  --filename="$f" >"$d/dup.out" 2>"$d/dup.err"
check "timeout -s INT (the signal delivered twice): the unlink=1 file is gone" test ! -e "$f"
check "timeout -s INT: the run stopped cleanly and said so" grep -q "stopped by a signal" "$d/dup.err"
# SIGHUP during bonnie: exit 129, no Bonnie.PID directory or files
mkdir -p "$d/bon"
"$B" bonnie -d "$d/bon" -s 128 -r 64 -n 0 -u root >"$d/bon.out" 2>"$d/bon.err" &
pid=$!
for i in $(seq 200); do ls "$d/bon" | grep -q '^Bonnie\.' && break; sleep 0.05; done
sleep 0.3
kill -HUP "$pid"
stopped "$pid"
check "SIGHUP during bonnie: exit $RC = 129 (after ${MS} ms)" test "$RC" = 129
check "SIGHUP during bonnie: no Bonnie.PID left" test -z "$(ls -A "$d/bon")"

# --- output that cannot be written ----------------------------------------
mkfifo "$d/fifo"
"$B" run --name=p --ioengine=null --rw=read --size=1m --time_based --runtime=3 >"$d/fifo" 2>"$d/pipe.err" &
pid=$!
head -c1 <"$d/fifo" >/dev/null   # the reader takes the first byte of the header and goes away
alive=0; kill -0 "$pid" 2>/dev/null && alive=1
wait "$pid"; rc=$?
check "stdout closed during the run (the reader left first: $alive)" test "$alive" = 1
check "SIGPIPE: exit 1, not death by the signal (exit $rc)" test "$rc" -eq 1
check "SIGPIPE: 'cannot write the report to standard output: Broken pipe'" \
  grep -qF "cannot write the report to standard output: Broken pipe" "$d/pipe.err"
for how in normal json; do
  "$A" run --output-format=$how --name=f --rw=read --size=64k --filename="$d/full.dat" >/dev/full 2>"$d/full.err"
  refused "run >/dev/full ($how)" "cannot write the report to standard output: No space left on device" \
    /dev/null "$d/full.err" $?
done
"$B" bonnie -d "$d/bon" -s 0 -n 1 -u root >/dev/full 2>"$d/bfull.err"; rc=$?
check "bonnie >/dev/full: exit 1 (exit $rc)" test "$rc" -eq 1
check "bonnie >/dev/full: one message" test "$(grep -c 'error:' "$d/bfull.err")" = 1
check "bonnie >/dev/full: 'No space left on device'" \
  grep -qF "cannot write the report to standard output: No space left on device" "$d/bfull.err"
for c in help version "help options" "sysinfo $d"; do
  # shellcheck disable=SC2086
  "$A" $c >/dev/full 2>"$d/c.err"
  refused "$c >/dev/full" "cannot write to standard output: No space left on device" /dev/null "$d/c.err" $?
done

# --- sizes, offsets and counts that overflow; too many threads ------------
"$A" run --name=o --rw=read --size=18446744073709551615 --filename="$d/ov1" >/dev/null 2>"$d/ov.err"
refused "size=18446744073709551615 is refused, naming the value" "size=18446744073709551615 is beyond" \
  /dev/null "$d/ov.err" $?
check "size=18446744073709551615: nothing laid out" test ! -e "$d/ov1"
"$A" run --name=o --rw=read --size=4k --offset_increment=9223372036854775807 --numjobs=3 \
  --filename="$d/ov2" >/dev/null 2>"$d/ov.err"
refused "offset_increment=2^63-1 with numjobs=3 is refused" "offset_increment=9223372036854775807 with numjobs=3" \
  /dev/null "$d/ov.err" $?
check "offset_increment overflow: nothing laid out" test ! -e "$d/ov2"
"$A" run --name=o --rw=read --size=4m --offset=9223372036854775000 --filename="$d/ov3" >/dev/null 2>"$d/ov.err"
refused "offset + size beyond 2^63-1 is refused" "ends beyond the largest file offset" /dev/null "$d/ov.err" $?
"$A" run --name=o --rw=read --size=4e --numjobs=4096 --nrfiles=4 --directory="$d" >/dev/null 2>"$d/ov.err"
refused "numjobs * nrfiles * size beyond 2^64 is refused" "numjobs=4096 times nrfiles=4" /dev/null "$d/ov.err" $?
"$A" run --name=n --ioengine=null --size=4k --numjobs=100000 >/dev/null 2>"$d/nj.err"
refused "numjobs=100000 is refused with the reason" "numjobs=100000 is more than 4096" /dev/null "$d/nj.err" $?
printf '[a]\nioengine=null\nsize=4k\nnumjobs=3000\n[b]\nioengine=null\nsize=4k\nnumjobs=3000\n' >"$d/nj.fio"
"$A" run "$d/nj.fio" >/dev/null 2>"$d/nj.err"
refused "jobs adding up to 6000 threads are refused" "the jobs add up to 6000 threads" /dev/null "$d/nj.err" $?
"$A" run --parse-only "$d/nj.fio" >/dev/null 2>"$d/nj.err"
refused "--parse-only refuses them too" "the jobs add up to 6000 threads" /dev/null "$d/nj.err" $?
# a thread that cannot start (no address space for its stack) stops the run
( ulimit -v 400000; exec "$B" run --name=t --ioengine=null --size=4k --time_based --runtime=60 \
  --numjobs=200 --group_reporting >/dev/null 2>"$d/thr.err" ) &
stopped $!
check "a thread that cannot start stops the run: exit $RC (after ${MS} ms, not 60 s)" test "$RC" = 1
check "... with one message naming the job" \
  bash -c "[ \$(grep -c 'error:' '$d/thr.err') -eq 1 ] && grep -q \"cannot start the thread of job 't'\" '$d/thr.err'"
check "... and not 'stopped by a signal'" bash -c "! grep -q 'stopped by a signal' '$d/thr.err'"

# --- a directory deleted under a running job ------------------------------
mkdir -p "$d/gone"
"$B" run --name=g --rw=randwrite --bs=4k --size=1m --time_based --runtime=3 --directory="$d/gone" \
  >/dev/null 2>"$d/gone.err" &
pid=$!
waitfile "$d/gone/g.0.0" || not_ok "the job never created its file"
sleep 0.5
rm -rf "$d/gone"
wait "$pid"; rc=$?
check "directory deleted under a running job: exit $rc = 1" test "$rc" -eq 1
check "... and the message says the file was deleted" grep -qF "'$d/gone/g.0.0' was deleted while the job ran" "$d/gone.err"

# --- parse-level --------------------------------------------------------------
"$A" run --parse-only --name=r --rw=write --readonly=1 --size=64k --filename="$d/p" >/dev/null 2>"$d/p.err"
refused "--parse-only refuses rw=write with readonly=1" "read-only mode (readonly=1) forbids every write" /dev/null "$d/p.err" $?
"$A" run --parse-only --readonly --name=r --rw=write --size=64k --filename="$d/p" >/dev/null 2>"$d/p.err"
refused "--parse-only --readonly refuses rw=write" "read-only mode (--readonly) forbids" /dev/null "$d/p.err" $?
mkdir -p "$d/qa" "$d/qb"
"$A" quick "$d/qa" "$d/qb" --size=1m --runtime=1s >/dev/null 2>"$d/q.err"
refused "quick A B is refused" "quick takes one directory, or one or more block devices; got 2 paths" /dev/null "$d/q.err" $?
check "quick A B: nothing written in either" test -z "$(find "$d/qa" "$d/qb" -mindepth 1)"
"$A" run --output-format=json,xml --name=f --size=64k --filename="$d/p" >/dev/null 2>"$d/p.err"
refused "--output-format=json,xml: the error once" "unknown output format 'xml'" /dev/null "$d/p.err" $?
"$A" version -x >/dev/null 2>"$d/p.err"
refused "version -x is refused" "unknown option '-x' for 'iobench version'" /dev/null "$d/p.err" $?
"$A" help run extra >/dev/null 2>"$d/p.err"
refused "help run extra is refused" "takes one topic" /dev/null "$d/p.err" $?
printf '[a]\nsize=64k\nfilename=%s\n' "$d/p" >"$d/s1.fio"; cp "$d/s1.fio" "$d/s2.fio"
"$A" run --set bs=4q "$d/s1.fio" "$d/s2.fio" >/dev/null 2>"$d/p.err"
refused "a bad --set with two job files: the error once" "<--set>:1:4: error: invalid block size '4q'" \
  /dev/null "$d/p.err" $?
finish
