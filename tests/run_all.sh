#!/usr/bin/env bash
# Run the whole suite against existing builds and print, as its last line,
# "N passed, N failed, N skipped".
# Unit tests: every build/tests/unit/test_* binary, in build/ and build-asan/
# (both must exist: ./scripts/build.sh --asan makes them); each prints a
# final "NAME: N passed, M failed" line, summed here. They run beside the
# end-to-end scripts (they are CPU bound, the scripts mostly wait on I/O and
# runtimes), build/'s and build-asan/'s one after the other.
# End-to-end tests: every tests/e2e/test_*.sh (and *.py), each printing one
# "ok ..." or "not ok ..." line per check.
# Skips: a script or unit binary that exits 77 must say why on a line
# "skip: REASON"; a check that is not run prints "skip - NAME: REASON".
# Each is counted, and named with its reason before the closing line; an
# exit 77 without a reason is a failure.
# Set E2E_ONLY=pattern to run a subset (no unit tests then).
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
passed=0 failed=0 skipped=0
skips=()  # "NAME: REASON", one per skipped script or check
logdir=$(mktemp -d /tmp/iobench-tests.XXXXXX)

count_lines() { # logfile -> adds ok/not ok lines
  local f=$1 p n
  p=$(grep -c '^ok' "$f" || true)
  n=$(grep -c '^not ok' "$f" || true)
  passed=$((passed + p)); failed=$((failed + n))
}
count_skips() { # name logfile -> adds its "skip - CHECK: REASON" lines
  local name=$1 l
  while IFS= read -r l; do
    skipped=$((skipped + 1)); skips+=("$name: ${l#skip - }")
  done < <(grep '^skip - ' "$2")
}
skipped_whole() { # name logfile: it exited 77; counted as a skip with its reason
  local name=$1 r
  r=$(grep '^skip: ' "$2" | tail -1); r=${r#skip: }
  if [ -z "$r" ]; then
    failed=$((failed + 1)); echo "FAIL $name: exit 77 (skip) without a 'skip: REASON' line"
  else
    skipped=$((skipped + 1)); skips+=("$name: $r"); echo "skip $name: $r"
  fi
}

# run_unit BUILD_DIR: runs its unit binaries one after the other; each
# leaves its log and "rc seconds" in $logdir, and prints its line
run_unit() {
  local b=$1 t name log rc t0 line
  for t in "$b"/tests/unit/test_*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    name="$(basename "$b")/$(basename "$t")"
    log="$logdir/unit_${name//\//_}.log"
    t0=$(date +%s)
    (cd "$top" && timeout 300 "$t") >"$log" 2>&1; rc=$?
    echo "$rc $(( $(date +%s) - t0 ))" >"$log.rc"
    line=$(grep -E ': [0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
    if [ $rc -eq 77 ]; then echo "skip $name: $(grep '^skip: ' "$log" | tail -1 | sed 's/^skip: //')"
    elif [ $rc -ne 0 ]; then echo "FAIL $name (exit $rc, $(( $(date +%s) - t0 ))s):"; tail -20 "$log" | sed 's/^/    /'
    else echo "pass $name (${line:+$line, }$(( $(date +%s) - t0 ))s)"; fi
  done
}
unit_count() { # log: adds one unit binary's result (after run_unit)
  local log=$1 name rc secs line p n
  name=${log#"$logdir"/unit_}; name=${name%.log}; name=${name/_test_//test_}
  read -r rc secs <"$log.rc" || { rc=1; secs=0; }
  count_skips "$name" "$log"
  if [ "$rc" -eq 77 ]; then skipped_whole "$name" "$log" >/dev/null; return; fi
  line=$(grep -E ': [0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
  if [ -n "$line" ]; then
    p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/' <<<"$line")
    n=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/' <<<"$line")
    passed=$((passed + p)); failed=$((failed + n))
    if [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then failed=$((failed + 1)); fi
  elif [ "$rc" -eq 0 ]; then passed=$((passed + 1))
  else failed=$((failed + 1))
  fi
}

unit_pid=
if [ -z "${E2E_ONLY:-}" ]; then
  if [ ! -d build-asan ]; then
    failed=$((failed + 1))
    echo "FAIL no sanitizer build in build-asan/: ./scripts/build.sh --asan makes it"
  fi
  (
    t0=$(date +%s)
    run_unit build
    [ -d build-asan ] && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_unit build-asan
    echo "unit tests: $(( $(date +%s) - t0 ))s (beside the end-to-end scripts)"
  ) &
  unit_pid=$!
fi

export IOBENCH="$top/build/iobench"
export IOBENCH_ASAN="$top/build-asan/iobench"
export TOP="$top"

# End-to-end scripts run E2E_JOBS at a time (3 by default: most of their
# time is spent waiting on I/O, runtimes and fio's start and end, the
# suite used a third of the two CPUs with 2 at a time, and it must stay
# under 12 minutes). A script whose header has the line "# e2e: serial" (it
# changes machine-wide settings such as vm.dirty_*, drops the page cache,
# or checks figures that another test's load would disturb) runs after
# the others, alone; one marked "# e2e: long" starts before the rest.
# Each script gets a database of its own, never the user's
# ~/.local/share (tests that need their own pass --db or set it).
e2e_jobs=${E2E_JOBS:-3}
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
    # a script marked "# e2e: long" may take 15 minutes (fio's own suite
    # took 383 s of its 600 under two busy loops), the others 10
    local secs=600
    head -20 "$t" | grep -qx '# e2e: long' && secs=900
    case "$t" in
      *.py) timeout $secs python3 "$t" >"$log" 2>&1 ;;
      *) timeout $secs bash "$t" >"$log" 2>&1 ;;
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
  count_skips "$name" "$log"
  if [ "$rc" -eq 77 ]; then skipped_whole "$name" "$log"; return; fi
  before=$failed
  count_lines "$log"
  if [ "$rc" -ne 0 ] && [ $failed -eq $before ]; then failed=$((failed + 1)); echo "not ok $name exited $rc" >>"$log"; fi
  if [ $failed -ne $before ]; then
    echo "FAIL $name (${secs}s):"; grep -E '^not ok|error|Error' "$log" | head -20 | sed 's/^/    /'
  else
    echo "pass $name ($(grep -c '^ok' "$log") checks$(n=$(grep -c '^skip - ' "$log"); [ "$n" -gt 0 ] && echo ", $n skipped"), ${secs}s)"
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
if [ -n "$unit_pid" ]; then
  wait "$unit_pid"
  for log in "$logdir"/unit_*.log; do [ -f "$log.rc" ] && unit_count "$log"; done
fi
echo "logs: $logdir"
for s in "${skips[@]}"; do echo "skipped $s"; done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
