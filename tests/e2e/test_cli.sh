#!/usr/bin/env bash
# The command table: --version, help, per-command usage, unknown commands
# with a suggestion, the generated man page matching doc/iobench.1, and the
# quick suite on a small file.
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
finish
