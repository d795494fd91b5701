#!/usr/bin/env bash
# Data verification (verify=): every verify type reads back clean
# after sequential and random writes through a sync and an async engine;
# damage done to the file between a write and a verify_only run is found
# with the right offset and told apart: a flipped byte (corrupted), a block
# copied elsewhere (misplaced, naming both offsets), an older version of a
# block (stale by seed and by sequence), a half-old block (torn);
# verify_pattern with %o lands on disk as fio writes it; verify_backlog
# checks while writing; verify_state_save/load limits a later check to what
# was written; verify_fatal and continue_on_error=verify decide between the
# first failure and all of them.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
cd "$d" || exit 1 # verify_state files land in the current directory, as fio's
f=$d/v.dat

# run NAME ARGS...: iobench run with JSON to NAME.json, stderr to NAME.err; sets rc
run() {
  local n=$1; shift
  "$IOBENCH" run --name=v --filename="$f" --output-format=json "$@" >"$d/$n.json" 2>"$d/$n.err"
  rc=$?
}
# the system python starts in a tenth of the time a pyenv shim takes
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3
# flip OFFSET: invert the bits of one byte of the file
flip() {
  local b; b=$(od -An -tu1 -j"$1" -N1 "$f" | tr -d ' ')
  printf "\\$(printf %03o $((b ^ 0xff)))" | dd of="$f" bs=1 seek="$1" conv=notrunc status=none
}
jf() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$d/$1.json"; }

# 1. clean runs: every type, sequential and random, psync and io_uring
for engine in psync io_uring; do
  for rw in write randwrite; do
    for v in crc32c crc32c-intel crc32 crc64 md5 sha256 xxhash meta pattern null; do
      extra=()
      [ "$v" = pattern ] && extra=(--verify_pattern='0xdeadbeef%o')
      rm -f "$f"
      run "clean-$engine-$rw-$v" --rw=$rw --bs=4k --size=2m --verify=$v --ioengine=$engine --iodepth=8 "${extra[@]}"
      echo "$rc" >"$d/clean-$engine-$rw-$v.rc"
    done
  done
done
# one python for all of them: exit 0, no error, everything written read back
out=$("$PY" - "$d" <<'PYEOF'
import glob, json, os, sys
files = sorted(glob.glob(os.path.join(sys.argv[1], "clean-*.json")))
print("ok - %d clean runs" % len(files) if len(files) == 40 else "not ok - %d clean runs, 40 expected" % len(files))
for j in files:
    name = os.path.basename(j)[6:-5]
    rc = open(j[:-5] + ".rc").read().strip()
    try:
        job = json.load(open(j))["jobs"][0]
        res = (job["error"], job["read"]["io_bytes"], job["write"]["io_bytes"])
    except Exception as e:
        res = repr(e)
    good = rc == "0" and res == (0, 2097152, 2097152)
    print("%s - clean %s: exit %s, (error, read, written) = %s" % ("ok" if good else "not ok", name, rc, res))
PYEOF
)
echo "$out"
case $out in *"not ok"*|"") E2E_FAILED=1 ;; esac
rm -f "$f"
run mixed --rw=randwrite --bssplit=4k/50:16k/30:64k/20 --size=4m --verify=xxhash --ioengine=io_uring --iodepth=16
check "mixed block sizes, io_uring depth 16: clean (rc $rc)" test "$rc.$(jf mixed 'd["jobs"][0]["error"]')" = "0.0"
rm -f "$f"
run interval --rw=write --bs=64k --size=4m --verify=sha256 --verify_interval=4k --verify_offset=512 --loops=2
check "verify_interval=4k verify_offset=512 loops=2: clean (rc $rc)" test "$rc.$(jf interval 'd["jobs"][0]["error"]')" = "0.0"
rm -f "$f"
run timed --rw=randwrite --bs=4k --size=1m --verify=md5 --time_based --runtime=1 --norandommap --rate_iops=5000
check "time_based norandommap (blocks rewritten many times): clean (rc $rc)" \
  test "$rc.$(jf timed 'd["jobs"][0]["error"]')" = "0.0"

# 2. a flipped byte between a write pass and a verify_only pass
W=(--rw=randwrite --bs=4k --size=1m --verify=crc32c)
for off in 0 57 4095 123456 700001 1048575; do
  rm -f "$f"
  run w "${W[@]}" --do_verify=0
  flip $off
  run flip "${W[@]}" --verify_only=1
  blk=$((off / 4096 * 4096))
  check "flip at $off: exit non-zero, error 84 (EILSEQ)" test "$rc.$(jf flip 'd["jobs"][0]["error"]')" = "1.84"
  check "flip at $off: block $blk named, first differing byte at offset $off" \
    grep -q "offset $blk length 4096: .*first differing byte at offset $off " "$d/flip.err"
done
rm -f "$f"; run w "${W[@]}" --do_verify=0
flip 57
run hdr "${W[@]}" --verify_only=1
check "flip inside a header: exit 1" test $rc -eq 1
check "flip inside a header: reported as a corrupted header" grep -q "offset 0 length 4096: corrupted header: header checksum" "$d/hdr.err"
rm -f "$f"; run w "${W[@]}" --do_verify=0
flip $((20 * 4096 + 2000))
run pay "${W[@]}" --verify_only=1
check "flip in a payload: exit 1" test $rc -eq 1
check "flip in a payload: corrupted, 1 byte" grep -q "offset 81920 length 4096: corrupted: crc32c .*: 1 payload byte differs" "$d/pay.err"

# 3. a block copied to another offset: misplaced, both offsets named
rm -f "$f"; run w "${W[@]}" --do_verify=0
dd if="$f" of="$f" bs=4096 skip=3 seek=200 count=1 conv=notrunc status=none
run mis "${W[@]}" --verify_only=1
check "copied block: exit 1" test $rc -eq 1
check "copied block: misplaced, at offset 819200 the header says 12288" \
  grep -q "offset 819200 length 4096: misplaced: header says offset 12288" "$d/mis.err"
check "misplaced: expected and found header fields" grep -q "expected offset=819200 .*found offset=12288 " "$d/mis.err"

# 4. stale data: an older version of blocks (another seed; an older sequence)
rm -f "$f"
run a --rw=write --bs=4k --size=1m --verify=md5 --do_verify=0 --randseed=1
run b --rw=write --bs=4k --size=512k --verify=md5 --do_verify=0 --randseed=2
run stale --rw=write --bs=4k --size=1m --verify=md5 --verify_only=1 --randseed=2
check "seed A under seed B: exit 1" test $rc -eq 1
check "seed A under seed B: stale at the first block B did not rewrite" \
  grep -q "offset 524288 length 4096: stale: seed 0x[0-9a-f]* expected 0x[0-9a-f]*" "$d/stale.err"
rm -f "$f"
run l1 --rw=write --bs=4k --size=1m --verify=crc32c --do_verify=0
cp "$f" "$d/old.dat"
run l2 --rw=write --bs=4k --size=1m --verify=crc32c --do_verify=0 --loops=2
dd if="$d/old.dat" of="$f" bs=4096 skip=10 seek=10 count=1 conv=notrunc status=none
run seq --rw=write --bs=4k --size=1m --verify=crc32c --verify_only=1 --loops=2
check "a block from the first loop after the second: exit 1" test $rc -eq 1
check "a block from the first loop after the second: stale sequence 11 expected 267" \
  grep -q "offset 40960 length 4096: stale: sequence 11 expected 267" "$d/seq.err"

# 5. torn: the first sector of the new version, the rest of the old
rm -f "$f"
run ta "${W[@]}" --do_verify=0 --randseed=5
cp "$f" "$d/a.dat"
run tb "${W[@]}" --do_verify=0 --randseed=6
dd if="$d/a.dat" of="$f" bs=512 skip=81 seek=81 count=7 conv=notrunc status=none
run torn "${W[@]}" --verify_only=1 --randseed=6
check "half-old block: exit 1" test $rc -eq 1
check "new header, old tail: torn write from offset 41472" \
  grep -q "offset 40960 length 4096: torn write: .*first differing byte at offset 41472 " "$d/torn.err"

# 6. verify_pattern with %o: on disk as fio writes it, and checked
rm -f "$f"
run pat --rw=write --bs=4k --size=64k --verify=pattern --verify_pattern='0xff%o"abcd"-12'
check "verify_pattern=0xff%o\"abcd\"-12: clean (rc $rc)" test "$rc.$(jf pat 'd["jobs"][0]["error"]')" = "0.0"
check "pattern at block 4096 as fio 3.33 writes it" \
  test "$(od -An -tx1 -j4096 -N17 "$f" | tr -d ' \n')" = "ff001000000000000061626364f4ffffff"
printf 'Z' | dd of="$f" bs=1 seek=9000 conv=notrunc status=none
run patbad --rw=write --bs=4k --size=64k --verify=pattern --verify_pattern='0xff%o"abcd"-12' --verify_only=1
check "pattern: a changed byte: exit 1" test $rc -eq 1
check "pattern: a changed byte found at offset 9000" grep -q "offset 8192 length 4096: corrupted: 1 bytes differ from verify_pattern.*offset 9000 " "$d/patbad.err"
rm -f "$f"
run patcrc --rw=randwrite --bs=4k --size=256k --verify=crc32c --verify_pattern=%o
check "verify=crc32c with verify_pattern=%o: clean" test "$rc.$(jf patcrc 'd["jobs"][0]["error"]')" = "0.0"
check "payload of block 8192 (after the 112-byte header) holds its offset" test "$(od -An -tx1 -j$((8192 + 112)) -N8 "$f" | tr -d ' \n')" = "0020000000000000"

# 7. verify_backlog: checks every N writes while writing
rm -f "$f"
run bl --rw=randwrite --bs=4k --size=2m --verify=crc32c --verify_backlog=16 --ioengine=libaio --iodepth=8
check "verify_backlog=16: clean, all read back (rc $rc)" \
  test "$rc.$(jf bl '(d["jobs"][0]["error"], d["jobs"][0]["read"]["io_bytes"])')" = "0.(0, 2097152)"
rm -f "$f"
run blf --rw=write --bs=4k --size=4m --verify=crc32c --verify_backlog=8 --ioengine=faulty \
  --faulty_engine=io_uring --iodepth=4 --faulty_dir=write --faulty_corrupt=offset:20000
check "verify_backlog=8: a corrupted write found at 20000 before the job wrote 1 MiB" \
  test "$rc.$(jf blf 'd["jobs"][0]["error"] == 84 and d["jobs"][0]["write"]["io_bytes"] < 1048576')" = "1.True"
check "backlog: the corrupted byte named" grep -q "first differing byte at offset 20000 " "$d/blf.err"

# 8. verify_state_save/load: a later check covers what was written, no more
rm -f "$f" local-v-0-verify.state
run part --rw=randwrite --bs=4k --size=4m --verify=crc32c --do_verify=0 --rate=2m --runtime=1
check "the interrupted write pass saved its state" test -f local-v-0-verify.state
n=$(sed -n 's/^writes //p' local-v-0-verify.state)
check "state says how many writes completed ($n)" test "${n:-0}" -gt 0 -a "${n:-0}" -lt 1024
run load --rw=randwrite --bs=4k --size=4m --verify=crc32c --verify_only=1 --verify_state_load=1
check "verify_state_load: clean, reads exactly the $n written blocks" \
  test "$rc.$(jf load '(d["jobs"][0]["error"], d["jobs"][0]["read"]["io_bytes"])')" = "0.(0, $((n * 4096)))"
run noload --rw=randwrite --bs=4k --size=4m --verify=crc32c --verify_only=1
check "without the state the unwritten blocks fail (bad magic), exit 1" \
  test "$rc $(grep -c "bad magic" "$d/noload.err")" = "1 1"
run other --rw=randwrite --bs=4k --size=4m --verify=crc32c --verify_only=1 --verify_state_load=1 --randseed=9
check "a state saved with another seed is refused, exit 1" \
  test "$rc $(grep -c "saved by a job with seed" "$d/other.err")" = "1 1"

# 9. the first failure or all of them
rm -f "$f"; run w "${W[@]}" --do_verify=0
for off in 5000 90000 200000 333333 500000 600001 700000 1000000; do
  flip $off
done
run all "${W[@]}" --verify_only=1 --continue_on_error=verify
check "continue_on_error=verify: all 8 damaged blocks counted" \
  test "$(jf all '(d["jobs"][0]["error"], d["jobs"][0]["read"]["io_bytes"], d["jobs"][0].get("total_err"))')" = "(84, 1048576, 8)"
check "continue_on_error=verify: one message each and a summary" \
  test "$(grep -c 'verify failed' "$d/all.err").$(grep -c '8 verify failures in 256 checked blocks' "$d/all.err")" = "8.1"
run fatal "${W[@]}" --verify_only=1 --continue_on_error=verify --verify_fatal=1
check "verify_fatal=1: stops at the first failure" \
  test "$(grep -c 'verify failed' "$d/fatal.err").$(jf fatal 'd["jobs"][0]["read"]["io_bytes"] < 1048576')" = "1.True"
run dflt "${W[@]}" --verify_only=1
check "default (as fio): the job stops at the first failure, exit non-zero" \
  test "$rc.$(grep -c 'verify failed' "$d/dflt.err")" = "1.1"
"$IOBENCH" run --name=v --filename="$f" "${W[@]}" --verify_only=1 >"$d/normal.txt" 2>/dev/null
check "normal output: err=84 with the verify message" grep -q "err=84 (verify failed: '$f' offset" "$d/normal.txt"

# 10. a job that only reads checks every read
rm -f "$f"; run w "${W[@]}" --do_verify=0
run rd --rw=read --bs=4k --size=1m --verify=crc32c
check "rw=read verify=crc32c over verified data: clean" test "$rc.$(jf rd 'd["jobs"][0]["error"]')" = "0.0"
flip 4444
run rdbad --rw=read --bs=4k --size=1m --verify=crc32c
check "rw=read: a changed byte found at 4444, exit 1" \
  test "$rc $(grep -c "first differing byte at offset 4444 " "$d/rdbad.err")" = "1 1"
run nullverify --rw=write --bs=4k --size=1m --verify=crc32c --ioengine=null
check "verify with ioengine=null refused, exit 1" \
  test "$rc $(grep -c "verify=crc32c needs an engine that keeps data; ioengine=null does not" "$d/nullverify.err")" = "1 1"
finish
