#!/usr/bin/env bash
# e2e: long
# fio 3.33's command line, side by side with fio where fio runs the flag:
# the same output shape and files for --version, --minimal, --append-terse,
# -o/-F and values after a space, job options taking the next word, unique
# prefixes, --section, --showcmd, a job file '-' from stdin, --parse-only,
# --max-jobs, --cmdhelp, --enghelp, --crctest, set options that take no next
# word; --trigger-timeout/--trigger-file/--trigger, --aux-path, --eta-interval,
# --eta-newline, --warnings-fatal, --idle-prof, the end-of-run timestamps, the terse
# versions 2-5 field for field; iobench's
# refusals (client/server and --trigger-remote, flags not there yet, misspelt
# flags named as flags); the stdout/stderr discipline (nothing on stderr for
# a successful run, the layout note only in the normal report); and issue
# 14's acceptance script, which treats a non-empty stderr as failure, run
# unchanged with fio and with a `fio` symlink to iobench.
. "$(dirname "$0")/lib.sh"
need_cmd fio fio || finish
d=$(tmpdir)
mkdir -p "$d/bin" "$d/fio" "$d/iob"
ln -s "$IOBENCH" "$d/bin/fio"
FIO=$(command -v fio)
IOB="$d/bin/fio"
cat >"$d/two.fio" <<'EOF'
[global]
size=1m
ioengine=null

[a]
rw=read

[b]
rw=write
bs=8k
EOF
# both tools in their own directory: run NAME ARGS... -> $d/{fio,iob}/NAME.{out,err,rc}
both() {
  local name=$1; shift
  (cd "$d/fio" && "$FIO" "$@" >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
  (cd "$d/iob" && "$IOB" "$@" >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
}
rc_of() { cat "$d/$1/$2.rc"; }
same_rc0() { [ "$(rc_of fio "$1")" = 0 ] && [ "$(rc_of iob "$1")" = 0 ]; }
jobnames() { python3 -c 'import json,sys; print(" ".join(j["jobname"] for j in json.load(open(sys.argv[1]))["jobs"]))' "$1"; }

# --- --version: tools check the fio-3 prefix ------------------------------
both version --version
check "--version: exactly fio-3.33 for both (ezfio: float(split('-')[1]))" \
  bash -c "[ \"\$(cat '$d/fio/version.out')\" = fio-3.33 ] && [ \"\$(cat '$d/iob/version.out')\" = fio-3.33 ]"
check "iobench run --version is fio's string naming iobench" \
  bash -c "'$IOBENCH' run --version | grep -qx 'fio-3.33 (iobench [0-9.]*)'"

# --- output formats --------------------------------------------------------
(cd "$d" && cp two.fio fio/ && cp two.fio iob/)
both minimal --minimal two.fio
check "--minimal: exit 0, two terse lines of the same field count" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 minimal && \
    [ \"\$(awk -F';' '{print \$1, NF}' '$d/fio/minimal.out')\" = \"\$(awk -F';' '{print \$1, NF}' '$d/iob/minimal.out')\" ] && \
    [ \$(wc -l <'$d/iob/minimal.out') -eq 2 ]"
both append --append-terse two.fio
check "--append-terse: the normal report and the terse lines, both tools" \
  bash -c "for t in fio iob; do grep -q '^a: (groupid=0' '$d/'\$t/append.out && [ \$(grep -c '^3;' '$d/'\$t/append.out) -eq 2 ] || exit 1; done"
both spaced -o out.json -F json --name x --rw randread --bs 8k --ioengine null --size 1m
check "-o F -F json, job options taking the next word: exit 0, nothing on stdout or stderr" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 spaced && for t in fio iob; do [ ! -s '$d/'\$t/spaced.out ] && [ ! -s '$d/'\$t/spaced.err ] || exit 1; done"
check "... the same job options in both JSON files" \
  test "$(json_get "$d/fio/out.json" 'd["jobs"][0]["job options"]')" = "$(json_get "$d/iob/out.json" 'd["jobs"][0]["job options"]')"
both longspace --output out2.json --output-format json --name=x --numj=2 --ioengine=null --size=1m
check "--output F --output-format json (space) and a unique prefix (--numj=2): 2 jobs each" \
  bash -c "[ \"\$(python3 -c 'import json; print(len(json.load(open(\"$d/fio/out2.json\"))[\"jobs\"]))')\" = 2 ] && \
    [ \"\$(python3 -c 'import json; print(len(json.load(open(\"$d/iob/out2.json\"))[\"jobs\"]))')\" = 2 ]"
both tv3 --terse-version=3 --minimal --name=x --ioengine=null --size=1m
both tv7 --terse-version=7 --minimal --name=x --ioengine=null --size=1m
check "--terse-version=3 runs, 7 is refused (exit 1), both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 tv3 && [ \$(rc_of fio tv7) = 1 ] && [ \$(rc_of iob tv7) = 1 ]"

# --terse-version=2|3|4|5 (and unified_rw_reporting=mixed): fio's field
# count and the shape of every field (integer, float, percent, p%=v, text),
# on a file (so with a disk) and with a description; field 2 is the tool's
# version string
cat >"$d/terse_shape.py" <<'PY'
import re, sys
def shape(f):
    for k, p in (("i", r"-?\d+"), ("f", r"-?\d+\.\d+"), ("f%", r"-?\d+\.\d+%"), ("p", r"[\d.]+%=\d+")):
        if re.fullmatch(p, f):
            return k
    return "s"
a, b = (open(x).read() for x in sys.argv[1:3])
fa, fb = a.split(";"), b.split(";")
if len(fa) != len(fb):
    sys.exit("fio %d fields, iobench %d" % (len(fa), len(fb)))
bad = [(i + 1, x, y) for i, (x, y) in enumerate(zip(fa, fb)) if i != 1 and shape(x) != shape(y)]
if bad or a.count("\n") != b.count("\n"):
    sys.exit("fields differ: %s" % bad[:5])
PY
for v in 2 3 4 5; do
  for m in none mixed; do
    both tv$v$m --terse-version=$v --minimal --name=x --filename=tv.dat --rw=randrw --size=1m \
      --description=hello --unified_rw_reporting=$m
    check "--terse-version=$v (unified_rw_reporting=$m): fio's fields, in fio's order" \
      bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 tv$v$m && python3 '$d/terse_shape.py' '$d/fio/tv$v$m.out' '$d/iob/tv$v$m.out'"
  done
done
check "--terse-version 2/3/4/5: 162, 131, 172 and 190 fields (one disk, a description), as fio's" \
  test "$(for v in 2 3 4 5; do python3 -c 'import sys; print(len(open(sys.argv[1]).read().split(";")))' "$d/iob/tv${v}none.out"; done | tr '\n' ' ')" = "162 131 172 190 "

# --- which jobs run --------------------------------------------------------
both section --section=b --output-format=json two.fio
check "--section=b: only b, both tools" \
  bash -c "[ \"\$(python3 -c 'import json; print([j[\"jobname\"] for j in json.load(open(\"$d/fio/section.out\"))[\"jobs\"]])')\" = \"['b']\" ] && \
    [ \"\$(python3 -c 'import json; print([j[\"jobname\"] for j in json.load(open(\"$d/iob/section.out\"))[\"jobs\"]])')\" = \"['b']\" ]"
both section2 -x a --section b --output-format=json two.fio
check "--section twice (-x a --section b): a and b" \
  test "$(jobnames "$d/fio/section2.out")/$(jobnames "$d/iob/section2.out")" = "a b/a b"
(cd "$d/fio" && "$FIO" --output-format=json - <two.fio >stdin.out 2>stdin.err)
(cd "$d/iob" && "$IOB" --output-format=json - <two.fio >stdin.out 2>stdin.err)
check "a job file '-' read from standard input: a b, both tools" \
  test "$(jobnames "$d/fio/stdin.out")/$(jobnames "$d/iob/stdin.out")" = "a b/a b"
both maxjobs --max-jobs=2 --name=x --numjobs=4 --ioengine=null --size=1m --output-format=json
check "--max-jobs=2 is ignored: 4 jobs run, both tools" \
  test "$(json_get "$d/fio/maxjobs.out" 'len(d["jobs"])')/$(json_get "$d/iob/maxjobs.out" 'len(d["jobs"])')" = 4/4
both setopt --name=x --ioengine=null --size=1m --norandommap --output-format=json two.fio
check "--norandommap (a set option) takes no next word: two.fio is still a job file, after x" \
  test "$(jobnames "$d/fio/setopt.out")/$(jobnames "$d/iob/setopt.out")" = "x a b/x a b"
both showcmd --showcmd two.fio
check "--showcmd: the same command line as fio's" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 showcmd && cmp -s '$d/fio/showcmd.out' '$d/iob/showcmd.out'"
both parse --parse-only two.fio
check "--parse-only: exit 0 and silent, both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 parse && for t in fio iob; do [ ! -s '$d/'\$t/parse.out ] && [ ! -s '$d/'\$t/parse.err ] || exit 1; done"

# --- informational flags ---------------------------------------------------
both cmdhelp --cmdhelp=bs
check "--cmdhelp=bs: bs alone, with its alias" \
  bash -c "for t in fio iob; do grep -qE '^ +bs: ' '$d/'\$t/cmdhelp.out && grep -qE '^ +alias: blocksize$' '$d/'\$t/cmdhelp.out && ! grep -q 'numjobs' '$d/'\$t/cmdhelp.out || exit 1; done"
check "iobench help options bs says the same" \
  bash -c "'$IOBENCH' help options bs | cmp -s - '$d/iob/cmdhelp.out'"
both enghelp --enghelp
check "--enghelp: 'Available IO engines:' and psync, both tools" \
  bash -c "for t in fio iob; do grep -qx 'Available IO engines:' '$d/'\$t/enghelp.out && grep -qxP '\tpsync' '$d/'\$t/enghelp.out || exit 1; done"
both crc --crctest=md5,crc32c
check "--crctest=md5,crc32c: one speed line each, fio's format" \
  bash -c "for t in fio iob; do [ \$(grep -cP '^(md5|crc32c):\t\t *[0-9]+\.[0-9]{2} MiB/sec$' '$d/'\$t/crc.out) -eq 2 ] || exit 1; done"
"$IOB" --cpuclock-test >"$d/cs.out" 2>&1; rc=$?
check "--cpuclock-test: fio's cs: lines, Pass with exit 0 or Failed with 1 (exit $rc)" \
  bash -c "grep -q '^cs: ' '$d/cs.out' && { [ $rc -eq 0 ] && grep -qx 'cs: Pass!' '$d/cs.out' || [ $rc -eq 1 ]; }"

# --- refusals --------------------------------------------------------------
"$IOB" --outptu=x --name=x --ioengine=null --size=1m >"$d/mis.out" 2>"$d/mis.err"; rc=$?
check "a misspelt flag: exit 1, named as a flag with the nearest flag" \
  bash -c "[ $rc -eq 1 ] && [ \"\$(cat '$d/mis.err')\" = \"iobench: error: unknown option '--outptu' for 'iobench run'; did you mean '--output'?\" ] && [ ! -e x ]"
for f in --server --client=h --daemonize=p --remote-config=f --trigger-remote=cmd; do
  "$IOB" $f --name=x --ioengine=null --size=1m >/dev/null 2>"$d/srv.err"; rc=$?
  check "$f: refused (exit 1), pointing to the MPI build" bash -c "[ $rc -eq 1 ] && grep -q 'iobench-mpi' '$d/srv.err'"
done
# --- run control: trigger, aux-path, eta, warnings-fatal, timestamps --------
# --trigger-timeout / --trigger-file: every job stops long before its 20 s,
# the run succeeds, the --trigger command ran, the trigger file is removed
# (when the file is there before the job starts, as on a loaded machine,
# fio prints "fio: terminating on signal 15" before its JSON)
for t in fio iob; do
  [ $t = fio ] && tool=$FIO || tool=$IOB
  mkdir -p "$d/$t/trg"
  (cd "$d/$t/trg" && "$tool" --trigger-timeout=1 --trigger="touch timeout.done" --name=x \
     --ioengine=null --size=1m --time_based --runtime=20 --output-format=json >tt.json 2>tt.err
   echo $? >tt.rc
   (sleep 1; touch go) & "$tool" --trigger-file=go --trigger="touch file.done" --name=x \
     --ioengine=null --size=1m --time_based --runtime=20 --output-format=json >tf.json 2>tf.err
   echo $? >tf.rc; wait)
done
for t in fio iob; do
  for k in tt tf; do
    check "$t --trigger-$([ $k = tt ] && echo timeout || echo file): exit 0, the job stopped early, no error" \
      bash -c "[ \$(cat '$d/$t/trg/$k.rc') = 0 ] && python3 -c 'import json,sys; t=open(sys.argv[1]).read(); j=json.loads(t[t.index(\"{\"):])[\"jobs\"][0]; assert j[\"error\"] == 0 and j[\"job_runtime\"] < 15000, j[\"job_runtime\"]' '$d/$t/trg/$k.json'"
  done
  check "$t: the --trigger commands ran, the trigger file is gone" \
    bash -c "[ -e '$d/$t/trg/timeout.done' ] && [ -e '$d/$t/trg/file.done' ] && [ ! -e '$d/$t/trg/go' ]"
done
check "iobench: a trigger is no failure: nothing on stderr" \
  bash -c "[ ! -s '$d/iob/trg/tt.err' ] && [ ! -s '$d/iob/trg/tf.err' ]"
# --aux-path: the verify state file goes there, not to the current directory
for t in fio iob; do
  [ $t = fio ] && tool=$FIO || tool=$IOB
  mkdir -p "$d/$t/aux/state"
  (cd "$d/$t/aux" && "$tool" --aux-path=state --name=x --filename=data --size=256k --rw=write \
     --verify=crc32c --output-format=json >out.json 2>err.txt; echo $? >rc)
  check "$t --aux-path=DIR: exit 0, DIR/local-x-0-verify.state, none in the current directory" \
    bash -c "[ \$(cat '$d/$t/aux/rc') = 0 ] && [ -s '$d/$t/aux/state/local-x-0-verify.state' ] && [ ! -e '$d/$t/aux/local-x-0-verify.state' ]"
done
"$IOB" --aux-path="$d/none" --name=x --ioengine=null --size=1m >/dev/null 2>"$d/aux.err"; rc=$?
check "iobench --aux-path of no directory: refused before the run (exit 1)" \
  bash -c "[ $rc = 1 ] && grep -q \"aux-path '$d/none' is not a directory\" '$d/aux.err'"
# --eta-interval: fio's minimum is 250 ms; --eta-newline must be > 0
both etai1 --eta-interval=100ms --name=x --ioengine=null --size=1m
both etai2 --eta-interval=250ms --name=x --ioengine=null --size=1m
both etan0 --eta-newline=0 --name=x --ioengine=null --size=1m
check "--eta-interval=100ms and --eta-newline=0 refused, 250ms runs: both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 etai2 && for t in fio iob; do [ \$(rc_of \$t etai1) = 1 ] && [ \$(rc_of \$t etan0) = 1 ] || exit 1; done"
"$IOB" --eta=always --eta-newline=1 --name=x --ioengine=null --size=1m --time_based --runtime=3 \
  --output-format=json >/dev/null 2>"$d/etan.err"
"$IOB" --eta=always --name=x --ioengine=null --size=1m --time_based --runtime=3 \
  --output-format=json >/dev/null 2>"$d/eta.err"
check "iobench --eta-newline=1: progress lines kept (newline-ended), without it one line redrawn" \
  bash -c "[ \$(grep -c 'Jobs: .*\[eta [0-9]*m:[0-9]*s\]\$' '$d/etan.err') -ge 2 ] && [ \$(wc -l <'$d/eta.err') = 0 ] && grep -q \$'\rJobs:' '$d/eta.err'" ||
  { echo "# with --eta-newline=1:"; tr '\r' '\n' <"$d/etan.err" | sed 's/^/#   /' | head -12
    echo "# without:"; tr '\r' '\n' <"$d/eta.err" | sed 's/^/#   /' | head -12; }
# --warnings-fatal: a clean job runs; what fio warns about (time_based
# without runtime) fails with it and runs without it, both tools
both wf1 --warnings-fatal --name=x --ioengine=null --size=1m
both wf2 --warnings-fatal --name=x --ioengine=null --size=1m --time_based
both wf3 --name=x --ioengine=null --size=1m --time_based
check "--warnings-fatal: a clean job exit 0, time_based without runtime exit 1 with it and 0 without, both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 wf1 && same_rc0 wf3 && [ \$(rc_of fio wf2) = 1 ] && [ \$(rc_of iob wf2) = 1 ]"
# --idle-prof: cpu_idleness with fio's keys (system, cpu-N with percpu,
# unit_mean, unit_stddev), percentages within 0-100; fio's normal lines;
# calibrate prints only the unit work and runs nothing; a bad mode exit 1
for m in system percpu; do
  both idle$m --idle-prof=$m --name=x --ioengine=null --size=64m --time_based --runtime=1 \
    --output-format=json
  check "--idle-prof=$m: the same cpu_idleness keys as fio's, percentages in 0-100" \
    bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 idle$m && python3 -c 'import json,sys
f, i = (json.load(open(p))[\"cpu_idleness\"] for p in sys.argv[1:3])
assert list(f) == list(i), (list(f), list(i))
assert all(0 <= v <= 100 for k, v in i.items() if not k.startswith(\"unit\")), i
assert i[\"unit_mean\"] > 0' '$d/fio/idle$m.out' '$d/iob/idle$m.out'"
done
both idlen --idle-prof=percpu --name=x --ioengine=null --size=64m --time_based --runtime=1
check "--idle-prof=percpu, normal output: fio's 'CPU idleness:' lines, one percpu figure per CPU" \
  bash -c "for t in fio iob; do grep -A3 '^CPU idleness:' '$d/'\$t/idlen.out | sed -E 's/[0-9]+\.[0-9]+/N/g' >'$d/'\$t/idlen.shape || exit 1; done; cmp -s '$d/fio/idlen.shape' '$d/iob/idlen.shape' && grep -Eq \"^  percpu: N%(, N%){$(( $(nproc) - 1 ))}\\\$\" '$d/iob/idlen.shape'"
both idlec --idle-prof=calibrate --name=x --ioengine=null --size=1m
both idleb --idle-prof=bogus --name=x --ioengine=null --size=1m
check "--idle-prof=calibrate: only fio's 'unit work' lines, exit 0; a bad mode exit 1: both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 idlec && for t in fio iob; do [ \"\$(sed -E 's/[0-9]+\.[0-9]+/N/g' '$d/'\$t/idlec.out)\" = \$'CPU idleness:\n  unit work: mean=Nus, stddev=N' ] && [ \$(rc_of \$t idleb) = 1 ] || exit 1; done"
# timestamp/timestamp_ms/time: the end of the run, as fio's
for t in fio iob; do
  [ $t = fio ] && tool=$FIO || tool=$IOB
  t0=$(date +%s%3N)
  "$tool" --name=x --ioengine=null --size=1m --time_based --runtime=2 --output-format=json \
    --output="$d/$t/ts.json" >/dev/null 2>&1
  check "$t: timestamp_ms is the end of the run (2 s after its start), timestamp its seconds" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t0=int(sys.argv[2]); assert d["timestamp_ms"] - t0 >= 2000, d["timestamp_ms"] - t0; assert d["timestamp"] == d["timestamp_ms"] // 1000; assert d["time"]' "$d/$t/ts.json" "$t0"
done
# --bandwidth-log: fio's agg-{read,write}_bw.log in the current directory
# (with JSON, where fio 3.33 writes its one last line; test_fio_logcount
# holds the rule)
mkdir -p "$d/fio/bwl" "$d/iob/bwl"
for t in fio iob; do
  [ $t = fio ] && tool=$FIO || tool=$IOB
  (cd "$d/$t/bwl" && "$tool" --bandwidth-log --output-format=json --name=x --ioengine=null \
     --rw=randrw --size=64m --time_based --runtime=1 >out.txt 2>err.txt; echo $? >rc)
done
check "--bandwidth-log: both exit 0, stderr empty" \
  bash -c "[ \$(cat '$d/fio/bwl/rc') = 0 ] && [ \$(cat '$d/iob/bwl/rc') = 0 ] && [ ! -s '$d/iob/bwl/err.txt' ]"
check "--bandwidth-log: the same agg-*_bw.log files as fio's" \
  bash -c "[ \"\$(cd '$d/fio/bwl' && ls agg-*_bw.log)\" = \"\$(cd '$d/iob/bwl' && ls agg-*_bw.log)\" ] && [ -s '$d/iob/bwl/agg-read_bw.log' ]"
check "--bandwidth-log: lines 'time, KiB/s, ddir, bs, prio' as fio's" \
  bash -c "grep -Eqx '[0-9]+, [0-9]+, 0, 0, [0-9]+' '$d/iob/bwl/agg-read_bw.log' && grep -Eqx '[0-9]+, [0-9]+, 1, 0, [0-9]+' '$d/iob/bwl/agg-write_bw.log'"

# --inflate-log: a compressed log iobench wrote, read back as fio reads it
mkdir -p "$d/iob/fz"
(cd "$d/iob/fz" && "$IOBENCH" run --name=z --ioengine=null --size=1m --write_lat_log=z \
   --log_compression=64k --log_store_compressed=1 >/dev/null 2>&1)
fz=$(ls "$d/iob/fz"/z_clat.*.log.fz 2>/dev/null | head -1)
"$IOB" --inflate-log="$fz" >"$d/iob/fz/ours.txt" 2>"$d/iob/fz/ours.err"; rc=$?
"$FIO" --inflate-log="$fz" >"$d/iob/fz/fio.txt" 2>/dev/null
check "--inflate-log: exit 0 and the same text as fio --inflate-log of the same file (exit $rc)" \
  bash -c "[ -n '$fz' ] && [ $rc -eq 0 ] && [ -s '$d/iob/fz/ours.txt' ] && cmp -s '$d/iob/fz/ours.txt' '$d/iob/fz/fio.txt'"
"$IOB" --inflate-log="$d/two.fio" >/dev/null 2>"$d/iob/fz/bad.err"; rc=$?
check "--inflate-log of a text file: exit 1 with a message naming it" \
  bash -c "[ $rc -eq 1 ] && grep -q 'two.fio' '$d/iob/fz/bad.err'"

# --- stdout and stderr -----------------------------------------------------
both layout --name=lay --rw=read --size=1m --filename=lay.dat
check "a normal run that lays out a file: the note on stdout, stderr empty, both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 layout && for t in fio iob; do grep -q '^lay: Laying out IO file (1 file / 1MiB)' '$d/'\$t/layout.out && [ ! -s '$d/'\$t/layout.err ] || exit 1; done"
rm -f "$d/fio/lay.dat" "$d/iob/lay.dat"
both layoutj --name=lay --rw=read --size=1m --filename=lay.dat --output-format=json
check "... with JSON: no note, valid JSON, stderr empty, both tools" \
  bash -c "$(declare -f same_rc0 rc_of); d='$d'; same_rc0 layoutj && for t in fio iob; do ! grep -q 'Laying out' '$d/'\$t/layoutj.out && python3 -m json.tool '$d/'\$t/layoutj.out >/dev/null && [ ! -s '$d/'\$t/layoutj.err ] || exit 1; done"
"$IOB" --eta=always --name=x --ioengine=null --size=64m --time_based --runtime=2 \
  --output-format=json >"$d/eta.out" 2>"$d/eta.err"; rc=$?
check "--eta=always: the progress line on a stderr that is no terminal, JSON intact" \
  bash -c "[ $rc -eq 0 ] && grep -q 'Jobs: ' '$d/eta.err' && python3 -m json.tool '$d/eta.out' >/dev/null"

# --- the acceptance script of fio compatibility: unchanged with fio and with the symlink --
cat >"$d/drive.sh" <<'EOF'
#!/bin/sh
# a harness: fio from PATH, JSON to a file, one section of a job file, and
# any byte on stderr is a failure
set -e
cd "$1"
cat >job.fio <<'JOB'
[global]
ioengine=psync
filename=drive.dat
size=2m
bs=4k
[prep]
rw=write
[check]
rw=randread
JOB
fio --output=result.json --output-format=json --max-jobs=8 --section prep job.fio 2>err.txt
fio --output result2.json --output-format=json --max-jobs 8 --section=check job.fio 2>>err.txt
fio --bandwidth-log --output=result3.json --output-format=json --section=check job.fio 2>>err.txt
test ! -s err.txt
python3 -c 'import json; a=json.load(open("result.json")); b=json.load(open("result2.json")); assert [j["jobname"] for j in a["jobs"]] == ["prep"]; assert [j["jobname"] for j in b["jobs"]] == ["check"]; assert b["jobs"][0]["read"]["io_bytes"] == 2 << 20, b["jobs"][0]["read"]["io_bytes"]'
fio --version | grep -q '^fio-3\.33'
EOF
chmod +x "$d/drive.sh"
mkdir -p "$d/fio/drive" "$d/iob/drive"
PATH="$(dirname "$FIO"):$PATH" "$d/drive.sh" "$d/fio/drive" >"$d/drive-fio.log" 2>&1; frc=$?
PATH="$d/bin:$PATH" "$d/drive.sh" "$d/iob/drive" >"$d/drive-iob.log" 2>&1; irc=$?
check "the acceptance script passes with fio (exit $frc)" test $frc -eq 0
check "... and unchanged with a fio symlink to iobench (exit $irc)" test $irc -eq 0
[ $irc -eq 0 ] || cat "$d/drive-iob.log" "$d/iob/drive/err.txt" 2>/dev/null | head -5
finish
