#!/usr/bin/env bash
# e2e: long
# fio's own test suite at its 3.33 tag (t/run-fio-tests.py and t/jobs of
# Debian's fio source package, fetched by fio_src.sh into build/fio-src/),
# run with -f pointing at a "fio" symlink to iobench and, side by side, at
# Debian's fio 3.33: the job tests 1-26 and the Python tests 1003
# (readonly), 1004 (steadystate), 1006 (strided), 1010
# (latency_percentiles), 1011 (jsonplus2csv) and 1012 (log_compression).
# The C programs' tests and the zoned ones need fio's build and are left
# out. Every test that fio passes here must pass with iobench. fio 3.33
# hangs in test 10 (offload mode, null engine, iodepth 16) until the
# runner's 600 s timeout, so fio runs all but that one; iobench runs it.
# Test 1010 (latency_percentiles.py) runs 22 jobs of 2 to 5 s on a 512 MiB
# file, about 9 minutes with fio here: both tools run its null-engine cases
# (1-3; 9, fsync's latencies; 12, numjobs) and three libaio ones (4; 13,
# numjobs; 15, cmdprio) through the runner's --pass-through. The two tools
# run at once (about 5 minutes); the flow tests (11, 12, 14) compare IOPS
# ratios and are the ones a loaded machine can tip.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fio_src.sh"
need_root
command -v fio >/dev/null || { not_ok "Debian's fio is installed"; exit 1; }
src=$(fio_src "$TOP/build") || { not_ok "fio $FIO_SRC_VER's source is fetched"; exit 1; }
ok "fio $FIO_SRC_VER's test suite is at $src"
d=$(tmpdir)
TESTS=($(seq 1 26) 1003 1004 1006 1010 1011 1012)
# the t/ scripts run as "#!/usr/bin/env python3": Debian's python3 (with
# python3-scipy, python3-numpy, python3-pandas) comes first
export PATH=/usr/bin:$PATH
suite() { # NAME FIO_BINARY TEST_IDS...
  local n=$1 bin=$2; shift 2
  mkdir -p "$d/$n" && ln -s "$bin" "$d/$n/fio" &&
    (cd "$d/$n" && python3 "$src/t/run-fio-tests.py" -r "$src" -f "$d/$n/fio" -a "$d/$n/art" \
       -p "1010:-o 1 2 3 4 9 12 13 15" --run-only "$@" >"$d/$n/out" 2>&1)
}
suite iobench "$IOBENCH" "${TESTS[@]}" & p1=$!
suite fio "$(command -v fio)" $(printf '%s\n' "${TESTS[@]}" | grep -vx 10) & p2=$!
wait $p1; wait $p2
for n in fio iobench; do
  echo "# $n:"; grep -E '^Test [0-9]+ (PASSED|FAILED|SKIPPED)|test\(s\) passed' "$d/$n/out" | sed 's/^/#   /'
done
res() { sed -n "s/^Test $2 \(PASSED\|FAILED\|SKIPPED\).*/\1/p" "$d/$1/out"; }
nf=0
for t in "${TESTS[@]}"; do
  [ "$(res fio "$t")" = PASSED ] || continue
  nf=$((nf + 1))
  r=$(res iobench "$t")
  check "test $t passes with iobench as with fio (iobench: ${r:-no result}$( [ "$r" = FAILED ] && sed -n "s/^Test $t FAILED: *//p" "$d/iobench/out" | cut -c1-200 | sed 's/^/: /'))" \
    [ "$r" = PASSED ]
done
check "fio passes most of the suite here ($nf tests)" [ "$nf" -ge 25 ]
r10=$(res iobench 10)
check "test 10 (offload, the one fio hangs in) passes with iobench (${r10:-no result})" [ "$r10" = PASSED ]
exit $E2E_FAILED
