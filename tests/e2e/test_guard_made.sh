#!/usr/bin/env bash
# Files iobench did not create are never truncated, written or removed, and
# read-only mode changes nothing (files in temporary folders and an ext4
# loop filesystem made here):
#  - mem=mmap:FILE and mem=mmapshared:FILE: a FILE that exists is refused
#    and keeps its content and size; one that does not is created, used and
#    removed at the end; clones map FILE.N; under --readonly (and
#    readonly=1) it is refused at its line, and nothing is created;
#  - e4defrag's donorname: a donor that exists is refused and keeps its
#    content and size; a donor the job creates is removed with unlink=1 and
#    left without it (as fio leaves it); two jobs of one run share the donor
#    the first created; a block device as the donor is refused, unchanged;
#    under --readonly it is refused;
#  - ioengine=exec, exec_prerun and exec_postrun are refused under
#    --readonly and readonly=1 at the option's file:line:col, with the
#    reason, and so is --trigger, and no canary command runs; a
#    --trigger-file that holds data is left (an empty one is consumed);
#  - a read job under --readonly creates nothing in its folder.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
export IOBENCH_DB=$d/results.db

sum() { sha256sum <"$1" | cut -d' ' -f1; }
says() { # DESC FILE TEXT: FILE contains TEXT
  if grep -qF -- "$3" "$2"; then ok "$1"; else not_ok "$1 (wanted '$3'; got: $(tail -3 "$2"))"; fi
}
listing() { (cd "$1" && find . | LC_ALL=C sort); }

# --- mem=mmap:FILE ---------------------------------------------------------
for kind in mmap mmapshared; do
  f=$d/$kind.keep
  head -c 300000 /dev/urandom >"$f"
  before=$(sum "$f")
  "$IOBENCH" run --name=m --filename="$d/data" --size=256k --bs=64k --rw=write \
    --mem="$kind:$f" --no-store --output-format=terse >/dev/null 2>"$d/$kind.err"
  rc=$?
  check "mem=$kind:FILE that exists: refused (exit $rc)" test $rc -eq 1
  says "mem=$kind:FILE that exists: the message says why" "$d/$kind.err" \
    "it exists, and iobench maps only a file it creates"
  check "mem=$kind:FILE that exists: its content and size are kept" \
    test "$(sum "$f")" = "$before" -a "$(stat -c %s "$f")" = 300000
  n=$d/$kind.new
  "$IOBENCH" run --name=m --filename="$d/data" --size=256k --bs=64k --rw=write --numjobs=2 \
    --mem="$kind:$n" --no-store --output-format=terse >/dev/null 2>"$d/$kind.new.err"
  check "mem=$kind:FILE that does not exist: the run works (2 clones: FILE and FILE.1)" test $? -eq 0
  check "mem=$kind:FILE it created: removed at the end" test ! -e "$n" -a ! -e "$n.1"
done
mkdir "$d/ro"
printf '[r]\nfilename=%s\nsize=256k\nrw=read\nmem=mmap:%s\n' "$d/data" "$d/ro/buf" >"$d/ro.fio"
"$IOBENCH" run --readonly "$d/ro.fio" --no-store >/dev/null 2>"$d/ro.err"
check "--readonly with mem=mmap:FILE: refused" test $? -eq 1
says "--readonly with mem=mmap:FILE: at the option's line, saying why" "$d/ro.err" \
  "$d/ro.fio:5:5: error: job 'r' maps its buffers on a file it creates"
check "--readonly with mem=mmap:FILE: nothing created" test -z "$(ls -A "$d/ro")"
printf '[r]\nreadonly=1\nfilename=%s\nsize=256k\nrw=read\nmem=mmapshared:%s\n' "$d/data" "$d/ro/buf" >"$d/ro1.fio"
"$IOBENCH" run "$d/ro1.fio" --no-store >/dev/null 2>"$d/ro1.err"
says "readonly=1 with mem=mmapshared:FILE: refused at its line" "$d/ro1.err" \
  "$d/ro1.fio:6:5: error: job 'r' maps its buffers on a file it creates"
check "readonly=1 with mem=mmapshared:FILE: nothing created" test -z "$(ls -A "$d/ro")"

# --- a read job under --readonly creates nothing ----------------------------
mkdir "$d/quiet"
head -c 262144 /dev/urandom >"$d/quiet/f"
was=$(listing "$d/quiet") fsum=$(sum "$d/quiet/f")
(cd "$d/quiet" && "$IOBENCH" run --readonly --name=q --filename=f --size=256k --rw=randread \
  --no-store --output-format=json >"$d/quiet.json" 2>"$d/quiet.err")
check "--readonly read job: runs" test $? -eq 0
check "--readonly read job: nothing created or changed in its folder" \
  test "$(listing "$d/quiet")" = "$was" -a "$(sum "$d/quiet/f")" = "$fsum"

# --- programs under read-only mode ------------------------------------------
mkdir "$d/canary"
cat >"$d/exec.fio" <<EOF
[x]
filename=$d/data
size=64k
rw=read
ioengine=exec
program=/bin/touch
arguments=$d/canary/exec
EOF
cat >"$d/pre.fio" <<EOF
[p]
filename=$d/data
size=64k
rw=read
exec_prerun=touch $d/canary/pre
exec_postrun=touch $d/canary/post
EOF
"$IOBENCH" run --readonly "$d/exec.fio" --no-store >/dev/null 2>"$d/exec.err"
check "--readonly ioengine=exec: refused" test $? -eq 1
says "--readonly ioengine=exec: at the option's line, saying why" "$d/exec.err" \
  "$d/exec.fio:5:10: error: job 'x' runs a program (ioengine=exec), but read-only mode (--readonly) runs nothing that could change the system"
(cd "$d/canary" && "$IOBENCH" run --readonly "$d/pre.fio" --no-store >/dev/null 2>"$d/pre.err")
check "--readonly exec_prerun/exec_postrun: refused" test $? -eq 1
says "--readonly exec_prerun: at its line" "$d/pre.err" \
  "$d/pre.fio:5:13: error: job 'p' runs a command before its I/O (exec_prerun), but read-only mode (--readonly)"
says "--readonly exec_postrun: at its line" "$d/pre.err" \
  "$d/pre.fio:6:14: error: job 'p' runs a command after its I/O (exec_postrun), but read-only mode (--readonly)"
"$IOBENCH" run -r --name=c --filename="$d/data" --size=64k --ioengine=exec --program=/bin/touch \
  --arguments="$d/canary/cl" --no-store >/dev/null 2>"$d/cl.err"
says "-r with --ioengine=exec on the command line: refused at its word" "$d/cl.err" \
  "<command line>:4:12: error: job 'c' runs a program (ioengine=exec)"
sed 's/^\[p\]$/[p]\nreadonly=1/' "$d/pre.fio" >"$d/pre1.fio"
"$IOBENCH" run "$d/pre1.fio" --no-store >/dev/null 2>"$d/pre1.err"
says "readonly=1 exec_prerun: refused at its line" "$d/pre1.err" \
  "$d/pre1.fio:6:13: error: job 'p' runs a command before its I/O (exec_prerun), but read-only mode (readonly=1)"
"$IOBENCH" run --readonly --parse-only "$d/exec.fio" >/dev/null 2>"$d/po.err"
says "--parse-only --readonly: the same refusal" "$d/po.err" "$d/exec.fio:5:10: error:"
check "no canary command ran, no output file was made" test -z "$(ls -A "$d/canary")"
(cd "$d/canary" && "$IOBENCH" run --readonly --trigger="touch $d/canary/trig" --trigger-timeout=1 \
  --name=t --filename="$d/data" --size=64k --rw=read --no-store >/dev/null 2>"$d/trig.err")
check "--readonly --trigger: refused" test $? -eq 1
says "--readonly --trigger: saying why" "$d/trig.err" \
  "--trigger runs a command, but read-only mode (--readonly) runs nothing"
# a trigger file with data fires the trigger but is left
printf 'keep me\n' >"$d/trigfile"
"$IOBENCH" run --trigger-file="$d/trigfile" --name=t --ioengine=null --size=1m --time_based \
  --runtime=20 --no-store --output-format=terse >/dev/null 2>"$d/tf.err"
check "a --trigger-file that holds data: the run stops and exits 0" test $? -eq 0
check "a --trigger-file that holds data: it is left, content kept" test "$(cat "$d/trigfile")" = "keep me"
# without read-only mode the same job files run their programs
(cd "$d/canary" && "$IOBENCH" run "$d/pre.fio" --no-store >/dev/null 2>&1)
check "without --readonly exec_prerun and exec_postrun run (the canary works)" \
  test -e "$d/canary/pre" -a -e "$d/canary/post"

# --- e4defrag's donor --------------------------------------------------------
M=$(mkfs_mount ext4 128M)
mkdir "$M/e"
head -c 200000 /dev/urandom >"$M/e/keep.def"
before=$(sum "$M/e/keep.def")
E=(--name=d --ioengine=e4defrag --directory="$M/e" --filename=file1 --filesize=256k --size=256k
   --bs=32k --rw=randwrite --buffered=0 --no-store --output-format=terse)
"$IOBENCH" run "${E[@]}" --donorname=keep.def >/dev/null 2>"$d/e4x.err"
check "e4defrag donor that exists: refused" test $? -eq 1
says "e4defrag donor that exists: the message says why" "$d/e4x.err" \
  "'$M/e/keep.def' exists and this run did not make it"
check "e4defrag donor that exists: its content and size are kept" \
  test "$(sum "$M/e/keep.def")" = "$before" -a "$(stat -c %s "$M/e/keep.def")" = 200000
"$IOBENCH" run "${E[@]}" --donorname=new.def --unlink=1 >/dev/null 2>"$d/e4u.err"
check "e4defrag with unlink=1: runs" test $? -eq 0
check "e4defrag with unlink=1: the donor it created is removed" test ! -e "$M/e/new.def"
"$IOBENCH" run "${E[@]}" --donorname=left.def >/dev/null 2>"$d/e4l.err"
check "e4defrag without unlink: runs, the donor it created is left (as fio)" \
  test $? -eq 0 -a -f "$M/e/left.def"
printf '[global]\nioengine=e4defrag\ndirectory=%s\ndonorname=shared.def\nfilesize=256k\nsize=256k\nbs=32k\nrw=randwrite\nbuffered=0\nunlink=1\n[a]\nfilename=fa\n[b]\nstonewall\nfilename=fb\n' \
  "$M/e" >"$d/two.fio"
"$IOBENCH" run "$d/two.fio" --no-store --output-format=terse >/dev/null 2>"$d/two.err"
check "two jobs of a run share the donor the first created, and it goes after (unlink=1)" \
  test $? -eq 0 -a ! -e "$M/e/shared.def"
L=$(mkloop 16M)
head -c 65536 /dev/urandom | dd of="$L" conv=notrunc status=none
lsum=$(head -c 1048576 "$L" | sha256sum | cut -d' ' -f1)
timeout 30 "$IOBENCH" run --name=d --ioengine=e4defrag --filename="$M/e/file2" --filesize=256k \
  --size=256k --bs=32k --rw=randwrite --buffered=0 --donorname="$L" --no-store >/dev/null 2>"$d/e4l.err"
rc=$?
check "e4defrag donor that is a block device: refused (exit $rc, no hang)" test $rc -eq 1
says "e4defrag donor that is a block device: the message says why" "$d/e4l.err" "exists and this run did not make it"
check "e4defrag donor that is a block device: the device is unchanged" \
  test "$(head -c 1048576 "$L" | sha256sum | cut -d' ' -f1)" = "$lsum"
mkdir "$M/r"
"$IOBENCH" run --readonly --name=d --ioengine=e4defrag --directory="$M/r" --filename=file1 \
  --size=256k --rw=read --donorname=ro.def --no-store >/dev/null 2>"$d/e4r.err"
says "e4defrag under --readonly: refused, saying why" "$d/e4r.err" \
  "uses ioengine=e4defrag, which creates a donor file and moves the job's blocks onto it, but read-only mode (--readonly)"
check "e4defrag under --readonly: nothing created" test -z "$(ls -A "$M/r")"

finish
