#!/usr/bin/env bash
# fio 3.33's job control: exitall (global: one job's
# exitall makes every job's end stop others), exit_what=group|stonewall|all,
# exitall_on_error, exec_prerun/exec_postrun (files, notes, a failing
# prerun, the device guard on the output file), wait_for and its errors,
# fio's profile options (threads=), gtod_cpu, stats=0, disk_util=0,
# steadystate, ioscheduler on a loop device, significant_figures, unit_base, and fio's own examples exitwhat.fio, waitfor.fio and
# steadystate.fio run small or parsed. Where fio runs the same job file here, the
# deterministic part (which jobs did I/O, which were cut short, file
# contents, the note lines, exit statuses) is compared with fio's; a cut-short
# job is one whose runtime is far below its 30 s time_based runtime (the
# job that ends first runs 200 ms, so that the others have started).
. "$(dirname "$0")/lib.sh"
need_fio_examples waitfor.fio exitwhat.fio steadystate.fio
need_cmd fio fio || finish
need_root
d=$(tmpdir)
E=$FIO_EXAMPLES
cd "$d" || exit 1
# shape TOOL JOBFILE [ARGS]: one line per reported job: name, did I/O (0/1),
# cut short (1: runtime under 10 s) and its error
shape() {
  local tool=$1 jf=$2 o="$d/out-$1.json"; shift 2
  if [ "$tool" = fio ]; then fio --output-format=json "$@" "$jf" >"$o" 2>>"$d/err"
  else "$IOBENCH" run --no-store --output-format=json "$@" "$jf" >"$o" 2>>"$d/err"; fi
  echo "rc=$?"
  python3 - "$o" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
for j in d["jobs"]:
    io = sum(j[k]["io_bytes"] for k in ("read", "write", "trim"))
    print(j["jobname"], int(io > 0), int(j["job_runtime"] < 10000), j["error"])
PY
}
# same DESC JOBFILE EXPECTED: iobench's shape equals EXPECTED and fio's
same() {
  local desc=$1 jf=$2 want=$3 fio_s io_s
  shape fio "$jf" >"$d/shape-fio" & # the two side by side: half the time
  io_s=$(shape iobench "$jf"); wait; fio_s=$(cat "$d/shape-fio")
  if [ "$io_s" = "$want" ] && [ "$fio_s" = "$want" ]; then ok "$desc"
  else not_ok "$desc: iobench [$io_s] fio [$fio_s] expected [$want]"; fi
}
NL=$'\n'

# --- exitall: set on b, the end of a stops b; the next stonewall batch runs
cat >ea.fio <<'JOB'
[global]
ioengine=null
size=1g
[a]
time_based
runtime=200ms
[b]
time_based
runtime=30
exitall
[c]
stonewall
number_ios=2000
JOB
same "exitall on b: a's end stops b (exitall is global, as fio), c after the stonewall runs" ea.fio \
  "rc=0${NL}a 1 1 0${NL}b 1 1 0${NL}c 1 1 0"

# --- exit_what=all: the job not started yet does nothing and is reported
cat >all.fio <<'JOB'
[global]
ioengine=null
size=1g
[a]
time_based
runtime=200ms
exit_what=all
[b]
time_based
runtime=30
exitall
[c]
stonewall
time_based
runtime=30
JOB
same "exit_what=all: b stopped, c (next batch) never does I/O, as fio" all.fio \
  "rc=0${NL}a 1 1 0${NL}b 1 1 0${NL}c 0 1 0"

# --- exit_what=stonewall: stops b of another group; c runs; c's end (group)
# stops d of its group; e after the next stonewall runs
cat >sw.fio <<'JOB'
[global]
ioengine=null
size=1g
exitall
[a]
time_based
runtime=200ms
exit_what=stonewall
[b]
new_group
time_based
runtime=30
[c]
stonewall
time_based
runtime=200ms
[d]
time_based
runtime=30
[e]
stonewall
number_ios=2000
JOB
same "exit_what=stonewall stops every running job (other groups too), group stops the group's" sw.fio \
  "rc=0${NL}a 1 1 0${NL}b 1 1 0${NL}c 1 1 0${NL}d 1 1 0${NL}e 1 1 0"

# --- exitall_on_error: a's error (ETIMEDOUT from max_latency=1us on O_DIRECT
# reads of a disk file, after a 200 ms startdelay) stops b; c after the stonewall runs; exit status 1
head -c 4m /dev/zero >f1
cat >eoe.fio <<JOB
[global]
size=4m
filename=$d/f1
[a]
startdelay=200ms
direct=1
max_latency=1
exitall_on_error
[b]
ioengine=null
time_based
runtime=30
[c]
stonewall
ioengine=null
number_ios=2000
JOB
same "exitall_on_error: a's ETIMEDOUT stops b, c runs, exit status 1 (fio: the same)" eoe.fio \
  "rc=1${NL}a 1 1 110${NL}b 1 1 0${NL}c 1 1 0"

# --- exec_prerun / exec_postrun: the files fio writes, the notes it prints,
# a failing prerun leaves its job without I/O and the run successful
cat >ex.fio <<'JOB'
[global]
ioengine=null
size=1m
[pa]
exec_prerun=echo pre-a
exec_postrun=sh -c "echo post-a && echo err-a >&2"
[pb]
exec_prerun=exit 3
exec_postrun=echo never
JOB
for t in fio iobench; do
  mkdir -p "$d/ex-$t"
  (cd "$d/ex-$t" && if [ $t = fio ]; then fio ../ex.fio; else "$IOBENCH" run --no-store ../ex.fio; fi \
     >out 2>err; echo "rc=$?" >rc)
  (cd "$d/ex-$t" && { cat rc; for f in pa.prerun.txt pa.postrun.txt pb.prerun.txt pb.postrun.txt; do
     [ -e $f ] && { echo "== $f"; cat $f; }; done; grep ' : Saving output of' out | sort; } >summary)
done
check "exec_prerun/exec_postrun: same files, contents, 'Saving output' notes and status as fio" \
  cmp -s "$d/ex-fio/summary" "$d/ex-iobench/summary"
grep -q '^pb : exec_prerun failed (exit status 3, see pb.prerun.txt): the job does no I/O' "$d/ex-iobench/out" \
  && ok "a failing exec_prerun is said in the report" || not_ok "a failing exec_prerun is said in the report"
"$IOBENCH" run --no-store --output-format=json "$d/ex.fio" >ex.json 2>ex.err
python3 - ex.json <<'PY' && ok "no note in the JSON; pb did no I/O, error 0 (as fio)" || not_ok "no note in the JSON; pb did no I/O, error 0 (as fio)"
import json, sys
d = json.load(open(sys.argv[1]))  # a note in the JSON would not parse
pb = [j for j in d["jobs"] if j["jobname"] == "pb"][0]
assert pb["read"]["io_bytes"] == 0 and pb["error"] == 0, pb["read"]["io_bytes"]
PY
[ ! -s ex.err ] && ok "exec_*: nothing on stderr" || not_ok "exec_*: nothing on stderr: $(cat ex.err)"

# --- the output file goes through the device guard: g.prerun.txt is a
# symlink to a loop device with a file system on it
loop=$(mkloop 16M) && mkfs.ext4 -q -F "$loop" >/dev/null 2>&1
mkdir -p "$d/guard" && ln -s "$loop" "$d/guard/g.prerun.txt"
(cd "$d/guard" && "$IOBENCH" run --no-store --name=g --ioengine=null --size=1m --exec_prerun='echo x' >out 2>err)
rc=$?
if [ $rc -ne 0 ] && grep -q "job 'g': cannot write the output of exec_prerun" "$d/guard/err" &&
   blkid -p "$loop" | grep -q ext4; then ok "exec_prerun's output file is refused on a block device with data (exit $rc)"
else not_ok "exec_prerun's output file is refused on a block device with data (exit $rc: $(cat "$d/guard/err"))"; fi

# --- wait_for: fio's errors and its example
printf '[global]\nioengine=null\nsize=1m\n[a]\nwait_for=a\n' >self.fio
for f in self; do
  fio "$f.fio" >/dev/null 2>&1; frc=$?
  "$IOBENCH" run --no-store "$f.fio" >/dev/null 2>"$f.err"; irc=$?
  [ $frc -ne 0 ] && [ $irc -ne 0 ] && ok "wait_for $f: refused as fio ($(cat "$f.err"))" ||
    not_ok "wait_for $f: fio $frc iobench $irc"
done
grep -q "a job cannot wait for itself (wait_for=a)" self.err && ok "wait_for on itself: fio's words" ||
  not_ok "wait_for on itself: fio's words"
sed "s|^filename=.*|filename=$d/data|; s|^filesize=.*|filesize=4m|; s|^runtime=.*|runtime=1|" $E/waitfor.fio >waitfor.fio
same "waitfor.fio (4 MiB, runtime=1): four groups, each does I/O after the one it waits for" waitfor.fio \
  "rc=0${NL}writers 1 1 0${NL}readers 1 1 0${NL}writers2 1 1 0${NL}readers2 1 1 0"

# --- exitwhat.fio as shipped, small (fio needs 30 s for it: rate=300 B/s
# jobs sleep until their next I/O): runs, three groups, slow2's exit_what=all
# leaves nothing running
out=$("$IOBENCH" run --no-store --output-format=json --set filename="$d/test" --set filesize=8m \
      --set number_ios=50 $E/exitwhat.fio 2>exitwhat.err)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = [(j["jobname"], j["groupid"]) for j in d["jobs"]]
assert g == [("slow1", 0), ("fast1", 1), ("slow2", 2)], g
assert all(j["job_runtime"] < 10000 for j in d["jobs"]), [j["job_runtime"] for j in d["jobs"]]
' && ok "exitwhat.fio runs small: groups slow1, fast1, slow2 (+fast2, runsnever), none left running" ||
  not_ok "exitwhat.fio runs small: $(cat exitwhat.err)"

# --- threads= is fio's tiobench profile option: accepted, echoed, not thread
printf '[x]\nioengine=null\nsize=1m\nthreads=1\n' >th.fio
"$IOBENCH" run --no-store --output-format=json th.fio | python3 -c '
import json, sys; d = json.load(sys.stdin)
assert d["jobs"][0]["job options"]["threads"] == "1"' && ok "threads=1 accepted and echoed, as fio" ||
  not_ok "threads=1 accepted and echoed, as fio"
printf '[x]\nioengine=null\nsize=1m\nthreads=abc\n' >thb.fio
fio thb.fio >/dev/null 2>&1; frc=$?
"$IOBENCH" run --no-store thb.fio >/dev/null 2>thb.err; irc=$?
[ $frc -ne 0 ] && [ $irc -ne 0 ] && grep -q "thb.fio:4:9: error: invalid number 'abc' for option 'threads'" thb.err &&
  ok "threads=abc refused as fio" || not_ok "threads=abc refused as fio (fio $frc, iobench $irc: $(cat thb.err))"
printf '[x]\nioengine=null\nsize=1m\nexit_what=GROUP\n' >xw.fio
"$IOBENCH" run --no-store xw.fio >/dev/null 2>xw.err; irc=$?
fio --parse-only xw.fio >/dev/null 2>&1; frc=$?
[ $frc -ne 0 ] && [ $irc -ne 0 ] && grep -q "use group, stonewall or all" xw.err &&
  ok "exit_what=GROUP refused as fio (exact spelling)" || not_ok "exit_what=GROUP refused as fio ($(cat xw.err))"

# --- gtod_cpu: fio takes it out of the job's own cpus_allowed (0, or a job
# without a CPU set: nothing); exec_prerun shows the job's affinity
cat >gt.fio <<'JOB'
[global]
ioengine=null
size=1m
exec_prerun=grep Cpus_allowed_list /proc/self/status
[g1]
cpus_allowed=0-1
gtod_cpu=1
[g2]
gtod_cpu=1
[g3]
cpus_allowed=0-1
gtod_cpu=0
JOB
for t in fio iobench; do
  mkdir -p "gt-$t"
  (cd "gt-$t" && if [ $t = fio ]; then fio ../gt.fio; else "$IOBENCH" run --no-store ../gt.fio; fi >/dev/null 2>&1
   cat g1.prerun.txt g2.prerun.txt g3.prerun.txt >aff)
done
if cmp -s gt-fio/aff gt-iobench/aff && grep -qx "Cpus_allowed_list:.0" gt-iobench/aff; then
  ok "gtod_cpu=1 leaves cpus_allowed=0-1 CPU 0; without cpus_allowed or with 0 nothing (as fio)"
else not_ok "gtod_cpu: iobench [$(tr '\n' ' ' <gt-iobench/aff)] fio [$(tr '\n' ' ' <gt-fio/aff)]"; fi

# --- stats=0: the job is left out of the report and of its group's totals
printf '[global]\nioengine=null\nsize=1m\n[a]\nstats=0\n[b]\n' >st.fio
"$IOBENCH" run --no-store --output-format=json st.fio | python3 -c '
import json, sys; d = json.load(sys.stdin)
assert [j["jobname"] for j in d["jobs"]] == ["b"], d["jobs"]' && ok "stats=0: only b is reported (fio: the same, plus an unnamed empty entry)" ||
  not_ok "stats=0: only b is reported"
"$IOBENCH" run --no-store st.fio | grep -q "io=1024KiB" && ok "stats=0: the group's io= counts b alone, as fio" ||
  not_ok "stats=0: the group's io= counts b alone"

# --- disk_util=0 in every job: no disk_util section, as fio
printf '[global]\nsize=1m\nfilename=%s/f1\ndisk_util=0\n[a]\n[b]\n' "$d" >du0.fio
for f in du0; do
  fk=$(fio --output-format=json $f.fio 2>/dev/null | python3 -c 'import json,sys; print("disk_util" in json.load(sys.stdin))')
  ik=$("$IOBENCH" run --no-store --output-format=json $f.fio 2>/dev/null | python3 -c 'import json,sys; print("disk_util" in json.load(sys.stdin))')
  [ "$fk" = "$ik" ] && ok "disk_util ($f.fio): section present=$ik, as fio" || not_ok "disk_util ($f.fio): fio $fk iobench $ik"
done

# --- steadystate: IOPS held at 1000 are steady within 50% after a window of
# two one-second samples: the 30 s job stops, fio's section says why
# (fio 3.33, same job: attained 1, duration 2, iops [1001, 1001], about 1.9 s)
"$IOBENCH" run --no-store --output-format=json --name=s --ioengine=null --size=1g --time_based \
  --runtime=30 --ss=iops:50% --ss_dur=2 --rate_iops=1000 >ss.json 2>ss.err
python3 - ss.json <<'PY' && ok "steadystate iops:50%: attained, the job stops, fio's section" || not_ok "steadystate iops:50%: $(cat ss.err)"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
s = j["steadystate"]
assert j["job_runtime"] < 10000, j["job_runtime"]
assert s["ss"] == "iops:50.000000%" and s["duration"] == 2 and s["attained"] == 1, s
assert sorted(s) == ["attained", "criterion", "data", "duration", "max_deviation", "slope", "ss"], sorted(s)
assert sorted(s["data"]) == ["bw", "bw_mean", "iops", "iops_mean"] and len(s["data"]["iops"]) == 2, s["data"]
assert all(900 <= x <= 1100 for x in s["data"]["iops"]) and s["criterion"].endswith("%"), s
assert j["job options"]["steadystate_duration"] == "2", j["job options"]
PY
"$IOBENCH" run --no-store --parse-only $E/steadystate.fio >/dev/null 2>ssp.err &&
  ok "steadystate.fio parses (threads=, ss, ss_dur, ss_ramp)" || not_ok "steadystate.fio parses: $(cat ssp.err)"
printf '[x]\nioengine=null\nsize=1m\nss=iops_slop:1%%\n' >ssb.fio
"$IOBENCH" run --no-store ssb.fio >/dev/null 2>ssb.err; irc=$?
fio --parse-only ssb.fio >/dev/null 2>&1; frc=$?
[ $irc -ne 0 ] && [ $frc -ne 0 ] && grep -q "use iops:N, iops_slope:N, bw:N or bw_slope:N" ssb.err &&
  ok "ss=iops_slop:1% refused as fio" || not_ok "ss=iops_slop:1% refused as fio ($(cat ssb.err))"

# --- ioscheduler: switched on the job's loop device while it runs (seen by
# its exec_prerun), put back after (fio 3.33 leaves it switched); a name
# the queue lacks is refused as fio does; a file off any block device and a
# job without a device are refused saying why
lq=$(mkloop 16M); qn=$(basename "$lq"); qf=/sys/block/$qn/queue/scheduler
before=$(cat "$qf"); want=mq-deadline
case $before in *"[mq-deadline]"*) want=none ;; esac # a switch, whatever the kernel's default
mkdir -p sched && (cd sched && "$IOBENCH" run --no-store --name=q --filename="$lq" --size=1m \
  --ioscheduler=$want --exec_prerun="cat $qf" >out 2>err)
if grep -q "\[$want\]" sched/q.prerun.txt && [ "$(cat "$qf")" = "$before" ]; then
  ok "ioscheduler=$want while the job runs ($(cat sched/q.prerun.txt)), '$before' again after"
else not_ok "ioscheduler: during [$(cat sched/q.prerun.txt 2>/dev/null)] after [$(cat "$qf")] before [$before]: $(cat sched/err)"; fi
"$IOBENCH" run --no-store --name=q --filename="$lq" --size=1m --ioscheduler=bogus >/dev/null 2>sb.err
[ $? -ne 0 ] && grep -q "cannot set the I/O scheduler to 'bogus'.*it offers" sb.err &&
  ok "ioscheduler=bogus refused (fio: 'unable to set io scheduler', err=22)" || not_ok "ioscheduler=bogus: $(cat sb.err)"
"$IOBENCH" run --no-store --name=q --ioengine=null --size=1m --ioscheduler=none >/dev/null 2>sn.err
[ $? -ne 0 ] && grep -q "the null engine does no I/O to a device" sn.err &&
  ok "ioscheduler with ioengine=null refused saying why" || not_ok "ioscheduler with null: $(cat sn.err)"

"$IOBENCH" run --no-store --name=q --filename=/dev/shm/iobench-jobctl-$$ --size=1m --ioscheduler=none >/dev/null 2>ss2.err
rc=$?
[ $rc -ne 0 ] && grep -q "'/dev/shm' is not on a block device" ss2.err && [ ! -e /dev/shm/iobench-jobctl-$$ ] &&
  ok "ioscheduler on tmpfs refused before anything is laid out" || not_ok "ioscheduler on tmpfs: $rc $(cat ss2.err)"
rm -f /dev/shm/iobench-jobctl-$$
# --- significant_figures and unit_base=1 in the normal report: the group
# line's io= (deterministic) and whether bandwidths are in B/s or bit/s,
# against fio's
for args in "--significant_figures=6" "--significant_figures=2" "--unit_base=1"; do
  f=$(fio --name=x --ioengine=null --size=6148k $args 2>/dev/null | grep '   READ:' |
      sed -E 's/bw=[0-9.]+[KMGTP]?i?(bit|B)\/s.*io=/\1\/s io=/; s/, run=.*//')
  i=$("$IOBENCH" run --no-store --name=x --ioengine=null --size=6148k $args 2>/dev/null | grep '   READ:' |
      sed -E 's/bw=[0-9.]+[KMGTP]?i?(bit|B)\/s.*io=/\1\/s io=/; s/, run=.*//')
  [ -n "$i" ] && [ "$i" = "$f" ] && ok "$args: group line's B/s or bit/s and io= as fio's ($i)" ||
    not_ok "$args: iobench [$i] fio [$f]"
done

finish
