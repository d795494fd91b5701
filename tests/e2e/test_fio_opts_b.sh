#!/usr/bin/env bash
# fio 3.33's generic options, second half (randomness,
# buffers, trim, verify), each checked by its effect: offsets from strace
# (iotrace.py), bytes from the written files. The figures asserted were
# measured side by side with fio 3.33 on the same files (the comment of each
# check gives fio's). Every job is a fraction of a second.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
e2e_trace_helpers
# tj TRACE ARGS...: run iobench with ARGS under strace, JSON to TRACE.json
tj() { local out=$1; shift; trace "$out" "$IOBENCH" run --no-store --output-format=json "$@" >"$out.json" 2>>"$d/err"; }
# blocks TRACE [OP]: the 4k block index of each job I/O on f.dat, one a line
blocks() {
  python3 - "$1" "$d/f.dat" "${2:-}" <<'PY'
import sys, iotrace
ops = (sys.argv[3],) if sys.argv[3] else ('pread64', 'pwrite64')
for e in iotrace.data_ops(iotrace.load(sys.argv[1]), sys.argv[2], ops):
    print(e["off"] // 4096)
PY
}
F="--name=x --filename=$d/f.dat --bs=4k --ioengine=psync"
head -c 1m /dev/urandom >"$d/f.dat"

if [ $have_strace = 1 ]; then
  # --- random_distribution=zoned / zoned_abs (4096 reads over 256 blocks) -----
  # fio 3.33: 2510 1207 379
  tj "$d/zoned" $F --size=1m --io_size=16m --rw=randread --norandommap \
    --random_distribution=zoned:60/10:30/20:10/70
  blocks "$d/zoned" >"$d/zoned.b"
  pycheck "zoned:60/10:30/20:10/70: 60%, 30% and 10% of the I/O in the first 10%, next 20% and last 70%" "$d/zoned.b" <<'PY'
import sys
b = [int(x) for x in open(sys.argv[1])]
assert len(b) == 4096, len(b)
z = [sum(1 for x in b if lo <= x < hi) / len(b) for lo, hi in ((0, 25.6), (25.6, 76.8), (76.8, 256))]
assert 0.55 < z[0] < 0.65 and 0.25 < z[1] < 0.35 and 0.06 < z[2] < 0.14, z
PY
  # fio 3.33: 2518 816 762, nothing past 30% of the file, random map or not
  tj "$d/zoned30" $F --size=1m --io_size=16m --rw=randread --random_distribution=zoned:60/10:40/20
  blocks "$d/zoned30" >"$d/zoned30.b"
  pycheck "zoned:60/10:40/20: zones cover 30% of the range, no I/O beyond it" "$d/zoned30.b" <<'PY'
import sys
b = [int(x) for x in open(sys.argv[1])]
assert len(b) == 4096 and max(b) < 77, (len(b), max(b))
first = sum(1 for x in b if x < 25.6) / len(b)
assert 0.55 < first < 0.65, first
PY
  # fio 3.33: 2483 1613
  tj "$d/zabs" $F --size=1m --io_size=16m --rw=randread --norandommap \
    --random_distribution=zoned_abs:60/128k:40/896k
  blocks "$d/zabs" >"$d/zabs.b"
  pycheck "zoned_abs:60/128k:40/896k: 60% of the I/O in the first 128 KiB" "$d/zabs.b" <<'PY'
import sys
b = [int(x) for x in open(sys.argv[1])]
first = sum(1 for x in b if x < 32) / len(b)
assert len(b) == 4096 and 0.55 < first < 0.65, (len(b), first)
PY

  # --- zipf/pareto center and bare names (2048 reads) -----------------------
  # fio 3.33 zipf:1.2:0.5: hottest block 128 (514 of 2048)
  tj "$d/center" $F --size=1m --io_size=8m --rw=randread --norandommap --random_distribution=zipf:1.2:0.5
  # fio 3.33: bare zipf (theta 1.1) hottest 408/2048, bare pareto (h 0.2) 945/2048
  tj "$d/bzipf" $F --size=1m --io_size=8m --rw=randread --norandommap --random_distribution=zipf
  tj "$d/bpareto" $F --size=1m --io_size=8m --rw=randread --norandommap --random_distribution=pareto
  blocks "$d/center" >"$d/center.b"; blocks "$d/bzipf" >"$d/bzipf.b"; blocks "$d/bpareto" >"$d/bpareto.b"
  pycheck "zipf:1.2:0.5 puts the hottest block at the middle; bare zipf and pareto take fio's 1.1 and 0.2" \
    "$d/center.b" "$d/bzipf.b" "$d/bpareto.b" <<'PY'
import collections, sys
def hot(p):
    b = [int(x) for x in open(p)]
    assert len(b) == 2048, len(b)
    return collections.Counter(b).most_common(1)[0]
blk, n = hot(sys.argv[1])
assert blk == 128 and 0.2 < n / 2048 < 0.3, (blk, n)
_, n = hot(sys.argv[2]); assert 0.15 < n / 2048 < 0.25, n
_, n = hot(sys.argv[3]); assert 0.40 < n / 2048 < 0.52, n
PY

  # --- random_generator -----------------------------------------------------
  # fio 3.33: lfsr 256 distinct of 256, tausworthe with norandommap 157
  tj "$d/lfsr" $F --size=1m --rw=randread --norandommap --random_generator=lfsr
  tj "$d/taus" $F --size=1m --rw=randread --norandommap --random_generator=tausworthe64
  blocks "$d/lfsr" >"$d/lfsr.b"; blocks "$d/taus" >"$d/taus.b"
  pycheck "random_generator=lfsr touches each block once without a map; tausworthe64 repeats some" "$d/lfsr.b" "$d/taus.b" <<'PY'
import sys
l = [int(x) for x in open(sys.argv[1])]
t = [int(x) for x in open(sys.argv[2])]
assert len(l) == 256 and len(set(l)) == 256, (len(l), len(set(l)))
assert len(t) == 256 and len(set(t)) < 240, (len(t), len(set(t)))
PY

  # --- percentage_random ----------------------------------------------------
  # fio 3.33: 180 of 256 reads follow the previous one at percentage_random=30
  tj "$d/pr30" $F --size=1m --rw=randread --percentage_random=30
  tj "$d/pr0" $F --size=1m --rw=randread --percentage_random=0 --number_ios=6
  tj "$d/prdir" $F --size=1m --rw=randrw --percentage_random=100,0 --number_ios=40
  blocks "$d/pr30" >"$d/pr30.b"; blocks "$d/pr0" >"$d/pr0.b"; blocks "$d/prdir" pwrite64 >"$d/prdir.b"
  pycheck "percentage_random=30: about 70% sequential; =0: all sequential; =100,0: writes sequential in a randrw job" \
    "$d/pr30.b" "$d/pr0.b" "$d/prdir.b" <<'PY'
import sys
b = [int(x) for x in open(sys.argv[1])]
seq = sum(1 for p, q in zip(b, b[1:]) if q == p + 1) / (len(b) - 1)
assert len(b) == 256 and 0.6 < seq < 0.8, (len(b), seq)
assert [int(x) for x in open(sys.argv[2])] == list(range(6))
w = [int(x) for x in open(sys.argv[3])]
assert len(w) > 5 and w == list(range(len(w))), w
PY

  # --- rw_sequencer ---------------------------------------------------------
  # fio 3.33: identical 15 15 15 15 189 189 189 189 ...; sequential 15 16 17 18 189 ...
  tj "$d/ident" $F --size=1m --rw=randread:4 --rw_sequencer=identical --number_ios=12
  tj "$d/seqr" $F --size=1m --rw=randread:4 --rw_sequencer=sequential --number_ios=12
  blocks "$d/ident" >"$d/ident.b"; blocks "$d/seqr" >"$d/seqr.b"
  pycheck "rw=randread:4: rw_sequencer=identical repeats each offset 4 times, sequential reads on" "$d/ident.b" "$d/seqr.b" <<'PY'
import sys
i = [int(x) for x in open(sys.argv[1])]
s = [int(x) for x in open(sys.argv[2])]
assert len(i) == 12 and len(s) == 12, (i, s)
for k in range(0, 12, 4):
    assert i[k:k + 4] == [i[k]] * 4, i
    assert s[k:k + 4] == list(range(s[k], s[k] + 4)), s
assert len({i[0], i[4], i[8]}) == 3, i
PY

  # --- allrandrepeat --------------------------------------------------------
  for n in 1 2; do
    tj "$d/arr$n" $F --size=1m --rw=randread --number_ios=16 --randrepeat=0 --allrandrepeat=1
    tj "$d/rr$n" $F --size=1m --rw=randread --number_ios=16 --randrepeat=0
    tj "$d/arrs$n" $F --size=1m --rw=randread --number_ios=16 --allrandrepeat=1 --randseed=$n
    blocks "$d/arr$n" >"$d/arr$n.b"; blocks "$d/rr$n" >"$d/rr$n.b"; blocks "$d/arrs$n" >"$d/arrs$n.b"
  done
  check "allrandrepeat=1 with randrepeat=0: two runs read the same offsets" cmp -s "$d/arr1.b" "$d/arr2.b"
  check "randrepeat=0 alone: two runs read different offsets" bash -c "! cmp -s '$d/rr1.b' '$d/rr2.b'"
  check "allrandrepeat=1 ignores randseed, as fio" cmp -s "$d/arrs1.b" "$d/arrs2.b"

  # --- offset_align ---------------------------------------------------------
  # fio 3.33: offset=33% of 1 MiB is 393216 with offset_align=64k, 348160 without
  tj "$d/oal" $F --size=256k --offset=33% --offset_align=64k --rw=read --number_ios=1
  tj "$d/oa0" $F --size=256k --offset=33% --rw=read --number_ios=1
  check "offset=33% offset_align=64k starts at 393216 (6 x 64 KiB)" test "$(blocks "$d/oal")" = 96
  check "offset=33% without offset_align rounds up to the block size: 348160" test "$(blocks "$d/oa0")" = 85
fi

# --- buffer_pattern: the bytes on disk ------------------------------------------
# fio 3.33: "ab"-12 = 61 62 f4 ff ff ff, from each block's start, unscrambled
"$IOBENCH" run --no-store --name=bp --filename="$d/bp.dat" --size=8k --bs=4k --rw=write \
  --buffer_pattern='"ab"-12' >/dev/null 2>>"$d/err"
pycheck "buffer_pattern='\"ab\"-12' writes 61 62 f4 ff ff ff over each block, from its start" "$d/bp.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
unit = bytes.fromhex('6162f4ffffff')
blk = (unit * 700)[:4096]
assert d == blk + blk, d[:16].hex()
PY
"$IOBENCH" run --no-store --name=bpc --filename="$d/bpc.dat" --size=64k --bs=4k --rw=write \
  --buffer_pattern=0xab --buffer_compress_percentage=50 >/dev/null 2>>"$d/err"
pycheck "buffer_pattern with buffer_compress_percentage=50: the compressible half is the pattern" "$d/bpc.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
assert len(d) == 65536
for o in range(0, len(d), 512):
    c = d[o:o + 512]
    assert c[256:] == b'\xab' * 256 and c[:256].count(0xab) < 32, o
PY

# --- dedupe_percentage / dedupe_mode / dedupe_working_set_percentage ------------
# fio 3.33 (1024 blocks of 4k at 50%): repeat 513 distinct, working_set 1%: 514
# distinct of which 10 (the set) repeat
for m in repeat working_set; do
  "$IOBENCH" run --no-store --name=dd --filename="$d/dd-$m.dat" --size=4m --bs=4k --rw=write \
    --dedupe_percentage=50 --dedupe_mode=$m --dedupe_working_set_percentage=1 >/dev/null 2>>"$d/err"
done
"$IOBENCH" run --no-store --name=dd --filename="$d/dd-none.dat" --size=4m --bs=4k --rw=write >/dev/null 2>>"$d/err"
pycheck "dedupe_percentage=50: half the 4k blocks on disk are duplicates (repeat and working_set), none without it" \
  "$d/dd-repeat.dat" "$d/dd-working_set.dat" "$d/dd-none.dat" <<'PY'
import collections, sys
def count(p):
    d = open(p, 'rb').read()
    b = [d[i:i + 4096] for i in range(0, len(d), 4096)]
    assert len(b) == 1024
    return collections.Counter(b)
r = count(sys.argv[1])
assert 450 < len(r) < 580, len(r)
w = count(sys.argv[2])
rep = [k for k, v in w.items() if v > 1]
assert 450 < len(w) < 600 and len(rep) == 10, (len(w), len(rep))
assert len(count(sys.argv[3])) == 1024
PY
# dedupe_global: two jobs with a shared working set write the same duplicate blocks
for g in 0 1; do
  printf '[global]\nsize=1m\nbs=4k\nrw=write\ndedupe_percentage=90\ndedupe_mode=working_set\n%s\n%s\n' \
    dedupe_working_set_percentage=2 dedupe_global=$g >"$d/g$g.fio"
  printf '[g1]\nfilename=%s\n[g2]\nfilename=%s\n' "$d/g$g-1.dat" "$d/g$g-2.dat" >>"$d/g$g.fio"
  "$IOBENCH" run --no-store "$d/g$g.fio" >/dev/null 2>>"$d/err"
done
# fio 3.33 (256 blocks a job at 90%): 4 blocks in common with dedupe_global=1, none without
pycheck "dedupe_global=1: two jobs' working sets are one; =0: each job has its own" "$d"/g1-1.dat "$d"/g1-2.dat "$d"/g0-1.dat "$d"/g0-2.dat <<'PY'
import sys
def blocks(p):
    d = open(p, 'rb').read()
    return {d[i:i + 4096] for i in range(0, len(d), 4096)}
a, b, c, e = (blocks(p) for p in sys.argv[1:5])
assert len(a) < 60 and 3 <= len(a & b) <= 5, (len(a), len(a & b))
assert len(c) < 60 and not (c & e), (len(c), len(c & e))
PY

# --- mem / iomem, hugepage-size, lockmem: the system calls (fio 3.33 makes the same) --
if [ $have_strace = 1 ]; then
  mems() { # KIND: strace of a 128k write job with buffers of that kind and lockmem=1m
    strace -f -qq -e trace=shmget,shmat,mmap,mlock,openat,unlink,unlinkat -o "$d/mem.st" "$IOBENCH" run --no-store \
      --name=m --filename="$d/m.dat" --size=256k --bs=128k --rw=write --buffer_pattern=0x5a --lockmem=1m \
      --mem="$1" >/dev/null 2>"$d/mem.err"; }
  # mem_ok FILE: 256 KiB of 'Z' (0x5a); check's own $d shadows ours, hence the argument
  mem_ok() { cmp -s "$1" <(head -c 262144 /dev/zero | tr '\0' 'Z'); }
  mems shm
  check "mem=shm: the buffers are a shmget segment, and the data written from it is right" \
    bash -c "grep -q 'shmget(IPC_PRIVATE, 131072, IPC_CREAT|0600)' '$d/mem.st' && grep -q 'shmat(' '$d/mem.st'"
  check "mem=shm: 256 KiB of 0x5a on disk" mem_ok "$d/m.dat"
  check "lockmem=1m: 1 MiB mlock'ed" grep -q 'mlock(0x[0-9a-f]*, 1048576) *= 0' "$d/mem.st"
  mems mmapshared
  check "mem=mmapshared: a shared anonymous mapping of the buffers" \
    grep -q 'mmap(NULL, 131072, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS' "$d/mem.st"
  check "mem=mmapshared: 256 KiB of 0x5a on disk" mem_ok "$d/m.dat"
  mems "mmap:$d/mem.buf"
  # (fio opens it O_RDWR|O_CREAT; iobench creates it, O_EXCL, and never takes
  # over a file that exists)
  check "mem=mmap:FILE: the buffers map FILE, created (O_EXCL) and unlinked at the end" \
    bash -c "grep -q 'openat(AT_FDCWD, \"$d/mem.buf\", O_RDWR|O_CREAT|O_EXCL' '$d/mem.st' && grep -q 'unlinkat(AT_FDCWD, \"$d/mem.buf\", 0)' '$d/mem.st' && ! test -e '$d/mem.buf'"
  check "mem=mmap:FILE: 256 KiB of 0x5a on disk" mem_ok "$d/m.dat"
  if [ "$(cat /proc/sys/vm/nr_hugepages)" = 0 ]; then
    # no huge pages reserved here: the request is made, rounded to hugepage-size, and refused clearly
    strace -f -qq -e trace=mmap -o "$d/huge.st" "$IOBENCH" run --no-store --name=h --filename="$d/m.dat" \
      --size=256k --bs=128k --rw=read --mem=mmaphuge --hugepage-size=4m >/dev/null 2>"$d/huge.err"
    check "mem=mmaphuge hugepage-size=4m: a 4 MiB MAP_HUGETLB mapping is asked for" \
      grep -q 'mmap(NULL, 4194304, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB' "$d/huge.st"
    check "mem=mmaphuge without huge pages: the error says to reserve some" grep -q 'nr_hugepages' "$d/huge.err"
  fi
fi

# --- verify= sha1, sha512, sha3-*: nettle's digests, and a corrupted byte caught ---------
for v in sha1 sha512 sha3-224 sha3-256 sha3-384 sha3-512; do
  "$IOBENCH" run --no-store --name=v --filename="$d/v-$v.dat" --size=64k --bs=4k --rw=write \
    --verify=$v --do_verify=0 >/dev/null 2>>"$d/err"
done
pycheck "verify=sha1/sha512/sha3-*: each 4k block's header holds that digest of its payload" "$d" <<'PY'
import hashlib, sys
HDR = 112  # iobench's verify header; the digest sits at bytes 40.. of it
for v in ('sha1', 'sha512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512'):
    h = hashlib.new(v.replace('-', '_'))
    d = open(f"{sys.argv[1]}/v-{v}.dat", 'rb').read()
    assert len(d) == 65536, (v, len(d))
    for o in range(0, len(d), 4096):
        blk = d[o:o + 4096]
        want = hashlib.new(v.replace('-', '_'), blk[HDR:]).digest()
        assert blk[40:40 + len(want)] == want, (v, o)
PY
"$IOBENCH" run --no-store --name=v --filename="$d/v-sha512.dat" --size=64k --bs=4k --rw=read \
  --verify=sha512 --verify_only=1 --verify_state_load=0 >/dev/null 2>>"$d/err"
check "verify=sha512: an untouched file verifies" test $? = 0
printf '\xff' | dd of="$d/v-sha512.dat" bs=1 seek=$((5 * 4096 + 2000)) conv=notrunc status=none
"$IOBENCH" run --no-store --name=v --filename="$d/v-sha512.dat" --size=64k --bs=4k --rw=read \
  --verify=sha512 --verify_only=1 --verify_state_load=0 >/dev/null 2>"$d/v.err"
rc=$?
check "verify=sha512: one byte changed in block 5 fails the verify, at offset 20480" \
  bash -c "[ $rc != 0 ] && grep -q '20480' '$d/v.err'"

# --- verify_backlog_batch: the order of writes and read-backs, as fio 3.33's ------------
if [ $have_strace = 1 ]; then
  for b in 2 6; do
    tj "$d/vbb$b" --name=v --filename="$d/f.dat" --size=64k --bs=4k --rw=write --verify=crc32c \
      --verify_backlog=4 --verify_backlog_batch=$b
  done
  pycheck "verify_backlog=4: batch=2 reads the 2 oldest each turn, batch=6 goes on with the next writes (fio's order)" \
    "$d/vbb2" "$d/vbb6" "$d/f.dat" <<'PY'
import sys, iotrace
def seq(p):
    return ' '.join(('R' if e['op'] == 'pread64' else 'W') + str(e['off'] // 4096)
                    for e in iotrace.data_ops(iotrace.load(p), sys.argv[3]))
# fio 3.33's order, from strace of the same jobs
f2 = "W0 W1 W2 W3 R0 R1 W4 W5 R2 R3 W6 W7 R4 R5 W8 W9 R6 R7 W10 W11 R8 R9 W12 W13 R10 R11 W14 W15 R12 R13 R14 R15"
f6 = "W0 W1 W2 W3 R0 R1 R2 R3 W4 R4 W5 R5 W6 W7 W8 W9 R6 R7 R8 R9 W10 R10 W11 R11 W12 W13 W14 W15 R12 R13 R14 R15"
assert seq(sys.argv[1]) == f2, seq(sys.argv[1])
assert seq(sys.argv[2]) == f6, seq(sys.argv[2])
PY
fi

# --- verify_dump: the failing chunk as read and as expected, named as fio names them ------
# fio 3.33: vd.dat.20480.received (the block on disk) and vd.dat.20480.expected,
# "received data dumped as vd.dat.20480.received" on stderr
mkdir -p "$d/vd"
(cd "$d/vd" &&
  "$IOBENCH" run --no-store --name=v --filename=vd.dat --size=64k --bs=4k --rw=write --verify=crc32c --do_verify=0 &&
  printf '\xff' | dd of=vd.dat bs=1 seek=$((5 * 4096 + 2000)) conv=notrunc status=none &&
  ! "$IOBENCH" run --no-store --name=v --filename=vd.dat --size=64k --bs=4k --rw=read --verify=crc32c \
    --verify_only=1 --verify_dump=1 2>vd.err) >/dev/null 2>>"$d/err"
check "verify_dump=1: stderr names vd.dat.20480.received and .expected" \
  bash -c "grep -q 'received data dumped as vd.dat.20480.received' '$d/vd/vd.err' && grep -q 'expected data dumped as vd.dat.20480.expected' '$d/vd/vd.err'"
pycheck "verify_dump=1: .received is the block on disk, .expected differs from it in the one byte changed, as written" "$d/vd" <<'PY'
import sys
d = sys.argv[1]
disk = open(f"{d}/vd.dat", 'rb').read()[5 * 4096:6 * 4096]
rec = open(f"{d}/vd.dat.20480.received", 'rb').read()
exp = open(f"{d}/vd.dat.20480.expected", 'rb').read()
assert rec == disk and len(exp) == 4096
diff = [i for i in range(4096) if rec[i] != exp[i]]
assert diff == [2000] and rec[2000] == 0xff, diff
PY
(cd "$d/vd" && "$IOBENCH" run --no-store --name=v --filename=vd.dat --size=64k --bs=4k --rw=write --verify=crc32c \
  --verify_only=1 --experimental_verify=1 >/dev/null 2>exp.err)
check "experimental_verify=1: the replayed verify finds the same byte (iobench always verifies by replay)" \
  grep -q 'first differing byte at offset 22480' "$d/vd/exp.err"
rm -f "$d"/vd/vd.dat.*
# --aux-path=DIR: the dumps go there, as fio puts them
mkdir -p "$d/vd/aux"
(cd "$d/vd" && ! "$IOBENCH" run --no-store --aux-path=aux --name=v --filename=vd.dat --size=64k --bs=4k \
  --rw=read --verify=crc32c --verify_only=1 --verify_dump=1 >/dev/null 2>aux.err)
check "verify_dump=1 with --aux-path: both files in that directory, none in the current one" \
  bash -c "[ -s '$d/vd/aux/vd.dat.20480.received' ] && [ -s '$d/vd/aux/vd.dat.20480.expected' ] && ! ls '$d/vd' | grep -q 'vd.dat.20480'"
rm -rf "$d"/vd/vd.dat.* "$d/vd/aux"
(cd "$d/vd" && "$IOBENCH" run --no-store --name=v --filename=vd.dat --size=64k --bs=4k --rw=read --verify=crc32c \
  --verify_only=1 >/dev/null 2>&1)
check "verify_dump=0 (the default): the same failure dumps nothing" test -z "$(ls "$d/vd" | grep 'received\|expected')"

# --- parse errors ---------------------------------------------------------------
bad() { local desc=$1 want=$2; shift 2; local out
  out=$("$IOBENCH" run --no-store --parse-only $F --size=1m "$@" 2>&1) && { not_ok "$desc (accepted)"; return; }
  if [[ $out == *"$want"* ]]; then ok "$desc"; else not_ok "$desc: $out"; fi; }
bad "zoned access percentages must add up to 100" "add up to 90, not 100" --rw=randread --random_distribution=zoned:60/10:30/20
bad "zoned ranges must not pass 100%" "add up to 110, more than 100" --rw=randread --random_distribution=zoned:60/10:30/20:10/80
bad "random_generator takes fio's three names" "use tausworthe, lfsr or tausworthe64" --random_generator=mt
bad "rw_sequencer takes sequential or identical" "use sequential or identical" --rw_sequencer=twice
bad "percentage_random is a percentage" "must be from 0 to 100" --percentage_random=101
bad "buffer_pattern refuses %o, as fio" "%o belongs to verify_pattern only" --rw=write --buffer_pattern=0x11%o
bad "dedupe_percentage beyond what the working set leaves is refused, as fio" "cannot be reached" --rw=write \
  --dedupe_mode=working_set --dedupe_percentage=100 --dedupe_working_set_percentage=2
bad "dedupe_mode takes repeat or working_set" "use repeat or working_set" --dedupe_mode=all
bad "mem=shm takes no file" "only mmap, mmaphuge and mmapshared take a file" --mem=shm:/tmp/x
bad "mem=cudamalloc: no CUDA here" "not implemented yet" --mem=cudamalloc
bad "per-direction distributions are refused, as fio 3.33 does" "not implemented yet" --random_distribution=zipf:1.2,pareto:0.3

finish
