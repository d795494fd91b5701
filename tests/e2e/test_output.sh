#!/usr/bin/env bash
# Output channels: JSON alone on stdout (progress and notes on stderr), the
# progress line only on a terminal, --output FILE, combined formats, terse;
# an unknown format is refused with one exact message, printed once, before
# anything runs.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
job=(--name=p --rw=randread --bs=4k --size=4m --time_based --runtime=3 --filename="$d/p.dat")

# stderr on a pseudo-terminal (script), stdout redirected to a file
script -qec "'$IOBENCH' run ${job[*]} --output-format=json >'$d/tty.json' 2>/dev/tty" "$d/typescript" >/dev/null 2>&1
check "progress line shown on a terminal" grep -q "Jobs: 1 (f=1)" "$d/typescript"
check "JSON on redirected stdout stays valid with a terminal stderr" python3 -m json.tool "$d/tty.json" >/dev/null
check "no progress text inside the JSON" bash -c "! grep -q 'Jobs:' '$d/tty.json'"

"$IOBENCH" run "${job[@]}" --runtime=1 >"$d/plain.txt" 2>"$d/plain.err"
check "no progress line when stderr is not a terminal" bash -c "! grep -q 'Jobs:' '$d/plain.err' '$d/plain.txt'"
check "normal output has fio's run status line" grep -q "Run status group 0 (all jobs):" "$d/plain.txt"
check "normal output has percentiles" grep -q "clat percentiles" "$d/plain.txt"

"$IOBENCH" run "${job[@]}" --runtime=1 --output-format=json --output="$d/o.json" >"$d/o.stdout" 2>/dev/null
check "--output writes the file" python3 -m json.tool "$d/o.json" >/dev/null
check "--output leaves stdout empty" test ! -s "$d/o.stdout"

"$IOBENCH" run "${job[@]}" --runtime=1 --output-format=terse >"$d/t.txt" 2>/dev/null
check "terse v3 line starts with 3;" grep -q '^3;' "$d/t.txt"

"$IOBENCH" run "${job[@]}" --runtime=1 --output-format=json+ >"$d/jp.json" 2>/dev/null
check "json+ has clat bins" test "$(json_get "$d/jp.json" 'len(d["jobs"][0]["read"]["clat_ns"]["bins"]) > 0')" = True

"$IOBENCH" run "${job[@]}" --runtime=1 --output-format=normal,json >"$d/both.txt" 2>/dev/null
check "normal,json prints both" bash -c "grep -q 'Run status group' '$d/both.txt' && grep -q '\"jobs\"' '$d/both.txt'"

bad=(--name=x --rw=randread --bs=4k --size=4m --filename="$d/x.dat")
for fmt in xml json,xml; do
  "$IOBENCH" run "${bad[@]}" --output-format=$fmt >"$d/bad.out" 2>"$d/bad.err"; rc=$?
  want="iobench: error: unknown output format 'xml' in --output-format=$fmt (use normal, json, json+ or terse, comma-separated)"
  check "--output-format=$fmt: exit 1" test "$rc" -eq 1
  check "... stderr is exactly the one message, once" test "$(cat "$d/bad.err")" = "$want"
  check "... nothing on stdout and no job ran (no file laid out)" test ! -s "$d/bad.out" -a ! -e "$d/x.dat"
done
finish
