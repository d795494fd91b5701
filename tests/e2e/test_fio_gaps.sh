#!/usr/bin/env bash
# The last gaps between iobench and fio 3.33 (issue 14), each checked side
# by side with fio where the figure is deterministic:
# --memcpytest prints fio's table shape (the same methods, the same piece
# sizes, the same line format; fio's own full table takes minutes, so fio is
# asked for its list and its refusal only).
set -u
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

# --memcpytest: fio's methods, sizes and line format
fio --memcpytest=list >"$d/fio.types" 2>/dev/null
"$IOBENCH" run --memcpytest=list >"$d/iob.types" 2>/dev/null; rc=$?
check "--memcpytest=list names fio's copy methods and exits 1 as fio" \
  test "$rc" = 1 -a -s "$d/fio.types" -a "$(cat "$d/iob.types")" = "$(cat "$d/fio.types")"
"$IOBENCH" run --memcpytest=nosuch >"$d/bad.out" 2>"$d/bad.err"; rc=$?
check "an unknown method is refused on stderr with the list on stdout (exit 1, as fio)" \
  test "$rc" = 1 -a "$(cat "$d/bad.out")" = "$(cat "$d/fio.types")" -a -s "$d/bad.err"
"$IOBENCH" run --memcpytest >"$d/all.out" 2>"$d/all.err"; rc=$?
check "--memcpytest runs every method, exit 0, nothing on stderr" test "$rc" = 0 -a ! -s "$d/all.err"
check "--memcpytest's table is fio's shape: each method, then 11 'N bytes: X MiB/sec' lines" \
  python3 - "$d/all.out" "$d/fio.types" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split('\n')[:-1]
types = open(sys.argv[2]).read().split()
sizes = [8, 16, 96, 128, 256, 512, 2048, 8192, 131072, 262144, 524288]
want = []
for t in types:
    want.append(t)
    want += [f'\t{s} bytes:' for s in sizes]
got = [l if not l.startswith('\t') else '\t' + l.split('\t')[1] for l in lines]
assert got == want, (got, want)
for l in lines:
    if l.startswith('\t'):
        assert re.fullmatch(r'\t\d+ bytes:\t[ \d]{4,}\.\d\d MiB/sec', l), l
        assert float(l.split('\t')[2].split()[0]) > 0, l
PY
# fio ignores the unknown names of a list when one is known
"$IOBENCH" run --memcpytest=nosuch,memcpy >"$d/one.out" 2>/dev/null; rc=$?
check "a list with one known method runs that one alone, as fio" \
  test "$rc" = 0 -a "$(grep -v '^	' "$d/one.out")" = memcpy -a "$(grep -c '^	' "$d/one.out")" = 11

finish
