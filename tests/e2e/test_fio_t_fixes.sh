#!/usr/bin/env bash
# What fio 3.33's own test suite found different, each checked against
# Debian's fio 3.33 on the same command: the null engine counts fsync=N
# syncs and reports slat from iodepth 2 up (slat + clat = lat); --parse-only with global options alone, and --debug=parse's trace
# of the steady-state threshold; rw=MODE:N's skip counting against size
# (the pass ends when the next I/O would pass the end); the random map
# with varying block sizes; strided zones under the map; sizes with a
# trailing punctuation mark (filesize=65536)) and a bssplit-shaped bsrange.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
command -v fio >/dev/null || { not_ok "Debian's fio is installed"; exit 1; }
ln -s "$IOBENCH" "$d/fio"
IOB=$d/fio
cd "$d" || exit 1
jget() { python3 -c "import json,sys; j=json.load(sys.stdin)['jobs'][0]; print($1)"; }

# ---- the null engine's syncs ------------------------------------------------
for a in "--rw=write --size=512k --fsync=32" "--rw=randwrite --size=4m --fsync=32"; do
  a1=$($IOB --name=x --ioengine=null --bs=4k $a --output-format=json | jget "j['sync']['total_ios'], j['sync']['lat_ns']['N']")
  b1=$(fio --name=x --ioengine=null --bs=4k $a --output-format=json | jget "j['sync']['total_ios'], j['sync']['lat_ns']['N']")
  check "null engine $a: syncs counted as fio's ($a1; fio: $b1)" [ "$a1" = "$b1" ]
done

# ---- the null engine's latencies: slat from iodepth 2 up, slat + clat = lat
for dp in 1 16; do
  q="[j['read'][k]['N'] for k in ('slat_ns','clat_ns','lat_ns')]"
  a1=$($IOB --name=t --ioengine=null --size=1M --iodepth=$dp --output-format=json | jget "$q")
  b1=$(fio --name=t --ioengine=null --size=1M --iodepth=$dp --output-format=json | jget "$q")
  check "null engine at iodepth=$dp: slat, clat, lat counts as fio's ($a1; fio: $b1)" [ "$a1" = "$b1" ]
done
m=$($IOB --name=t --ioengine=null --size=1M --iodepth=16 --output-format=json |
    jget "(lambda r: abs(r['slat_ns']['mean'] + r['clat_ns']['mean'] - r['lat_ns']['mean']))(j['read'])")
check "null engine at iodepth=16: mean slat + mean clat = mean lat (off by $m ns)" \
  python3 -c "import sys; sys.exit(0 if float('$m') <= 1 else 1)"

# ---- --parse-only with no job; --debug=parse ------------------------------
for ss in iops:10 iops:10% iops:.1% bw:10% bw:.1% bw:12; do
  a1=$($IOB --parse-only --debug=parse --ss_dur=10s --ss="$ss" --ss_ramp=5 2>"$d/err" | grep -o 'set steady state.*'); r=$?
  b1=$(fio --parse-only --debug=parse --ss_dur=10s --ss="$ss" --ss_ramp=5 2>/dev/null | grep -o 'set steady state.*')
  check "--parse-only --debug=parse --ss=$ss with no job: '$a1' as fio's" [ $r = 0 ] && [ -n "$b1" ] && [ "$a1" = "$b1" ] && [ ! -s "$d/err" ]
done
a1=$($IOB --parse-only --debug=parse --name=x --bs=4k 2>/dev/null | grep -c 'handle_option=bs, ptr=4k')
check "--debug=parse traces each option as fio ('handle_option=bs, ptr=4k': $a1)" [ "$a1" = 1 ]
$IOB --parse-only --debug=io --name=x 2>"$d/err" >/dev/null
check "--debug=io is accepted and says it has no trace here" grep -q "no trace" "$d/err"
if $IOB --parse-only --debug=bogus --name=x >/dev/null 2>&1; then not_ok "--debug=bogus refused"; else ok "--debug=bogus refused"; fi

# ---- rw=MODE:N: the skip counts against size ------------------------------
for a in "--size=128m --rw=read:512k --bs=1m --norandommap" "--size=10m --rw=write:8k --bs=4k" \
         "--size=1m --rw=read:3k --bs=4k --loops=2"; do
  a1=$($IOB --name=foo --ioengine=null $a --output-format=json | jget "j['read']['io_kbytes'], j['write']['io_kbytes']")
  b1=$(fio --name=foo --ioengine=null $a --output-format=json | jget "j['read']['io_kbytes'], j['write']['io_kbytes']")
  check "$a: KiB read, written as fio's ($a1; fio: $b1)" [ "$a1" = "$b1" ]
done

# ---- trailing punctuation in sizes; a bssplit-shaped bsrange ----------------
a1=$($IOB --name=s --ioengine=null --rw=read --bs=4k --filesize=65536\) --output-format=json | jget "j['read']['io_kbytes']")
b1=$(fio --name=s --ioengine=null --rw=read --bs=4k --filesize=65536\) --output-format=json | jget "j['read']['io_kbytes']")
check "filesize=65536) read as 65536, as fio ($a1 KiB; fio: $b1)" [ "$a1" = 64 ] && [ "$b1" = 64 ]
if $IOB --name=s --ioengine=null --rw=read --filesize=x12 >/dev/null 2>&1; then not_ok "filesize=x12 refused as by fio"
else ok "filesize=x12 refused as by fio"; fi
for t in iob fio; do
  bin=$IOB; [ $t = fio ] && bin=fio
  $bin --name=b --ioengine=null --filesize=1m --rw=randwrite --bsrange=512/25:1k:25:2k:25:4k/25 \
    --write_iolog="$d/$t.log" --output-format=json >/dev/null
  awk 'NF==5 && $3=="write" {print $5}' "$d/$t.log" | sort -un | tr '\n' ' ' >"$d/$t.sizes"
done
check "bsrange=512/25:1k:25:2k:25:4k/25 is the range 512-1k, as fio's ($(cat "$d/iob.sizes"); fio: $(cat "$d/fio.sizes"))" \
  cmp -s "$d/iob.sizes" "$d/fio.sizes"
# ---- the random map with varying block sizes: every sector once ---------
for t in iob fio; do
  bin=$IOB; [ $t = fio ] && bin=fio
  $bin --name=m --ioengine=null --filesize=1m --rw=randwrite --bsrange=512-4k \
    --write_iolog="$d/m$t.log" >/dev/null
  python3 - "$d/m$t.log" >"$d/m$t.cov" <<'PY' || echo "(python exited $?)" >>"$d/m$t.cov"
import sys
secs, total = set(), 0
for l in open(sys.argv[1]):
    v = l.split()
    if len(v) == 5 and v[2] == "write":
        o, n = int(v[3]), int(v[4]); total += n
        secs.update(range(o // 512, (o + n) // 512))
print(len(secs), total)
PY
done
a1=$(cat "$d/miob.cov") b1=$(cat "$d/mfio.cov")
check "randwrite, bsrange=512-4k, random map: every 512-byte sector of 1 MiB written once, as fio ($a1; fio: $b1)" \
  [ "$a1" = "2048 1048576" ] && [ "$a1" = "$b1" ]

# ---- io_submit_mode=offload with serialize_overlap=1 ---------------------
head -c 64k /dev/zero >"$d/ov.dat"
$IOB --name=ov --filename="$d/ov.dat" --ioengine=psync --rw=randwrite --bs=4k --size=64k --io_size=2m \
  --norandommap --iodepth=8 --io_submit_mode=offload --serialize_overlap=1 --output-format=json \
  >"$d/ov.json" 2>"$d/ov.err"
a1=$(jget "j['error'], j['write']['io_kbytes']" <"$d/ov.json" 2>/dev/null)
check "io_submit_mode=offload with serialize_overlap=1 runs (error, KiB: $a1; $(head -c 200 "$d/ov.err"))" \
  [ "$a1" = "0 2048" ]

# ---- filesize= ends a region from offset=; strided zones under the random map
for t in iob fio; do
  bin=$IOB; [ $t = fio ] && bin=fio
  $bin --name=o --ioengine=null --rw=read --bs=4k --offset=32k --size=64k --io_size=64k \
    --filesize=64k --write_iolog="$d/o$t.log" >/dev/null
  awk 'NF==5 && $3=="read" {print $4}' "$d/o$t.log" | tr '\n' ' ' >"$d/o$t.offs"
done
check "offset=32k, filesize=64k: the region ends at 64k, as fio's ($(cat "$d/oiob.offs"))" cmp -s "$d/oiob.offs" "$d/ofio.offs"
for gen in tausworthe lfsr; do
  $IOB --name=z --ioengine=null --rw=randread --bs=4k --zonemode=strided --zonerange=16m --zonesize=32m \
    --size=64m --io_size=128m --random_generator=$gen --write_iolog="$d/z$gen.log" >/dev/null
  check "zonemode=strided, random map ($gen): each block of a zone once per pass over it, all in the zone" \
    python3 - "$d/z$gen.log" <<'PY'
import sys
offs = [int(l.split()[3]) for l in open(sys.argv[1]) if len(l.split()) == 5 and l.split()[2] == "read"]
per = 4096  # 16 MiB zones of 4 KiB blocks
zone, start, ok = 0, 0, len(offs) == 32768
for i in range(0, len(offs), per):
    chunk = offs[i:i + per]
    lo = (i // (2 * per)) % 4 * 16 * 2**20
    ok &= all(lo <= o < lo + 16 * 2**20 for o in chunk) and len(set(chunk)) == per
sys.exit(0 if ok else 1)
PY
done
exit $E2E_FAILED
