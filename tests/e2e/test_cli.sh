#!/usr/bin/env bash
# The command table: --version, help, per-command usage, unknown commands
# with a suggestion, the generated man page matching doc/iobench.1, the
# quick suite on a small file; and the shared flag parser: values after a
# space, fio's rules for run (-flag, prefixes), abbreviations refused
# elsewhere, "did you mean" for a misspelt flag, --help of every command.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
check "--version" bash -c "'$IOBENCH' --version | grep -q '^iobench [0-9]'"
check "help lists run and quick" bash -c "'$IOBENCH' help | grep -q '^ *run ' && '$IOBENCH' help | grep -q '^ *quick '"
check "help run shows usage" bash -c "'$IOBENCH' help run | grep -q 'usage: iobench run'"
"$IOBENCH" rnu >/dev/null 2>"$d/e"; rc=$?
check "unknown command exits 1" test $rc -eq 1
check "unknown command suggests 'run'" grep -q "did you mean 'run'" "$d/e"
check "help options lists bs" bash -c "'$IOBENCH' help options | grep -q '^ *bs'"
"$IOBENCH" help man >"$d/man.1"
check "doc/iobench.1 is what 'iobench help man' generates" cmp -s "$d/man.1" "$TOP/doc/iobench.1"
check "man page renders" bash -c "man -l '$TOP/doc/iobench.1' 2>/dev/null | grep -q 'JOB OPTIONS' || groff -man -Tascii '$TOP/doc/iobench.1' 2>/dev/null | grep -q 'JOB OPTIONS'"
"$IOBENCH" quick "$d" --size=16m --runtime=1s >"$d/q.txt" 2>"$d/q.err"; rc=$?
check "quick exits 0" test $rc -eq 0
check "quick prints the four CrystalDiskMark rows" bash -c "grep -q '^SEQ1M Q8T1' '$d/q.txt' && grep -q '^SEQ1M Q1T1' '$d/q.txt' && grep -q '^RND4K Q32T1' '$d/q.txt' && grep -q '^RND4K Q1T1' '$d/q.txt'"
check "quick removes its file" bash -c "! ls '$d' | grep -q iobench-quick"
"$IOBENCH" quick "$d" --size=16m --runtime=1s --output-format=json >"$d/q.json" 2>/dev/null
check "quick --output-format=json has the 8 jobs of the 4 rows" test "$(json_get "$d/q.json" 'len(d["jobs"])')" = 8

# --- the shared flag parser ---------------------------------------------
"$IOBENCH" run --output "$d/r.json" --output-format json --name=j --ioengine=null --size=64k \
  >"$d/r.out" 2>"$d/r.err"; rc=$?
check "run --output F --output-format json --name=...: exit 0" test $rc -eq 0
check "... nothing on stdout" test ! -s "$d/r.out"
check "... F holds the JSON report of job j" test "$(json_get "$d/r.json" 'd["jobs"][0]["jobname"]')" = j
"$IOBENCH" run --outptu="$d/x" --name=j --ioengine=null --size=64k >"$d/r.out" 2>"$d/e"; rc=$?
check "a misspelt run flag: exit 1" test $rc -eq 1
check "... one line naming the flag it is near" \
  test "$(cat "$d/e")" = "iobench: error: unknown option '--outptu' for 'iobench run'; did you mean '--output'?"
check "... and nothing ran" bash -c "test ! -e '$d/x' && test ! -s '$d/r.out'"
"$IOBENCH" run --output-format json --name=j --blocksiz=4k --ioengine=null --size=64k --output "$d/bad.json" \
  >"$d/r.out" 2>"$d/e"; rc=$?
check "a misspelt flag under --output-format json: exit 1, the JSON error document in --output" \
  bash -c "[ $rc -eq 1 ] && [ \"\$(cat '$d/e')\" = \"iobench: error: unknown option '--blocksiz' for 'iobench run'; did you mean '--bs'?\" ] && [ ! -s '$d/r.out' ]"
check "... which names the flag" \
  test "$(json_get "$d/bad.json" 'len(d["jobs"]) == 0 and "--blocksiz" in d["iobench"]["error"]')" = True
"$IOBENCH" run -parse-only --set bs=8k --eta never --name=j --ioengine=null --size=64k >"$d/r.out" 2>"$d/e"; rc=$?
check "run follows fio's rules: -parse-only is --parse-only (exit $rc)" grep -q "1 job(s) parsed" "$d/r.out"
"$IOBENCH" run --parse --name=j --ioengine=null --size=64k >"$d/r.out" 2>"$d/e"
check "run takes an unambiguous prefix (--parse)" grep -q "1 job(s) parsed" "$d/r.out"
"$IOBENCH" run --out=x --name=j >/dev/null 2>"$d/e"; rc=$?
check "run refuses an ambiguous prefix, naming the candidates" \
  bash -c "[ $rc -eq 1 ] && grep -q \"option '--out' is ambiguous.*'--output-format'.*'--output'\" '$d/e'"
"$IOBENCH" run --parse-only --readonly=1 --name=j --rw=write --size=64k --filename="$d/ro" >/dev/null 2>"$d/e"
check "run --readonly=1 is still the job option" grep -q "read-only mode (readonly=1)" "$d/e"
"$IOBENCH" quick "$d" --siz=16m --runtime=1s >/dev/null 2>"$d/e"; rc=$?
check "quick refuses an abbreviation (exit $rc) with the full name" \
  bash -c "[ $rc -eq 1 ] && grep -qF \"unknown option '--siz' for 'iobench quick'; did you mean '--size'?\" '$d/e'"
check "... and writes nothing" bash -c "! ls '$d' | grep -q iobench-quick"
"$IOBENCH" quick "$d" --size 1m --runtime 100ms --engine null --output-format json >"$d/q2.json" 2>/dev/null
check "quick takes values after a space (null is synchronous: the 4 depth-1 jobs)" \
  test "$(json_get "$d/q2.json" 'len(d["jobs"])')" = 4
"$IOBENCH" monitor --int 1 -c 1 >/dev/null 2>"$d/e"; rc=$?
check "monitor refuses --int (getopt_long took it)" \
  bash -c "[ $rc -eq 1 ] && grep -qF \"did you mean '--interval'?\" '$d/e'"
"$IOBENCH" run --allow-destroy >/dev/null 2>"$d/e"; rc=$?
check "a value missing at the end" bash -c "[ $rc -eq 1 ] && grep -qF \"option '--allow-destroy' needs a value\" '$d/e'"
for c in run quick bonnie sysinfo monitor help version; do
  "$IOBENCH" "$c" --help >"$d/h1" 2>"$d/e"; r1=$?
  "$IOBENCH" "$c" -h >"$d/h2" 2>>"$d/e"; r2=$?
  "$IOBENCH" help "$c" >"$d/h3" 2>>"$d/e"
  check "$c --help and -h: exit 0, its usage, the same as 'help $c'" \
    bash -c "[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ ! -s '$d/e' ] && head -1 '$d/h1' | grep -q '^usage: iobench $c' && cmp -s '$d/h1' '$d/h2' && cmp -s '$d/h1' '$d/h3'"
done
finish
