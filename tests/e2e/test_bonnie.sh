#!/usr/bin/env bash
# e2e: long
# `iobench bonnie` against bonnie++ 2.00a on a small loop ext4: the command
# lines of an XFS RAID study and a filesystem comparison (sizes shrunk) run unchanged and their CSV lines
# render in bon_csv2html and bon_csv2txt with every column where bonnie++'s
# own lands (bonnie_layout.py), measured with --precise, the default (no
# +++++; --no-precise prints it as bonnie++ and bon_csv2html shows it);
# -q splits CSV (stdout) from text (stderr);
# -x 2 prints a header and two lines; the JSON has every figure and -c 4's
# aggregate is the sum of its four copies; -u drops privileges; -p/-y s
# synchronise two processes; bad flags give one line and exit 1; SIGINT
# exits 130; nothing is left in -d.
. "$(dirname "$0")/lib.sh"
need_root
command -v bonnie++ >/dev/null || { not_ok "bonnie++ is installed"; finish; }
# a tmpfs for the comparisons (fsync is free there, so -b and 1024 files
# take well under a second) and a loop ext4 for device statistics and SIGINT
mnt=$(tmpdir)
mount -t tmpfs -o size=256m tmpfs "$mnt" && reg mount "$mnt" || { not_ok "tmpfs for the tests"; finish; }
ext=$(mkfs_mount ext4 512M) || { not_ok "loop ext4 for the tests"; finish; }
t=$(tmpdir)
bd=$mnt/b
mkdir -p "$bd"
# the comparison's line is "-n 1 -s 12G -d /scratch -u apache -q"; there is no apache
# user here, so nobody stands in (the directory must be writable for it)
chmod 1777 "$bd"
# (not $d: check() has a local d)
empty() { [ -z "$(ls -A "$bd")" ]; }
ib() { "$IOBENCH" bonnie "$@"; }

# --- seed command lines: bonnie++ and iobench on the same directory ---------
i=0
while IFS= read -r args; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  bonnie++ $args -d "$bd" -q >"$t/ref$i.csv" 2>"$t/ref$i.err"; rr=$?
  # shellcheck disable=SC2086
  ib $args -d "$bd" -q >"$t/our$i.csv" 2>"$t/our$i.err"; ro=$?
  check "seed line $i runs (bonnie++ rc $rr, iobench rc $ro): $args" test $ro -eq 0
  check "seed line $i: one CSV line of 50 fields on stdout" \
    test "$(wc -l <"$t/our$i.csv")" -eq 1 -a "$(awk -F, '{print NF}' "$t/our$i.csv")" -eq 50
  if [ $rr -eq 0 ]; then
    if python3 "$TOP/tests/e2e/bonnie_layout.py" "$t/ref$i.csv" "$t/our$i.csv" >"$t/lay$i" 2>&1; then
      ok "seed line $i: bon_csv2html and bon_csv2txt put every column where bonnie++'s go"
    else
      not_ok "seed line $i: layout differs from bonnie++'s:"; cat "$t/lay$i"
    fi
  fi
  check "seed line $i leaves nothing in -d" empty
done <<'EOF'
-m cfhat5 -n 0 -u 0 -r 4 -s 8 -f -b
-m cfhat5 -n 1:0:0:50 -u 0 -r 4 -s 0 -b
-m cfhat5 -n 1:10:1:20 -u 0 -r 4 -s 0 -b
-m cfhat5 -n 1:20000:10000:10 -u 0 -r 4 -s 0 -b
-m cfhat5 -n 1:40000:40000:10 -u 0 -r 4 -s 0 -b
-n 1 -s 1 -r 0 -u nobody
EOF

# --- text: bonnie++'s header lines, -q puts the text on stderr ---------------
check "-q: the text table is on stderr" grep -q '^Name:Size etc        /sec %CP  /sec %CP' "$t/our6.err"
check "-q: the file section too" grep -q '^              files  /sec %CP' "$t/our6.err"
check "-q: stdout holds the CSV line only" \
  bash -c "[ \$(wc -l <'$t/our6.csv') -eq 1 ] && grep -q '^1\.98,' '$t/our6.csv'"
check "text says what --precise (the default) did" grep -q '^Precise: on: ' "$t/our6.err"
check "--precise by default: no +++++ in the CSV" bash -c "! grep -q '+++' '$t/our6.csv'"
ib -n 1 -s 0 -u 0 -d "$bd" -q --no-precise >"$t/np.csv" 2>"$t/np.err"
check "--no-precise: +++++ for the short phases, as bonnie++" grep -q ',+++++,+++,' "$t/np.csv"
check "--no-precise: the text says so" grep -q '^Precise: off: +++++ marks ' "$t/np.err"
check "--no-precise: bon_csv2html reads the CSV and shows the +++++" \
  bash -c "bon_csv2html <'$t/np.csv' 2>'$t/np.html.err' | grep -q '+++++' && [ ! -s '$t/np.html.err' ]"
ib -n 1 -s 2 -r 1 -f -u 0 -d "$ext" >"$t/plain.out" 2>"$t/plain.err"
check "without -q: table then CSV line on stdout" bash -c "grep -q '^Latency ' '$t/plain.out' && tail -1 '$t/plain.out' | grep -q '^1\.98,'"
check "without -q: the devices under -d per phase" bash -c "grep -q '^phase      device' '$t/plain.out' && grep -q '^Block out  loop' '$t/plain.out'"
check "without -q: 'Using uid' on stderr" grep -q '^Using uid:0, gid:0\.' "$t/plain.err"

# --- -x 2 ---------------------------------------------------------------------
ib -x 2 -n 0 -s 2 -r 1 -f -u 0 -d "$bd" >"$t/x2.csv" 2>/dev/null
check "-x 2: a header line and two CSV lines, no text" \
  bash -c "[ \$(wc -l <'$t/x2.csv') -eq 3 ] && head -1 '$t/x2.csv' | grep -q '^format_version,' && [ \$(grep -c '^1\.98,' '$t/x2.csv') -eq 2 ]"
check "-x 2 header names 50 fields" test "$(head -1 "$t/x2.csv" | awk -F, '{print NF}')" -eq 50

# --- JSON and -c 4 --------------------------------------------------------------
ib -n 0 -s 1 -r 0 -f -u 0 -d "$bd" --output-format=json >"$t/p.json" 2>/dev/null; rc=$?
if [ $rc -eq 0 ] && python3 - "$t/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d["runs"][0]["aggregate"]
assert d["options"]["precise"] is True
for ph in ("put_block", "rewrite", "get_block", "seeks"):
    assert a[ph]["ran"] and not a[ph]["too_short"] and a[ph]["elapsed_s"] >= 0.5, ph
    for k in ("rate", "rate_unit", "work", "work_unit", "elapsed_s", "cpu_pct", "repeats", "latency_us", "disks"):
        assert k in a[ph], ph + " has " + k
    lat = a[ph]["latency_us"]
    assert 0 < lat["p50"] <= lat["p99"] <= lat["max"] * 1.01, (ph, lat)
assert a["put_block"]["repeats"] > 1, "a 1 MiB block write needed repeating"
assert not a["putc"]["ran"] and not a["seq_create"]["ran"], "-f and -n 0 skip"
PY
then ok "JSON: --precise by default, every figure measured with its unit and latency percentiles"
else not_ok "JSON fields and --precise default (rc $rc)"; fi
ib -c 4 -n 1 -s 2 -r 1 -f -u 0 -d "$bd" --output-format=json --no-precise >"$t/c4.json" 2>"$t/c4.err"; rc=$?
check "-c 4 --output-format=json exits 0" test $rc -eq 0
if python3 - "$t/c4.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
assert d["options"]["concurrency"] == 4
assert d["options"]["precise"] is False, "--no-precise in JSON too"
assert len(r["copies"]) == 4, "four copies"
for ph in ("put_block", "rewrite", "get_block", "seeks", "seq_create", "seq_stat", "seq_del",
           "ran_create", "ran_stat", "ran_del"):
    a = r["aggregate"][ph]
    assert a["ran"] and all(c["phases"][ph]["ran"] for c in r["copies"]), ph
    s = sum(c["phases"][ph]["rate"] for c in r["copies"])
    assert abs(s - a["rate"]) <= 1e-6 * max(1.0, s), (ph, s, a["rate"])
    w = sum(c["phases"][ph]["work"] for c in r["copies"])
    assert w == a["work"], (ph, w, a["work"])
PY
then ok "-c 4: four copies, each phase's aggregate rate and work are the sums of the copies'"
else not_ok "-c 4 aggregate = sum of the 4 copies"; fi
check "-c 4 leaves nothing in -d" empty

# --- -u drops privileges --------------------------------------------------------
mkdir -p "$mnt/rootonly" && chmod 755 "$mnt/rootonly"
ib -n 1 -s 0 -u nobody -d "$mnt/rootonly" -q >/dev/null 2>"$t/nobody.err"; rc=$?
check "-u nobody cannot write a root-only directory (privileges dropped): exit 1, EACCES" \
  test $rc -eq 1 -a "$(grep -c "rootonly/Bonnie\.[0-9]*: cannot make the working directory: Permission denied" "$t/nobody.err")" -eq 1
ib -n 1 -s 0 -u root -d "$mnt/rootonly" -q >/dev/null 2>&1; rc=$?
check "-u root can" test $rc -eq 0

# --- -p / -y s ------------------------------------------------------------------
ib -p 2 >"$t/p.out" 2>&1
check "-p 2 creates the semaphores" grep -q 'Creating semaphore for 2 procs' "$t/p.out"
mkdir -p "$bd/s1" "$bd/s2" && chmod 1777 "$bd/s1" "$bd/s2"
timeout 60 "$IOBENCH" bonnie -y s -n 1 -s 0 -u 0 -q -d "$bd/s1" >/dev/null 2>&1 & p1=$!
timeout 60 "$IOBENCH" bonnie -y s -n 1 -s 0 -u 0 -q -d "$bd/s2" >/dev/null 2>&1 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "-y s: two processes pass the barrier and finish" test $r1 -eq 0 -a $r2 -eq 0
# the barrier holds each phase until both processes arrive: one alone waits
# (kill, not timeout -s INT: timeout signals the child and then its process
# group, and a second SIGINT is not caught, so the run could die uncleaned)
"$IOBENCH" bonnie -y s -n 1 -s 0 -u 0 -q -d "$bd/s1" >/dev/null 2>&1 & p1=$!
sleep 3; kill -INT $p1; wait $p1; r1=$?
check "-y s: a lone process waits at the first phase (stopped by SIGINT: $r1)" test $r1 -eq 130
check "-y s: the stopped process left nothing in -d" test -z "$(ls -A "$bd/s1")"
ib -p -1 >"$t/p.out" 2>&1
check "-p -1 removes them" bash -c "grep -q 'Semaphore removed' '$t/p.out' && ! ls /dev/shm | grep -q iobench-bonnie"
rmdir "$bd/s1" "$bd/s2"

# --- bad flags: one line, exit 1 ------------------------------------------------
bad() {
  local what=$1 needle=$2; shift 2
  ib "$@" >"$t/bad.out" 2>"$t/bad.err"; local rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <"$t/bad.err")" -eq 1 ] && grep -q -- "$needle" "$t/bad.err" && [ ! -s "$t/bad.out" ]; then
    ok "$what: one line naming '$needle', exit 1"
  else
    not_ok "$what: rc $rc, stderr: $(cat "$t/bad.err")"
  fi
}
bad "-s 10:3000" 3000 -s 10:3000 -r 4 -u 0 -d "$bd"
bad "-n 1:2:3:4:5:6" 1:2:3:4:5:6 -n 1:2:3:4:5:6 -u 0 -d "$bd"
bad "-d /nonexistent" /nonexistent -d /nonexistent -s 0 -n 1 -u 0
bad "size below 2xRAM" RAM -s 16 -u 0 -d "$bd"
bad "root without -u" '"-u"' -s 0 -n 1 -d "$bd"
bad "unknown user" nosuchuser -s 0 -n 1 -u nosuchuser -d "$bd"

# --- SIGINT ---------------------------------------------------------------------
mkdir -p "$ext/int"
"$IOBENCH" bonnie -n 0 -s 300 -r 8 -u 0 -d "$ext/int" -q >/dev/null 2>"$t/int.err" & pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
check "SIGINT exits 130" test $rc -eq 130
check "SIGINT leaves nothing in -d" test -z "$(ls -A "$ext/int")"
check "nothing left in -d at the end" empty
finish
