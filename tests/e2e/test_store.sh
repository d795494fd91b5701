#!/usr/bin/env bash
# e2e: long
# The results store: run, quick and bonnie store every result
# (listed, reprinted byte for byte by results show, fio's layout notes
# included, also per repetition, exported as rows that
# load in python's csv module), --no-store writes no database, a ready
# database is not open while the jobs run (nor with --no-store), two runs
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
# fio's "Laying out IO file" note is part of the normal report: kept in place
rm -f "$d/lay.dat"
"$IOBENCH" run --name=lay --rw=read --bs=64k --size=2m --filename="$d/lay.dat" --db "$d/lay.db" \
  >"$d/lay.txt" 2>/dev/null
check "a run that lays out its file prints the note" grep -q '^lay: Laying out IO file' "$d/lay.txt"
"$IOBENCH" results show 1 --db "$d/lay.db" >"$d/lay.show"
check "  results show of it (normal) equals what it printed, the note included" cmp -s "$d/lay.show" "$d/lay.txt"
rm -f "$d/lay.dat"
"$IOBENCH" run --name=lay --rw=read --bs=64k --size=2m --filename="$d/lay.dat" --unlink=1 \
  --repeat 2 --db "$d/lay.db" >"$d/layr.txt" 2>/dev/null
"$IOBENCH" results show 2 --db "$d/lay.db" >"$d/layr1.show"
"$IOBENCH" results show 3 --db "$d/lay.db" >"$d/layr2.show"
check "--repeat 2 laying out its file each time: repetition 1 shown as printed (job lines, note, report), repetition 2 as printed for it after the job lines" \
  python3 - "$d/layr.txt" "$d/layr1.show" "$d/layr2.show" <<'PY'
import sys
out, r1, r2 = (open(f, "rb").read() for f in sys.argv[1:])
note = b"lay: Laying out IO file"
assert out.count(note) == 2 and note in r1 and note in r2, "a note per repetition"
assert out[:len(r1)] == r1, "repetition 1: the start of stdout"
jl = r1[:r1.index(b"Starting 1 thread\n") + len(b"Starting 1 thread\n")]
assert r2.startswith(jl), "repetition 2: the job lines first"
rest = r2[len(jl):]
assert out[len(r1):len(r1) + len(rest)] == rest, "then what followed repetition 1"
assert rest.startswith(note), "its note before its heading, as printed"
PY
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
# bonnie's directories are on a tmpfs (fsync is free there: -b -n 1 took
# 20 s on a busy disk) and it runs each phase once (--no-precise): what is
# checked here is how its runs are stored
bt=$(tmpdir)
mount -t tmpfs -o size=64m tmpfs "$bt" && reg mount "$bt" || { not_ok "a tmpfs for bonnie"; finish; }
mkdir -p "$bt/b" && chmod 777 "$bt/b" && chmod 755 "$bt" # -u nobody works in bt/b
"$IOBENCH" bonnie -d "$bt/b" -s 8 -r 4 -n 1 -u nobody -f -b --no-precise --label tool=bonnie >"$d/bon.txt" 2>"$d/bon.err"
check "bonnie -u nobody: exit 0" test $? -eq 0
bid=$(sqlite3 "$db" "SELECT max(id) FROM runs WHERE kind = 'bonnie'")
check "bonnie (after dropping root) is stored" test -n "$bid"
"$IOBENCH" results show "$bid" >"$d/bon.show"
check "results show of bonnie equals its stdout" cmp -s "$d/bon.show" "$d/bon.txt"
check "bonnie's figures are stored per phase" \
  test "$(sqlite3 "$db" "SELECT count(*) FROM figures WHERE run_id = $bid AND job_idx = 0 AND direction = 'put_block' AND name = 'rate'")" = 1
"$IOBENCH" bonnie -d "$bt/b" -s 8 -r 4 -n 1 -u 0 -f -b --no-precise --output-format=json >"$d/bon.json" 2>/dev/null
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
# Memory: SQLite stays out of a run until it stores. A store
# whose header is ready (WAL, iobench's id, this schema) is opened after the
# jobs end, so while they run the database is neither open nor mapped
# (its -shm); with --no-store it never is. Read from /proc: a 3 s
# time_based null job, looked at after 1 s.
db_in_use() { # pid: does the process hold the database open or mapped?
  ls -l "/proc/$1/fd" 2>/dev/null | grep -q "$db" || grep -q "$db" "/proc/$1/maps" 2>/dev/null
}
n=$(nruns)
for mode in store no-store; do
  extra=(); [ $mode = no-store ] && extra=(--no-store)
  "$IOBENCH" run --name=lazy --ioengine=null --size=1g --time_based --runtime=3 "${extra[@]}" >/dev/null 2>&1 &
  pid=$!
  sleep 1
  if db_in_use $pid; then held=yes; else held=no; fi
  wait $pid
  check "$mode: the database is not open while the jobs run" test $held = no
done
check "  the deferred store stored the run" test "$(nruns)" = $((n + 1))
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
check "  the message names the versions" grep -q "has schema version 99, newer than this iobench's (6)" "$d/fut.err"
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

# --- --repeat: each repetition a run of its own, in one group ------------------
rdb=$d/rep.db
"$IOBENCH" run "${job[@]}" --db "$rdb" --label fs=tmp --repeat 3 --output-format=json \
  >"$d/rep.json" 2>"$d/rep.err"
check "run --repeat 3 with a store: exit 0" test $? -eq 0
check "--repeat 3 stores 3 runs" test "$(nruns '' "$rdb")" = 3
check "... in one rep_group, the first one's id, with rep_index 0, 1, 2" \
  test "$(sqlite3 "$rdb" "SELECT group_concat(rep_group || ':' || rep_index, ' ') FROM (SELECT * FROM runs ORDER BY id)")" = "1:0 1:1 1:2"
check "... each with the labels and the command line" \
  test "$(sqlite3 "$rdb" "SELECT count(*) FROM runs r WHERE argv LIKE '%\"--repeat\", \"3\"%' AND EXISTS (SELECT 1 FROM labels l WHERE l.run_id = r.id AND l.key = 'fs' AND l.value = 'tmp')")" = 3
"$IOBENCH" results list --db "$rdb" >"$d/rep.list"
check "results list shows the 3 repetitions" test "$(grep -Ec '^[123] .* run .* st +fs=tmp$' "$d/rep.list")" = 3
"$IOBENCH" results list --db "$rdb" --json >"$d/rep.list.json"
check "results list --json gives their group and index" \
  test "$(json_get "$d/rep.list.json" '[(r["rep_group"], r["rep_index"]) for r in d]')" = "[(1, 0), (1, 1), (1, 2)]"
"$IOBENCH" results show 2 --db "$rdb" --output-format=json >"$d/rep2.json"
check "results show of repetition 2: its own JSON document, as in the repetitions" \
  test "$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); print(a == b["iobench"]["repetitions"][1]["result"])' "$d/rep2.json" "$d/rep.json")" = True
"$IOBENCH" run "${job[@]}" --db "$rdb" --repeat 2 >"$d/rep.txt" 2>/dev/null
"$IOBENCH" results show 5 --db "$rdb" >"$d/rep5.txt"
# (up to the blank line before the summary, which is no repetition's)
check "a repetition's normal text is what was printed for it" \
  bash -c "grep -q '^repetition 2 of 2\$' '$d/rep5.txt' && sed -n '/^repetition 2 of 2\$/,/^Repetition summary/p' '$d/rep.txt' | sed '\$d' | sed '\$d' | cmp -s - <(sed -n '/^repetition 2 of 2\$/,\$p' '$d/rep5.txt')"
check "... a second group, starting at its first run" \
  test "$(sqlite3 "$rdb" "SELECT group_concat(rep_group || ':' || rep_index, ' ') FROM runs WHERE id > 3")" = "4:0 4:1"
"$IOBENCH" run "${job[@]}" --db "$rdb" --repeat 2 --no-store >/dev/null 2>&1
check "--repeat with --no-store stores nothing" test "$(nruns '' "$rdb")" = 5
mkdir -p "$d/q"
"$IOBENCH" quick "$d/q" --size=1m --runtime=100ms --engine=psync --repeat 2 --no-monitor \
  --db "$rdb" >"$d/q.txt" 2>/dev/null
check "quick --repeat 2: 2 quick runs in one group, each with its table" \
  test "$(sqlite3 "$rdb" "SELECT group_concat(r.rep_group || ':' || r.rep_index || ':' || (SELECT count(*) FROM renderings g WHERE g.run_id = r.id AND g.format = 'table'), ' ') FROM runs r WHERE kind = 'quick'")" = "6:0:1 6:1:1"
mkdir -p "$bt/bon"
"$IOBENCH" bonnie -d "$bt/bon" -s 4 -r 2 -n 0 -f -u root --no-precise --repeat 2 --no-monitor --db "$rdb" \
  >"$d/bon.txt" 2>/dev/null
check "bonnie --repeat 2: 2 bonnie runs in one group, each with its text and JSON" \
  test "$(sqlite3 "$rdb" "SELECT group_concat(r.rep_group || ':' || r.rep_index || ':' || (SELECT count(*) FROM renderings g WHERE g.run_id = r.id AND g.format IN ('normal', 'json')), ' ') FROM runs r WHERE kind = 'bonnie'")" = "8:0:2 8:1:2"

finish
