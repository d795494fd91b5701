#!/usr/bin/env bash
# e2e: long
# The asynchronous engines (io_uring, libaio, posixaio) and mmap through
# `iobench run` on a file on a loop-mounted ext4: read, write, randread,
# randwrite, randrw; buffered and direct (mmap buffered only); iodepth 1 and
# 32; each size-bounded job exits 0 with no error and does exactly the bytes
# asked for in the directions asked for (rwt_ok, lib.sh).
# Then io_uring's options (fixedbufs, registerfiles, sqthread_poll,
# nonvectored, nowait, uncached) and libaio's (userspace_reap, nowait), fsync=N and time_based with io_uring, io_uring and libaio
# reading a read-only loop device with direct=1, the data a write job leaves
# behind, and the clear errors (exit 1) for hipri, a bad sqthread_poll_cpu
# and a bad nonvectored value.
. "$(dirname "$0")/lib.sh"
need_root
mnt=$(mkfs_mount ext4 256M) || { not_ok "ext4 on a loop device"; finish; }
d=$(tmpdir)

# run_rwt NAME ARGS...: run one job, print its "READ/WRITE/TRIM" KiB (""
# when it exits non-zero or reports an error)
run_rwt() {
  local name=$1; shift
  "$IOBENCH" run --name="$name" "$@" --output-format=json >"$d/$name.json" 2>"$d/$name.err" || return 1
  # one python call for both (two cost half the script's time)
  json_get "$d/$name.json" '"%d/%d/%d" % tuple(d["jobs"][0][k]["io_kbytes"] for k in ("read", "write", "trim")) if d["jobs"][0]["error"] == 0 else ""' 2>/dev/null
}

for eng in io_uring libaio posixaio mmap; do
  for rw in read write randread randwrite randrw; do
    for direct in 0 1; do
      [ $eng = mmap ] && [ $direct = 1 ] && continue
      for depth in 1 32; do
        got=$(run_rwt m --ioengine=$eng --rw=$rw --bs=4k --size=8m --direct=$direct \
          --iodepth=$depth --filename="$mnt/$eng.dat")
        rwt_ok $rw "$got" 8192 # sets RWT_WANT for the check's name
        check "$eng $rw direct=$direct iodepth=$depth: $RWT_WANT (${got:-failed})" rwt_ok $rw "$got" 8192
      done
    done
  done
done

# io_uring's options, on the hardest mix (random read+write, direct, deep)
for opts in "--fixedbufs" "--registerfiles" "--sqthread_poll" "--sqthread_poll --sqthread_poll_cpu=0" \
  "--nonvectored=0" "--nonvectored=1" "--fixedbufs --registerfiles --nonvectored=0"; do
  # shellcheck disable=SC2086
  got=$(run_rwt o --ioengine=io_uring $opts --rw=randrw --bs=4k --size=8m --direct=1 \
    --iodepth=32 --filename="$mnt/opts.dat")
  check "io_uring $opts: randrw, both directions, 8192 KiB in all (${got:-failed})" rwt_ok randrw "$got" 8192
done
got=$(run_rwt u --ioengine=libaio --userspace_reap --rw=randread --bs=4k --size=8m --direct=1 \
  --iodepth=32 --filename="$mnt/libaio.dat")
check "libaio --userspace_reap: 8192 KiB read, 0 written (${got:-failed})" rwt_ok randread "$got" 8192
# nowait (io_uring, libaio: RWF_NOWAIT, as fio): reads of a page-cached file
# do not block and complete; a read of a page not in the cache fails with
# EAGAIN (error 11), as fio's does, instead of waiting for the disk
for eng in io_uring libaio; do
  cat "$mnt/libaio.dat" >/dev/null
  got=$(run_rwt nw --ioengine=$eng --nowait --rw=randread --bs=4k --size=8m --invalidate=0 \
    --iodepth=8 --filename="$mnt/libaio.dat")
  check "$eng --nowait on a cached file: 8192 KiB read (${got:-failed})" rwt_ok randread "$got" 8192
  "$IOBENCH" run --name=nx --ioengine=$eng --nowait --rw=randread --bs=4k --size=8m \
    --iodepth=8 --filename="$mnt/libaio.dat" --output-format=json >"$d/nx.json" 2>/dev/null
  rc=$?
  check "$eng --nowait, pages dropped (invalidate=1): exit 1 with error 11 (EAGAIN)" \
    test $rc = 1 -a "$(json_get "$d/nx.json" 'd["jobs"][0]["error"]')" = 11
done
# uncached (io_uring: RWF_DONTCACHE, Linux 6.14+): works, or is refused by
# an older kernel with EOPNOTSUPP/EINVAL
"$IOBENCH" run --name=uc --ioengine=io_uring --uncached --rw=randread --bs=4k --size=8m \
  --iodepth=8 --filename="$mnt/libaio.dat" --output-format=json >"$d/uc.json" 2>/dev/null
uc=$(json_get "$d/uc.json" 'd["jobs"][0]["error"]')
ucr=$(json_get "$d/uc.json" 'd["jobs"][0]["read"]["io_kbytes"]')
check "io_uring --uncached: 8192 KiB read, or the kernel's refusal (error $uc, $ucr KiB)" \
  bash -c "[ '$uc' = 0 -a '$ucr' = 8192 ] || [ '$uc' = 95 -o '$uc' = 22 ]"
got=$(run_rwt bs --ioengine=io_uring --rw=randrw --bsrange=4k-64k --size=16m --direct=1 \
  --iodepth=16 --filename="$mnt/bs.dat")
check "io_uring bsrange=4k-64k: both directions, 16384 KiB in all (${got:-failed})" rwt_ok randrw "$got" 16384

# fsync=N: after every 8 writes, a drain and a sync before the next I/O (as
# fio's rule, and fio's libaio count: none after the 256th write)
got=$(run_rwt f --ioengine=io_uring --rw=randwrite --bs=4k --size=1m --fsync=8 --iodepth=8 \
  --filename="$mnt/fs.dat")
syncs=$(json_get "$d/f.json" 'd["jobs"][0]["sync"]["total_ios"]' 2>/dev/null)
check "io_uring fsync=8: 1024 KiB written, nothing read, 31 syncs (got ${got:-failed}, $syncs)" \
  bash -c "[ '$got' = 0/1024/0 ] && [ '$syncs' = 31 ]"

# time_based: keeps going for the runtime, then stops
got=$(run_rwt t --ioengine=libaio --rw=randread --bs=4k --size=8m --direct=1 --iodepth=32 \
  --time_based --runtime=1 --filename="$mnt/libaio.dat")
rt=$(json_get "$d/t.json" 'd["jobs"][0]["read"]["runtime"]' 2>/dev/null)
IFS=/ read -r tr tw tt <<<"${got:-0/x/x}"
check "libaio time_based runtime=1: ran ${rt}ms, read/write/trim ${got:-failed} KiB (more than the 8 MiB file, no writes)" \
  python3 -c "import sys; sys.exit(not (900 <= int('${rt:-0}') <= 1500 and int('$tr') > 8192 and '$tw/$tt' == '0/0'))"

# what an async write job leaves behind is what it wrote (verify= checks
# the data in test_verify.sh; here the file is compared byte for byte)
"$IOBENCH" run --name=w --ioengine=io_uring --rw=write --bs=64k --size=4m --direct=1 --iodepth=16 \
  --zero_buffers --filename="$mnt/zero.dat" >/dev/null 2>"$d/w.err"
rc=$?
check "io_uring zero_buffers write: exit 0, 4 MiB of zeros left behind" \
  bash -c "[ $rc -eq 0 ] && [ \$(stat -c %s '$mnt/zero.dat') -eq 4194304 ] && cmp -s -n 4194304 '$mnt/zero.dat' /dev/zero"

# a read-only loop device, read with direct=1
dev=$(mkloop 64M) && blockdev --setro "$dev" || not_ok "read-only loop device"
if [ -n "${dev:-}" ]; then
  for eng in io_uring libaio; do
    for rw in read randread; do
      got=$(run_rwt b --ioengine=$eng --rw=$rw --bs=4k --size=16m --direct=1 --iodepth=32 \
        --filename="$dev")
      check "$eng $rw on read-only $dev: 16384 KiB read, 0 written (${got:-failed})" rwt_ok $rw "$got" 16384
    done
  done
fi

# hipri: without direct=1 refused before any I/O; with it, a device without
# poll queues is named and explained
"$IOBENCH" run --name=h --ioengine=io_uring --hipri --rw=randread --size=1m \
  --filename="$mnt/io_uring.dat" >/dev/null 2>"$d/h.err"
rc=$?
check "hipri without direct=1 is an error (exit 1) naming direct=1" \
  test $rc -eq 1 -a "$(grep -c 'hipri (IOPOLL) needs direct=1' "$d/h.err")" -eq 1
"$IOBENCH" run --name=h --ioengine=io_uring --hipri --rw=randread --size=1m --direct=1 \
  --filename="$mnt/io_uring.dat" >/dev/null 2>"$d/h2.err"
rc=$?
if [ $rc -eq 0 ]; then
  ok "hipri with direct=1: this device polls"
else
  check "hipri on a device without poll queues: exit 1, and it says so" \
    test $rc -eq 1 -a "$(grep -c 'poll queues' "$d/h2.err")" -ge 1
fi
"$IOBENCH" run --name=c --ioengine=io_uring --sqthread_poll --sqthread_poll_cpu=4095 --size=1m \
  --filename="$mnt/io_uring.dat" >/dev/null 2>"$d/c.err"
rc=$?
check "sqthread_poll_cpu on a CPU that is not there is an error (exit 1)" \
  test $rc -eq 1 -a "$(grep -c 'sqthread_poll_cpu=4095' "$d/c.err")" -eq 1
"$IOBENCH" run --name=n --ioengine=io_uring --nonvectored=2x --size=1m \
  --filename="$mnt/io_uring.dat" >/dev/null 2>"$d/n.err"
rc=$?
check "nonvectored=2x is refused (exit 1) at the option" \
  test $rc -eq 1 -a "$(grep -c "^<command line>:3:15: error: invalid number '2x' for option 'nonvectored'" "$d/n.err")" -eq 1
finish
