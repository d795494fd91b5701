# Runs fio 3.33's t/run-fio-tests.py (from fio_src.sh) for the given test
# ids with -f pointing at a "fio" symlink to iobench and, at the same time,
# at Debian's fio 3.33, prints both tools' pass/fail lines and checks that
# every test fio passes here passes with iobench (sourced after lib.sh and
# fio_src.sh; the test scripts test_fio_t_suite*.sh call fio_tsuite). fio
# 3.33 hangs in io_submit_mode=offload: always in test 10 (null engine,
# iodepth 16), and now and then in test 13 (null engine, 8 threads,
# serialize_overlap; 1 run in 6 here, and it hung a fresh-root CI run past
# the script's 900 s), each time until the runner's 600 s timeout and deaf
# to SIGTERM. So fio runs all but those two, and iobench must pass them.
# Test 1010 (latency_percentiles.py) runs 22 jobs of 2 to 5 s on a 512 MiB
# file, about 9 minutes with fio here: both tools run its null-engine cases
# (1-3; 9, fsync's latencies; 12, numjobs) and three libaio ones (4; 13,
# numjobs; 15, cmdprio) through the runner's --pass-through.
fio_tsuite() { # TEST_IDS...
  local TESTS=("$@") d src
  need_root
  command -v fio >/dev/null || { not_ok "Debian's fio is installed"; return 1; }
  src=$(fio_src "$TOP/build") || { not_ok "fio $FIO_SRC_VER's source is fetched"; return 1; }
  ok "fio $FIO_SRC_VER's test suite is at $src"
  d=$(tmpdir)
  export IOBENCH_DB=$d/results.db # nothing of fio's suite in the user's store
  # the t/ scripts run as "#!/usr/bin/env python3": Debian's python3 (with
  # python3-scipy, python3-numpy, python3-pandas) comes first
  export PATH=/usr/bin:$PATH
  suite() { # NAME FIO_BINARY TEST_IDS...
    local n=$1 bin=$2; shift 2
    mkdir -p "$d/$n" && ln -s "$bin" "$d/$n/fio" &&
      (cd "$d/$n" && python3 "$src/t/run-fio-tests.py" -r "$src" -f "$d/$n/fio" -a "$d/$n/art" \
         -p "1010:-o 1 2 3 4 9 12 13 15" --run-only "$@" >"$d/$n/out" 2>&1)
  }
  local fio_hangs='^(10|13)$'
  local fio_ids=($(printf '%s\n' "${TESTS[@]}" | grep -vE "$fio_hangs")) p1 p2
  suite iobench "$IOBENCH" "${TESTS[@]}" & p1=$!
  [ ${#fio_ids[@]} = 0 ] || { suite fio "$(command -v fio)" "${fio_ids[@]}" & p2=$!; }
  # stopped by the suite's timeout: say how far each tool got
  trap 'for n in fio iobench; do echo "# $n so far: $(grep -E "^Test [0-9]+ (PASSED|FAILED)" "$d/$n/out" 2>/dev/null | tr "\n" " ")$(ls -t "$d/$n/art" 2>/dev/null | head -1 | sed "s/^/running /")"; done; kill $p1 $p2 2>/dev/null; exit 1' TERM
  wait $p1; [ -z "$p2" ] || wait $p2
  trap - TERM
  local n t r
  for n in fio iobench; do
    echo "# $n:"; grep -E '^Test [0-9]+ (PASSED|FAILED|SKIPPED)|test\(s\) passed' "$d/$n/out" 2>/dev/null | sed 's/^/#   /'
  done
  res() { sed -n "s/^Test $2 \(PASSED\|FAILED\|SKIPPED\).*/\1/p" "$d/$1/out" 2>/dev/null; }
  FIO_TSUITE_PASSED=0
  for t in "${TESTS[@]}"; do
    [[ $t =~ $fio_hangs ]] && continue
    [ "$(res fio "$t")" = PASSED ] || continue
    FIO_TSUITE_PASSED=$((FIO_TSUITE_PASSED + 1))
    r=$(res iobench "$t")
    check "test $t passes with iobench as with fio (iobench: ${r:-no result}$( [ "$r" = FAILED ] && sed -n "s/^Test $t FAILED: *//p" "$d/iobench/out" | cut -c1-200 | sed 's/^/: /'))" \
      [ "$r" = PASSED ]
  done
  for t in "${TESTS[@]}"; do
    [[ $t =~ $fio_hangs ]] || continue
    r=$(res iobench "$t")
    check "test $t (offload mode, where fio 3.33 hangs) passes with iobench (${r:-no result})" [ "$r" = PASSED ]
  done
}
