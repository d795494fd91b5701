#!/usr/bin/env bash
# The results store (issue 13): run, quick and bonnie store every result
# (listed, reprinted byte for byte by results show, exported as rows that
# load in python's csv module), --no-store writes no database, two runs
# storing at once both land, a SIGKILLed run leaves an intact database
# without it, a SIGINTed one is stored marked interrupted, a database of a
# newer schema is refused and left as it was, --db on a block device is
# refused, the default path follows IOBENCH_DB, XDG_DATA_HOME and HOME.
# Every database here is in the test's own directory.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
db=$d/r.db
export IOBENCH_DB=$db
job=(--name=st --rw=randread --bs=4k --size=1m --filename="$d/f.dat")
nruns() { sqlite3 "${2:-$db}" "SELECT count(*) FROM runs${1:+ WHERE $1}"; }

# --- run: stored, listed, shown as printed ------------------------------------
"$IOBENCH" run "${job[@]}" --label fs=tmp --label disk=vd --output-format=json >"$d/run.json" 2>"$d/run.err"
check "run with a store: exit 0" test $? -eq 0
check "the run is stored, once" test "$(nruns)" = 1
"$IOBENCH" results show 1 --output-format=json >"$d/show.json"
check "results show 1 --output-format=json equals the JSON the run printed" cmp -s "$d/show.json" "$d/run.json"
"$IOBENCH" run "${job[@]}" >"$d/run.txt" 2>/dev/null
"$IOBENCH" results show 2 >"$d/show.txt"
check "results show 2 (its default, normal) equals what the run printed" cmp -s "$d/show.txt" "$d/run.txt"
"$IOBENCH" run "${job[@]}" --output-format=terse >"$d/run.terse" 2>/dev/null
"$IOBENCH" results show 3 >"$d/show.terse"
check "a terse run is shown terse by default, as printed" cmp -s "$d/show.terse" "$d/run.terse"
"$IOBENCH" results show 3 --output-format=json | python3 -m json.tool >/dev/null
check "a terse run is shown as JSON too" test $? -eq 0
"$IOBENCH" results list >"$d/list.txt"
check "results list: a header and one line per run" test "$(wc -l <"$d/list.txt")" = 4
check "results list shows the labels" grep -Eq '^1 .* disk=vd fs=tmp$' "$d/list.txt"
check "the run's figures are stored by their JSON names" \
  test "$(sqlite3 "$db" "SELECT count(*) FROM figures WHERE run_id = 1 AND direction = 'read' AND name IN ('bw_bytes', 'iops', 'clat_ns.p99', 'lat_ns.mean')")" = 4
check "its latency histograms are stored" test "$(sqlite3 "$db" "SELECT count(*) FROM histograms WHERE run_id = 1 AND name = 'clat'")" = 1
check "its command line is stored" grep -q '"--label", "fs=tmp"' <(sqlite3 "$db" "SELECT argv FROM runs WHERE id = 1")
check "the machine around it is stored" test "$(sqlite3 "$db" "SELECT json_extract(json, '\$.sysinfo') IS NOT NULL FROM run_env WHERE run_id = 1")" = 1
check "WAL mode" test "$(sqlite3 "$db" "PRAGMA journal_mode")" = wal
printf '[j]\nrw=write\nbs=64k\nsize=1m\nfilename=%s\n' "$d/jf.dat" >"$d/w.fio"
"$IOBENCH" run "$d/w.fio" >/dev/null 2>&1
sqlite3 "$db" "SELECT writefile('$d/w.stored', content) FROM job_files WHERE run_id = 4" >/dev/null
check "the job file's text is stored" cmp -s "$d/w.stored" "$d/w.fio"
check "every option of the job is stored" test "$(sqlite3 "$db" "SELECT value FROM job_options WHERE run_id = 4 AND key = 'bs'")" = 64k

# --- quick and bonnie ------------------------------------------------------------
mkdir -p "$d/q"
"$IOBENCH" quick --size 4m --runtime 1s "$d/q" --label tool=quick >"$d/quick.txt" 2>/dev/null
check "quick: exit 0" test $? -eq 0
qid=$(sqlite3 "$db" "SELECT max(id) FROM runs WHERE kind = 'quick'")
check "quick is stored" test -n "$qid"
"$IOBENCH" results show "$qid" >"$d/quick.show"
check "results show of quick equals its table" cmp -s "$d/quick.show" "$d/quick.txt"
mkdir -p "$d/b" && chmod 777 "$d/b" && chmod 755 "$d" # -u nobody works in d/b
"$IOBENCH" bonnie -d "$d/b" -s 8 -r 4 -n 1 -u nobody -f -b --label tool=bonnie >"$d/bon.txt" 2>"$d/bon.err"
check "bonnie -u nobody: exit 0" test $? -eq 0
bid=$(sqlite3 "$db" "SELECT max(id) FROM runs WHERE kind = 'bonnie'")
check "bonnie (after dropping root) is stored" test -n "$bid"
"$IOBENCH" results show "$bid" >"$d/bon.show"
check "results show of bonnie equals its stdout" cmp -s "$d/bon.show" "$d/bon.txt"
check "bonnie's figures are stored per phase" \
  test "$(sqlite3 "$db" "SELECT count(*) FROM figures WHERE run_id = $bid AND job_idx = 0 AND direction = 'put_block' AND name = 'rate'")" = 1
"$IOBENCH" bonnie -d "$d/b" -s 8 -r 4 -n 1 -u 0 -f -b --output-format=json >"$d/bon.json" 2>/dev/null
"$IOBENCH" results show "$(nruns)" --output-format=json >"$d/bon.show.json"
check "bonnie's JSON is shown as printed" cmp -s "$d/bon.show.json" "$d/bon.json"
"$IOBENCH" results list --label tool=quick >"$d/lq.txt"
check "list --label selects by label" test "$(grep -c 'quick' "$d/lq.txt")" = 1 -a "$(wc -l <"$d/lq.txt")" = 2
"$IOBENCH" results list --json >"$d/list.json"
check "list --json: one object per run" test "$(json_get "$d/list.json" 'len(d)')" = "$(nruns)"
check "list --host of another host selects nothing" test -z "$("$IOBENCH" results list --host no-such-host)"
check "list --since tomorrow selects nothing" test -z "$("$IOBENCH" results list --since "$(date -d tomorrow +%F)")"
check "list --since yesterday selects everything" test "$("$IOBENCH" results list --since "$(date -d yesterday +%F)" | wc -l)" = $(( $(nruns) + 1 ))
"$IOBENCH" results list --since yesterday >/dev/null 2>"$d/since.err"
check "a bad --since is refused" grep -q "bad --since 'yesterday'" "$d/since.err"

# --- export ------------------------------------------------------------------------
"$IOBENCH" results export fs=tmp --format csv >"$d/x.csv"
check "export csv loads in python's csv module: rows of one run, labels as columns" python3 - "$d/x.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows and all(r["run_id"] == "1" for r in rows), "only run 1 has fs=tmp"
assert all(r["fs"] == "tmp" and r["disk"] == "vd" for r in rows)
bw = [r for r in rows if r["direction"] == "read" and r["figure"] == "bw_bytes"]
assert len(bw) == 1 and float(bw[0]["value"]) > 0
try:
    import pandas
    df = pandas.read_csv(sys.argv[1])
    assert len(df) == len(rows)
except ImportError:
    pass
PY
"$IOBENCH" results export --format json >"$d/x.json"
check "export json: one object per figure of every run, labels as keys" python3 - "$d/x.json" "$(nruns)" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len({r["run_id"] for r in rows}) == int(sys.argv[2])
# the label "tool" is named apart from the column "tool"
assert {r["label:tool"] for r in rows} == {"quick", "bonnie", None}
assert {r["tool"] for r in rows} == {"iobench-0.1.0"}
assert all("figure" in r and isinstance(r["value"], (int, float)) for r in rows)
PY

# --- label and delete -----------------------------------------------------------
"$IOBENCH" results label 2 fs=xfs note=
check "results label adds labels" test "$(sqlite3 "$db" "SELECT group_concat(key || '=' || value, ' ') FROM labels WHERE run_id = 2")" = "fs=xfs note="
"$IOBENCH" results label 2 fs=ext4
check "results label changes a value" test "$(sqlite3 "$db" "SELECT value FROM labels WHERE run_id = 2 AND key = 'fs'")" = ext4
n=$(nruns)
"$IOBENCH" results delete 2 3
check "results delete removes the runs and what they own" \
  test "$(nruns)" = $((n - 2)) -a "$(sqlite3 "$db" "SELECT count(*) FROM figures WHERE run_id IN (2, 3)")" = 0
"$IOBENCH" results delete 2 2>"$d/del.err"
check "deleting a run that is not there: exit 1 and says so" test $? -eq 1
check "  the message" grep -q "no run 2 in the results database '$db'" "$d/del.err"
"$IOBENCH" results show 999 2>"$d/show.err"
check "showing a run that is not there: exit 1" test $? -eq 1
"$IOBENCH" results show 1 --output-format=table 2>"$d/fmt.err"
check "a format the run has not: says which it has" grep -q "run 1 has no 'table' output stored (it has: json, normal, terse)" "$d/fmt.err"

# --- --no-store, the default path, a bad label ------------------------------------
"$IOBENCH" run "${job[@]}" --no-store --db "$d/none.db" >/dev/null 2>&1
check "--no-store writes no database" test ! -e "$d/none.db" -a ! -e "$d/none.db-wal"
IOBENCH_DB= HOME=$d/home XDG_DATA_HOME= "$IOBENCH" run "${job[@]}" >/dev/null 2>&1
check "the default: ~/.local/share/iobench/results.db" test "$(nruns '' "$d/home/.local/share/iobench/results.db")" = 1
check "  its directory is the user's alone (0700)" test "$(stat -c %a "$d/home/.local/share/iobench")" = 700
IOBENCH_DB= XDG_DATA_HOME=$d/xdg "$IOBENCH" run "${job[@]}" >/dev/null 2>&1
check "XDG_DATA_HOME/iobench/results.db when set" test "$(nruns '' "$d/xdg/iobench/results.db")" = 1
"$IOBENCH" run "${job[@]}" --label 'bad key=1' >/dev/null 2>"$d/lab.err"
check "a bad --label is refused before anything runs" test $? -eq 1 -a ! -e "$d/f2.dat"
check "  the message" grep -q "label 'bad key=1': the key may hold only" "$d/lab.err"

# --- two runs storing at once ------------------------------------------------------
n=$(nruns)
"$IOBENCH" run --name=a --rw=write --bs=4k --size=1m --filename="$d/c1" --label par=1 >/dev/null 2>&1 &
p1=$!
"$IOBENCH" run --name=b --rw=write --bs=4k --size=1m --filename="$d/c2" --label par=2 >/dev/null 2>&1 &
p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "two runs storing at the same moment: both exit 0" test $r1 -eq 0 -a $r2 -eq 0
check "  and both land" test "$(nruns)" = $((n + 2)) -a "$(sqlite3 "$db" "SELECT count(*) FROM labels WHERE key = 'par'")" = 2

# --- SIGKILL and SIGINT mid-way -----------------------------------------------------
n=$(nruns)
"$IOBENCH" run --name=k --rw=randread --bs=4k --size=4m --time_based --runtime=30 --filename="$d/k.dat" >/dev/null 2>&1 &
pk=$!
sleep 2; kill -KILL $pk; wait $pk 2>/dev/null
check "a run killed with SIGKILL leaves an intact database" test "$(sqlite3 "$db" "PRAGMA integrity_check")" = ok
check "  without the run" test "$(nruns)" = "$n"
"$IOBENCH" run --name=i --rw=randread --bs=4k --size=4m --time_based --runtime=30 --filename="$d/i.dat" --output-format=json >"$d/int.json" 2>/dev/null &
pi=$!
sleep 2; kill -INT $pi; wait $pi; ri=$?
check "a run stopped by SIGINT: exit 130" test $ri -eq 130
check "  stored, marked interrupted, with what was measured" \
  test "$(sqlite3 "$db" "SELECT interrupted || ':' || exit_status || ':' || (SELECT value > 0 FROM figures f WHERE f.run_id = runs.id AND direction = 'read' AND name = 'io_bytes') FROM runs WHERE id = (SELECT max(id) FROM runs)")" = "1:130:1"
"$IOBENCH" results show "$(sqlite3 "$db" "SELECT max(id) FROM runs")" --output-format=json | cmp -s - "$d/int.json"
check "  its JSON shown as printed" test $? -eq 0
check "results list says interrupted" grep -Eq "^$(sqlite3 "$db" "SELECT max(id) FROM runs") .* interrupted " <("$IOBENCH" results list)

# --- a newer schema: refused, untouched; the run still prints ----------------------
cp "$db" "$d/future.db"
sqlite3 "$d/future.db" "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99" >/dev/null
sha_before=$(sha256sum <"$d/future.db")
"$IOBENCH" run "${job[@]}" --db "$d/future.db" --output-format=json >"$d/fut.json" 2>"$d/fut.err"
rc=$?
check "a newer schema: exit 1 after the results were printed" test $rc -eq 1 -a "$(json_get "$d/fut.json" 'len(d["jobs"])')" = 1
check "  the message names the versions" grep -q "has schema version 99, newer than this iobench's (3)" "$d/fut.err"
check "  and says the results were not stored" grep -q "the results above were not stored" "$d/fut.err"
check "  the database is unchanged" test "$(sha256sum <"$d/future.db")" = "$sha_before" -a ! -e "$d/future.db-wal"
"$IOBENCH" results list --db "$d/future.db" >/dev/null 2>&1
check "  results list refuses it too" test $? -eq 1 -a "$(sha256sum <"$d/future.db")" = "$sha_before"

# --- --db on a block device -----------------------------------------------------------
loop=$(mkloop 8M)
dd if=/dev/urandom of="$loop" bs=1M count=8 status=none
lsha=$(sha256sum <"$loop")
"$IOBENCH" run "${job[@]}" --db "$loop" >/dev/null 2>"$d/blk.err"
check "--db on a block device: exit 1" test $? -eq 1
check "  refused by the device guard" grep -q "cannot open the results database '$loop'" "$d/blk.err"
check "  the device is unchanged" test "$(sha256sum <"$loop")" = "$lsha"
ln -s "$loop" "$d/link.db"
"$IOBENCH" run "${job[@]}" --db "$d/link.db" >/dev/null 2>"$d/blk2.err"
check "--db through a symlink to it: refused, unchanged" test $? -eq 1 -a "$(sha256sum <"$loop")" = "$lsha"
finish
