#!/usr/bin/env bash
# Run the whole suite against existing builds and print "N passed, N failed".
# Unit tests: every build/tests/unit/test_* binary, in build/ and build-asan/;
# each prints a final "NAME: N passed, M failed" line, summed here.
# End-to-end tests: every tests/e2e/test_*.sh (and *.py), each printing one
# "ok ..." or "not ok ..." line per check; exit 77 means skipped.
# Set E2E_ONLY=pattern to run a subset.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
passed=0 failed=0 skipped=0
logdir=$(mktemp -d /tmp/iobench-tests.XXXXXX)

count_lines() { # logfile -> adds ok/not ok lines
  local f=$1 p n
  p=$(grep -c '^ok' "$f" || true)
  n=$(grep -c '^not ok' "$f" || true)
  passed=$((passed + p)); failed=$((failed + n))
}

run_unit() { # build dir
  local b=$1 t name log rc line
  for t in "$b"/tests/unit/test_*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    name="$(basename "$b")/$(basename "$t")"
    log="$logdir/${name//\//_}.log"
    (cd "$top" && timeout 300 "$t") >"$log" 2>&1; rc=$?
    if [ $rc -eq 77 ]; then skipped=$((skipped + 1)); echo "skip $name"; continue; fi
    line=$(grep -E ': [0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
    if [ -n "$line" ]; then
      p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/' <<<"$line")
      n=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/' <<<"$line")
      passed=$((passed + p)); failed=$((failed + n))
      if [ $rc -ne 0 ] && [ "$n" -eq 0 ]; then failed=$((failed + 1)); fi
    elif [ $rc -eq 0 ]; then passed=$((passed + 1))
    else failed=$((failed + 1))
    fi
    if [ $rc -ne 0 ]; then echo "FAIL $name (exit $rc):"; tail -20 "$log" | sed 's/^/    /'
    else echo "pass $name${line:+ ($line)}"; fi
  done
}

if [ -z "${E2E_ONLY:-}" ]; then
  run_unit build
  [ -d build-asan ] && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_unit build-asan
fi

export IOBENCH="$top/build/iobench"
export IOBENCH_ASAN="$top/build-asan/iobench"
export TOP="$top"
# every stored result goes to a database of the suite's own, never to the
# user's ~/.local/share (tests that need their own pass --db or set it)
export IOBENCH_DB="$logdir/results.db"
for t in tests/e2e/test_*.sh tests/e2e/test_*.py; do
  [ -f "$t" ] || continue
  [ -n "${E2E_ONLY:-}" ] && [[ "$t" != *${E2E_ONLY}* ]] && continue
  name=$(basename "$t")
  log="$logdir/e2e_$name.log"
  start=$(date +%s)
  case "$t" in
    *.py) timeout 600 python3 "$t" >"$log" 2>&1 ;;
    *) timeout 600 bash "$t" >"$log" 2>&1 ;;
  esac
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 77 ]; then skipped=$((skipped + 1)); echo "skip $name"; continue; fi
  before=$failed
  count_lines "$log"
  if [ $rc -ne 0 ] && [ $failed -eq $before ]; then failed=$((failed + 1)); echo "not ok $name exited $rc" >>"$log"; fi
  if [ $failed -ne $before ]; then
    echo "FAIL $name (${secs}s):"; grep -E '^not ok|error|Error' "$log" | head -20 | sed 's/^/    /'
  else
    echo "pass $name ($(grep -c '^ok' "$log") checks, ${secs}s)"
  fi
done
echo "logs: $logdir"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
