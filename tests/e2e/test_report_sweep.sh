#!/usr/bin/env bash
# iobench report of a sweep: a small sweep (job.rate =
# 4m | 16m x job.bs = 4k | 64k, repeat 2, on a tmpfs directory: nothing but
# the job's own options changes) is stored and written with `report
# sweep:ID` as one HTML page that headless Chromium opens, with the checks
# test_report.sh makes: the sweep section and the others are there, every
# plot is an inline SVG with drawn data, one main-effect panel per factor
# with its axis labels, the ranking of the points, nothing fetched, an
# empty console (the render time is printed, not asserted). The numbers
# are the sweep analysis's own (`sweep report --output-format=json`): the
# points in its order, each factor's share and best level. --format md
# parses as Markdown tables, --format txt has the section; selecting the
# sweep's runs by id brings its analysis too; --goal re-ranks; an unknown
# sweep is refused, and so is --goal where no sweep is. Then the jobs over
# time: a run of two jobs stores each job's timeline (start < end, on the
# monitor's clock; the bytes its intervals add up to are the job's
# io_bytes; a rate=4m job's intervals near 4 MiB/s), a bonnie its tests'
# starts and ends in order; the report draws a line per job and labels the
# boundaries on the jobs' and the monitor's plots, and tables them in
# Markdown. The page of a 12-point sweep is measured in the report of the
# helper who wrote this (bench figures are not asserted here).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd chromium chromium && need_cmd gnuplot gnuplot-nox && { /usr/bin/python3 -c 'import markdown' 2>/dev/null ||
  { not_ok "needs python3-markdown: install it with scripts/deps.sh"; false; }; } || finish
PY=/usr/bin/python3
HELP="$(dirname "$0")/report_browser.py"
CHROME=(timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync)
d=$(tmpdir)
db=$d/results.db
mnt=$(tmpdir)
mount -t tmpfs -o size=64m iobench-e2e "$mnt" && reg mount "$mnt"
cat >"$d/job.fio" <<'JOB'
[w]
ioengine=psync
size=1m
bs=64k
rw=write
JOB
printf '[target]\ndir = %s\n[factors]\njob.rate = 4m | 16m\njob.bs = 4k | 64k\n[workload]\njob = %s\nrepeat = 2\ndrop_caches = target\n[design]\ntype = full\ngoal = write bw\n' \
  "$mnt" "$d/job.fio" >"$d/s.plan"
(cd "$d" && "$IOBENCH" sweep s.plan --db="$db" >"$d/sweep.out" 2>"$d/sweep.err")
check "the sweep: exit 0, 8 runs of 4 points stored" \
  test $? -eq 0 -a "$(sqlite3 "$db" "SELECT count(*), count(DISTINCT sweep_point) FROM runs WHERE sweep_id = 1")" = "8|4"
"$IOBENCH" sweep report 1 --db="$db" --output-format=json >"$d/an.json" 2>/dev/null
check "sweep report --output-format=json" test -s "$d/an.json"

# --- the page --------------------------------------------------------------
"$IOBENCH" report sweep:1 --db="$db" -o "$d/s.html" 2>"$d/s.err"
check "report sweep:1: exit 0" test $? -eq 0
size=$(stat -c %s "$d/s.html")
echo "# page size of a 4-point sweep: $size bytes"
check "the page is under 2 MiB" test "$size" -lt 2097152
check "titled by the sweep and its goal" grep -q '<title>iobench report: sweep 1 on write bw</title>' "$d/s.html"
check "nothing outside the file (no script, no src=, no external href, no url(), no @import)" \
  bash -c "! grep -Eiq '<script|<link|<img|<iframe| src=|href=\"(https?:|//)|url\\(|@import' '$d/s.html'"
timeout 90 $PY "$HELP" load "$d/s.html" >"$d/load.json" 2>"$d/load.err"
check "devtools: the page loaded" test -s "$d/load.json"
echo "# render: $(json_get "$d/load.json" '"%s ms to the load event (client), %s ms navigation timing, first paint %s" % (d["render_ms"], d["load_event_ms"], d["paint_ms"])')"
check "devtools: the only request is the page itself" \
  test "$(json_get "$d/load.json" 'd["requests"] == [d["url"]]')" = True
check "devtools: no console message, no exception, no error in the log" \
  test "$(json_get "$d/load.json" 'd["console"] + d["exceptions"] + d["log_errors"]')" = "[]"
check "devtools: loaded in under 20 s (the issue's 2 s is measured above, not asserted)" \
  test "$(json_get "$d/load.json" 'd["render_ms"] < 20000')" = True
p1=$(tmpdir)
"${CHROME[@]}" --user-data-dir="$p1" --dump-dom "file://$d/s.html" >"$d/dom.html" 2>/dev/null
check "chromium --dump-dom: the page rendered" grep -q '</html>' "$d/dom.html"
$PY "$HELP" dom "$d/dom.html" >"$d/dom.json" || not_ok "the rendered page read (exit $?)"
check "the sweep section is there, after the summary, with figures, latency, series, system" \
  test "$(json_get "$d/dom.json" 'd["sections"][:2] == ["summary", "sweep"] and {"figures", "latency", "series", "system"} <= set(d["sections"])')" = True
check "every plot is an inline SVG with drawn data (a shape of 2+ points in a plot group)" \
  test "$(json_get "$d/dom.json" 'all(f["svg"] and f["shapes"] >= 1 and f["points"] >= 2 for f in d["figures"])')" = True
check "one main-effect panel per factor: its name on the x axis, its levels, the unit" \
  test "$(json_get "$d/dom.json" '(lambda fs: sorted(f["caption"].split(":")[0] for f in fs) == ["job.bs", "job.rate"] and all(f["caption"].split(":")[0] in f["texts"] and "MiB/s" in f["texts"] for f in fs) and any({"4m", "16m"} <= set(f["texts"]) for f in fs) and any({"4k", "64k"} <= set(f["texts"]) for f in fs))([f for f in d["figures"] if "mean write bw per level" in f["caption"]])')" = True
check "the ranking plot: the 4 points in the analysis's order, best first, a MiB/s axis" \
  test "$(json_get "$d/dom.json" '[[t for t in f["texts"] if t[:1].isdigit() and ". " in t] for f in d["figures"] if f["caption"].startswith("points ranked")]')" = \
  "$(json_get "$d/an.json" '[["%d. %s" % (p["rank"], p["point"]) for p in d["points"]]]')"

# --- the numbers are the analysis's ----------------------------------------
"$IOBENCH" report sweep:1 --db="$db" --format md -o "$d/s.md" 2>/dev/null
check "--format md: exit 0, no HTML" bash -c "[ $? -eq 0 ] && ! grep -Eq '<svg|<table|<div' '$d/s.md'"
$PY "$HELP" md "$d/s.md" >"$d/md.json" || not_ok "python-markdown read the page (exit $?)"
check "--format md: python-markdown finds the main effects (4 levels), ranking (4 points) and importance tables" \
  test "$(json_get "$d/md.json" '{(t["head"][0], t["rows"]) for t in d["tables"]} >= {("factor", 4), ("rank", 4), ("what", 4)}')" = True
check "--format md: every row of every table has its header's cells, no stray table line" \
  test "$(json_get "$d/md.json" 'all(t["rows"] > 0 and t["cells"] == [len(t["head"])] for t in d["tables"]) and d["stray"] == []')" = True
ranked=$(grep -E '^\| [0-9]+ \| job\.rate=' "$d/s.md" | cut -d'|' -f3 | sed 's/^ //;s/ $//' | tr '\n' ';')
check "md ranking: the points in sweep report's order ($ranked)" \
  test "$ranked" = "$(json_get "$d/an.json" '"".join(p["point"] + ";" for p in d["points"])')"
shares=$(grep -E '^\| job\.(rate|bs) \| (\*\*)?[0-9.]+%' "$d/s.md" | sed 's/\*\*//g' | awk -F'|' '{gsub(/ /,"",$2); gsub(/ /,"",$3); printf "%s=%s;", $2, $3}')
check "md importance: each factor's share as sweep report's, largest first ($shares)" \
  test "$shares" = "$(json_get "$d/an.json" '"".join("%s=%.1f%%;" % (f, d["importance"]["factors"][f] * 100) for f in d["importance"]["ranking"])')"
best=$(grep -E '^\| job\.(rate|bs) \| [^|]+ \| [^|]+ \| [0-9]+ \| best \|' "$d/s.md" | awk -F'|' '{gsub(/ /,"",$2); gsub(/ /,"",$3); printf "%s=%s;", $2, $3}')
check "md main effects: the best level of each factor as sweep report's ($best)" \
  test "$best" = "$(json_get "$d/an.json" '"".join("%s=%s;" % (m["factor"], m["best"]) for m in d["main_effects"])')"
"$IOBENCH" report sweep:1 --db="$db" --format txt >"$d/s.txt" 2>/dev/null
check "--format txt: the Sweep section, underlined, with the ranking" \
  bash -c "grep -qx 'Sweep' '$d/s.txt' && grep -q '^rank  *point  *median' '$d/s.txt'"

# --- which runs bring it, and errors -----------------------------------------
"$IOBENCH" report 1,2 3,4 --db="$db" --format md -o "$d/ids.md" 2>/dev/null
check "runs of a sweep selected by id: the page has the sweep's analysis over all its runs" \
  bash -c "grep -qx '## Sweep' '$d/ids.md' && grep -q '^8 runs of 4 points analysed on write bw' '$d/ids.md'"
"$IOBENCH" report sweep:1 --db="$db" --goal 'write iops' --format md -o "$d/iops.md" 2>/dev/null
check "--goal 'write iops': the analysis is on write iops" \
  bash -c "grep -qx '### sweep 1: write iops, design full' '$d/iops.md' && grep -q '^\*\*points ranked on write iops' '$d/iops.md'"
"$IOBENCH" report sweep:1 --db="$db" --goal 'write bandwidth' --format md -o "$d/bad.md" 2>/dev/null
check "a goal that is no figure: the page says why there is no analysis" \
  grep -q '^sweep 1: no analysis: ' "$d/bad.md"
"$IOBENCH" report sweep:9 --db="$db" -o "$d/none.html" >/dev/null 2>"$d/e1"
check "sweep:9 (no such sweep) refused, no file" \
  bash -c "[ $? -ne 0 ] && grep -q 'no sweep 9 in the results database' '$d/e1' && [ ! -e '$d/none.html' ]"

# --- the jobs over time and the phase boundaries (a run of two jobs, a bonnie) ---
"$IOBENCH" run --name=a --filename="$mnt/fa" --size=16m --bs=4k --rw=randrw --runtime=1 --time_based \
  --name=b --filename="$mnt/fb" --size=4m --bs=64k --rw=write --rate=4m --db="$db" \
  --output-format=json >"$d/two.json" 2>/dev/null
check "a run of two jobs stored" test $? -eq 0
rid=$(sqlite3 "$db" "SELECT max(id) FROM runs")
sqlite3 "$db" "SELECT json FROM run_env WHERE run_id = $rid" >"$d/two.env"
check "its stored environment has each job's timeline: start < end, 1+ intervals, on the monitor's clock" \
  test "$(json_get "$d/two.env" '[(j["job"], j["start"] < j["end"], len(j["t"]) >= 1, j["t"][-1] <= d["monitor"]["intervals"][-1]["time"] + 0.01) for j in d["jobs_timeline"]]')" = \
  "[('a', True, True, True), ('b', True, True, True)]"
check "job a: the timeline's bytes (sum of bw x interval) are the job's read and write io_bytes" \
  test "$($PY - "$d/two.env" "$d/two.json" <<'PY'
import json, sys
env = json.load(open(sys.argv[1])); fio = json.load(open(sys.argv[2]))
j = [x for x in env["jobs_timeline"] if x["job"] == "a"][0]
f = [x for x in fio["jobs"] if x["jobname"] == "a"][0]
ok = True
for dname in ("read", "write"):
    t = [j["t0"]] + j["t"]  # t0: the first reading, as the batch started
    got = sum(v * (t[i + 1] - t[i]) for i, v in enumerate(j[dname + "_bw"]))
    want = f[dname]["io_bytes"]
    ok &= abs(got - want) <= 0.02 * want + 65536
print(ok)
PY
)" = True
check "job b (rate=4m, 4 MiB): about a second, about 4 MiB/s per interval" \
  test "$(json_get "$d/two.env" '(lambda j: 0.7 < j["end"] - j["start"] < 2.5 and all(2.5e6 < v < 6e6 for v in j["write_bw"]))([x for x in d["jobs_timeline"] if x["job"] == "b"][0])')" = True
mkdir -p "$mnt/bon" && mount -t tmpfs -o size=64m iobench-e2e "$mnt/bon" && reg mount "$mnt/bon"
"$IOBENCH" bonnie -d "$mnt/bon" -s 8 -r 4 -n 0 -f -u root -q --db="$db" >/dev/null 2>&1
check "bonnie stored" test $? -eq 0
bid=$(sqlite3 "$db" "SELECT max(id) FROM runs")
sqlite3 "$db" "SELECT json FROM run_env WHERE run_id = $bid" >"$d/bon.env"
check "bonnie's stored environment has its tests' starts and ends, in order, each after the last" \
  test "$(json_get "$d/bon.env" '([p["name"] for p in d["phases"]], all(p["start"] < p["end"] for p in d["phases"]), all(a["end"] <= b["start"] for a, b in zip(d["phases"], d["phases"][1:])))')" = \
  "(['put_block', 'rewrite', 'get_block', 'seeks'], True, True)"
"$IOBENCH" report "$rid" "$bid" --db="$db" -o "$d/ts.html" 2>/dev/null
check "report of the two runs: exit 0" test $? -eq 0
# (the page as written: a page without script is its own DOM; chromium
# opened the sweep's above)
$PY "$HELP" dom "$d/ts.html" >"$d/ts.json" || not_ok "the rendered time-series page read (exit $?)"
check "job write bw over time: one line per job (2), a time axis, the jobs' boundaries labelled" \
  test "$(json_get "$d/ts.json" '(lambda f: f["shapes"] >= 2 and "seconds since the run started" in f["texts"] and {"a start", "a end", "b end"} <= set(f["texts"]))([f for f in d["figures"] if f["caption"].startswith("job write bw")][0])')" = True
check "job read iops over time drawn (job a's)" \
  test "$(json_get "$d/ts.json" 'any(f["caption"].startswith("job read iops") and f["points"] >= 2 for f in d["figures"])')" = True
check "the monitor's plots carry the boundaries too (bonnie's test names on each)" \
  test "$(json_get "$d/ts.json" '(lambda fs: len(fs) >= 2 and all({"put_block", "rewrite", "seeks", "a start"} <= set(f["texts"]) for f in fs))([f for f in d["figures"] if "seconds since the run started" in f["texts"] and not f["caption"].startswith("job ")])')" = True
"$IOBENCH" report "$rid" "$bid" --db="$db" --format md -o "$d/ts.md" 2>/dev/null
check "--format md: the phase boundaries table (jobs a and b, bonnie's 4 tests)" \
  bash -c "grep -Eq '^\\| run [0-9]+ \\| job a \\| [0-9.]+ \\| [0-9.]+ \\| [0-9]+ \\|' '$d/ts.md' && grep -Eq '^\\| run [0-9]+ \\| seeks \\| [0-9.]+ \\| [0-9.]+ \\| - \\|' '$d/ts.md'"
"$IOBENCH" report "$rid" --db="$db" --goal 'write bw' -o "$d/g.html" >/dev/null 2>"$d/e2"
check "--goal for runs of no sweep refused, no file" \
  bash -c "[ $? -ne 0 ] && grep -q 'none of the selected runs is a point of a sweep' '$d/e2' && [ ! -e '$d/g.html' ]"
"$IOBENCH" report --from "$d/two.json" --goal 'write bw' -o "$d/g.html" >/dev/null 2>"$d/e3"
check "--goal with --from refused" \
  bash -c "[ $? -ne 0 ] && grep -q 'leave it out with --from' '$d/e3' && [ ! -e '$d/g.html' ]"
exit $E2E_FAILED
