#!/usr/bin/env bash
# rw=trimwrite and rw=randtrimwrite side by side with fio 3.33 on a
# loop device: the write_iolog of both, line for line (direction, offset,
# length), and the bytes and I/Os per direction in the JSON. fio trims a
# block, then writes the same block (with a larger trim, the writes catch up
# with it before the next trim); only the writes count towards size,
# io_size and number_ios; a pass ends when a sequential stream runs off the
# end (no wrap, even with io_size above size). randtrimwrite writes where
# the trim before it went, with its length, and a pass ends when every
# block has been trimmed once: its offsets are random, so what is compared
# there is the pairing, the counts and the set of trimmed blocks. With one
# bsrange or bssplit for both directions, each write is as long as the trim
# before it (the sizes come from each tool's generator: pairing and bytes
# compared). trimwrite:-N, on which fio 3.33 never ends, and zonemode=strided
# with trimwrite are refused.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
L=$(mkloop 8M) || { not_ok "a loop device"; finish; }
DEV=(--filename="$L")

# run TOOL NAME ARGS...: one job (iobench is let write to the loop device), its iolog in $d/NAME.TOOL.log, JSON in $d/NAME.TOOL.json
run() {
  local tool=$1 n=$2; shift 2
  rm -f "$d/$n.$tool.log"
  if [ "$tool" = fio ]; then
    timeout -s KILL 20 fio --name=a --size=1m "$@" --write_iolog="$d/$n.fio.log" \
      --output-format=json --output="$d/$n.fio.json" >/dev/null 2>"$d/$n.fio.err"
  else
    "$IOBENCH" run --no-store --name=a --size=1m "$@" --allow-destroy="$L" --write_iolog="$d/$n.iob.log" \
      --output-format=json --output="$d/$n.iob.json" >/dev/null 2>"$d/$n.iob.err"
  fi
}
# the I/O lines of an iolog: file name (without its directory), direction, offset, length
ios() { awk 'NF == 5 && ($3 == "trim" || $3 == "write" || $3 == "read") { sub(".*/", "", $2); print $2, $3, $4, $5 }' "$1"; }
# bytes and I/Os per direction of the first job of a JSON report
counts() { python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(" ".join("%s=%d/%d" % (k, j[k]["io_bytes"], j[k]["total_ios"]) for k in ("read", "write", "trim")))' "$1"; }

# same NAME WANT ARGS...: iolog line for line and counts as fio's; WANT is
# the counts fio is expected to give (so a change in fio shows too)
same() {
  local n=$1 want=$2; shift 2
  run fio "$n" "$@" || { not_ok "$n: fio runs ($(head -1 "$d/$n.fio.err"))"; return; }
  run iob "$n" "$@" || { not_ok "$n: iobench runs ($(head -1 "$d/$n.iob.err"))"; return; }
  local cf ci
  cf=$(counts "$d/$n.fio.json"); ci=$(counts "$d/$n.iob.json")
  [ -s "$d/$n.fio.log" ] && cmp -s <(ios "$d/$n.fio.log") <(ios "$d/$n.iob.log") &&
    ok "$n ($*): the iolog is fio's, line for line ($(ios "$d/$n.iob.log" | wc -l) I/Os)" ||
    not_ok "$n ($*): iolog differs from fio's: $(diff <(ios "$d/$n.fio.log") <(ios "$d/$n.iob.log") | head -3 | tr '\n' ' ')"
  [ "$cf" = "$want" ] && [ "$ci" = "$cf" ] && ok "$n: bytes/ios per direction as fio's ($ci)" ||
    not_ok "$n: counts fio [$cf] iobench [$ci], expected [$want]"
}

# ---- 1. trimwrite: fio's sequence exactly ----------------------------------
M=read=0/0
same loops "$M write=3145728/48 trim=3145728/48" "${DEV[@]}" --bs=64k --rw=trimwrite --loops=3
same trimbs "$M write=1048576/16 trim=32768/2" "${DEV[@]}" --bs=4k,64k,16k --rw=trimwrite
same bigtrim "$M write=1998848/122 trim=2097152/32" "${DEV[@]}" --bs=4k,16k,64k --rw=trimwrite --loops=2
same iosize2m "$M write=1048576/16 trim=1048576/16" "${DEV[@]}" --bs=64k --rw=trimwrite --io_size=2m
same iosize512k "$M write=524288/8 trim=524288/8" "${DEV[@]}" --bs=64k --rw=trimwrite --io_size=512k
same nios "$M write=327680/5 trim=327680/5" "${DEV[@]}" --bs=64k --rw=trimwrite --number_ios=5
same offset "$M write=1048576/16 trim=1048576/16" "${DEV[@]}" --bs=64k --rw=trimwrite --offset=256k
same skip "$M write=524288/8 trim=524288/8" "${DEV[@]}" --bs=64k --rw=trimwrite:64k
same rwmix "$M write=1048576/16 trim=1048576/16" "${DEV[@]}" --bs=64k --rw=trimwrite --rwmixread=70 --rwmixwrite=30
same libaio "$M write=2097152/32 trim=2097152/32" "${DEV[@]}" --bs=64k --rw=trimwrite --loops=2 \
  --ioengine=libaio --iodepth=8 --direct=1
mkdir -p "$d/mf"
same nrfiles "$M write=524288/8 trim=524288/8" --directory="$d/mf" --nrfiles=2 --size=512k --bs=64k \
  --rw=trimwrite --ioengine=null

# ---- 2. randtrimwrite: pairs, counts, every block trimmed once a pass ------
# rshape NAME TOOL: "pairs" when each trim is followed by a write of the same
# offset and length, the I/O count, and the sorted trimmed offsets of each pass
rshape() { python3 - "$1" "$2" <<'PY'
import sys
ios = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 5 and l.split()[2] in ("trim", "write", "read")]
pairs = len(ios) % 2 == 0 and all(ios[i][2] == "trim" and ios[i + 1][2] == "write" and ios[i][3:] == ios[i + 1][3:]
                                  for i in range(0, len(ios), 2))
per = int(sys.argv[2]) or 1     # trims in a pass (0: not compared)
trims = [int(x[3]) for x in ios if x[2] == "trim"]
passes = [sorted(trims[i:i + per]) for i in range(0, len(trims), per)]
print("pairs" if pairs else "unpaired", len(ios), " ".join(",".join(map(str, p)) for p in passes))
PY
}
rsame() {
  local n=$1 want=$2 per=$3; shift 3
  run fio "$n" "$@" || { not_ok "$n: fio runs ($(head -1 "$d/$n.fio.err"))"; return; }
  run iob "$n" "$@" || { not_ok "$n: iobench runs ($(head -1 "$d/$n.iob.err"))"; return; }
  local cf ci sf si
  cf=$(counts "$d/$n.fio.json"); ci=$(counts "$d/$n.iob.json")
  sf=$(rshape "$d/$n.fio.log" "$per"); si=$(rshape "$d/$n.iob.log" "$per")
  [ "$cf" = "$want" ] && [ "$ci" = "$cf" ] && ok "$n: bytes/ios per direction as fio's ($ci)" ||
    not_ok "$n: counts fio [$cf] iobench [$ci], expected [$want]"
  if [ "$per" -gt 0 ]; then
    [[ $sf == pairs* ]] && [ "$si" = "$sf" ] &&
      ok "$n: each block trimmed once a pass, then written, as fio ($(cut -d' ' -f1,2 <<<"$si") I/Os)" ||
      not_ok "$n: fio [${sf:0:80}] iobench [${si:0:80}]"
  else
    [[ $sf == pairs* ]] && [ "$(cut -d' ' -f1,2 <<<"$si")" = "$(cut -d' ' -f1,2 <<<"$sf")" ] &&
      ok "$n: each trim followed by a write of its block, as fio ($(cut -d' ' -f1,2 <<<"$si") I/Os)" ||
      not_ok "$n: fio [${sf:0:40}] iobench [${si:0:40}]"
  fi
}
rsame rloops "$M write=3145728/48 trim=3145728/48" 16 "${DEV[@]}" --bs=64k --rw=randtrimwrite --loops=3
rsame riosize2m "$M write=1048576/16 trim=1048576/16" 16 "${DEV[@]}" --bs=64k --rw=randtrimwrite --io_size=2m
rsame rlibaio "$M write=1048576/16 trim=1048576/16" 16 "${DEV[@]}" --bs=64k --rw=randtrimwrite \
  --ioengine=libaio --iodepth=8 --direct=1
rsame rnomap "$M write=2097152/32 trim=2097152/32" 0 "${DEV[@]}" --bs=64k --rw=randtrimwrite \
  --norandommap --io_size=2m
rsame rpercent "$M write=1048576/16 trim=1048576/16" 0 "${DEV[@]}" --bs=64k --rw=randtrimwrite --percentage_random=50
rsame rnios "$M write=327680/5 trim=327680/5" 0 "${DEV[@]}" --bs=64k --rw=randtrimwrite --number_ios=5
# a trim block larger than the write's: the write takes the trim's offset and
# length in both (fio's count here depends on its random offsets: not compared)
n=rbs
if run fio $n "${DEV[@]}" --bs=4k,16k,64k --rw=randtrimwrite && run iob $n "${DEV[@]}" --bs=4k,16k,64k --rw=randtrimwrite; then
  lens() { ios "$1" | awk '{print $4}' | sort -u | tr '\n' ' '; }
  [[ $(rshape "$d/$n.fio.log" 0) == pairs* ]] && [[ $(rshape "$d/$n.iob.log" 0) == pairs* ]] &&
    [ "$(lens "$d/$n.fio.log")" = "65536 " ] && [ "$(lens "$d/$n.iob.log")" = "65536 " ] &&
    ok "$n: randtrimwrite writes the trim's 64k block, not 16k, as fio" ||
    not_ok "$n: lengths fio [$(lens "$d/$n.fio.log")] iobench [$(lens "$d/$n.iob.log")]"
else not_ok "$n: both run"; fi

# one bsrange or bssplit for trims and writes: fio draws their sizes from two
# streams seeded alike, so each write is as long as the trim before it and
# writes its block; the sizes themselves come from each tool's own generator,
# so what is compared is that pairing and the bytes per direction
bytesof() { counts "$1" | sed 's|/[0-9]*||g'; }
for rw in trimwrite randtrimwrite; do
  for bsopt in --bsrange=4k-64k --bssplit=4k/50:64k/50; do
    n=$rw${bsopt%%=*}; n=${n//-/}
    if run fio $n "${DEV[@]}" $bsopt --rw=$rw && run iob $n "${DEV[@]}" $bsopt --rw=$rw; then
      sf=$(rshape "$d/$n.fio.log" 0); si=$(rshape "$d/$n.iob.log" 0)
      [[ $sf == pairs* ]] && [[ $si == pairs* ]] && [ "$(bytesof "$d/$n.fio.json")" = "$(bytesof "$d/$n.iob.json")" ] &&
        ok "$n ($bsopt): each write as long as the trim before it, at its offset; bytes as fio's ($(bytesof "$d/$n.iob.json"))" ||
        not_ok "$n ($bsopt): fio [${sf:0:20} $(bytesof "$d/$n.fio.json")] iobench [${si:0:20} $(bytesof "$d/$n.iob.json")]"
    else not_ok "$n: both run"; fi
  done
done
check "trimwrite:-64k is refused (fio 3.33 trims block 0 forever)" \
  eval '! "$IOBENCH" run --no-store --parse-only --name=a --filename="$L" --size=1m --rw=trimwrite:-64k 2>/dev/null'
out=$("$IOBENCH" run --no-store --name=a "${DEV[@]}" --allow-destroy="$L" --size=1m --bs=64k --rw=trimwrite \
  --zonemode=strided --zonesize=256k --zoneskip=256k 2>&1) && not_ok "strided trimwrite accepted" ||
  { [[ $out == *"zonemode=strided with rw=trimwrite is not implemented yet"* ]] &&
    ok "zonemode=strided trimwrite: refused as not implemented yet" || not_ok "strided trimwrite: $out"; }

# ---- 3. the other modes keep their accounting ------------------------------
same trim "$M write=0/0 trim=2097152/32" "${DEV[@]}" --bs=64k --rw=trim --io_size=2m
same write "$M write=2097152/32 trim=0/0" "${DEV[@]}" --bs=64k --rw=write --io_size=2m
finish
