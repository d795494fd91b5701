#!/usr/bin/env bash
# fio's file and sync engines beyond the data engines, each
# against fio 3.33 side by side on the same job: the effect on the filesystem
# (files created, left or deleted, sizes, names) and the JSON's shape (bytes
# and I/Os per direction, which latencies are counted, the latency buckets,
# the direction sections' keys: fio_engine_shape.py), then fio's own example
# job file for the engine (fio-examples) with small --set overrides, and the
# clear refusals (read-only mode, bad option values). Seconds in all.
. "$(dirname "$0")/lib.sh"
need_fio_examples filecreate-ioengine.fio filestat-ioengine.fio filedelete-ioengine.fio \
  ftruncate.fio falloc.fio
need_root
W=$(tmpdir)
EX=$FIO_EXAMPLES
SHAPE="$TOP/tests/e2e/fio_engine_shape.py"
# every job names its files relative to a --directory of $W; from $W, a
# relative name that missed it lands in the test's folder too, never in
# the caller's (the repository's root, where run_all.sh runs)
cd "$W" || exit 1

# both NAME ARGS...: the same command-line job with iobench (in $W/i) and fio
# (in $W/f), JSON in $W/NAME.{i,f}.json; fails when either fails
both() {
  local name=$1; shift
  rm -rf "$W/i" "$W/f"; mkdir -p "$W/i" "$W/f"
  "$IOBENCH" run --name=t --directory="$W/i" "$@" --output-format=json >"$W/$name.i.json" 2>"$W/$name.i.err" &&
    fio --name=t --directory="$W/f" "$@" --output-format=json >"$W/$name.f.json" 2>"$W/$name.f.err"
}
# listing DIR: "mode size name" of each file, sorted
listing() { (cd "$1" && find . -mindepth 1 -printf '%M %s %P\n' | sort); }
same_shape() { python3 "$SHAPE" "$W/$1.i.json" "$W/$1.f.json"; }

# ---- filecreate, filestat, filedelete ----
both fc --ioengine=filecreate --nrfiles=5 --filesize=8k --fallocate=none
check "filecreate: runs as fio does" [ $? = 0 ]
check "filecreate: 5 empty 0600 files t.0.0..t.0.4, as fio leaves them" \
  [ "$(listing "$W/i")" = "$(listing "$W/f")" -a "$(listing "$W/i" | grep -c '^-rw------- 0 t\.0\.[0-4]$')" = 5 ]
check "filecreate: 10 I/Os of 4k, 5 clat samples (one per create), no lat/slat, no buckets, as fio" same_shape fc

both fs --ioengine=filestat --nrfiles=5 --filesize=4k
check "filestat: runs as fio does" [ $? = 0 ]
check "filestat: the laid-out 4k files stay, as fio's" \
  [ "$(listing "$W/i")" = "$(listing "$W/f")" -a "$(listing "$W/i" | grep -c '^-rw-r--r-- 4096 t\.0\.[0-4]$')" = 5 ]
check "filestat: 5 stats counted as fio counts them" same_shape fs
for st in lstat statx; do
  both fs_$st --ioengine=filestat --stat_type=$st --rw=write --nrfiles=3 --filesize=4k
  check "filestat stat_type=$st rw=write: counted in write, as fio" same_shape fs_$st
done
"$IOBENCH" run --name=t --ioengine=filestat --stat_type=fstat --filesize=4k --directory="$W" \
  >/dev/null 2>"$W/bad.err"
check "filestat: stat_type=fstat is refused naming the choices" \
  grep -q "invalid stat type 'fstat' for option 'stat_type': one of stat, lstat, statx" "$W/bad.err"

both fd --ioengine=filedelete --nrfiles=5 --filesize=4k --unlink=0
check "filedelete: runs as fio does" [ $? = 0 ]
check "filedelete: every file is gone, as with fio" [ -z "$(listing "$W/i")" -a -z "$(listing "$W/f")" ]
check "filedelete: 5 unlinks counted as fio counts them" same_shape fd

rm -rf "$W/ro"; mkdir "$W/ro"
for e in filecreate filedelete; do
  "$IOBENCH" run --readonly --name=t --ioengine=$e --nrfiles=2 --filesize=4k --directory="$W/ro" \
    >/dev/null 2>"$W/ro.err"
  rc=$?
  check "$e under --readonly: refused (exit $rc), nothing created" \
    [ $rc != 0 -a -z "$(ls "$W/ro")" ]
  check "$e under --readonly: the message says why" \
    grep -q "read-only mode (--readonly) forbids every write" "$W/ro.err"
done

# fio's examples, with fewer files; filecreate's sets openfiles=1, a file
# option of item 4 that iobench does not implement yet: run without it
ex_run() { # NAME JOBFILE ARGS...
  local name=$1 job=$2; shift 2
  rm -rf "$W/x"; mkdir "$W/x"
  "$IOBENCH" run "$job" --set directory="$W/x" "$@" --output-format=json >"$W/$name.json" 2>"$W/$name.err"
}
grep -v '^openfiles=' "$EX/filecreate-ioengine.fio" >"$W/filecreate-ioengine.fio"
ex_run exfc "$W/filecreate-ioengine.fio" --set nrfiles=20
check "example filecreate-ioengine.fio (without openfiles): 16 jobs create 20 files each" \
  [ $? = 0 -a "$(ls "$W/x" | wc -l)" = 320 ]
ex_run exfs "$EX/filestat-ioengine.fio" --set nrfiles=20
check "example filestat-ioengine.fio: runs, its 6 jobs' 20 files each stay" \
  [ $? = 0 -a "$(ls "$W/x" | wc -l)" = 120 ]
check "example filestat-ioengine.fio: 20 stats in a job" \
  [ "$(json_get "$W/exfs.json" 'd["jobs"][0]["read"]["clat_ns"]["N"]')" = 20 ]
ex_run exfd "$EX/filedelete-ioengine.fio" --set nrfiles=20
check "example filedelete-ioengine.fio: runs and deletes its jobs' files" [ $? = 0 -a -z "$(ls "$W/x")" ]

# ---- ftruncate, falloc (one file each, the same job with both tools) ----
# sizes SUFFIX: "size blocks" of the file both tools left, iobench's then fio's
sizes() { echo "$(stat -c '%s %b' "$W/i/$1")/$(stat -c '%s %b' "$W/f/$1")"; }
both ftw --ioengine=ftruncate --rw=write --size=64k --bs=4k --filename=tr
check "ftruncate rw=write: truncated up to the last offset, 61440 bytes, as fio" \
  [ "$(stat -c %s "$W/i/tr")" = 61440 -a "$(stat -c %s "$W/f/tr")" = 61440 ]
check "ftruncate rw=write: 16 writes with clat and lat, as fio" same_shape ftw
both ftr --ioengine=ftruncate --rw=randwrite --size=64k --bs=4k --filename=tr
check "ftruncate rw=randwrite: counted as fio" same_shape ftr
rm -rf "$W/i"; mkdir "$W/i"
"$IOBENCH" run --name=t --ioengine=ftruncate --rw=read --size=64k --directory="$W/i" \
  --output-format=json >/dev/null 2>"$W/ftrd.err"
check "ftruncate rw=read: fails with EINVAL, as fio" [ $? != 0 ]
check "ftruncate rw=read: the error names the read" grep -q "read of 4096 bytes at offset 0 .*Invalid argument" "$W/ftrd.err"

both faw --ioengine=falloc --rw=write --size=64k --bs=4k --filename=fa
check "falloc rw=write: 64k allocated, as fio ($(sizes fa))" [ "$(sizes fa)" = "65536 128/65536 128" ]
check "falloc rw=write: counted as fio" same_shape faw
both fat --ioengine=falloc --rw=randtrim --size=64k --bs=4k --filename=fa
check "falloc rw=randtrim: every block punched, the size kept, as fio ($(sizes fa))" \
  [ "$(sizes fa)" = "65536 0/65536 0" ]
check "falloc rw=randtrim: counted as fio" same_shape fat
both far --ioengine=falloc --rw=read --size=64k --bs=4k --filename=fa
check "falloc rw=read: keeps the laid-out size, as fio ($(sizes fa))" [ "$(sizes fa)" = "65536 128/65536 128" ]
check "falloc rw=read: counted as fio" same_shape far
"$IOBENCH" run --readonly --name=t --ioengine=falloc --rw=read --size=64k --filename="$W/i/fa" \
  >/dev/null 2>"$W/faro.err"
check "falloc under --readonly: refused saying why" grep -q "read-only mode (--readonly) forbids every write" "$W/faro.err"

ex_run exft "$EX/ftruncate.fio" --set size=1m --set runtime=1s
check "example ftruncate.fio: both jobs run without error" \
  [ $? = 0 -a "$(json_get "$W/exft.json" '" ".join(str(j["error"]) for j in d["jobs"])')" = "0 0" ]
ex_run exfa "$EX/falloc.fio" --set size=4m --set filesize=4m --set runtime=1s
check "example falloc.fio: its three groups run without error" \
  [ $? = 0 -a "$(json_get "$W/exfa.json" '" ".join(str(j["error"]) for j in d["jobs"])')" = "0 0 0" ]
check "example falloc.fio: the fuzzers fragmented the file (more than 16 extents)" \
  [ "$(filefrag "$W/x/fragmented_file" | awk '{print $2}')" -gt 16 ]

finish
