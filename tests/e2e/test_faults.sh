#!/usr/bin/env bash
# Faults: a full filesystem (ENOSPC), a failing device (EIO through a
# FUSE file that fails past an offset), a permission error, and signals. Each stops
# the job with a message naming file, offset and errno text, still reports
# the results so far, and exits 1 (128 + the signal after a signal).
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)

mnt=$(mkfs_mount ext4 32M) || { not_ok "mount a 32 MiB ext4"; finish; }
# fallocate=none: a sparse layout, so the writes meet the full disk (a
# preallocated layout that cannot fit is refused before the run starts)
"$IOBENCH" run --name=full --rw=write --bs=64k --size=64m --filename="$mnt/full.dat" \
  --fallocate=none --output-format=json >"$d/full.json" 2>"$d/full.err"
rc=$?
check "ENOSPC: exit status 1 (got $rc)" test $rc -eq 1
check "ENOSPC: message names file, offset and errno text" \
  grep -Eq "at offset [0-9]+ of '.*/full.dat' failed: No space left on device \(after [0-9]+ bytes\)" "$d/full.err"
check "ENOSPC: partial results still reported as JSON" test "$(json_get "$d/full.json" 'd["jobs"][0]["write"]["io_bytes"] > 0 and d["jobs"][0]["error"] == 28')" = True

# EIO: a FUSE file that fails every request at or past 1 MiB
emnt=$(tmpdir)
/usr/bin/python3 "$TOP/tests/e2e/errfs.py" "$emnt" $((4 << 20)) $((1 << 20)) 2>"$d/errfs.log" &
fpid=$!
for _ in $(seq 50); do [ -e "$emnt/bad.dat" ] && break; sleep 0.1; done
if [ -e "$emnt/bad.dat" ]; then
  "$IOBENCH" run --name=eio --rw=read --bs=4k --size=4m --filename="$emnt/bad.dat" \
    --output-format=json >"$d/eio.json" 2>"$d/eio.err"
  rc=$?
  check "EIO: exit status 1 (got $rc)" test $rc -eq 1
  check "EIO: message names file, offset 1048576 and errno text" \
    grep -q "offset 1048576 of '$emnt/bad.dat' failed: Input/output error" "$d/eio.err"
  check "EIO: the 1 MiB before the fault is reported" test "$(json_get "$d/eio.json" '(d["jobs"][0]["read"]["io_kbytes"], d["jobs"][0]["error"])')" = "(1024, 5)"
else
  not_ok "mount the FUSE error filesystem"
fi
fusermount3 -u "$emnt" 2>/dev/null || umount -l "$emnt" 2>/dev/null
wait $fpid 2>/dev/null

# EACCES: an unprivileged user may read but not write this file. The binary
# is copied next to it so the clone's own permissions do not matter.
chmod 755 "$d"
cp "$IOBENCH" "$d/iobench"
truncate -s 1m "$d/ro.dat"; chmod 0444 "$d/ro.dat"
# (--no-store: nobody cannot write the suite's results database)
su nobody -s /bin/bash -c "'$d/iobench' run --no-store --name=perm --rw=write --bs=4k --size=1m --filename='$d/ro.dat'" >"$d/perm.out" 2>"$d/perm.err"
rc=$?
check "EACCES: exit status 1 (got $rc)" test $rc -eq 1
check "EACCES: message names the file and the errno text" grep -q "'$d/ro.dat'.*Permission denied" "$d/perm.err"

for sig in INT TERM; do
  "$IOBENCH" run --name=sig --rw=randread --bs=4k --size=4m --time_based --runtime=60 \
    --filename="$d/sig.dat" --output-format=json >"$d/sig.json" 2>"$d/sig.err" &
  pid=$!
  sleep 2
  start=$(date +%s%N)
  kill -$sig $pid
  wait $pid; rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  # a 60 s job: stopping well before its end is what shows the signal
  # worked (no tight bound: the machine is shared and noisy)
  check "SIG$sig: stops long before the 60 s runtime (took ${ms} ms)" test $ms -lt 20000
  check "SIG$sig: exit status 128+signal (got $rc)" test $rc -eq $((128 + $(kill -l $sig)))
  check "SIG$sig: results so far reported" test "$(json_get "$d/sig.json" 'd["jobs"][0]["read"]["total_ios"] > 0 and d["iobench"]["interrupted"]')" = True
done
finish
