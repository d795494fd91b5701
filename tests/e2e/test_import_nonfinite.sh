#!/usr/bin/env bash
# fio writes a float it could not compute with %f (nan, -nan, inf, -inf):
# results import and compare --from read such a file, leave those figures
# out and say each with the file, its JSON path and its value (they used
# to fail with "NOT NULL constraint failed: figures.value" naming neither);
# the file is kept byte for byte for results show.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
src=$(cd "$(dirname "$0")/.." && pwd)/data/import/fio-3.33-write-rate100m.json
python3 - "$src" "$d/nan.json" <<'PY' || { not_ok "a copy of fio's JSON with nan/inf figures (python exited $?)"; finish; }
import json, sys
t = json.dumps(json.load(open(sys.argv[1])), indent=2)
t = t.replace('"mean": ', '"mean": nan, "was_mean": ', 1)
t = t.replace('"usr_cpu": ', '"usr_cpu": -inf, "was_usr_cpu": ', 1)
t = t.replace('"sys_cpu": ', '"sys_cpu": NaN, "was_sys_cpu": ', 1)
open(sys.argv[2], "w").write(t)
PY
db=$d/r.db
"$IOBENCH" results import "$d/nan.json" --db "$db" >"$d/imp.out" 2>"$d/imp.err"
check "results import of a file with nan and -inf: exit 0" test $? -eq 0
check "  it warns of jobs[0].read.slat_ns.mean = nan with the file" \
  grep -qF "warning: $d/nan.json: jobs[0].read.slat_ns.mean is nan, not a finite number: the figure is left out" "$d/imp.err"
check "  of jobs[0].usr_cpu = -inf and jobs[0].sys_cpu = NaN" \
  sh -c "grep -qF 'jobs[0].usr_cpu is -inf' '$d/imp.err' && grep -qF 'jobs[0].sys_cpu is NaN' '$d/imp.err'"
check "  no SQL error" sh -c "! grep -q 'constraint' '$d/imp.err'"
check "  those figures are absent, the others stored" test "$(sqlite3 "$db" \
  "SELECT count(*) FILTER (WHERE name IN ('slat_ns.mean', 'usr_cpu', 'sys_cpu') AND direction IN ('read', 'job')), count(*) FILTER (WHERE name = 'bw_bytes') FROM figures")" = "0|3"
"$IOBENCH" results show 1 --db "$db" --output-format=json >"$d/show.json"
check "  results show prints the file as it was" cmp -s "$d/show.json" "$d/nan.json"
IOBENCH_DB=$d/c.db "$IOBENCH" compare --from "$d/nan.json" --from "$src" >"$d/cmp.out" 2>"$d/cmp.err"
rc=$?
check "compare --from the same file works (exit $rc) and says the field" \
  sh -c "[ $rc -le 1 ] && grep -qF 'jobs[0].read.slat_ns.mean is nan' '$d/cmp.err'"
finish
