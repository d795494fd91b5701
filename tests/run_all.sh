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

# End-to-end scripts run E2E_JOBS at a time (2 by default: most of their
# time is spent waiting on I/O and runtimes, and the suite must stay under
# 15 minutes). A script whose header has the line "# e2e: serial" (it
# changes machine-wide settings such as vm.dirty_*, drops the page cache,
# or checks figures that another test's load would disturb) runs after
# the others, alone; one marked "# e2e: long" starts before the rest.
# Each script gets a database of its own, never the user's
# ~/.local/share (tests that need their own pass --db or set it).
e2e_jobs=${E2E_JOBS:-2}
# Debian's own tools first: a python3 shim earlier in PATH (pyenv's takes
# half a second a call, and the scripts call python3 hundreds of times)
# would also lack python3-pandas and the other packages scripts/deps.sh
# installs.
export PATH="/usr/sbin:/usr/bin:/sbin:/bin:$PATH"
e2e_start() { # script: runs it in the background, its log under $logdir
  local t=$1 name log
  name=$(basename "$t"); log="$logdir/e2e_$name.log"
  (
    start=$(date +%s)
    export IOBENCH_DB="$logdir/e2e_$name.db"
    case "$t" in
      *.py) timeout 600 python3 "$t" >"$log" 2>&1 ;;
      *) timeout 600 bash "$t" >"$log" 2>&1 ;;
    esac
    rc=$?
    echo "$rc $(( $(date +%s) - start ))" >"$log.rc"
  ) &
  e2e_pid[$!]=$t
}
e2e_finish() { # script: counts its checks and prints its line
  local t=$1 name log rc secs before
  name=$(basename "$t"); log="$logdir/e2e_$name.log"
  read -r rc secs <"$log.rc" || { rc=1; secs=0; }
  if [ "$rc" -eq 77 ]; then skipped=$((skipped + 1)); echo "skip $name"; return; fi
  before=$failed
  count_lines "$log"
  if [ "$rc" -ne 0 ] && [ $failed -eq $before ]; then failed=$((failed + 1)); echo "not ok $name exited $rc" >>"$log"; fi
  if [ $failed -ne $before ]; then
    echo "FAIL $name (${secs}s):"; grep -E '^not ok|error|Error' "$log" | head -20 | sed 's/^/    /'
  else
    echo "pass $name ($(grep -c '^ok' "$log") checks, ${secs}s)"
  fi
}
e2e_wait_one() { # waits for one running script and finishes it
  local pid
  wait -n -p pid "${!e2e_pid[@]}"
  e2e_finish "${e2e_pid[$pid]}"
  unset "e2e_pid[$pid]"
}
declare -A e2e_pid=()
parallel=() serial=() long=()
for t in tests/e2e/test_*.sh tests/e2e/test_*.py; do
  [ -f "$t" ] || continue
  [ -n "${E2E_ONLY:-}" ] && [[ "$t" != *${E2E_ONLY}* ]] && continue
  if head -20 "$t" | grep -qx '# e2e: serial'; then serial+=("$t")
  elif head -20 "$t" | grep -qx '# e2e: long'; then long+=("$t")
  else parallel+=("$t"); fi
done
# the longest scripts (marked "# e2e: long") start first, so the short
# ones fill the other slot meanwhile instead of waiting at the end
parallel=("${long[@]}" "${parallel[@]}")
e2e_t0=$(date +%s)
for t in "${parallel[@]}"; do
  while [ ${#e2e_pid[@]} -ge "$e2e_jobs" ]; do e2e_wait_one; done
  e2e_start "$t"
done
while [ ${#e2e_pid[@]} -gt 0 ]; do e2e_wait_one; done
for t in "${serial[@]}"; do
  e2e_start "$t"; e2e_wait_one
done
echo "end-to-end: $(( $(date +%s) - e2e_t0 ))s (${#parallel[@]} scripts $e2e_jobs at a time, ${#serial[@]} alone)"
echo "logs: $logdir"
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
