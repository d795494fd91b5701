#!/usr/bin/env bash
# e2e: serial
# iobench monitor against the real tools: a steady fio load on a loop device
# while iostat -x, vmstat and `iobench monitor --json` run over the same
# seconds; their averages must agree within 5% (or 1 unit where small).
# Also: -c 3 --json prints exactly three JSON lines, SIGINT ends the live
# view with exit 0 and only complete lines, bad arguments give one-line
# errors and exit 1, and a device given as /dev/NAME is found.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd iostat sysstat && need_cmd vmstat procps && need_cmd fio fio || finish
d=$(tmpdir)
dev=$(mkloop 256M) || { not_ok "create a loop device"; finish; }
name=${dev#/dev/}
N=6

# the load: random 4k reads and writes, queue depth 4, for the whole window
fio --name=load --filename="$dev" --rw=randrw --bs=4k --direct=1 --ioengine=libaio \
  --iodepth=4 --size=200M --time_based --runtime=$((N + 4)) --output=/dev/null &
fio_pid=$!
sleep 1.5
iostat -x -d -y -o JSON "$name" 1 $N >"$d/iostat.json" 2>"$d/iostat.err" &
io_pid=$!
vmstat -y 1 $N >"$d/vmstat.txt" 2>"$d/vmstat.err" &
vm_pid=$!
"$IOBENCH" monitor "$dev" -i 1 -c $N --json >"$d/mon.jsonl" 2>"$d/mon.err"
mon_rc=$?
wait $io_pid $vm_pid
wait $fio_pid
check "monitor -c $N exits 0" test $mon_rc -eq 0
check "monitor printed $N lines" test "$(wc -l <"$d/mon.jsonl")" -eq $N

if python3 - "$d" "$name" >"$d/cmp.txt" 2>&1 <<'PY'
import json, sys
d, name = sys.argv[1], sys.argv[2]
mon = [json.loads(l) for l in open(d + "/mon.jsonl")]
ios = json.load(open(d + "/iostat.json"))["sysstat"]["hosts"][0]["statistics"]
ios = [next(x for x in s["disk"] if x["disk_device"] == name) for s in ios]
vm_lines = [l.split() for l in open(d + "/vmstat.txt") if l.split() and l.split()[0].isdigit()]
vmcols = "r b swpd free buff cache si so bi bo in cs us sy id wa st".split()
vms = [dict(zip(vmcols, map(float, l))) for l in vm_lines]
assert len(ios) == len(mon) == len(vms), (len(ios), len(mon), len(vms))
mdisk = [next(x for x in m["disks"] if x["name"] == name) for m in mon]
avg = lambda xs: sum(xs) / len(xs)
bad = 0
# The two tools' one-second windows start a fraction of a second apart, so
# their averages over n windows differ by at most what the load changed
# within a window at either end: the range of the per-second values times
# 2/n. On a steady load that is small and 5% decides; on a loaded machine
# the load itself swings and the bound follows it.
def edge(xs, ys):
    v = list(xs) + list(ys)
    return (max(v) - min(v)) * 2.0 / min(len(xs), len(ys))
def cmp(what, ours, theirs, spread=0.0):
    global bad
    tol = max(0.05 * abs(theirs), 1.0, spread)
    ok = abs(ours - theirs) <= tol
    bad += not ok
    print("%-4s %-10s iobench %10.2f  tool %10.2f  %s" % ("ok" if ok else "BAD", what, ours, theirs, "" if ok else "(tolerance %.2f)" % tol))
# iostat's JSON names %rrqm "rrqm" and %util "util"
for k, ik in [("r/s", "r/s"), ("w/s", "w/s"), ("rkB/s", "rkB/s"), ("wkB/s", "wkB/s"),
              ("r_await", "r_await"), ("w_await", "w_await"), ("rareq-sz", "rareq-sz"),
              ("wareq-sz", "wareq-sz"), ("aqu-sz", "aqu-sz"), ("%util", "util")]:
    ours, theirs = [x[k] for x in mdisk], [x[ik] for x in ios]
    cmp(k, avg(ours), avg(theirs), edge(ours, theirs))
for k in ["bi", "bo", "in", "cs", "us", "sy", "id", "wa"]:
    ours, theirs = [m["vmstat"][k] for m in mon], [v[k] for v in vms]
    cmp("vm " + k, avg(ours), avg(theirs), edge(ours, theirs))
assert avg([x["r/s"] for x in mdisk]) > 10, "the load did not reach the device"
sys.exit(1 if bad else 0)
PY
then ok "averages agree with iostat -x and vmstat"; else not_ok "averages agree with iostat -x and vmstat"; fi
sed 's/^/# /' "$d/cmp.txt"

# --- the monitor inside a run: the same figures over the run's steady seconds
# An iobench run (its own load: direct random reads and writes at a fixed
# rate, so any second looks like any other) samples the system every second
# into its JSON; iostat -x and vmstat watch the same device meanwhile. The
# run's intervals whose middle falls in the tools' window are averaged and
# compared like above.
"$IOBENCH" run --name=load --filename="$dev" --allow-destroy="$dev" --rw=randrw --bs=4k \
  --direct=1 --ioengine=libaio --iodepth=4 --size=200M --time_based --runtime=$((N + 4)) \
  --rate_iops=2000,2000 --output-format=json >"$d/run.json" 2>"$d/run.err" &
run_pid=$!
sleep 1.5
t0=$(date +%s.%N)
iostat -x -d -y -o JSON "$name" 1 $N >"$d/iostat2.json" 2>/dev/null &
io_pid=$!
vmstat -y 1 $N >"$d/vmstat2.txt" 2>/dev/null &
vm_pid=$!
wait $io_pid $vm_pid
t1=$(date +%s.%N)
wait $run_pid; run_rc=$?
check "the run with its monitor exits 0" test $run_rc -eq 0
if python3 - "$d" "$name" "$t0" "$t1" >"$d/cmp2.txt" 2>&1 <<'PY'
import json, sys
d, name, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
run = json.load(open(d + "/run.json"))
mon = run["iobench"]["monitor"]
start = run["iobench"]["start_ms"] / 1000.0  # the monitor starts just before this
ivs = [iv for iv in mon["intervals"]
       if iv["dt"] > 0.9 and t0 <= start + iv["time"] - iv["dt"] / 2 <= t1]
ios = json.load(open(d + "/iostat2.json"))["sysstat"]["hosts"][0]["statistics"]
ios = [next(x for x in s["disk"] if x["disk_device"] == name) for s in ios]
vmcols = "r b swpd free buff cache si so bi bo in cs us sy id wa st".split()
vms = [dict(zip(vmcols, map(float, l.split()))) for l in open(d + "/vmstat2.txt")
       if l.split() and l.split()[0].isdigit()]
mdisk = [next(x for x in iv["disks"] if x["name"] == name) for iv in ivs]
assert len(mdisk) >= 3, "the run's monitor has %d full intervals in the window" % len(mdisk)
avg = lambda xs: sum(xs) / len(xs)
bad = 0
# as above: the windows' offset moves the averages by at most the range of
# the per-second values times 2/n (the run's intervals and the tools'
# seconds need not be as many: the fewer decides)
def edge(xs, ys):
    v = list(xs) + list(ys)
    return (max(v) - min(v)) * 2.0 / min(len(xs), len(ys))
def cmp(what, ours, theirs, spread=0.0):
    global bad
    tol = max(0.05 * abs(theirs), 1.0, spread)
    ok = abs(ours - theirs) <= tol
    bad += not ok
    print("%-4s %-10s run %10.2f  tool %10.2f  %s" % ("ok" if ok else "BAD", what, ours, theirs, "" if ok else "(tolerance %.2f)" % tol))
for k, ik in [("r/s", "r/s"), ("w/s", "w/s"), ("rkB/s", "rkB/s"), ("wkB/s", "wkB/s"),
              ("r_await", "r_await"), ("w_await", "w_await"), ("aqu-sz", "aqu-sz"),
              ("%util", "util")]:
    ours, theirs = [x[k] for x in mdisk], [x[ik] for x in ios]
    cmp(k, avg(ours), avg(theirs), edge(ours, theirs))
# vmstat's figures are the whole machine's, other processes' bursts too:
# the same bound
for k in ["bi", "bo", "in", "cs", "us", "sy", "wa"]:
    ours, theirs = [iv["vmstat"][k] for iv in ivs], [v[k] for v in vms]
    cmp("vm " + k, avg(ours), avg(theirs), edge(ours, theirs))
assert avg([x["r/s"] for x in mdisk]) > 10, "the load did not reach the device"
sys.exit(1 if bad else 0)
PY
then ok "a run's monitor agrees with iostat -x and vmstat over the same seconds"
else not_ok "a run's monitor agrees with iostat -x and vmstat over the same seconds"; fi
sed 's/^/# /' "$d/cmp2.txt"

# -c 3 --json: three lines, each a valid JSON object with the device
"$IOBENCH" monitor "$name" -i 0.2 -c 3 --json >"$d/three.jsonl" 2>"$d/three.err"; rc=$?
check "-c 3 --json exits 0" test $rc -eq 0
check "-c 3 --json prints three valid JSON lines naming the device" python3 -c "
import json, sys
lines = open(sys.argv[1]).read().split('\n')
assert lines[-1] == '' and len(lines) == 4, lines
for l in lines[:3]:
    o = json.loads(l)
    assert [x['name'] for x in o['disks']] == [sys.argv[2]] and 'vmstat' in o and 'psi' in o
" "$d/three.jsonl" "$name"
check "nothing on stderr" test ! -s "$d/three.err"

# SIGINT ends it with exit 0 and only whole lines
"$IOBENCH" monitor -i 0.1 --json >"$d/int.jsonl" 2>"$d/int.err" &
pid=$!
sleep 1.2
kill -INT $pid
timeout 10 tail --pid=$pid -f /dev/null; wait $pid; rc=$?
check "SIGINT: exit 0" test $rc -eq 0
check "SIGINT: every line is complete JSON" python3 -c "
import json, sys
t = open(sys.argv[1]).read()
assert t.endswith('\n') and t.count('\n') >= 2
for l in t.splitlines(): json.loads(l)
" "$d/int.jsonl"
"$IOBENCH" monitor "$name" -i 0.1 >"$d/int.txt" 2>&1 &
pid=$!
sleep 0.7
kill -INT $pid
timeout 10 tail --pid=$pid -f /dev/null; wait $pid; rc=$?
check "SIGINT in text mode: exit 0" test $rc -eq 0
check "text mode shows the vmstat header and the device table" \
  bash -c "grep -q '^ r  b   swpd' '$d/int.txt' && grep -q '^Device  *r/s  *rkB/s' '$d/int.txt' && grep -q '^$name ' '$d/int.txt'"
check "text mode ends with a complete block" bash -c "tail -c 2 '$d/int.txt' | od -c | grep -q '\\\\n  *\\\\n'"

# bad arguments: one line on stderr, nothing on stdout, exit 1
for args in "-i 0" "-c x" "no-such-disk-iobench" "-i" "--bogus"; do
  "$IOBENCH" monitor $args -c 1 >"$d/bad.out" 2>"$d/bad.err"; rc=$?
  check "monitor $args: exit 1, one-line error" bash -c "[ $rc -eq 1 ] && [ ! -s '$d/bad.out' ] && [ \$(wc -l <'$d/bad.err') -eq 1 ] && grep -q '^iobench: error: ' '$d/bad.err'"
done
finish
