#!/usr/bin/env bash
# fio 3.33's job-process options, side by side with fio:
# random_distribution=zoned with a range left out (rand-zones.fio) and
# jesd219.fio; uid/gid (per-thread setgid/setuid before the job opens its
# files); NUMA through libnuma (numa_cpu_nodes, numa_mem_policy: the system
# calls of the job's thread against fio's job process, numa.fio, missing
# nodes refused); cgroup v2 (cgroup, cgroup_nodelete, cgroup_weight refused
# with the reason, a missing or read-only cgroup2 mount refused). Small
# files, fractions of a second each.
. "$(dirname "$0")/lib.sh"
need_fio_examples rand-zones.fio jesd219.fio numa.fio
need_cmd fio fio || finish
need_root
d=$(tmpdir)
chmod 755 "$d" # uid=65534 must reach its files
e2e_trace_helpers
EX=$FIO_EXAMPLES
R="$IOBENCH run --no-store"
# the cgroups this test makes are removed even when it fails
CG_MADE=()
trap 'for g in "${CG_MADE[@]}"; do rmdir "$g" 2>/dev/null; done; cleanup' EXIT
# both NAME ARGS...: fio and iobench --parse-only accept ARGS
both_parse() {
  local name=$1; shift
  check "$name: fio --parse-only and iobench --parse-only accept it" \
    bash -c 'fio --parse-only "$@" >/dev/null 2>&1 && '"$R"' --parse-only "$@" >/dev/null 2>&1' _ "$@"
}
# sysc TRACE: the job thread's calls of TRACE (not the main thread's: its
# pid is the first line's, traced with execve), one a line, arrays shortened
sysc() {
  python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
main = lines[0].split()[0] if lines else ""
for l in lines:
    pid, _, rest = l.partition(" ")
    if pid == main or "resumed>" in rest or "unfinished" in rest or not re.match(r"\s*(set_mempolicy|mbind|sched_setaffinity|setuid|setgid)\(", rest):
        continue
    rest = re.sub(r"(, 0000000000000000)+", "", re.sub(r"\s+", " ", rest.strip()))
    rest = re.sub(r"^mbind\(0x[0-9a-f]+, \d+,", "mbind(ADDR, LEN,", rest)
    print(rest)
PY
}
# jget FILE EXPR: json_get on a report fio may have prefixed with messages
jget() { python3 -c "import json,sys; t=open(sys.argv[1]).read(); d=json.JSONDecoder().raw_decode(t[t.find('{'):])[0]; print($2)" "$1"; }
head -c 1m /dev/urandom >"$d/z.dat"

# --- random_distribution=zoned with a range left out -------------------------
both_parse "rand-zones.fio and jesd219.fio" "$EX/rand-zones.fio" "$EX/jesd219.fio"
Z="--name=x --filename=$d/z.dat --bs=4k --size=1m --io_size=16m --rw=randread --norandommap --ioengine=psync"
if [ $have_strace = 1 ]; then
  # blocks TRACE: the 4k block index of every pread64 of z.dat (one trace
  # file per thread, strace -ff: no call is split by another thread's)
  blocks() { python3 -c '
import glob, re, sys
for f in glob.glob(sys.argv[1] + ".*"):
    for l in open(f):
        m = re.search(r"pread64\(\d+<[^>]*z\.dat>, .*, 4096, (\d+)\)", l)
        if m: print(int(m.group(1)) // 4096)' "$1"; }
  # fio 3.33: 2091 1230 775 of 4096 in the first 5%, next 15%, last 80%
  strace -ff -y -e trace=pread64 -o "$d/zl.tr" $R $Z --random_distribution=zoned:50/5:30/15:20/ \
    --output-format=terse >/dev/null 2>>"$d/err"
  blocks "$d/zl.tr" >"$d/zl.b"
  pycheck "zoned:50/5:30/15:20/: the empty last range is the 80% left, 20% of the I/O there (fio: 2091 1230 775)" "$d/zl.b" <<'PY'
import sys
b = [int(x) for x in open(sys.argv[1])]
z = [sum(1 for x in b if lo <= x < hi) / len(b) for lo, hi in ((0, 12.8), (12.8, 51.2), (51.2, 256))]
assert len(b) == 4096 and 0.45 < z[0] < 0.55 and 0.25 < z[1] < 0.35 and 0.15 < z[2] < 0.25, (len(b), z)
assert max(b) > 240, max(b)
PY
  # two ranges left out share the 95% left: 47% each (integer division, as
  # fio), so the last 1% (blocks 254, 255) is never read; fio: max block 252
  strace -ff -y -e trace=pread64 -o "$d/z2.tr" $R $Z --random_distribution=zoned:40/5:30/:30/ \
    --output-format=terse >/dev/null 2>>"$d/err"
  blocks "$d/z2.tr" >"$d/z2.b"
  pycheck "zoned:40/5:30/:30/: two left-out ranges get 47% each; nothing in the last 1% (as fio)" "$d/z2.b" <<'PY'
import sys
b = [int(x) for x in open(sys.argv[1])]
mid = sum(1 for x in b if 12.8 <= x < 133.12) / len(b)
assert len(b) == 4096 and max(b) < 254 and 0.25 < mid < 0.35, (len(b), max(b), mid)
PY
fi
both_parse "zoned:50/5:30/15:20 (no slash) and zoned:50/5:30/15:20/0, fio's other spellings of 20/" \
  $Z --random_distribution=zoned:50/5:30/15:20 $Z --random_distribution=zoned:50/5:30/15:20/0
if ! fio --parse-only $Z --random_distribution=zoned_abs:50/1m:50/ >/dev/null 2>&1 &&
   ! $R --parse-only $Z --random_distribution=zoned_abs:50/1m:50/ >/dev/null 2>"$d/zabs.err"; then
  check "zoned_abs:50/1m:50/: refused by both (a size cannot be left out), naming the empty size" \
    grep -q "invalid zone size '' for option 'random_distribution'" "$d/zabs.err"
else
  not_ok "zoned_abs:50/1m:50/ is refused by fio and iobench"
fi
(cd "$d" && $R --output-format=json --set filename="$d/j.dat" --set size=4m --set runtime=1 \
   --set numjobs=2 "$EX/jesd219.fio" >"$d/jesd.json" 2>"$d/jesd.err"; echo $? >"$d/jesd.rc")
check "jesd219.fio runs small (filename, size=4m, runtime=1, numjobs=2): exit 0, reads and writes done" \
  test "$(cat "$d/jesd.rc") $(json_get "$d/jesd.json" 'int(d["jobs"][0]["read"]["io_bytes"] > 0 and d["jobs"][0]["write"]["io_bytes"] > 0)')" = "0 1"

# --- uid, gid ------------------------------------------------------------------
mkdir "$d/u"
chmod 755 "$d/u"
head -c 1m /dev/zero >"$d/u/root.dat"
chmod 644 "$d/u/root.dat"
head -c 1m /dev/zero >"$d/u/nob.dat"
chown 65534:65534 "$d/u/nob.dat"
U="--rw=write --bs=64k --size=1m --uid=65534 --gid=65534"
fio --name=x --filename="$d/u/root.dat" $U --output-format=json >"$d/fio_u.json" 2>/dev/null
$R --name=x --filename="$d/u/root.dat" $U --output-format=json >"$d/iob_u.json" 2>"$d/iob_u.err"
echo $? >"$d/iob_u.rc"
check "uid=65534 on a root-owned 0644 file: fio's job fails with EACCES (error 13), and so does iobench's" \
  test "$(jget "$d/fio_u.json" 'd["jobs"][0]["error"]') $(json_get "$d/iob_u.json" 'd["jobs"][0]["error"]') $(cat "$d/iob_u.rc")" = "13 13 1"
check "uid=65534: the message names the file, the ids and the options" \
  grep -q "cannot open '$d/u/root.dat' as uid 65534, gid 65534 (uid=/gid=): Permission denied" "$d/iob_u.err"
fio --name=x --filename="$d/u/nob.dat" $U --output-format=json >"$d/fio_n.json" 2>/dev/null
if [ $have_strace = 1 ]; then
  strace -f -o "$d/uid.tr" -e trace=execve,setuid,setgid $R --name=x --filename="$d/u/nob.dat" $U \
    --output-format=json >"$d/iob_n.json" 2>>"$d/err"
  check "uid=65534 on a file nobody owns: both write the 1 MiB" \
    test "$(jget "$d/fio_n.json" 'd["jobs"][0]["write"]["io_bytes"]') $(json_get "$d/iob_n.json" 'd["jobs"][0]["write"]["io_bytes"]')" = "1048576 1048576"
  check "uid/gid: the job's thread calls setgid(65534) then setuid(65534), as fio's job process" \
    test "$(sysc "$d/uid.tr" | tr '\n' ' ')" = "setgid(65534) = 0 setuid(65534) = 0 "
fi
# the switch is the job thread's alone: a job without uid in the same run
# still writes the root-owned file
$R --output-format=json --name=a --filename="$d/u/nob.dat" $U --name=b --filename="$d/u/root.dat" \
  --rw=write --bs=64k --size=1m >"$d/two.json" 2>>"$d/err"
check "uid=65534 in one job leaves the other job (and the process) root: both write" \
  test "$(json_get "$d/two.json" '[j["write"]["io_bytes"] for j in d["jobs"]]')" = "[1048576, 1048576]"
$R --parse-only --name=x --filename=f --uid=-1 >/dev/null 2>"$d/uidneg.err"
check "uid=-1 is refused at parse time with the reason" \
  grep -q "invalid user id '-1' for option 'uid': give a number" "$d/uidneg.err"

# --- NUMA ----------------------------------------------------------------------
both_parse "numa.fio" "$EX/numa.fio"
N="--name=x --filename=$d/n.dat --size=256k --rw=write --bs=64k"
if [ $have_strace = 1 ]; then
  # each policy, one job each in one run of each tool: the job's calls as
  # fio's job process makes them (sched_setaffinity to node 0's CPUs, then
  # MPOL_*; nothing for default); iobench also mbinds the buffers it mapped
  # before the thread started (checked below)
  NJ=""
  for p in bind:0 prefer:0 interleave:0 local default; do
    NJ="$NJ --name=n${p%%:*} --filename=$d/n.dat --size=256k --rw=write --bs=64k --numa_cpu_nodes=0 --numa_mem_policy=$p"
  done
  strace -f -o "$d/fio_numa.tr" -e trace=execve,set_mempolicy,sched_setaffinity fio $NJ \
    --output-format=terse >/dev/null 2>&1
  strace -f -o "$d/iob_numa.tr" -e trace=execve,set_mempolicy,sched_setaffinity,mbind $R $NJ \
    --output-format=terse >/dev/null 2>>"$d/err"
  # perjob TRACE: each job's calls on one line (fio's helper processes,
  # which bind themselves by pid, and the mbinds left out), sorted
  perjob() {
    python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
main = lines[0].split()[0]
calls = {}
for l in lines:
    pid, _, rest = l.partition(" ")
    rest = re.sub(r"(, 0000000000000000)+", "", re.sub(r"\s+", " ", rest.strip()))
    # a call split by another ("<unfinished ...>", "<... resumed>"): its
    # name and arguments are on the first line; results are not compared
    rest = re.sub(r"\)? ?(= .*|<unfinished \.\.\.>)$", ")", rest)
    if pid == main or not re.match(r"(set_mempolicy|sched_setaffinity)\(", rest) or re.match(r"sched_setaffinity\([1-9]", rest):
        continue
    calls.setdefault(pid, []).append(rest)
for c in sorted(" ; ".join(v) for v in calls.values()):
    print(c)
PY
  }
  perjob "$d/fio_numa.tr" >"$d/fio_numa.calls"
  perjob "$d/iob_numa.tr" >"$d/iob_numa.calls"
  check "numa_mem_policy=bind:0, prefer:0, interleave:0, local, default: each job thread's calls equal fio's job process's" \
    bash -c "[ \$(wc -l <'$d/iob_numa.calls') = 5 ] && diff '$d/fio_numa.calls' '$d/iob_numa.calls' >&2"
  check "numa: MPOL_BIND, MPOL_PREFERRED, MPOL_INTERLEAVE and MPOL_LOCAL to node 0 are among them" \
    bash -c "for m in 'MPOL_BIND, \[0x00000000000001\]' 'MPOL_PREFERRED, \[0x00000000000001\]' 'MPOL_INTERLEAVE, \[0x00000000000001\]' MPOL_LOCAL; do grep -q \"\$m\" '$d/iob_numa.calls' || exit 1; done"
  # the buffers are mapped (and mbound) by the main thread
  mb=$(grep -o "mbind(0x[0-9a-f]*, [0-9]*, MPOL_BIND, \[0x00000000000001[^]]*\], 1025, MPOL_MF_MOVE) = 0" "$d/iob_numa.tr" | head -1)
  check "numa_mem_policy=bind:0: the buffers get MPOL_BIND to node 0 too ($mb)" \
    test -n "$mb"
fi
# fio 3.33 refuses these when it runs the job (its --parse-only lets them
# by): "a nodelist is needed for 'bind'", "one node only for 'prefer'", "NO
# nodelist for 'local'", "memory policy should be: default, prefer, bind,
# interleave, local", "numa_parse_nodestring failed"; iobench at parse time
for bad in "numa_mem_policy=bind|'bind' needs a node list" "numa_mem_policy=prefer:0-1|'prefer' takes one node only" \
           "numa_mem_policy=local:0|'local' takes no node list" "numa_mem_policy=bogus|use default, prefer:NODE" \
           "numa_cpu_nodes=abc|'abc' is not a node number"; do
  opt=${bad%%|*} msg=${bad#*|}
  $R --parse-only $N --$opt >/dev/null 2>"$d/nbad.err"
  check "$opt: refused at parse time: $msg" \
    bash -c '[ "$1" != 0 ] && grep -qF "$2" "$3"' _ $? "$msg" "$d/nbad.err"
done
if [ ! -d /sys/devices/system/node/node1 ]; then
  have=$(cat /sys/devices/system/node/online)
  $R $N --numa_mem_policy=bind:5 >/dev/null 2>"$d/n5.err"
  check "numa_mem_policy=bind:5 on a machine with node $have: refused, naming the node and those there are" \
    grep -q "job 'x': numa_mem_policy=bind:5: NUMA node 5 does not exist: this machine has node $have" "$d/n5.err"
  (cd "$d" && $R --set filename="$d/n.dat" --set size=1m --set ioengine=psync "$EX/numa.fio" \
     >/dev/null 2>"$d/numa.err"; echo $? >"$d/numa.rc")
  check "numa.fio on one node: job2's numa_cpu_nodes=0-1 refused before any I/O, naming node 1 (fio drops job2)" \
    bash -c "[ \$(cat '$d/numa.rc') != 0 ] && grep -q \"job 'job2': numa_cpu_nodes=0-1: NUMA node 1 does not exist\" '$d/numa.err'"
  (cd "$d" && $R --output-format=json --section=job1 --set filename="$d/n.dat" --set size=1m \
     --set ioengine=psync "$EX/numa.fio" >"$d/numa1.json" 2>>"$d/err"; echo $? >"$d/numa1.rc")
  check "numa.fio --section=job1 (numa_cpu_nodes=0, bind:0) runs small: exit 0, 1 MiB read" \
    test "$(cat "$d/numa1.rc") $(json_get "$d/numa1.json" 'd["jobs"][0]["read"]["io_bytes"]')" = "0 1048576"
else
  (cd "$d" && $R --output-format=json --set filename="$d/n.dat" --set size=256k --set ioengine=psync \
     "$EX/numa.fio" >"$d/numa.json" 2>>"$d/err"; echo $? >"$d/numa.rc")
  check "numa.fio runs small on this multi-node machine" test "$(cat "$d/numa.rc")" = 0
fi

# --- cgroup v2 -------------------------------------------------------------------
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
[ "$own" = / ] && own=
C="--name=cgj --filename=$d/z.dat --size=256k --rw=read"
# a writable cgroup2 hierarchy where a threaded group can be made here
probe="$cg2$own/iobench-e2e-probe-$$"
threaded=0
if [ -n "$cg2" ] && mkdir "$probe" 2>/dev/null; then
  echo threaded >"$probe/cgroup.type" 2>/dev/null && threaded=1
  rmdir "$probe"
fi
if [ $threaded = 1 ]; then
  g="$cg2$own/iobench-e2e-$$"
  CG_MADE+=("$g")
  $R $C --cgroup=iobench-e2e-$$ >/dev/null 2>>"$d/err"
  check "cgroup=NAME: the run passes and removes the group it made ($g)" \
    bash -c "[ $? = 0 ] && [ ! -e '$g' ]"
  $R $C --cgroup=iobench-e2e-$$ --cgroup_nodelete=1 >/dev/null 2>>"$d/err"
  check "cgroup_nodelete=1: the group stays, threaded, and the job's thread ran in it (cpu.stat usage_usec > 0)" \
    bash -c "[ \"\$(cat '$g/cgroup.type')\" = threaded ] && [ \$(awk '/^usage_usec/ { print \$2 }' '$g/cpu.stat') -gt 0 ]"
  rmdir "$g" 2>/dev/null
  mkdir "$g"
  $R $C --cgroup=iobench-e2e-$$ >/dev/null 2>"$d/cgdom.err"
  check "cgroup= naming an existing domain group: refused, saying jobs are threads and the group must be threaded" \
    grep -q "exists as a 'domain' group: each iobench job is a thread" "$d/cgdom.err"
  rmdir "$g"
  ctl=$(cat "$cg2$own/cgroup.controllers" 2>/dev/null)
  $R $C --cgroup=iobench-e2e-$$ --cgroup_weight=500 >/dev/null 2>"$d/cgw.err"
  irc=$?
  fio $C --cgroup=iobench-e2e-$$ --cgroup_weight=500 --output-format=json >"$d/fio_cgw.json" 2>/dev/null
  ferr=$(jget "$d/fio_cgw.json" 'd["jobs"][0]["error"]')
  check "cgroup_weight=500: refused before any I/O with the reason, no group left; fio's job fails too (error $ferr)" \
    bash -c '[ "$1" != 0 ] && [ ! -e "$2" ] && grep -q "cgroup_weight=500 cannot be applied" "$3" && [ "${4:-0}" != 0 ]' _ \
      $irc "$g" "$d/cgw.err" "$ferr"
  case " $ctl " in
    *" io "*) check "cgroup_weight with an io controller: the reason is that io weighs processes" \
                grep -q "io is a domain controller" "$d/cgw.err" ;;
    *) check "cgroup_weight without an io controller ('$ctl'): the message says so" \
         grep -q "delegates no io controller (its cgroup.controllers lists '$ctl')" "$d/cgw.err" ;;
  esac
  rmdir "$g" 2>/dev/null  # fio's cgroup code may have made it (v1 takes it elsewhere)
  unshare -m sh -c "mount -o remount,bind,ro '$cg2' && $R $C --cgroup=iobench-e2e-$$" >/dev/null 2>"$d/cgro.err"
  check "cgroup= on a read-only cgroup2 mount: refused, saying the hierarchy is not writable" \
    grep -q "cannot create cgroup $g: Read-only file system (the cgroup2 hierarchy is not writable here" "$d/cgro.err"
  # every cgroup2 mount goes, in the namespace: a root bound elsewhere for a
  # chroot (its /sys with submounts) shows one more
  unshare -m sh -c "awk '\$3 == \"cgroup2\" { print \$2 }' /proc/self/mounts | sort -r | xargs -r umount -l && $R $C --cgroup=iobench-e2e-$$" >/dev/null 2>"$d/cgnone.err"
  check "cgroup= with no cgroup2 mount: refused, saying none is mounted and that v1 is not taken" \
    grep -q "cgroup=iobench-e2e-$$: no cgroup2 filesystem is mounted.*iobench does not); mount one" "$d/cgnone.err"
else
  $R $C --cgroup=iobench-e2e-$$ >/dev/null 2>"$d/cgno.err"
  check "cgroup= where no threaded cgroup2 group can be made ('$cg2$own'): refused with the reason" \
    grep -Eq "no cgroup2 filesystem is mounted|not writable here|cannot make cgroup .* threaded" "$d/cgno.err"
fi

# --- log_compression_cpus: the log writer thread (the compressor) runs on
# the CPUs named, the job's own threads where they were
if [ "$(nproc)" -ge 2 ]; then
  (cd "$d" && "$IOBENCH" run --no-store --name=lcc --ioengine=null --size=1g --time_based --runtime=2 \
     --write_lat_log=lcc --log_avg_msec=100 --log_compression=64k --log_compression_cpus=1 \
     >"$d/lcc.out" 2>"$d/lcc.err") &
  lpid=$!
  seen=""
  # until the run ends (a loaded machine can take seconds to start it, and
  # the clock's TSC check pins the main thread to each CPU in turn meanwhile)
  for _ in $(seq 300); do
    kill -0 "$lpid" 2>/dev/null || break
    sleep 0.1
    p=$(pgrep -n -P "$lpid" iobench 2>/dev/null || pgrep -n -f "name=lcc" 2>/dev/null) || continue
    seen=$(cat /proc/"$p"/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:\t//p' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
    # the main thread, the job's and the writer: the TSC check is over
    [ -n "$seen" ] && [ "$(ls /proc/"$p"/task 2>/dev/null | wc -l)" -ge 3 ] &&
      [ "$(echo "$seen" | tr ';' '\n' | grep -c ' 1$')" -ge 1 ] && break
  done
  wait "$lpid"
  check "log_compression_cpus=1: one thread (the log writer) on CPU 1, the others not (threads by CPU list: $seen)" \
    eval 'echo "$seen" | tr ";" "\n" | grep -q " 1$" && echo "$seen" | tr ";" "\n" | grep -vq " 1$"'
  check "log_compression_cpus=1: the run wrote its logs (exit 0)" test -s "$d/lcc_lat.1.log.fz" -o -s "$d/lcc_lat.1.log"
  # verify_async_cpus: the verify_async threads there, the job's elsewhere
  # in $d: a verifying write leaves local-vac-0-verify.state in its folder, as fio
  (cd "$d" && "$IOBENCH" run --no-store --name=vac --rw=write --bs=4k --size=128m --verify=crc32c \
     --verify_async=2 --verify_async_cpus=1 --filename="$d/vac.dat" >"$d/vac.out" 2>"$d/vac.err") &
  vpid=$!
  vseen=""
  for _ in $(seq 300); do
    kill -0 "$vpid" 2>/dev/null || break
    sleep 0.1
    p=$(pgrep -n -f "name=vac" 2>/dev/null) || continue
    vseen=$(cat /proc/"$p"/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:\t//p' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
    echo "$vseen" | grep -q " 2 1;" && break
  done
  wait "$vpid"
  vrc=$?
  check "verify_async=2 verify_async_cpus=1: two threads on CPU 1, the others not, the verify passes (exit $vrc; threads by CPU list: $vseen)" \
    eval '[ $vrc -eq 0 ] && echo "$vseen" | grep -q " 2 1;" && echo "$vseen" | tr ";" "\n" | grep -vq " 1$"'
  rm -f "$d/vac.dat"
else
  skip_check "log_compression_cpus and verify_async_cpus" "one CPU here: they need two to tell their threads from the job's"
fi
"$IOBENCH" run --parse-only --name=x --ioengine=null --size=1m --log_compression_cpus=9-x >/dev/null 2>"$d/lccbad.err"
check "log_compression_cpus=9-x: refused naming the value" grep -q "invalid CPU list '9-x' for option 'log_compression_cpus'" "$d/lccbad.err"
finish
