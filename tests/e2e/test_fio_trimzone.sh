#!/usr/bin/env bash
# fio 3.33's trim-with-verify options, its crc16/crc7 checksums and its zone
# options, checked against fio where the figure is
# deterministic: the checksums fio stores in its verify blocks, the offsets
# fio issues for zonemode=strided (its write_iolog, and its
# disk-zone-profile.fio example's bandwidth log with log_offset), and fio's
# refusal of zonesize without a zone mode. Trims are checked by their effect
# on a file and on a loop device (the blocks read back as zeros, as many as
# the JSON counts trims). zonemode=zbd is refused here: the machine has no
# zoned device, and its kernel has no null_blk module to make one.
. "$(dirname "$0")/lib.sh"
need_fio_examples disk-zone-profile.fio fixed-rate-submission.fio
need_root
d=$(tmpdir)
e2e_trace_helpers
R() { "$IOBENCH" run --no-store "$@"; }
fio_ok=1
command -v fio >/dev/null || { fio_ok=0; not_ok "fio is installed (the side-by-side checks need it)"; }

# ---- crc16 and crc7 --------------------------------------------------------
# crcref.py TYPE FILE HDRLEN CSUMOFF: every 4k block's stored checksum (at
# CSUMOFF) is the reference CRC of the bytes from HDRLEN to the block's end:
# CRC-16/ARC and CRC-7/MMC computed bit by bit here, from their polynomials.
cat >"$d/crcref.py" <<'PY'
import sys
def crc16(b):
    c = 0
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xA001 if c & 1 else c >> 1
    return c
def crc7(b):
    c = 0
    for x in b:
        for i in range(7, -1, -1):
            top = (c >> 6) & 1
            c = (c << 1) & 0x7f
            if top ^ ((x >> i) & 1):
                c ^= 0x09
    return c
assert crc16(b"123456789") == 0xBB3D and crc7(b"123456789") == 0x75
t, path, hl, co = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(path, "rb").read()
assert len(data) >= 4096, len(data)
for o in range(0, len(data), 4096):
    blk = data[o:o + 4096]
    if t == "crc16":
        got, want = blk[co] | blk[co + 1] << 8, crc16(blk[hl:])
    else:
        got, want = blk[co], crc7(blk[hl:])
    assert got == want, (o, hex(got), hex(want))
PY
for t in crc16 crc7; do
  R --name=c --filename="$d/$t.dat" --size=16k --bs=4k --rw=randwrite --verify=$t \
    --output-format=json >"$d/$t.json" 2>>"$d/err"
  check "verify=$t: iobench writes and verifies 16 KiB" \
    [ "$(json_get "$d/$t.json" '"%d/%d/%d" % (d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["write"]["total_ios"], d["jobs"][0]["error"])')" = "4/4/0" ]
  # iobench's header: 112 bytes, the payload checksum at byte 40
  check "verify=$t: iobench's stored checksums are the published $t of each payload" \
    python3 "$d/crcref.py" $t "$d/$t.dat" 112 40
  if [ $fio_ok = 1 ]; then
    # fio's header: 40 bytes, then the checksum (2 bytes for crc16, 1 for crc7)
    fio --name=c --filename="$d/fio-$t.dat" --size=16k --bs=4k --rw=write --verify=$t \
      --do_verify=0 --output=/dev/null
    hl=42; [ $t = crc7 ] && hl=41
    check "verify=$t: fio 3.33's stored checksums are the same published $t (so the two agree)" \
      python3 "$d/crcref.py" $t "$d/fio-$t.dat" $hl 40
  fi
done
printf '\x01' | dd of="$d/crc7.dat" bs=1 seek=5000 conv=notrunc status=none
out=$(R --name=c --filename="$d/crc7.dat" --size=16k --bs=4k --rw=randwrite --verify=crc7 \
  --verify_only=1 --output=/dev/null 2>&1) && not_ok "verify=crc7 misses a flipped byte" ||
  { [[ $out == *"corrupted: crc7"*"first differing byte at offset 5000"* ]] &&
    ok "verify=crc7 finds a flipped byte and names its offset" || not_ok "verify=crc7 flipped byte: $out"; }

# ---- trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero -----
# tcheck DESC TARGET ARGS...: a 256 KiB randwrite verify job on TARGET; its
# JSON says no error, 64 writes, 64 reads back, and as many trims as the
# target has all-zero 4k blocks (and at least one, at most all)
tcheck() {
  local desc=$1 tgt=$2; shift 2
  R --name=t --filename="$tgt" --size=256k --bs=4k --rw=randwrite --verify=crc32c "$@" \
    --output-format=json >"$d/t.json" 2>>"$d/err"
  pycheck "$desc" "$d/t.json" "$tgt" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
with open(sys.argv[2], "rb") as f:
    data = f.read(256 * 1024)
zero = sum(1 for o in range(0, len(data), 4096) if data[o:o + 4096] == bytes(4096))
got = (j["error"], j["write"]["total_ios"], j["read"]["total_ios"], j["trim"]["total_ios"])
assert got[:3] == (0, 64, 64) and got[3] == zero and 0 < zero <= 64, (got, zero)
PY
}
tcheck "trim_percentage=50 trim_backlog=4 on a file: the trimmed blocks are holes of zeros and verify" \
  "$d/t.dat" --trim_percentage=50 --trim_backlog=4
loop=$(mkloop 8m)
tcheck "trim_percentage=30 trim_backlog=8 trim_backlog_batch=1, libaio iodepth=4, on a buffered loop device (discard after the dirty range is written back)" \
  "$loop" --trim_percentage=30 --trim_backlog=8 --trim_backlog_batch=1 --ioengine=libaio --iodepth=4
tcheck "trim_percentage=100 trim_verify_zero=0 direct=1 on a loop device: all trimmed, none checked" \
  "$loop" --trim_percentage=100 --trim_verify_zero=0 --direct=1
# blocks written more than once a pass (zones that wrap, twice over two
# loops): a pick overwritten before its trim keeps the newer data, and the
# read-back of older writes accepts the newer data or the later trim
R --name=t --filename="$d/w.dat" --size=256k --bs=4k --rw=write --zonemode=strided --zonesize=32k \
  --zoneskip=64k --loops=2 --verify=md5 --trim_percentage=25 --output-format=json >"$d/w.json" 2>>"$d/err"
check "trim_percentage=25 on zones written three times a pass, two loops: verifies (reads $(json_get "$d/w.json" 'd["jobs"][0]["read"]["total_ios"]'), trims $(json_get "$d/w.json" 'd["jobs"][0]["trim"]["total_ios"]'))" \
  [ "$(json_get "$d/w.json" '"%d/%d" % (d["jobs"][0]["error"], d["jobs"][0]["read"]["total_ios"])')" = 0/128 ]
# the read-back knows the picked blocks: a verify_only run that expects trims
# where none were made finds data instead of zeros (and passes when told not
# to check them); one that expects none finds the holes
T="--name=t --filename=$d/v.dat --size=256k --bs=4k --rw=randwrite --verify=crc32c --output=/dev/null"
R $T --do_verify=0 2>>"$d/err"
out=$(R $T --verify_only=1 --trim_percentage=50 2>&1) && not_ok "trim_verify_zero misses untrimmed data" ||
  { [[ $out == *"trimmed (trim_percentage, trim_verify_zero=1) but it does not read back as zeros"* ]] &&
    ok "trim_verify_zero=1: a picked block that holds data is a verify failure" || not_ok "trim_verify_zero: $out"; }
check "trim_verify_zero=0: the picked blocks are not checked" R $T --verify_only=1 --trim_percentage=50 --trim_verify_zero=0
R $T --do_verify=0 --trim_percentage=50 2>>"$d/err"
check "verify_only with the same trim_percentage passes over the holes" R $T --verify_only=1 --trim_percentage=50
out=$(R $T --verify_only=1 2>&1) && not_ok "a hole where data should be passes" ||
  { [[ $out == *"bad magic"*"all zeros"* ]] && ok "a trimmed block read as data is a bad-magic failure" || not_ok "hole: $out"; }
out=$(R --name=t --filename="$d/n.dat" --size=64k --rw=write --trim_percentage=10 2>&1) &&
  not_ok "trim_percentage without verify accepted" ||
  { [[ $out == *"trim_percentage=10 needs verify="* ]] && ok "trim_percentage without verify= is refused" || not_ok "no verify: $out"; }

# ---- verify_async: the same failures, messages and dumps as inline ---------
# psync: the reads complete in one order, so inline and async must agree line for line
V="--name=v --filename=$d/va.dat --size=256k --bs=4k --rw=randwrite --verify=crc32c"
R $V --do_verify=0 --output=/dev/null 2>>"$d/err"
for o in 5000 70000 200100 200200; do printf '\x01' | dd of="$d/va.dat" bs=1 seek=$o conv=notrunc status=none; done
for va in 0 3; do
  rm -rf "$d/dump"; mkdir "$d/dump"
  R $V --verify_only=1 --continue_on_error=verify --trim_percentage=20 --verify_dump=1 \
    --aux-path="$d/dump" --verify_async=$va --output-format=json >"$d/va$va.json" 2>"$d/va$va.err"
  json_get "$d/va$va.json" '"%d %d" % (d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["total_err"])' >"$d/va$va.sum" 2>&1
  (cd "$d/dump" && ls && cat ./*) | md5sum >>"$d/va$va.sum"
done
if cmp -s "$d/va0.err" "$d/va3.err" && cmp -s "$d/va0.sum" "$d/va3.sum" && [ "$(wc -l <"$d/va0.err")" -gt 4 ]; then
  ok "verify_async=3: the same $(wc -l <"$d/va0.err") failure messages, counts and verify_dump files as inline"
else not_ok "verify_async=3 differs from inline: $(diff "$d/va0.err" "$d/va3.err" | head -4) $(cat "$d/va0.sum" "$d/va3.sum")"; fi

# ---- zonemode=strided: fio's offsets ---------------------------------------
# zcmp DESC SIZE ARGS...: the offsets of fio's write_iolog and of iobench's
# preads/pwrites (strace) are the same list, on files of exactly SIZE
zcmp() {
  local desc=$1 sz=$2; shift 2
  rm -f "$d/z.dat" "$d/z.iolog"; truncate -s "$sz" "$d/z.dat"
  fio --name=z --filename="$d/z.dat" --size="$sz" "$@" --write_iolog="$d/z.iolog" --output=/dev/null
  awk '$3 ~ /^(read|write)$/ {print $4}' "$d/z.iolog" >"$d/z.fio"
  rm -f "$d/z.dat"; truncate -s "$sz" "$d/z.dat"
  strace -f -qq -P "$d/z.dat" -e trace=pread64,pwrite64 -o "$d/z.st" \
    "$IOBENCH" run --no-store --name=z --filename="$d/z.dat" --size="$sz" "$@" >/dev/null 2>>"$d/err"
  sed -nE 's/.*p(read|write)64\(.*, ([0-9]+)\) += .*/\2/p' "$d/z.st" >"$d/z.iob"
  if [ -s "$d/z.fio" ] && cmp -s "$d/z.fio" "$d/z.iob"; then ok "$desc ($(wc -l <"$d/z.fio") offsets as fio's)"
  else not_ok "$desc: fio $(tr '\n' ' ' <"$d/z.fio" | head -c 300) / iobench $(tr '\n' ' ' <"$d/z.iob" | head -c 300)"; fi
}
if [ $fio_ok = 1 ] && [ $have_strace = 1 ]; then
  zcmp "strided zonesize=32k zoneskip=64k: zones wrap at the end" 512k --bs=16k --rw=read \
    --zonemode=strided --zonesize=32k --zoneskip=64k
  zcmp "strided zonesize=48k zonerange=100k: the pass ends where a zone crosses the end" 512k \
    --bs=16k --rw=read --zonemode=strided --zonesize=48k --zonerange=100k
  zcmp "strided writes, zonesize=64k zonerange=32k zoneskip=1z: each zone twice, one skipped" 256k \
    --bs=8k --rw=write --zonemode=strided --zonesize=64k --zonerange=32k --zoneskip=1z
  # fio's example, scaled to a loop device: libaio, iodepth=2, direct=1,
  # offsets from the bandwidth log (log_offset=1) of both, sorted: the log
  # is written at completion, and two I/Os in flight may complete either way
  sed -e "s#/dev/sdb#$loop#" -e 's/zonesize=256m/zonesize=256k/' -e 's/zoneskip=2g/zoneskip=1m/' \
    "$FIO_EXAMPLES/disk-zone-profile.fio" >"$d/dz.fio"
  echo "size=8m" >>"$d/dz.fio"
  (cd "$d" && rm -f ./*_bw.1.log && fio dz.fio --output=/dev/null &&
    awk -F, '{print $5}' disk-zone-profile_bw.1.log | sort -n >dz.fio.off && rm -f disk-zone-profile_bw.1.log &&
    "$IOBENCH" run --no-store dz.fio >/dev/null 2>>"$d/err" && awk -F, '{print $5}' disk-zone-profile_bw.1.log | sort -n >dz.iob.off)
  if [ -s "$d/dz.fio.off" ] && cmp -s "$d/dz.fio.off" "$d/dz.iob.off"; then
    ok "disk-zone-profile.fio (256k zones, 1m skips, libaio): the $(wc -l <"$d/dz.fio.off") logged offsets are fio's"
  else not_ok "disk-zone-profile.fio offsets: fio $(tr '\n' ' ' <"$d/dz.fio.off" 2>&1 | head -c 200) / iobench $(tr '\n' ' ' <"$d/dz.iob.off" 2>&1 | head -c 200) $(tail -3 "$d/err")"; fi
fi
# fio 3.33 refuses zonesize without a zone mode ("--zonemode=none and
# --zonesize are not compatible"), and strided without zonesize; so does iobench
out=$(R --parse-only --name=z --filename="$d/z.dat" --size=64k --zonesize=32k 2>&1) && not_ok "zonesize without zonemode accepted" ||
  { [[ $out == *"zonemode=none and zonesize are not compatible"* ]] && ok "zonesize without zonemode is refused, as fio" || not_ok "zonesize: $out"; }
out=$(R --parse-only --name=z --filename="$d/z.dat" --size=64k --zonemode=strided 2>&1) && not_ok "strided without zonesize accepted" ||
  { [[ $out == *"zonemode=strided needs zonesize"* ]] && ok "zonemode=strided without zonesize is refused, as fio" || not_ok "strided: $out"; }
# random I/O stays inside the current zone: I/O i is in zone (i / 2) mod 4
if [ $have_strace = 1 ]; then
  rm -f "$d/z.dat"; truncate -s 512k "$d/z.dat"
  strace -f -qq -P "$d/z.dat" -e trace=pread64 -o "$d/zr.st" "$IOBENCH" run --no-store --name=z \
    --filename="$d/z.dat" --size=512k --bs=16k --rw=randread --zonemode=strided --zonesize=32k \
    --zonerange=128k >/dev/null 2>>"$d/err"
  sed -nE 's/.*pread64\(.*, ([0-9]+)\) += .*/\1/p' "$d/zr.st" >"$d/zr.off"
  pycheck "strided randread: every I/O inside its zone's 128 KiB, two per zone, zones in turn" "$d/zr.off" <<'PY'
import sys
o = [int(x) for x in open(sys.argv[1])]
assert len(o) == 32, len(o)
for i, x in enumerate(o):
    z = (i // 2) % 4
    assert z * 131072 <= x <= z * 131072 + 131072 - 16384 and x % 16384 == 0, (i, x)
PY
fi

head -c 256k /dev/zero >"$d/u.dat"

# ---- sync_file_range and write_hint: the calls fio makes (strace) ----------
if [ $fio_ok = 1 ] && [ $have_strace = 1 ]; then
  for v in wait_before,write:4; do
    for tool in fio iobench; do
      rm -f "$d/s.dat"
      if [ $tool = fio ]; then set -- fio; else set -- "$IOBENCH" run --no-store; fi
      strace -f -qq -e trace=sync_file_range,fcntl -o "$d/s.$tool" "$@" --name=s --filename="$d/s.dat" \
        --size=64k --bs=4k --rw=write --sync_file_range=$v --write_hint=short --output=/dev/null 2>>"$d/err"
      # the calls with the descriptor left out; the F_SET_RW_HINT (0x40c) ones counted
      sed -nE 's/^[0-9]+ +sync_file_range\([0-9]+, (.*)/\1/p' "$d/s.$tool" >"$d/s.$tool.c"
      grep -c 'fcntl([0-9]*, 0x40c' "$d/s.$tool" >>"$d/s.$tool.c"
    done
    check "sync_file_range=$v with write_hint=short: the same sync_file_range calls and F_SET_RW_HINT as fio ($(($(wc -l <"$d/s.fio.c") - 1)) calls)" \
      cmp -s "$d/s.fio.c" "$d/s.iobench.c"
  done
fi
out=$(R --parse-only --name=s --filename="$d/s.dat" --sync_file_range=flush:2 2>&1) && not_ok "sync_file_range=flush accepted" ||
  { [[ $out == *"use wait_before, write or wait_after, comma separated"* ]] && ok "sync_file_range takes fio's three flags" || not_ok "sfr: $out"; }

# atomic=1: no device here writes atomically; the refusal names the device
out=$(R --name=a --filename="$loop" --size=64k --rw=write --atomic=1 --output=/dev/null 2>&1) && not_ok "atomic=1 accepted on a loop device" ||
  { [[ $out == *"atomic=1: '$loop' is on ${loop#/dev/}, which cannot write atomically ("*"atomic_write_unit_max_bytes is 0)"* ]] &&
    ok "atomic=1 is refused where the device cannot write atomically, naming it" || not_ok "atomic: $out"; }
check "atomic=1 on a read job implies direct=1 and runs" R --name=a --filename="$d/u.dat" --size=64k --rw=read --atomic=1 --output=/dev/null
R --name=b --filename="$d/b.dat" --size=16k --rw=write --write_barrier=2 --output-format=json >"$d/b.json" 2>>"$d/err"
check "write_barrier=2 runs and its warning says it changes nothing (no engine here has barriers)" \
  grep -q 'write_barrier=2 changes nothing with ioengine=psync' "$d/b.json"

# serialize_overlap: on a one-block file every write overlaps the one in
# flight, so the depth stays 1 (fio's iodepth_level: 1=100%); without it
# the queue fills (fio, norandommap: 1=1% 2=2% 4=4% 8=93%)
dl() { python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print(' '.join('%s=%g' % (k, v) for k, v in j['iodepth_level'].items() if v), j['write']['total_ios'])" "$1"; }
head -c 4k /dev/zero >"$d/o.dat"
O="--name=o --filename=$d/o.dat --size=4k --bs=4k --rw=randwrite --norandommap --ioengine=libaio --iodepth=8 --io_size=400k --output-format=json"
R $O --serialize_overlap=0 >"$d/o0.json" 2>>"$d/err"
R $O --serialize_overlap=1 >"$d/o1.json" 2>>"$d/err"
o0=$(dl "$d/o0.json"); o1=$(dl "$d/o1.json")
check "serialize_overlap=0, one 4k block, iodepth=8: the queue fills ($o0; fio 3.33: 1=1 2=2 4=4 8=93 100)" [ "$o0" = "1=1 2=2 4=4 8=93 100" ]
if [ $fio_ok = 1 ]; then fio $O --serialize_overlap=1 >"$d/of.json" 2>>"$d/err"; of=$(dl "$d/of.json"); else of=; fi
check "serialize_overlap=1: never two overlapping writes in flight ($o1; fio: $of)" eval '[ "$o1" = "1=100 100" ] && [ "$of" = "$o1" ]'

# io_submit_mode: both of fio's modes parse (offload's runtime: test_fio_offload.sh)
check "io_submit_mode=inline parses" R --parse-only --name=i --filename="$d/u.dat" --io_submit_mode=inline
check "fixed-rate-submission.fio (io_submit_mode=offload) parses" R --parse-only "$FIO_EXAMPLES/fixed-rate-submission.fio"

# ---- engine options: mmap's thp, pvsync2's hipri_percentage ----------------
if [ $have_strace = 1 ]; then
  head -c 4m /dev/zero >"$d/m.dat"
  for tool in fio iobench; do
    if [ $tool = fio ]; then set -- fio; else set -- "$IOBENCH" run --no-store; fi
    strace -f -qq -e trace=madvise -o "$d/m.$tool" "$@" --name=m --filename="$d/m.dat" --size=4m \
      --bs=4k --rw=read --ioengine=mmap --thp=1 --output=/dev/null 2>>"$d/err"
  done
  mf=$(grep -c ', 4194304, MADV_HUGEPAGE) = 0' "$d/m.fio"); mi=$(grep -c ', 4194304, MADV_HUGEPAGE) = 0' "$d/m.iobench")
  if [ "$mf" = 1 ] && [ "$mi" = 1 ]; then ok "mmap thp=1: one madvise(MADV_HUGEPAGE) over the 4 MiB mapping, as fio"
  else not_ok "mmap thp=1: MADV_HUGEPAGE fio $mf, iobench $mi: $(grep -v DONTNEED "$d/m.iobench" | head -3)"; fi
  # hipri_percentage: 100 I/Os; 100 exact, 50 about half (fio's and ours)
  for pct in 50 100; do
    for tool in fio iobench; do
      if [ $tool = fio ]; then set -- fio; else set -- "$IOBENCH" run --no-store; fi
      # fio's 100 is exact by construction: only its 50 is run (time)
      [ $tool = fio ] && [ $pct != 50 ] && { eval "h_fio=$((pct)):100"; continue; }
      strace -f -qq -e trace=preadv2 -o "$d/h.$tool" "$@" --name=h --filename="$d/m.dat" --size=400k \
        --bs=4k --rw=randread --ioengine=pvsync2 --direct=1 --hipri=1 --hipri_percentage=$pct \
        --output=/dev/null 2>>"$d/err"
      eval "h_$tool=\$(grep -c RWF_HIPRI \"\$d/h.\$tool\"):\$(grep -c 'preadv2(' \"\$d/h.\$tool\")"
    done
    case $pct in
      100) want="[ $h_iobench = 100:100 ] && [ $h_fio = 100:100 ]" ;;
      *) want="[ ${h_iobench%:*} -ge 30 ] && [ ${h_iobench%:*} -le 70 ] && [ ${h_fio%:*} -ge 30 ] && [ ${h_fio%:*} -le 70 ]" ;;
    esac
    check "pvsync2 hipri_percentage=$pct: RWF_HIPRI on $h_iobench I/Os (fio: $h_fio)" eval "$want"
  done
fi

# io_uring force_async=4: every 4th request flagged IOSQE_ASYNC (0x10 in
# the io_uring_submit_req tracepoint), counted in a trace instance of the
# test's own that it removes again. Only the tool's own requests count:
# set_event_pid (with event-fork) keeps most of the machine's other
# io_uring users out, but not all of them under load (another test's
# iobench showed up with thousands), so the instance also records
# sched_process_fork and the count keeps the submissions of the tool's
# process and of the threads and processes it forked, by their ids.
TR=$(tracefs_dir) || not_ok "tracefs mounted (lib.sh's tracefs_dir)"
tr=$TR/instances/iobench-e2e-$$
tr_off() {
  [ -d "$tr" ] && { echo >"$tr/set_event_pid"; echo 0 >"$tr/events/io_uring/io_uring_submit_req/enable"
    echo 0 >"$tr/events/sched/sched_process_fork/enable"; rmdir "$tr"; }
  return 0
}
trap 'tr_off; cleanup' EXIT
cat >"$d/own_submits.py" <<'PY'
# trace PID -> "ASYNC/ALL": the READ (READ_FIXED) submissions of PID and its descendants
import re, sys
own, n, a = {sys.argv[2]}, 0, 0
for l in open(sys.argv[1]):
    m = re.match(r"\s*.*?-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[\d+\]", l)
    if not m:
        continue
    f = re.search(r"sched_process_fork: .* pid=(\d+) child_comm=.* child_pid=(\d+)", l)
    if f and f.group(1) in own:
        own.add(f.group(2))
    # iobench registers its buffers unless fixedbufs=0 (READ_FIXED), fio not
    s = re.search(r"io_uring_submit_req: .*opcode READ(?:_FIXED)?, flags 0x([0-9a-f]+),", l)
    if s and m.group(1) in own:
        n += 1
        a += bool(int(s.group(1), 16) & 0x10)
print("%d/%d" % (a, n))
PY
if [ $fio_ok = 1 ] && [ -n "$TR" ] && mkdir "$tr" 2>/dev/null && echo 1 >"$tr/options/event-fork" &&
   echo 1 >"$tr/events/sched/sched_process_fork/enable" &&
   echo 1 >"$tr/events/io_uring/io_uring_submit_req/enable"; then
  for tool in fio iobench; do
    if [ $tool = fio ]; then set -- fio; else set -- "$IOBENCH" run --no-store; fi
    echo >"$tr/trace"
    (echo $BASHPID >"$d/tr.pid"; echo $BASHPID >"$tr/set_event_pid"; exec "$@" --name=u --filename="$d/u.dat" --size=256k --bs=4k \
      --rw=read --ioengine=io_uring --iodepth=4 --force_async=4 --output=/dev/null 2>>"$d/err")
    eval "fa_$tool=$(python3 "$d/own_submits.py" "$tr/trace" "$(cat "$d/tr.pid")")"
  done
  tr_off
  check "io_uring force_async=4: $fa_iobench requests forced async, as fio ($fa_fio)" \
    eval '[ "$fa_iobench" = 16/64 ] && [ "$fa_fio" = "$fa_iobench" ]'
else
  tr_off
  not_ok "a trace instance for io_uring_submit_req (tracefs at '$TR')"
fi

# ---- zonemode=zbd: refused without a zoned device; its options parse --------
out=$(R --name=z --filename="$d/z.dat" --size=64k --zonemode=zbd --output=/dev/null 2>&1) && not_ok "zbd on a file accepted" ||
  { [[ $out == *"zonemode=zbd needs a zoned block device, and '$d/z.dat' is not a block device"* ]] &&
    ok "zonemode=zbd on a regular file is refused with the reason" || not_ok "zbd file: $out"; }
out=$(R --name=z --filename="$loop" --size=64k --zonemode=zbd --output=/dev/null 2>&1) && not_ok "zbd on a loop device accepted" ||
  { [[ $out == *"'$loop' is not zoned ("*"/queue/zoned says none)"* ]] &&
    ok "zonemode=zbd on a device that is not zoned is refused, naming queue/zoned" || not_ok "zbd loop: $out"; }
check "the zbd options parse: zonecapacity read_beyond_wp max_open_zones job_max_open_zones ignore_zone_limits zone_reset_*" \
  R --parse-only --name=z --filename="$d/z.dat" --size=64k --zonemode=zbd --zonesize=32k --zonecapacity=16k \
  --read_beyond_wp=1 --max_open_zones=8 --job_max_open_zones=2 --ignore_zone_limits=1 \
  --zone_reset_threshold=0.7 --zone_reset_frequency=0.01
out=$(R --parse-only --name=z --filename="$d/z.dat" --zone_reset_threshold=1.5 2>&1) && not_ok "zone_reset_threshold=1.5 accepted" ||
  { [[ $out == *"must be from 0 to 1"* ]] && ok "zone_reset_threshold is a fraction, as fio" || not_ok "threshold: $out"; }
out=$(R --parse-only --name=z --filename="$d/z.dat" --max_open_zones=5000 2>&1) && not_ok "max_open_zones=5000 accepted" ||
  ok "max_open_zones is at most 4096, as fio"
finish
