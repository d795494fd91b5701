#!/usr/bin/env bash
# fio's remaining engines (the second share): cpuio, exec, splice,
# net and netsplice over the loopback address, e4defrag on an ext4 loop
# filesystem made here, sg's refusal, and the one message for a fio external
# engine iobench does not provide. Each against fio 3.33 on the same job where
# the figure is deterministic (bytes and I/Os moved, files left, the program's
# output, the JSON key set: json_keys.py), and fio's own example job files for
# these engines (fio-examples) with small sizes and runtimes. Seconds in all.
. "$(dirname "$0")/lib.sh"
need_fio_examples rbd.fio rados.fio nbd.fio rdmaio-client.fio uring-cmd-ng.fio pmemblk.fio \
  cpp_null.fio cmdprio-percentage.fio sg_verify.fio sg_write_same_ndob.fio cpuio.fio exec.fio \
  netio.fio netio_multicast.fio e4defrag.fio e4defrag2.fio
need_root
W=$(tmpdir)
EX=$FIO_EXAMPLES
KEYS="$(dirname "$0")/json_keys.py"
# the system's python: a pyenv shim costs half a second a call
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
# ports of this run, away from other tests running at the same time
P=$((20000 + RANDOM % 20000))

# jf JSON EXPR: EXPR over d, the report (fio may print notes before its JSON)
jf() { "$PY" -c "import json,sys; t=open(sys.argv[1]).read(); d=json.loads(t[t.find('{'):]); print($2)" "$1"; }
# dirs JSON: "read-bytes/ios write-bytes/ios" of every job, in order
dirs() { jf "$1" '" ".join("%d/%d,%d/%d" % (j["read"]["io_bytes"], j["read"]["total_ios"], j["write"]["io_bytes"], j["write"]["total_ios"]) for j in d["jobs"])'; }
errors() { jf "$1" '" ".join(str(j["error"]) for j in d["jobs"])'; }
same_keys() { "$PY" "$KEYS" "$1" "$2" >"$W/keys.out" 2>&1 || { tail -5 "$W/keys.out"; false; }; }

# ---- external engines: one message about the engine ----
ext_case() { # EXAMPLE ENGINE WHAT
  "$IOBENCH" run --parse-only "$EX/$1.fio" >/dev/null 2>"$W/ext.err"
  local rc=$? n
  n=$(grep -c 'error:' "$W/ext.err")
  check "$1.fio: refused (exit $rc) with one error, about ioengine '$2' ($n errors)" \
    [ $rc != 0 -a "$n" = 1 ]
  check "$1.fio: the message names the engine and what fio builds it on" \
    grep -q "ioengine '$2' is a fio external engine ($3) that iobench does not provide" "$W/ext.err"
}
ext_case rbd rbd "librbd, Ceph"
ext_case rados rados "librados, Ceph"
ext_case nbd nbd "libnbd"
ext_case rdmaio-client rdma "libibverbs and librdmacm"
ext_case uring-cmd-ng io_uring_cmd "NVMe pass-through on a /dev/ngXnY device"
ext_case pmemblk pmemblk "libpmemblk, persistent memory"
fio --enghelp=cpp_null >"$W/fcpp.out" 2>&1
"$IOBENCH" run --parse-only "$EX/cpp_null.fio" >/dev/null 2>"$W/cpp.err"
check "cpp_null: fio 3.33 here cannot load it, and iobench says so in fio's words" \
  eval 'grep -q "engine cpp_null not loadable" "$W/fcpp.out" &&
        grep -q "ioengine .cpp_null. is not in fio 3.33 as Debian builds it (fio: engine cpp_null not loadable)" "$W/cpp.err"'
"$IOBENCH" run --parse-only "$EX/cmdprio-percentage.fio" >/dev/null 2>"$W/cmdprio.err"
check "cmdprio_percentage, io_uring's and libaio's as in fio, parses (cmdprio-percentage.fio)" \
  test ! -s "$W/cmdprio.err"
"$IOBENCH" run --enghelp=rbd >/dev/null 2>"$W/enghelp.err"
check "--enghelp=rbd: the same message, not 'not found'" \
  grep -q "ioengine 'rbd' is a fio external engine (librbd, Ceph) that iobench does not provide" "$W/enghelp.err"
"$IOBENCH" run --parse-only --name=x --size=1m --pool=p >/dev/null 2>"$W/pool.err"
check "an rbd/rados option with another engine names the engines it belongs to" \
  grep -q "option 'pool' belongs to fio's external engines rados and rbd, which iobench does not provide" "$W/pool.err"

# ---- sg: refused where there is no /dev/sg ----
"$IOBENCH" run --name=s --ioengine=sg --readfua=1 --writefua=1 --sg_write_mode=write_same_ndob \
  --filename="$W/notadev" --size=64k >/dev/null 2>"$W/sg.err"
check "sg on a regular file: refused (exit $?), nothing laid out" [ ! -e "$W/notadev" ]
check "sg: the message says it needs a SCSI device and this machine has no /dev/sg" \
  grep -q "the sg engine needs a SCSI disk and the sg kernel module" "$W/sg.err"
"$IOBENCH" run --name=s --ioengine=sg --filename=/dev/null --size=64k >/dev/null 2>"$W/sg2.err"
check "sg on a character device that is not SCSI generic: says so" \
  grep -q "'/dev/null' does not answer SG_GET_VERSION_NUM: it is not a SCSI generic device" "$W/sg2.err"
"$IOBENCH" run --parse-only --name=s --ioengine=sg --sg_write_mode=same --filename=/dev/null >/dev/null 2>&1
check "sg_write_mode takes fio's deprecated spelling 'same'" [ $? = 0 ]
"$IOBENCH" run --parse-only --name=s --ioengine=sg --sg_write_mode=bogus --filename=/dev/null >/dev/null 2>"$W/sg3.err"
check "sg_write_mode=bogus is refused naming fio's choices" \
  grep -q "invalid SCSI write mode 'bogus' for option 'sg_write_mode': one of write, write_and_verify" "$W/sg3.err"
for f in sg_verify sg_write_same_ndob; do
  "$IOBENCH" run --parse-only "$EX/$f.fio" >/dev/null 2>&1
  check "example $f.fio parses" [ $? = 0 ]
done

# ---- cpuio ----
"$IOBENCH" run --name=c --ioengine=cpuio --runtime=1 --time_based >/dev/null 2>"$W/cpu0.err"
check "cpuio without cpuload: refused as fio refuses it" grep -q "the cpuio engine needs cpuload=" "$W/cpu0.err"
sed 's/^runtime=15/runtime=1/' "$EX/cpuio.fio" >"$W/cpuio.fio"
"$IOBENCH" run "$W/cpuio.fio" --output-format=json >"$W/cpuex.json" 2>"$W/cpuex.err"
check "example cpuio.fio (runtime=1): runs its two groups of 2 jobs, none reading a byte" \
  [ $? = 0 -a "$(jf "$W/cpuex.json" '" ".join("%d:%d" % (j["groupid"], j["read"]["io_bytes"]) for j in d["jobs"])')" = "0:0 0:0 1:0 1:0" ]
# the same job with both tools at once (each loads one CPU by half)
CPUJOB=(--name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 --runtime=1 --time_based --output-format=json)
fio "${CPUJOB[@]}" >"$W/cpu.f.json" 2>/dev/null &
"$IOBENCH" run "${CPUJOB[@]}" >"$W/cpu.i.json" 2>/dev/null
wait $!
NOIO='sorted(set((j["read"]["io_bytes"], j["read"]["runtime"], j["read"]["bw_samples"], j["read"]["total_ios"] > 0) for j in d["jobs"]))'
check "cpuio: reads of no bytes, no direction runtime nor bw, as fio's ($(jf "$W/cpu.f.json" "$NOIO"))" \
  [ "$(jf "$W/cpu.i.json" "$NOIO")" = "$(jf "$W/cpu.f.json" "$NOIO")" -a "$(jf "$W/cpu.f.json" "$NOIO")" = "[(0, 0, 0, True)]" ]
check "cpuio: the JSON key set is fio's" same_keys "$W/cpu.f.json" "$W/cpu.i.json"
mkdir -p "$W/eo"
"$IOBENCH" run --name=c --ioengine=cpuio --cpuload=20 --cpuchunks=1000 --exit_on_io_done=1 --runtime=10 \
  --time_based --name=w --ioengine=psync --rw=write --size=256k --directory="$W/eo" \
  --output-format=json >"$W/eo.json" 2>/dev/null
check "cpuio exit_on_io_done=1: the burner ends with the writer, before its 10 s runtime" \
  [ "$(jf "$W/eo.json" 'int(d["jobs"][0]["job_runtime"] < 10000 and d["jobs"][1]["write"]["io_bytes"] == 262144)')" = 1 ]

# ---- exec ----
printf '#!/bin/sh\necho out "$@"\necho err >&2\ntrap "echo got TERM; exit 3" TERM\nsleep 30 & wait\n' >"$W/prog.sh"
chmod +x "$W/prog.sh"
EXECJOB=(--name=ejob --ioengine=exec --program="$W/prog.sh" "--arguments=a %n %r b" --grace_time=0 --runtime=1
         --time_based --output-format=json)
mkdir -p "$W/xi" "$W/xf"
(cd "$W/xf" && fio "${EXECJOB[@]}" >"$W/exec.f.json" 2>/dev/null) &
(cd "$W/xi" && "$IOBENCH" run "${EXECJOB[@]}" >"$W/exec.i.json" 2>/dev/null)
wait $!
check "exec: %n and %r expanded and the output in ejob.stdout/.stderr, as fio ($(head -1 "$W/xi/ejob.stdout"))" \
  eval '[ "$(head -1 "$W/xi/ejob.stdout")" = "out a ejob 1 b" ] && [ "$(head -1 "$W/xf/ejob.stdout")" = "out a ejob 1 b" ] &&
        [ "$(cat "$W/xi/ejob.stderr")" = err ] && [ "$(cat "$W/xf/ejob.stderr")" = err ]'
check "exec: no bytes, some polls, no error, as fio" \
  [ "$(jf "$W/exec.i.json" 'd["jobs"][0]["read"]["io_bytes"] == 0 < d["jobs"][0]["read"]["total_ios"] and d["jobs"][0]["error"] == 0')" = True ]
check "exec: the JSON key set is fio's" same_keys "$W/exec.f.json" "$W/exec.i.json"
check "exec: the program is gone once the job is over" [ -z "$(pgrep -f "$W/prog.sh")" ]
# the program's output files open through the device guard: never a block device
L=$(mkloop 16M)
mkdir -p "$W/xg"; ln -s "$L" "$W/xg/ej.stdout"
(cd "$W/xg" && "$IOBENCH" run --name=ej --ioengine=exec --program=/bin/echo --arguments=hi --runtime=1 \
  --time_based >/dev/null 2>"$W/exg.err")
check "exec: JOB.stdout a symlink to a block device: refused by the device guard, the device untouched" \
  eval 'grep -q "cannot open .ej.stdout. for the program.s output: .ej.stdout. is block device $L" "$W/exg.err" &&
        cmp -s -n 65536 "$L" /dev/zero'
"$IOBENCH" run --name=e --ioengine=exec --runtime=1 >/dev/null 2>"$W/exec0.err"
check "exec without program: refused as fio refuses it" grep -q "the exec engine needs program=" "$W/exec0.err"
# exec.fio runs turbostat, not installed here: a stand-in prints its arguments
printf '#!/bin/sh\necho turbostat "$@"\nsleep 30\n' >"$W/turbostat"
chmod +x "$W/turbostat"
sed "s|/usr/sbin/turbostat|$W/turbostat|" "$EX/exec.fio" >"$W/exec.fio"
mkdir -p "$W/xe"
(cd "$W/xe" && "$IOBENCH" run "$W/exec.fio" --set runtime=1 --set numjobs=1 --output-format=json \
  >"$W/exex.json" 2>"$W/exex.err")
check "example exec.fio (runtime=1, numjobs=1, turbostat stand-in): its 5 jobs run without error" \
  [ $? = 0 -a "$(errors "$W/exex.json")" = "0 0 0 0 0" ]
check "exec.fio: the monitors' output files hold the stand-in's arguments" \
  grep -q "^turbostat -c package -qS --interval 5" "$W/xe/monitoring_qsort.stdout"

# ---- splice ----
for rw in write read; do
  mkdir -p "$W/si" "$W/sf"
  "$IOBENCH" run --name=t --directory="$W/si" --ioengine=splice --rw=$rw --size=256k --bs=16k \
    --output-format=json >"$W/sp.i.json" 2>/dev/null
  fio --name=t --directory="$W/sf" --ioengine=splice --rw=$rw --size=256k --bs=16k \
    --output-format=json >"$W/sp.f.json" 2>/dev/null
  check "splice rw=$rw: the same bytes and I/Os as fio ($(dirs "$W/sp.i.json"))" \
    [ "$(dirs "$W/sp.i.json")" = "$(dirs "$W/sp.f.json")" ]
done
"$IOBENCH" run --name=t --directory="$W/si" --ioengine=splice --rw=write --size=256k --bs=16k --verify=crc32c \
  >/dev/null 2>&1
check "splice: what it wrote verifies (crc32c)" [ $? = 0 ]

# ---- net, netsplice ----
sed "s/^size=100g/size=1m/; s/^port=8888/port=$P/" "$EX/netio.fio" >"$W/netio.fio"
sed "s/^port=$P/port=$((P + 1))/" "$W/netio.fio" >"$W/netio_f.fio"
fio "$W/netio_f.fio" --output-format=json >"$W/net.f.json" 2>/dev/null &
"$IOBENCH" run "$W/netio.fio" --output-format=json >"$W/net.i.json" 2>"$W/net.i.err"
check "example netio.fio (size=1m): receiver and sender run" [ $? = 0 -a "$(errors "$W/net.i.json")" = "0 0" ]
# fio 3.33 aborts now and then on this example (SIGABRT, seen here): once more
wait $! || fio "$W/netio_f.fio" --output-format=json >"$W/net.f.json" 2>/dev/null
got=$(dirs "$W/net.i.json")
check "netio.fio: the receiver read the 1 MiB the sender wrote ($got)" [ "$got" = "1048576/256,0/0 0/0,1048576/256" ]
check "netio.fio: fio's sender wrote the same" [ "$(jf "$W/net.f.json" 'd["jobs"][1]["write"]["io_bytes"]')" = 1048576 ]
check "netio.fio: the JSON key set is fio's" same_keys "$W/net.f.json" "$W/net.i.json"
# four reader/writer pairs in one run per engine, 256k of 4k blocks each
for e in net netsplice; do
  q=$((P + 10 * ${#e}))
  timeout -s KILL 15 "$IOBENCH" run --ioengine=$e --bs=4k --size=256k \
    --name=tr --protocol=tcp --port=$q --pingpong=1 --nodelay=1 --window_size=131072 --mss=1400 --listen --rw=read \
    --name=ts --protocol=tcp --port=$q --pingpong=1 --nodelay=1 --window_size=131072 --mss=1400 --hostname=127.0.0.1 --rw=write \
    --name=6r --protocol=tcpv6 --port=$((q + 1)) --listen --rw=read \
    --name=6s --protocol=tcpv6 --port=$((q + 1)) --hostname=::1 --rw=write \
    --name=ur --protocol=udp --port=$((q + 2)) --pingpong=1 --rw=read \
    --name=us --protocol=udp --port=$((q + 2)) --pingpong=1 --hostname=localhost --rw=write \
    --name=xr --protocol=unix --hostname="$W/sock.$e" --listen --rw=read \
    --name=xs --protocol=unix --hostname="$W/sock.$e" --rw=write \
    --output-format=json >"$W/np.$e.json" 2>"$W/np.$e.err"
  got=$(dirs "$W/np.$e.json" 2>/dev/null)
  check "$e: tcp (pingpong, nodelay, window_size, mss), tcpv6, udp (pingpong) and unix pairs each move 256k ($got)" \
    [ "$got" = "$(printf '262144/64,0/0 0/0,262144/64 %.0s' 1 2 3 4 | sed 's/ $//')" ]
done
timeout -s KILL 15 "$IOBENCH" run --ioengine=net --bs=4k --size=256k --port=$((P + 5)) --numjobs=2 \
  --name=r --listen --rw=read --name=s --hostname=localhost --rw=write --output-format=json >"$W/nj.json" 2>/dev/null
got=$(dirs "$W/nj.json" 2>/dev/null)
check "net numjobs=2: each clone pair on its own port ($got)" \
  [ "$got" = "262144/64,0/0 262144/64,0/0 0/0,262144/64 0/0,262144/64" ]
# UDP loss: a writer that skips sequence numbers 2, 5 and 6 (the datagram
# tail the engine writes without verify=: magic, block size, sequence)
cat >"$W/udpsend.py" <<'PYEOF'
import socket, struct, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a = ("127.0.0.1", int(sys.argv[1]))
time.sleep(0.3)
s.sendto(struct.pack(">II", 0x696f626e, 1), a)
for seq in (0, 1, 3, 4, 7):
    s.sendto(b"x" * (4096 - 24) + struct.pack("<QQQ", 0x696f62656e636873, 4096, seq), a)
    time.sleep(0.01)
s.sendto(struct.pack(">II", 0x696f626e, 2), a)
PYEOF
"$PY" "$W/udpsend.py" $((P + 7)) &
timeout -s KILL 10 "$IOBENCH" run --ioengine=net --protocol=udp --bs=4k --size=1m --port=$((P + 7)) --name=r \
  --rw=read --output-format=json >"$W/udp.json" 2>/dev/null
wait $!
got=$(jf "$W/udp.json" '"%d/%d" % (d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["read"]["drop_ios"])' 2>/dev/null)
check "net udp: 5 datagrams read and the 3 skipped counted in drop_ios, as fio counts them ($got)" [ "$got" = 5/3 ]
"$IOBENCH" run --ioengine=net --port=$P --name=x --rw=randread --listen --size=1m >/dev/null 2>"$W/nr.err"
check "net rw=randread: refused as fio refuses it" grep -q "network I/O cannot be random" "$W/nr.err"
"$IOBENCH" run --ioengine=net --port=$P --name=x --rw=write --size=1m >/dev/null 2>"$W/nh.err"
check "net writer without hostname: says it needs one" grep -q "a job that writes needs hostname=" "$W/nh.err"
# multicast to 239.0.0.0 goes out by the default route: it needs one (a
# container without a network cannot run this example)
if awk 'NR > 1 && $2 == "00000000" { f = 1 } END { exit !f }' /proc/net/route; then
  sed "s/^size=100m/size=64k/; s/^port=10000/port=$((P + 6))/" "$EX/netio_multicast.fio" >"$W/mc.fio"
  timeout -s KILL 15 "$IOBENCH" run "$W/mc.fio" --output-format=json >"$W/mc.json" 2>/dev/null
  # the normal reader answers nobody, so under load its socket can
  # overflow while the pingpong pair goes on: each datagram it lost must
  # then be counted in drop_ios, as fio counts UDP losses
  mc_normal=$(jf "$W/mc.json" '"%d+%d" % (d["jobs"][1]["read"]["total_ios"], d["jobs"][1]["read"]["drop_ios"])' 2>/dev/null)
  check "example netio_multicast.fio (size=64k): the pingpong pair moves the writer's 64k, the other reader reads or counts as dropped each of its 1024 datagrams ($(dirs "$W/mc.json" 2>/dev/null), $mc_normal)" \
    eval '[ "$(dirs "$W/mc.json" 2>/dev/null | cut -d" " -f1,3)" = "65536/1024,0/0 0/0,65536/1024" ] &&
      [ $(( mc_normal )) = 1024 ] && [ "$(dirs "$W/mc.json" 2>/dev/null | cut -d" " -f2)" = "$(( 64 * ${mc_normal%+*} ))/${mc_normal%+*},0/0" ]'
else
  skip_check "example netio_multicast.fio" "no default route here for multicast to 239.0.0.0"
fi

# ---- e4defrag on an ext4 loop filesystem ----
M=$(mkfs_mount ext4 256M)
for t in i f; do
  mkdir -p "$M/$t"
  if [ $t = i ]; then cmd=("$IOBENCH" run); else cmd=(fio); fi
  for ip in 0 1; do
    # each run makes its donor: iobench refuses one it did not create
    rm -f "$M/$t/file.def"
    "${cmd[@]}" --name=d --ioengine=e4defrag --directory="$M/$t" --donorname=file.def --filename=file1 \
      --filesize=1m --size=1m --bs=32k --rw=randwrite --inplace=$ip --buffered=0 \
      --output-format=json >"$W/e4.$t$ip.json" 2>/dev/null
    stat -c '%s %n' "$M/$t/file.def" "$M/$t/file1" | sed "s|$M/$t/||" >"$W/e4.$t$ip.ls"
  done
done
for ip in 0 1; do
  check "e4defrag inplace=$ip: 32 moves of 32k as fio ($(dirs "$W/e4.i$ip.json"))" \
    [ "$(dirs "$W/e4.i$ip.json")" = "$(dirs "$W/e4.f$ip.json")" -a "$(dirs "$W/e4.i$ip.json")" = "0/0,1048576/32" ]
  check "e4defrag inplace=$ip: donor and file sizes as fio leaves them ($(tr '\n' ' ' <"$W/e4.i$ip.ls"))" \
    cmp -s "$W/e4.i$ip.ls" "$W/e4.f$ip.ls"
done
check "e4defrag: the JSON key set is fio's" same_keys "$W/e4.f0.json" "$W/e4.i0.json"
"$IOBENCH" run --name=d --ioengine=e4defrag --directory="$M/i" --filename=file1 --size=1m >/dev/null 2>"$W/e40.err"
check "e4defrag without donorname: refused as fio refuses it" grep -q "the e4defrag engine needs donorname=" "$W/e40.err"
"$IOBENCH" run --name=d --ioengine=e4defrag --directory="$M/i" --donorname=file.r --filename=file1 --size=1m \
  --rw=read >/dev/null 2>"$W/e4r.err"
check "e4defrag rw=read: fails with EINVAL, as fio" grep -q "Invalid argument" "$W/e4r.err"
# the examples as fio runs them: their aio clones verify one file that
# they all write (verify fails with EILSEQ in both tools, by design), and
# e4defrag-fuzzer-4k-bis races aio writers (EBUSY in both): the e4defrag
# jobs that run alone must succeed
ex4() { # NAME DIR TOOL...
  local name=$1 dir=$M/$2; shift 2
  rm -rf "$dir"; mkdir "$dir"
  "$@" "$EX/$name.fio" --set directory="$dir" --set filesize=4m --set size=4m --set runtime=1 \
    --output-format=json >"$W/$name.$#.json" 2>/dev/null
}
ALONE='" ".join("%s=%d" % (j["jobname"], j["error"]) for j in d["jobs"] if j["jobname"] in ("isolated-e4defrag", "e4defrag", "parallel-e4defrag", "e4defrag-1", "e4defrag-fuzzer-4k"))'
# for the key sets, both tools on a copy with the same overrides written in
# (what --set writes goes to "job options"), each in its own directory
for t in i f; do
  rm -rf "$M/$t.x"; mkdir "$M/$t.x"
  sed "s|^directory=/scratch|directory=$M/$t.x|; s|^filesize=100M|filesize=4m|; s|^size=100M|size=4m|; s|^runtime=30|runtime=1|" \
    "$EX/e4defrag.fio" >"$W/e4defrag_$t.fio"
done
fio "$W/e4defrag_f.fio" --output-format=json >"$W/e4defrag.1.json" 2>/dev/null &
"$IOBENCH" run "$W/e4defrag_i.fio" --output-format=json >"$W/e4defrag.2.json" 2>/dev/null
wait $!
got=$(jf "$W/e4defrag.2.json" "$ALONE")
check "example e4defrag.fio (4m, runtime=1, as written in a copy): its e4defrag jobs succeed, as with fio ($got)" \
  [ "$got" = "isolated-e4defrag=0 e4defrag=0" -a "$got" = "$(jf "$W/e4defrag.1.json" "$ALONE")" ]
check "example e4defrag.fio: the JSON key set is fio's" same_keys "$W/e4defrag.1.json" "$W/e4defrag.2.json"
ex4 e4defrag2 x "$IOBENCH" run
got=$(jf "$W/e4defrag2.2.json" "$ALONE")
check "example e4defrag2.fio (4m, runtime=1): its e4defrag jobs succeed ($got)" \
  [ "$got" = "parallel-e4defrag=0 e4defrag-1=0 e4defrag-fuzzer-4k=0" ]

finish
