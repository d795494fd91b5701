#!/usr/bin/env bash
# e2e: long
# The libFuzzer targets of tests/fuzz run for a bounded time each without a
# crash, leak, sanitizer report or timeout. Builds them first when needed
# (tests/fuzz/build.sh into build-fuzz; without clang or its fuzzer runtime,
# which scripts/deps.sh installs, that is a failure). The committed corpus tests/fuzz/corpus/NAME is only
# read: new inputs go to a temporary directory, and a check makes sure the
# corpus is unchanged afterwards. A crash's reproducer is copied to
# /tmp/iobench-fuzz-crashes/ and named in the "not ok" line.
# Environment: FUZZ_SECONDS per target (default 5), FUZZ_JOBS targets at a
# time (default: number of CPUs), FUZZ_BUILD build dir, FUZZ_ONLY=NAME.
. "$(dirname "$0")/lib.sh"
secs=${FUZZ_SECONDS:-5}
par=${FUZZ_JOBS:-$(nproc)}
bdir=${FUZZ_BUILD:-$TOP/build-fuzz}
corpus=$TOP/tests/fuzz/corpus
keep=/tmp/iobench-fuzz-crashes
d=$(tmpdir)

need_cmd clang clang || finish
"$TOP/tests/fuzz/build.sh" "$bdir" >"$d/build.log" 2>&1; rc=$?
if [ $rc -eq 2 ]; then not_ok "$(head -1 "$d/build.log"): install it with scripts/deps.sh"; finish; fi
if [ $rc -ne 0 ]; then not_ok "fuzz targets build"; sed -n 1,30p "$d/build.log"; finish; fi
ok "fuzz targets build"

names=()
for f in "$TOP"/tests/fuzz/fuzz_*.c; do
  n=$(basename "$f" .c); n=${n#fuzz_}
  [ -n "${FUZZ_ONLY:-}" ] && [ "$n" != "$FUZZ_ONLY" ] && continue
  names+=("$n")
done
sum_corpus() { (cd "$corpus" && find . -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum); }
before=$(sum_corpus)

# The targets' scratch directories go under $d too; no controlling terminal
# and stdin /dev/null, so no input can make a parser wait for a reader.
export TMPDIR=$d
fuzz_one() { # name
  local n=$1 bin=$bdir/tests/fuzz/fuzz_$1 seeds=$corpus/$1
  mkdir -p "$d/new/$n" "$d/art/$n"
  [ -d "$seeds" ] || { seeds=$d/empty/$n; mkdir -p "$seeds"; }
  (cd "$d/art/$n" && timeout -k 10 $((secs * 2 + 60)) setsid -w "$bin" \
     -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     -artifact_prefix="$d/art/$n/" "$d/new/$n" "$seeds" </dev/null >"$d/$n.log" 2>&1)
  echo $? >"$d/$n.rc"
}
i=0
for n in "${names[@]}"; do
  fuzz_one "$n" &
  i=$((i + 1))
  [ $((i % par)) -eq 0 ] && wait
done
wait

for n in "${names[@]}"; do
  rc=$(cat "$d/$n.rc" 2>/dev/null || echo 255)
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$d/$n.log")
  art=$(find "$d/art/$n" -type f | head -1)
  if [ "$rc" -eq 0 ] && [ -z "$art" ]; then
    ok "fuzz_$n: ${runs:-?} inputs in ${secs}s, no crash"
  else
    msg="fuzz_$n: exit $rc"
    if [ -n "$art" ]; then
      mkdir -p "$keep"; cp "$art" "$keep/fuzz_$n-$(basename "$art")"
      msg+=", reproducer $keep/fuzz_$n-$(basename "$art") (run: $bdir/tests/fuzz/fuzz_$n $keep/fuzz_$n-$(basename "$art"))"
    fi
    not_ok "$msg"
    grep -E -m1 -A12 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|==[0-9]+==' "$d/$n.log" | sed 's/^/    /'
    [ -n "$art" ] || tail -5 "$d/$n.log" | sed 's/^/    /'
  fi
done
check "committed corpus unchanged" test "$before" = "$(sum_corpus)"
finish
