#!/usr/bin/env bash
# e2e: serial
# --repeat N, --repeat auto[:W%], --max-repeat and --drop-caches
# for run, quick and bonnie: the workload really runs N times (its
# writes and layouts counted, not only the printed n), auto stops at the
# first count that gives a 95% interval (6) on a steady job and at the
# maximum on a noisy one, --drop-caches refuses a user who is not root
# before anything runs, SIGINT in a repetition keeps it, marked, and the
# JSON holds the repetitions and the summary under "iobench" only.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
chmod 755 "$d"

# --- --repeat 3: three runs, counted in the writes the kernel saw -------------
# (--no-store: the results database's pages are 4 KiB pwrites too)
strace -f -qq -e trace=pwrite64 -o "$d/w.trace" "$IOBENCH" run --name=w --rw=write --bs=4k \
	--size=256k --filename="$d/w.dat" --repeat 3 --no-monitor --no-store --output-format=json \
	>"$d/w.json" 2>"$d/w.err"
check "--repeat 3: exit 0" test $? -eq 0
check "--repeat 3: 3 x 64 writes of 4 KiB reached the kernel" \
	test "$(grep -c 'pwrite64(.*, 4096, ' "$d/w.trace")" -eq 192
check "--repeat 3: the JSON validates" python3 -m json.tool "$d/w.json" >/dev/null
check "--repeat 3: three repetitions, each with its own whole result of 256 KiB" \
	test "$(json_get "$d/w.json" '[r["result"]["jobs"][0]["write"]["io_bytes"] for r in d["iobench"]["repetitions"]]')" = "[262144, 262144, 262144]"
check "--repeat 3: the summary says 3 of 3, by count" \
	test "$(json_get "$d/w.json" '(d["iobench"]["repeat_summary"]["repetitions"], d["iobench"]["repeat_summary"]["finished"], d["iobench"]["repeat_summary"]["stopped_by"])')" = "(3, 3, 'count')"
check "--repeat 3: every summary key of every figure" \
	test "$(json_get "$d/w.json" 'sorted({f["figure"] for f in d["iobench"]["repeat_summary"]["figures"] if all(k in f for k in ("median","ci_lo","ci_hi","cv","min","max","n","outliers","values"))})')" = "['bw', 'clat_p50', 'clat_p99', 'iops']"
"$IOBENCH" run --name=w --rw=write --bs=4k --size=256k --filename="$d/w.dat" --no-monitor \
	--output-format=json >"$d/w1.json" 2>/dev/null
check "--repeat 3: the same top-level keys as one run (fio's, and iobench)" \
	test "$(json_get "$d/w.json" 'sorted(d)')" = "$(json_get "$d/w1.json" 'sorted(d)')"
check "--repeat 3: the top-level jobs are the last repetition's" \
	test "$(json_get "$d/w.json" 'd["jobs"][0]["write"]["io_bytes"] == 262144 and d["timestamp_ms"] == d["iobench"]["repetitions"][-1]["result"]["timestamp_ms"]')" = True
check "--repeat 3: the per-job fio keys are the plain run's" \
	test "$(json_get "$d/w.json" 'sorted(d["jobs"][0])')" = "$(json_get "$d/w1.json" 'sorted(d["jobs"][0])')"

# a read job's file is laid out once and reused, as a fresh fio run would;
# with unlink=1 it is gone after each run and laid out again each time
"$IOBENCH" run --name=r --rw=read --bs=4k --size=256k --filename="$d/r.dat" --repeat 3 \
	--no-monitor >"$d/r.out" 2>"$d/r.err"
check "read job: laid out once for 3 repetitions (the note in the report, stderr empty)" \
	test "$(grep -c 'Laying out IO file' "$d/r.out")" -eq 1 -a ! -s "$d/r.err"
check "read job: every repetition's report and the summary are printed" \
	test "$(grep -c '^repetition [123] of 3$' "$d/r.out")" -eq 3 -a "$(grep -c '^Repetitions: 3 of 3: stop: 3 of 3 repetitions done' "$d/r.out")" -eq 1
check "read job: summary lines have median, CI, cv, min, max, n, outliers" \
	grep -Eq '^  r read bw: median [0-9.]+ KiB/s, no 95% CI from 3 .*, cv [0-9.]+%, min [0-9.]+, max [0-9.]+, n 3, outliers: ' "$d/r.out"
"$IOBENCH" run --name=u --rw=read --bs=4k --size=256k --filename="$d/u.dat" --unlink=1 \
	--repeat 3 --no-monitor >"$d/u.out" 2>"$d/u.err"
check "read job with unlink=1: laid out again in each of 3 repetitions" \
	test "$(grep -c 'Laying out IO file' "$d/u.out")" -eq 3

# --- --repeat auto: steady and noisy ---------------------------------------
# steady: every I/O delayed 250 ms by the faulty engine, so each figure
# moves only by the scheduler's jitter; W=20% because a loaded machine's
# timer wake-ups come up to 25 ms late (a 100 ms delay's p99 was 20% high
# in one of 9 repetitions), which is 10% of 250 ms (the rule is the same at
# any W); two I/Os a repetition, as long as five of 100 ms were
"$IOBENCH" run --name=steady --directory="$d" --ioengine=faulty --faulty_engine=null --faulty_delay=250ms \
	--rw=read --bs=4k --size=8k --repeat auto:20% --no-monitor --output-format=json \
	>"$d/s.json" 2>"$d/s.err"
check "auto, steady: exit 0 and valid JSON" python3 -m json.tool "$d/s.json" >/dev/null
check "auto, steady: stops at the minimum, 6 (the fewest with a 95% interval), converged" \
	test "$(json_get "$d/s.json" '(len(d["iobench"]["repetitions"]), d["iobench"]["repeat_summary"]["stopped_by"])')" = "(6, 'converged')"
check "auto, steady: names the figure that stopped it" \
	grep -Eq "^Repetitions: 6 \(--repeat auto:20%, at most 10\): stop: after 6 repetitions every figure's 95% confidence interval of the median is within 20% of it \(widest: 'steady read [a-z_0-9]+' " "$d/s.err"
check "auto, steady: ... and the JSON too" \
	test "$(json_get "$d/s.json" 'd["iobench"]["repeat_summary"]["deciding_figure"].startswith("steady read ")')" = True
check "auto, steady: 95% intervals from 6 values" \
	test "$(json_get "$d/s.json" 'all(f["ci_95"] and f["n"] == 6 for f in d["iobench"]["repeat_summary"]["figures"])')" = True

# noisy: a random half of the I/Os delayed 20 ms, drawn anew each run
# (randrepeat=0): bw and latency jump between repetitions
"$IOBENCH" run --name=noisy --directory="$d" --ioengine=faulty --faulty_engine=null --faulty_delay=20ms \
	--faulty_delay_select=random:50 --randrepeat=0 --rw=read --bs=4k --size=40k \
	--repeat auto --max-repeat 6 --no-monitor --output-format=json >"$d/n.json" 2>"$d/n.err"
check "auto, noisy: goes to the maximum" \
	test "$(json_get "$d/n.json" '(len(d["iobench"]["repetitions"]), d["iobench"]["repeat_summary"]["stopped_by"])')" = "(6, 'max')"
check "auto, noisy: says the maximum was hit, naming the widest figure" \
	grep -Eq "stop: the maximum of 6 repetitions was reached; 'noisy read [a-z_0-9]+' is still at " "$d/n.err"
check "auto, noisy: reports a wide interval (some figure's beyond +-20%)" \
	test "$(json_get "$d/n.json" 'any(max(f["ci_rel_lo_pct"], f["ci_rel_hi_pct"]) > 20 for f in d["iobench"]["repeat_summary"]["figures"])')" = True

# --- option errors, before anything runs ------------------------------------
setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOBENCH" run --name=x --rw=read \
	--size=64k --filename="$d/dc.dat" --repeat 2 --drop-caches >"$d/dc.out" 2>"$d/dc.err"
rc=$?
check "--drop-caches as nobody: exit 1" test "$rc" -eq 1
check "--drop-caches as nobody: says it needs root" grep -q "error: --drop-caches needs root" "$d/dc.err"
check "--drop-caches as nobody: nothing ran (no file, no output)" test ! -e "$d/dc.dat" -a ! -s "$d/dc.out"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOBENCH" quick "$d" --size=1m \
	--runtime=100ms --drop-caches >/dev/null 2>"$d/dcq.err"
check "quick --drop-caches as nobody: refused" test $? -eq 1 -a -n "$(grep 'drop-caches needs root' "$d/dcq.err")"
"$IOBENCH" run --name=x --rw=read --size=64k --filename="$d/b.dat" --repeat 0 2>"$d/b.err"
check "--repeat 0: refused" grep -q "bad --repeat '0'" "$d/b.err"
"$IOBENCH" run --name=x --rw=read --size=64k --filename="$d/b.dat" --max-repeat 5 2>"$d/b.err"
check "--max-repeat without auto: refused" grep -q "max-repeat bounds --repeat auto" "$d/b.err"
check "... nothing ran" test ! -e "$d/b.dat"

# --- --drop-caches as root: the caches are dropped before each ----------------
"$IOBENCH" run --name=dc --rw=read --bs=4k --size=256k --filename="$d/dcr.dat" --repeat 2 \
	--drop-caches --no-monitor >"$d/dcr.out" 2>&1
check "--drop-caches as root: runs, and says so" grep -q "^Repetitions: 2 of 2, caches dropped before each" "$d/dcr.out"

# --- SIGINT in repetition 2 --------------------------------------------------
"$IOBENCH" run --name=sig --directory="$d" --ioengine=faulty --faulty_engine=null --faulty_delay=100ms \
	--rw=read --bs=4k --size=80k --repeat 5 --no-monitor >"$d/sig.out" 2>"$d/sig.err" &
pid=$!
for _ in $(seq 1 300); do grep -q '^repetition 1 of 5$' "$d/sig.out" 2>/dev/null && break; sleep 0.05; done
# repetition 1 is printed, then stored; repetition 2 (2 s of delayed I/O)
# has surely begun half a second later
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130" test "$rc" -eq 130
check "SIGINT: repetition 2 reported, marked interrupted" \
	grep -q '^repetition 2 of 5 (interrupted by a signal: not in the summary)$' "$d/sig.out"
check "SIGINT: no third repetition" bash -c "! grep -q '^repetition 3 of 5' '$d/sig.out'"
check "SIGINT: the summary covers the one finished" \
	grep -q '^Repetitions: 2 of 5: stop: a signal interrupted repetition 2; the summary covers the 1 finished before it' "$d/sig.out"

# --- quick and bonnie -----------------------------------------------------------
"$IOBENCH" quick "$d" --size=1m --runtime=100ms --engine=psync --repeat 2 --no-monitor \
	--output-format=json >"$d/q.json" 2>"$d/q.err"
check "quick --repeat 2: two repetitions in valid JSON" \
	test "$(json_get "$d/q.json" 'len(d["iobench"]["repetitions"])')" -eq 2
check "quick --repeat 2: a figure per test row and direction (4 rows x 4 figures)" \
	test "$(json_get "$d/q.json" 'len(d["iobench"]["repeat_summary"]["figures"])')" -eq 16
check "quick --repeat 2: its test file is removed" bash -c "! ls '$d'/iobench-quick.* 2>/dev/null"
mkdir "$d/bon"
"$IOBENCH" bonnie -d "$d/bon" -s 4 -r 2 -n 0 -f -u root --repeat 2 --no-monitor \
	--output-format=json >"$d/bon.json" 2>"$d/bon.err"
check "bonnie --repeat 2: two runs, valid JSON" test "$(json_get "$d/bon.json" 'len(d["runs"])')" -eq 2
check "bonnie --repeat 2: the summary of each phase that ran" \
	test "$(json_get "$d/bon.json" '[f["name"] for f in d["iobench"]["repeat_summary"]["figures"]]')" = "['put_block rate', 'rewrite rate', 'get_block rate', 'seeks rate']"
check "bonnie --repeat 2: repetitions point into runs" \
	test "$(json_get "$d/bon.json" '[r["result"] for r in d["iobench"]["repetitions"]]')" = "[1, 2]"
"$IOBENCH" bonnie -d "$d/bon" -s 4 -r 2 -n 0 -f -u root --repeat 2 --no-monitor \
	>"$d/bon.out" 2>/dev/null
check "bonnie --repeat 2 text: a CSV line per repetition, last" \
	test "$(tail -2 "$d/bon.out" | grep -c '^1\.98,')" -eq 2
check "bonnie --repeat 2 text: the summary" grep -q '^Repetitions: 2 of 2: stop: 2 of 2 repetitions done' "$d/bon.out"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOBENCH" bonnie -d "$d/bon" -s 4 -r 2 \
	-n 0 -f --drop-caches >"$d/bdc.out" 2>"$d/bdc.err"
check "bonnie --drop-caches as nobody: refused, nothing run" \
	test $? -eq 1 -a -n "$(grep 'drop-caches needs root' "$d/bdc.err")" -a ! -s "$d/bdc.out"
"$IOBENCH" bonnie -d "$d/bon" -s 4 -r 2 -n 0 -f -u nobody --drop-caches --no-monitor \
	>"$d/bdu.out" 2>"$d/bdu.err"
check "bonnie --drop-caches with -u nobody: refused before any test" \
	test $? -eq 1 -a -n "$(grep -- '--drop-caches needs root before each test, but -u' "$d/bdu.err")" -a -z "$(grep '^1\.98,' "$d/bdu.out")"
"$IOBENCH" bonnie -d "$d/bon" -s 4 -r 2 -n 0 -f -u root -x 2 --repeat 2 2>"$d/bx.err"
check "bonnie -x with --repeat: refused" grep -q -- "-x and --repeat both repeat the test" "$d/bx.err"
finish
