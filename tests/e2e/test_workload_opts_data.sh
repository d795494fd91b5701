#!/usr/bin/env bash
# Workload options that decide where I/O goes and what it writes, checked
# against fio's definitions: random_distribution, randrepeat/randseed, the
# random map, buffer contents (zero_buffers, scramble_buffers, refill_buffers,
# buffer_compress_percentage), offset/offset_increment with numjobs, size=N%,
# filename and directory lists, filesize ranges, io_size, kb_base, and job
# files using include, ${ENV}, $ncpus and $mb_memory. Offsets come from
# strace (iotrace.py), contents from the written files.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
e2e_trace_helpers
# tj TRACE ARGS...: run iobench with ARGS under strace, JSON to TRACE.json
tj() { local out=$1; shift; trace "$out" "$IOBENCH" run --output-format=json "$@" >"$out.json" 2>>"$d/err"; }

head -c 4m /dev/urandom >"$d/r4.dat"
head -c 1m /dev/urandom >"$d/r1.dat"

if [ $have_strace = 1 ]; then
  # --- random_distribution: 1024 random 4k reads over 1024 blocks --------------
  for dist in random zipf:1.2 pareto:0.9 normal:10; do
    tj "$d/dist.${dist%%:*}" --name=rd --rw=randread --bs=4k --size=4m --filename="$d/r4.dat" \
      --random_distribution="$dist"
  done
  pycheck "random_distribution: random touches all 1024 blocks once; zipf:1.2, pareto:0.9, normal:10 far fewer, zipf hot" "$d" <<'PY'
import collections, sys, iotrace
d = sys.argv[1]
stat = {}
for k in ("random", "zipf", "pareto", "normal"):
    o = [e["off"] for e in iotrace.data_ops(iotrace.load(f"{d}/dist.{k}"))]
    assert len(o) == 1024, (k, len(o))
    c = collections.Counter(o)
    stat[k] = (len(c), sum(n for _, n in c.most_common(10)) / len(o))
print("# distinct blocks, share of the 10 hottest:", stat)
assert stat["random"][0] == 1024
assert stat["zipf"][0] < 0.35 * 1024 and stat["zipf"][1] > 0.3, stat["zipf"]      # fio: 223, 0.59
assert stat["pareto"][0] < 0.30 * 1024 and stat["pareto"][1] > 0.1, stat["pareto"]  # fio: 162, 0.22
assert 0.25 * 1024 < stat["normal"][0] < 0.5 * 1024, stat["normal"]                  # fio: 346
assert stat["normal"][1] < stat["zipf"][1]
PY

  # --- random map, randrepeat, randseed --------------------------------------
  tj "$d/rr1" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat"
  tj "$d/rr2" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat"
  tj "$d/rn1" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --randrepeat=0
  tj "$d/rn2" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --randrepeat=0
  tj "$d/rs1" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --randseed=1234
  tj "$d/rs2" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --randseed=1234
  tj "$d/rs3" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --randseed=4321
  tj "$d/rio" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --io_size=2m
  tj "$d/rnm" --name=rr --rw=randread --bs=4k --size=1m --filename="$d/r1.dat" --norandommap
  pycheck "randrepeat=1: same offsets in two runs; randrepeat=0: different; randseed: same per seed, differs across seeds" "$d" <<'PY'
import sys, iotrace
d = sys.argv[1]
o = {k: [e["off"] for e in iotrace.data_ops(iotrace.load(f"{d}/{k}"))]
     for k in ("rr1", "rr2", "rn1", "rn2", "rs1", "rs2", "rs3")}
assert all(len(v) == 256 for v in o.values()), {k: len(v) for k, v in o.items()}
assert o["rr1"] == o["rr2"]
assert o["rn1"] != o["rn2"] and o["rn1"] != o["rr1"]
assert o["rs1"] == o["rs2"] and o["rs1"] != o["rs3"] and o["rs1"] != o["rr1"]
PY
  pycheck "random map: io_size=2m over 1m is two passes, each touching every block once, in different orders" "$d/rio" <<'PY'
import sys, iotrace
o = [e["off"] for e in iotrace.data_ops(iotrace.load(sys.argv[1]))]
assert len(o) == 512, len(o)
every = list(range(0, 1 << 20, 4096))
assert sorted(o[:256]) == every and sorted(o[256:]) == every
assert o[:256] != o[256:]
PY
  pycheck "norandommap: repeats blocks (about 1-1/e of them distinct)" "$d/rnm" <<'PY'
import sys, iotrace
o = [e["off"] for e in iotrace.data_ops(iotrace.load(sys.argv[1]))]
assert len(o) == 256 and 0.5 * 256 < len(set(o)) < 0.75 * 256, len(set(o))
PY
fi

# --- buffer contents ------------------------------------------------------
wr() { local f=$d/buf-$1.dat; shift; rm -f "$f"; j --name=b --rw=write --bs=4k --size=4m --filename="$f" "$@" >/dev/null; echo "$f"; }
# buffers FILE: "zero gzip_ratio block_ratio unique_blocks" (block_ratio: each
# 4k block compressed alone; unique: distinct 4k blocks of 1024)
buffers() {
  python3 - "$1" "$(gzip -c "$1" | wc -c)" <<'PY'
import hashlib, sys, zlib
d = open(sys.argv[1], "rb").read()
assert len(d) == 4 << 20, len(d)
b = [d[i:i + 4096] for i in range(0, len(d), 4096)]
print(int(d.count(0) == len(d)), "%.3f" % (int(sys.argv[2]) / len(d)),
      "%.3f" % (sum(len(zlib.compress(x)) for x in b) / len(d)),
      len(set(hashlib.sha1(x).digest() for x in b)))
PY
}
# inrange V LO HI
inrange() { python3 -c "import sys; sys.exit(not (float(sys.argv[2]) <= float(sys.argv[1]) <= float(sys.argv[3])))" "$@"; }

read -r z g bl u <<<"$(buffers "$(wr zero --zero_buffers)")"
check "zero_buffers: the written file is all zeros" test "$z" = 1
read -r z g bl u <<<"$(buffers "$(wr def)")"
echo "# default: zero=$z gzip=$g block=$bl unique=$u"
check "default buffers: not zeros" test "$z" = 0
check "default buffers: each 4k block incompressible (ratio $bl)" inrange "$bl" 0.95 1.1
check "default (scramble_buffers=1): the 1024 blocks are pairwise distinct ($u)" test "$u" = 1024
read -r z g bl u <<<"$(buffers "$(wr rand --rw=randwrite)")"
check "randwrite default buffers: 1024 distinct blocks ($u)" test "$u" = 1024
read -r z g bl u <<<"$(buffers "$(wr noscr --scramble_buffers=0)")"
echo "# scramble_buffers=0: zero=$z gzip=$g block=$bl unique=$u"
check "scramble_buffers=0: random data, not zeros" test "$z" = 0
check "scramble_buffers=0: every block the same buffer, as fio ($u distinct)" test "$u" = 1
check "scramble_buffers=0: that buffer is incompressible (ratio $bl)" inrange "$bl" 0.95 1.1
read -r z g bl u <<<"$(buffers "$(wr refill --refill_buffers)")"
check "refill_buffers: 1024 distinct blocks ($u)" test "$u" = 1024
check "refill_buffers: the whole file does not gzip (ratio $g)" inrange "$g" 0.97 1.1
read -r z g bl u <<<"$(buffers "$(wr c50 --buffer_compress_percentage=50)")"
echo "# buffer_compress_percentage=50: zero=$z gzip=$g block=$bl unique=$u"
check "buffer_compress_percentage=50: gzip shrinks the file to about half (ratio $g)" inrange "$g" 0.4 0.62
check "buffer_compress_percentage=50: blocks distinct, refilled as fio ($u)" test "$u" = 1024
read -r z g bl u <<<"$(buffers "$(wr c25 --buffer_compress_percentage=25 --buffer_compress_chunk=4k)")"
check "buffer_compress_percentage=25 chunk=4k: gzip ratio about 0.75 ($g)" inrange "$g" 0.65 0.85

# --- offset, offset_increment, numjobs -------------------------------------
if [ $have_strace = 1 ]; then
  tj "$d/off" --name=o --rw=write --bs=4k --size=1m --offset=1m --offset_increment=2m --numjobs=3 \
    --filename="$d/off.dat"
  pycheck "offset=1m offset_increment=2m numjobs=3: clone k writes exactly [1m+2m*k, 2m+2m*k)" "$d/off" <<'PY'
import sys, iotrace
by = {}
for e in iotrace.data_ops(iotrace.load(sys.argv[1])):
    by.setdefault(e["tid"], []).append(e["off"])
regions = sorted((min(o), max(o) + 4096, len(set(o))) for o in by.values())
M = 1 << 20
assert regions == [(M, 2 * M, 256), (3 * M, 4 * M, 256), (5 * M, 6 * M, 256)], regions
PY
else
  rm -f "$d/off.dat"; j --name=o --rw=write --bs=4k --size=1m --offset=1m --offset_increment=2m --numjobs=3 \
    --filename="$d/off.dat" >/dev/null
fi
pycheck "offset_increment: file is 6 MiB, the gaps [0,1m) [2m,3m) [4m,5m) zero, the regions written" "$d/off.dat" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
M = 1 << 20
assert len(d) == 6 * M, len(d)
for k in range(3):
    gap, reg = d[2 * k * M:(2 * k + 1) * M], d[(2 * k + 1) * M:(2 * k + 2) * M]
    assert gap.count(0) == M, ("gap", k)
    assert all(reg[i:i + 4096].count(0) < 4096 for i in range(0, M, 4096)), ("region", k)
PY

# --- size=N%, offset=N% ----------------------------------------------------
if [ $have_strace = 1 ]; then
  tj "$d/pct" --name=p --rw=read --bs=4k --size=25% --filename="$d/r4.dat"
  tj "$d/pcto" --name=p --rw=read --bs=4k --size=25% --offset=50% --filename="$d/r4.dat"
  pycheck "size=25% of a 4 MiB file: reads exactly [0, 1m); with offset=50%: [2m, 3m)" "$d" <<'PY'
import json, sys, iotrace
d, M = sys.argv[1], 1 << 20
for k, lo in (("pct", 0), ("pcto", 2 * M)):
    assert json.load(open(f"{d}/{k}.json"))["jobs"][0]["read"]["io_bytes"] == M
    o = [e["off"] for e in iotrace.data_ops(iotrace.load(f"{d}/{k}"))]
    assert sorted(o) == list(range(lo, lo + M, 4096)), (k, min(o), max(o), len(o))
PY
fi

# --- filename and directory lists -------------------------------------------
if [ $have_strace = 1 ]; then
  tj "$d/fl" --name=l --rw=write --bs=4k --size=2m --filename="$d/l1.dat:$d/l2.dat"
  pycheck "filename=a:b: both files 1 MiB, written round robin (one I/O each in turn)" "$d/fl" "$d" <<'PY'
import os, sys, iotrace
d = sys.argv[2]
p = [e["path"] for e in iotrace.data_ops(iotrace.load(sys.argv[1]))]
assert len(p) == 512, len(p)
assert p == [f"{d}/l1.dat", f"{d}/l2.dat"] * 256, p[:4]
assert os.path.getsize(f"{d}/l1.dat") == os.path.getsize(f"{d}/l2.dat") == 1 << 20
PY
fi
mkdir -p "$d/d1" "$d/d2"
j --name=dl --rw=write --bs=4k --size=1m --nrfiles=2 --numjobs=4 --directory="$d/d1:$d/d2" >"$d/dl.json"
check "directory=d1:d2 numjobs=4 nrfiles=2: clones 0,2 in d1, 1,3 in d2 (fio spreads clones), 512 KiB files" \
  test "$(cd "$d" && stat -c '%n %s' d1/* d2/* | tr '\n' ' ')" = \
  "d1/dl.0.0 524288 d1/dl.0.1 524288 d1/dl.2.0 524288 d1/dl.2.1 524288 d2/dl.1.0 524288 d2/dl.1.1 524288 d2/dl.3.0 524288 d2/dl.3.1 524288 "
j --name=dn --rw=write --bs=4k --size=1m --filename=named.dat --directory="$d/d1:$d/d2" >/dev/null
check "directory=d1:d2 with filename=named.dat: the file goes in the first directory (fio's manual)" \
  test -f "$d/d1/named.dat" -a ! -e "$d/d2/named.dat"

# --- filesize range ---------------------------------------------------------
mkdir -p "$d/fs"
j --name=fs --rw=write --bs=4k --nrfiles=6 --filesize=256k-1m --directory="$d/fs" >"$d/fs.json"
pycheck "filesize=256k-1m nrfiles=6: six files, sizes in range, whole blocks, not all equal; io_bytes = their sum" "$d/fs" "$d/fs.json" <<'PY'
import json, os, sys
sizes = [os.path.getsize(os.path.join(sys.argv[1], f)) for f in sorted(os.listdir(sys.argv[1]))]
assert len(sizes) == 6, sizes
assert all(256 << 10 <= s <= 1 << 20 and s % 4096 == 0 for s in sizes), sizes
assert len(set(sizes)) > 1, sizes
assert json.load(open(sys.argv[2]))["jobs"][0]["write"]["io_bytes"] == sum(sizes), sizes
PY

# --- io_size ------------------------------------------------------------------
j --name=io --rw=read --bs=4k --size=1m --io_size=3m --filename="$d/r1.dat" >"$d/io3.json"
j --name=io --rw=read --bs=4k --size=1m --io_size=512k --filename="$d/r1.dat" >"$d/io05.json"
check "io_size=3m over size=1m: 3 MiB read" test "$(json_get "$d/io3.json" 'd["jobs"][0]["read"]["io_bytes"]')" = 3145728
check "io_size=512k under size=1m: 512 KiB read" test "$(json_get "$d/io05.json" 'd["jobs"][0]["read"]["io_bytes"]')" = 524288

# --- kb_base -----------------------------------------------------------------
kb() { rm -f "$d/kb.dat"; j --name=k --rw=write --filename="$d/kb.dat" "$@" >"$d/kb.json"; json_get "$d/kb.json" 'd["jobs"][0]["write"]["io_bytes"]'; }
check "kb_base=1024 (default): size=1m is 1048576 bytes" test "$(kb --bs=64 --size=1m)" = 1048576
check "kb_base=1024: size=1MiB is 1000000 bytes (fio's inverted IEC units)" test "$(kb --bs=64 --size=1MiB)" = 1000000
check "kb_base=1000: size=1m is 1000000 bytes" test "$(kb --bs=64 --kb_base=1000 --size=1m)" = 1000000
check "kb_base=1000: size=1MiB is 1048576 bytes" test "$(kb --bs=64 --kb_base=1000 --size=1MiB)" = 1048576
rm -f "$d/kb.dat"
j --name=k --rw=write --bs=4k --size=1MiB --direct=1 --filename="$d/kb.dat" >"$d/kbd.json"
check "size=1MiB bs=4k direct=1: whole blocks only (244 I/Os, 999424 bytes, no error), as fio" \
  test "$(json_get "$d/kbd.json" '(d["jobs"][0]["error"], d["jobs"][0]["write"]["total_ios"], d["jobs"][0]["write"]["io_bytes"])')" = "(0, 244, 999424)"
j --name=k --rw=read --bs=4k --size=4m --io_size=1MiB --direct=1 --filename="$d/r4.dat" >"$d/kbi.json"
check "io_size=1MiB bs=4k direct=1: rounded up to whole blocks (245 I/Os, 1003520 bytes), as fio" \
  test "$(json_get "$d/kbi.json" '(d["jobs"][0]["error"], d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["read"]["io_bytes"])')" = "(0, 245, 1003520)"

# --- include, ${ENV}, $ncpus, $mb_memory -------------------------------------
printf 'bs=8k\nrw=write\n' >"$d/inc.fio"
cat >"$d/env.fio" <<'EOF'
[env]
include inc.fio
size=${WL_TEST_SIZE}
filename=${WL_TEST_DIR}/env.dat
description=x${WL_TEST_UNSET_VARIABLE}y
[cpus]
ioengine=null
rw=read
size=100g
number_ios=$ncpus
[mem]
ioengine=null
rw=read
size=100g
number_ios=$mb_memory
[arith]
ioengine=null
rw=read
size=100g
number_ios=($ncpus*3+1)
EOF
(cd "$d" && unset WL_TEST_UNSET_VARIABLE && WL_TEST_SIZE=2m WL_TEST_DIR="$d" "$IOBENCH" run --output-format=json env.fio) >"$d/env.json" 2>>"$d/err"
pycheck "include + \${ENV}: included bs=8k rw=write, size and filename from the environment, unset variable empty" "$d/env.json" "$d" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["jobname"] == "env"
assert (j["write"]["io_bytes"], j["write"]["total_ios"]) == (2 << 20, 256), j["write"]
assert os.path.getsize(os.path.join(sys.argv[2], "env.dat")) == 2 << 20
assert j["job options"].get("description") == "xy", j["job options"]
PY
pycheck "\$ncpus, \$mb_memory and (\$ncpus*3+1) expand to this machine's values" "$d/env.json" <<'PY'
import json, os, sys
jobs = {j["jobname"]: j["read"]["total_ios"] for j in json.load(open(sys.argv[1]))["jobs"]}
ncpus = os.sysconf("SC_NPROCESSORS_ONLN")
mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
assert jobs["cpus"] == ncpus, (jobs, ncpus)
assert abs(jobs["mem"] - mb) <= 1, (jobs, mb)
assert jobs["arith"] == ncpus * 3 + 1, (jobs, ncpus)
PY
finish
