#!/usr/bin/env bash
# The AddressSanitizer+UBSan build runs representative workloads (every
# engine, mixed and random I/O, cloned jobs with group_reporting, several
# job files, every output format, verification, the faulty engine with
# error policies, a guard refusal, an I/O error, a signal, a bad job file)
# without a sanitizer report.
. "$(dirname "$0")/lib.sh"
A=${IOBENCH_ASAN:-$TOP/build-asan/iobench}
[ -x "$A" ] || { echo "skip: no sanitizer build at $A"; exit 77; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
d=$(tmpdir)
run() { # description, args...
  local desc=$1; shift
  "$A" "$@" >"$d/out" 2>"$d/err"; local rc=$?
  if [ $rc -eq 99 ] || grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$d/err"; then
    not_ok "$desc: sanitizer report"; sed -n 1,30p "$d/err"
  else
    ok "$desc (exit $rc)"
  fi
}
for eng in sync psync vsync pvsync pvsync2 null; do
  run "$eng randrw" run --name=a --ioengine=$eng --rw=randrw --bs=4k --size=2m --filename="$d/a.dat" --output-format=json+
done
run "clones, group_reporting, normal+terse" run --name=g --rw=randwrite --bsrange=4k-16k --size=1m --numjobs=3 --group_reporting --directory="$d" --output-format=normal,terse
run "seed job files" run --set directory="$d" --set size=2m --set runtime=1 "$TOP"/tests/data/seed003/*.fio
run "distributions and rate" run --name=z --rw=randread --random_distribution=zipf:1.2 --size=2m --number_ios=500 --filename="$d/a.dat" --name=p --rw=randread --random_distribution=pareto:0.9 --rate_iops=2000 --size=2m --number_ios=200 --filename="$d/a.dat"
run "bad job file" run "$d/missing.fio"
printf '[x]\nbs=4q\nsize=-1\nrw=sideways\n' >"$d/bad.fio"
run "several errors in one file" run "$d/bad.fio"
run "quick" quick "$d" --size=8m --runtime=1s
run "verify crc32c, random, io_uring" run --name=v --rw=randwrite --bs=4k --size=2m --verify=crc32c --ioengine=io_uring --iodepth=8 --filename="$d/v.dat"
run "verify md5 + backlog" run --name=v --rw=write --bs=8k --size=2m --verify=md5 --verify_backlog=16 --filename="$d/v.dat"
run "verify_only of a corrupted file" run --name=v --rw=write --bs=4k --size=1m --verify=xxhash --verify_only=1 --filename="$d/v.dat"
run "faulty engine with continue_on_error" run --name=f --ioengine=faulty --faulty_fail=every:7 --continue_on_error=all --rw=randrw --bs=4k --size=1m --filename="$d/f.dat"
run "faulty corruption caught by verify" run --name=f --ioengine=faulty --faulty_corrupt=every:5 --faulty_dir=write --rw=write --bs=4k --size=256k --verify=sha256 --continue_on_error=verify --filename="$d/f.dat"
run "readonly refusal" run --readonly --name=r --rw=write --size=1m --filename="$d/ro.dat"
"$A" run --name=s --rw=randread --size=2m --time_based --runtime=30 --filename="$d/a.dat" >"$d/out" 2>"$d/err" &
pid=$!; sleep 2; kill -INT $pid; wait $pid; rc=$?
if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$d/err"; then not_ok "SIGINT: sanitizer report"; else ok "SIGINT (exit $rc)"; fi
finish
