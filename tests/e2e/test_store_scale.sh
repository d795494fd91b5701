#!/usr/bin/env bash
# e2e: long
# The store grows with its input, not faster: importing a fio JSON of
# 10,000 jobs costs about 10 times the CPU time and the database space of
# one of 1,000 (ratios measured in the same run, so a loaded machine moves
# both); a job name of 3 MB costs about its size (the file as stored plus
# the jobs row: less than twice the name and a constant), not once per
# figure, and a file of 300 jobs imported after it costs what it costs in a
# fresh database. The big run is shown byte for byte and its figures
# (the "figures" view) carry its name.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
src=$(cd "$(dirname "$0")/.." && pwd)/data/import/fio-3.33-write-rate100m.json
gen() { # N NAMELEN OUT: src's job N times, named jobI (or NAMELEN x's)
  python3 - "$src" "$1" "$2" "$3" <<'PY'
import copy, json, sys
src, n, namelen, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
d = json.load(open(src))
j = d["jobs"][0]
d["jobs"] = []
for i in range(n):
    k = copy.deepcopy(j)
    k["jobname"] = "x" * namelen if namelen else "job%d" % i
    d["jobs"].append(k)
json.dump(d, open(out, "w"))
PY
}
gen 1000 0 "$d/1k.json"
gen 10000 0 "$d/10k.json"
gen 300 0 "$d/300.json"
gen 1 3000000 "$d/big.json"
# cpu DB FILE: import FILE into DB, print its user+sys seconds
cpu() {
  /usr/bin/time -f '%U %S' -o "$d/time" "$IOBENCH" results import "$2" --db "$1" >/dev/null 2>"$d/imp.err" ||
    { cat "$d/imp.err" >&2; echo -1; return; }
  awk '{ print $1 + $2 }' "$d/time"
}
# the bytes of the pages in use (the free pages of the deleted run not counted)
size() { sqlite3 "$1" "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, pragma_freelist_count, pragma_page_size"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / (a > 0.01 ? a : 0.01) }'; }
within() { awk -v r="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(r >= lo && r <= hi) }'; }

# an empty database of the current schema, the base of every size
"$IOBENCH" results import "$d/300.json" --db "$d/empty.db" >/dev/null
"$IOBENCH" results delete 1 --db "$d/empty.db" >/dev/null
for n in a b c; do cp "$d/empty.db" "$d/$n.db"; done
s0=$(size "$d/a.db")
t1=$(cpu "$d/a.db" "$d/1k.json")
t10=$(cpu "$d/b.db" "$d/10k.json")
s1=$(( $(size "$d/a.db") - s0 ))
s10=$(( $(size "$d/b.db") - s0 ))
rt=$(ratio "$t1" "$t10")
rs=$(ratio "$s1" "$s10")
echo "# 1,000 jobs: ${t1}s cpu, $s1 bytes; 10,000 jobs: ${t10}s cpu, $s10 bytes; ratios: time $rt, size $rs"
check "10,000 jobs cost about 10 times the space of 1,000 (ratio $rs, within 6..14)" within "$rs" 6 14
check "10,000 jobs cost about 10 times the CPU time of 1,000 (ratio $rt, within 4..14)" within "$rt" 4 14
check "the 10,000 jobs are stored, each once" \
  test "$(sqlite3 "$d/b.db" "SELECT count(*), count(DISTINCT name) FROM jobs")" = "10000|10000"

# a name of 3 MB costs about 3 MB (the file kept for results show, and the job's row)
sb=$(size "$d/c.db")
"$IOBENCH" results import "$d/big.json" --db "$d/c.db" >"$d/big.out" 2>"$d/big.err"
check "the file with a 3 MB job name is imported" test $? -eq 0
id=$(sed -n 's/.* as run \([0-9]*\) .*/\1/p' "$d/big.out")
grow=$(( $(size "$d/c.db") - sb ))
echo "# a 3,000,000-byte name: the database grew by $grow bytes"
check "it grew by less than twice the name and 1 MiB ($grow bytes)" test "$grow" -lt $(( 2 * 3000000 + 1048576 ))
"$IOBENCH" results show "$id" --db "$d/c.db" --output-format=json >"$d/big.show"
check "results show prints the file byte for byte" cmp -s "$d/big.show" "$d/big.json"
check "its figures carry the name (the figures view)" test "$(sqlite3 "$d/c.db" \
  "SELECT count(*), min(length(job_name)) FROM figures WHERE run_id = $id AND job_idx = 0")" = \
  "$(sqlite3 "$d/c.db" "SELECT count(*) FROM figures WHERE run_id = $id AND job_idx = 0")|3000000"
# 300 jobs after it cost what they cost in a fresh database
cp "$d/empty.db" "$d/f.db"
tf=$(cpu "$d/f.db" "$d/300.json")
ta=$(cpu "$d/c.db" "$d/300.json")
ra=$(ratio "$tf" "$ta")
echo "# 300 jobs: ${tf}s cpu into a fresh database, ${ta}s after the 3 MB name (ratio $ra)"
check "300 jobs after the big name cost about what they cost in a fresh database (ratio $ra, under 3)" \
  within "$ra" 0 3
finish
