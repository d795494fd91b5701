#!/usr/bin/env bash
# The AddressSanitizer+UBSan build runs representative workloads (every
# engine, mixed and random I/O, cloned jobs with group_reporting, several
# job files, every output format, verification, the faulty engine with
# error policies, a guard refusal, an I/O error, a signal, a bad job file)
# without a sanitizer report or a failed IOB_ASSERT (on in this build), each
# with exactly the exit status it should have: 0, 1 for the failures (with
# the message that says why) and 130 after SIGINT.
. "$(dirname "$0")/lib.sh"
A=${IOBENCH_ASAN:-$TOP/build-asan/iobench}
[ -x "$A" ] || { not_ok "a sanitizer build at $A (./scripts/build.sh --asan makes it)"; finish; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
d=$(tmpdir)
sanitized() { grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:|assertion failed" "$1"; }
# run DESC RC FRAGMENT ARGS...: exits RC exactly, with no sanitizer report
# (exit 99) or failed IOB_ASSERT (an abort, 134) in between, and stderr has
# FRAGMENT when one is given (a failure fails for the reason it should)
run() {
  local desc=$1 want=$2 frag=$3; shift 3
  "$A" "$@" >"$d/out" 2>"$d/err"; local rc=$?
  if sanitized "$d/err"; then
    not_ok "$desc: sanitizer report or failed assert (exit $rc)"; sed -n 1,30p "$d/err"
  elif [ "$rc" -ne "$want" ]; then
    not_ok "$desc: exit $rc, want $want"; sed -n 1,10p "$d/err"
  elif [ -n "$frag" ] && ! grep -qF -- "$frag" "$d/err"; then
    not_ok "$desc: stderr lacks '$frag'"; sed -n 1,10p "$d/err"
  else
    ok "$desc (exit $rc)"
  fi
}
for eng in sync psync vsync pvsync pvsync2 null; do
  run "$eng randrw" 0 "" run --name=a --ioengine=$eng --rw=randrw --bs=4k --size=2m --filename="$d/a.dat" --output-format=json+
done
run "clones, group_reporting, normal+terse" 0 "" run --name=g --rw=randwrite --bsrange=4k-16k --size=1m --numjobs=3 --group_reporting --directory="$d" --output-format=normal,terse
run "seed job files" 0 "" run --set directory="$d" --set size=2m --set runtime=1 "$TOP"/tests/data/seed003/*.fio
run "distributions and rate" 0 "" run --name=z --rw=randread --random_distribution=zipf:1.2 --size=2m --number_ios=500 --filename="$d/a.dat" --name=p --rw=randread --random_distribution=pareto:0.9 --rate_iops=2000 --size=2m --number_ios=200 --filename="$d/a.dat"
run "bad job file" 1 "missing.fio: error: cannot open" run "$d/missing.fio"
printf '[x]\nbs=4q\nsize=-1\nrw=sideways\n' >"$d/bad.fio"
run "several errors in one file" 1 "bad.fio:4:4: error:" run "$d/bad.fio"
check "... all three reported" test "$(grep -c "bad.fio:[0-9]*:[0-9]*: error:" "$d/err")" -eq 3
run "quick" 0 "" quick "$d" --size=8m --runtime=1s
run "verify crc32c, random, io_uring" 0 "" run --name=v --rw=randwrite --bs=4k --size=2m --verify=crc32c --ioengine=io_uring --iodepth=8 --filename="$d/v.dat"
run "verify md5 + backlog" 0 "" run --name=v --rw=write --bs=8k --size=2m --verify=md5 --verify_backlog=16 --filename="$d/v.dat"
run "verify_only with another checksum than the file's" 1 "verify failed" run --name=v --rw=write --bs=4k --size=1m --verify=xxhash --verify_only=1 --filename="$d/v.dat"
run "faulty engine with continue_on_error" 1 "going on (continue_on_error)" run --name=f --ioengine=faulty --faulty_fail=every:7 --continue_on_error=all --rw=randrw --bs=4k --size=1m --filename="$d/f.dat"
run "faulty corruption caught by verify" 1 "verify failed" run --name=f --ioengine=faulty --faulty_corrupt=every:5 --faulty_dir=write --rw=write --bs=4k --size=256k --verify=sha256 --continue_on_error=verify --filename="$d/f.dat"
run "readonly refusal" 1 "read-only mode" run --readonly --name=r --rw=write --size=1m --filename="$d/ro.dat"
"$A" run --name=s --rw=randread --size=2m --time_based --runtime=30 --filename="$d/a.dat" >"$d/out" 2>"$d/err" &
pid=$!; sleep 2; kill -INT $pid; wait $pid; rc=$?
if sanitized "$d/err"; then not_ok "SIGINT: sanitizer report or failed assert"; sed -n 1,30p "$d/err"
elif [ $rc -ne 130 ]; then not_ok "SIGINT: exit $rc, want 130"
else ok "SIGINT (exit $rc)"; fi
finish
