#!/usr/bin/env bash
# fio 3.33's file options side by side with fio: the names filename_format
# makes (and the directories it makes, 0700), opendir's files in fio's order,
# the order of I/Os and of opens/closes under openfiles= and each
# file_service_type (strace), create_only, create_fsync (no fsync),
# file_append (the old bytes kept, the file grown), pre_read (the files read
# before the job), unlink_each_loop (between loops, as fio; a job that reads
# fails the next loop as fio's does), lockfile (no two I/Os of the run's
# threads overlap on the file, or no write overlaps under readwrite),
# fill_device on a small ext4 (surface-scan.fio writes and verifies as many
# bytes as fio), allow_mounted_write (the guard still refuses a mounted
# device), --parse-only with a directory= that does not exist, and fio's
# example job files filecreate-ioengine, surface-scan, falloc, ftruncate,
# 1mbs_clients and ssd-test run with small overrides (--set for iobench),
# with the JSON key set of fio's for the same job file.
. "$(dirname "$0")/lib.sh"
need_fio_examples filecreate-ioengine.fio falloc.fio ftruncate.fio 1mbs_clients.fio ssd-test.fio \
  surface-scan.fio aio-read.fio
need_root
need_cmd fio fio || finish
need_cmd strace strace || finish
FIO=$(command -v fio)
EX=$FIO_EXAMPLES
# seconds count here: no monitor, no results database (neither is what is tested)
IOB_FLAGS=(--no-monitor --no-store)
d=$(tmpdir)
[ -n "$d" ] && [ -d "$d" ] || { echo "not ok - no temporary directory"; exit 1; }
mkdir -p "$d/w"

# run TOOL ARGS...: in a fresh $d/w, JSON to $d/out.json, rc to $d/rc
run() {
  local t=$1; shift
  rm -rf "$d/w"; mkdir -p "$d/w"
  if [ "$t" = fio ]; then (cd "$d/w" && "$FIO" "$@" --output-format=json >"$d/out.json" 2>"$d/err"); else
    (cd "$d/w" && "$IOBENCH" run "${IOB_FLAGS[@]}" "$@" --output-format=json >"$d/out.json" 2>"$d/err"); fi
  echo $? >"$d/rc"
}
files_of() { (cd "$d/w" && find . -mindepth 1 -printf '%p %y %m %s\n' | sort); }

# the I/O order per file and the opens/closes of the job's files, from strace
# strace -f -y: split calls joined (strace_lines.py), and each descriptor
# named by its file, so fio's main process closing its own descriptor of
# the same number is not taken for the job's close; only files the job
# opened to read or read and write count (not the layout's O_WRONLY ones)
IOSEQ=$(cat <<'EOF'
import re, sys
from strace_lines import lines
seq, oc, live = [], [], set()
nm = lambda p: p.split('.')[0] + p.split('.')[-1]  # jxa.0.3 -> jxa3
F = r'\d+<(?:[^>]*/)?(jx[a-z]*\.[^>]*)>'
for l in lines(sys.argv[1]):
    m = re.search(r'openat\(AT_FDCWD[^,]*, "(?:[^"]*/)?(jx[a-z]*\.[^"]*)", (O_RDWR|O_RDONLY)[^)]*\)\s*= \d+<', l)
    if m:
        live.add(m.group(1)); oc.append('o' + nm(m.group(1))); continue
    m = re.search(r'close\(' + F + r'\)', l)
    if m and m.group(1) in live:
        live.discard(m.group(1)); oc.append('c' + nm(m.group(1))); continue
    m = re.search(r'p(?:write|read)64\(' + F + r', .*, \d+, (\d+)\s*\)\s*= ', l)
    if m and m.group(1) in live:
        seq.append('%s@%d' % (nm(m.group(1)), int(m.group(2)) // 4096))
print(' '.join(seq)); print(' '.join(oc))
EOF
)
ioseq() { # TOOL ARGS... -> the I/O order line, then the open/close line
  local t=$1; shift
  rm -rf "$d/w"; mkdir -p "$d/w"
  if [ "$t" = fio ]; then strace -f -y -e trace=openat,close,pwrite64,pread64 -o "$d/st" "$FIO" --name=jx --directory="$d/w" "$@" >/dev/null 2>&1
  else strace -f -y -e trace=openat,close,pwrite64,pread64 -o "$d/st" "$IOBENCH" run "${IOB_FLAGS[@]}" --name=jx --directory="$d/w" "$@" >/dev/null 2>&1; fi
  PYTHONPATH="$TOP/tests/e2e" python3 -c "$IOSEQ" "$d/st"
}

# fio's examples (checked at the end): fio runs them in the background
# meanwhile, each in a directory of its own
cat >"$d/examples" <<'EOF'
filecreate-ioengine.fio nrfiles=20
falloc.fio size=1m filesize=1m runtime=250ms
ftruncate.fio size=260k runtime=250ms
1mbs_clients.fio size=16k runtime=250ms startdelay=0
ssd-test.fio size=128k runtime=1
EOF
# fio takes no --set: for it, a copy of each file with every overridden
# key's lines dropped and KEY=VAL put at the end of every section
python3 - "$EX" "$d" <<'EOF' || { not_ok "the copies of fio's examples for fio (python exited $?)"; finish; }
import re, sys
ex, d = sys.argv[1], sys.argv[2]
for line in open(d + '/examples'):
    name, *kv = line.split()
    kv.append('directory=%s/fx/%s.d' % (d, name))
    keys = '|'.join(re.escape(k.split('=')[0]) for k in kv)
    out, insec = [], False
    for l in open('%s/%s' % (ex, name)).read().split('\n'):
        if re.match(r'\s*(%s)\s*=' % keys, l):
            continue
        if re.match(r'\s*\[.*\]', l):
            if insec: out += kv
            insec = True
        out.append(l)
    out += kv if insec else []
    open('%s/%s' % (d, name), 'w').write('\n'.join(out) + '\n')
EOF
mkdir -p "$d/fx"
(while read -r ex _; do mkdir -p "$d/fx/$ex.d"; (cd "$d/fx/$ex.d" && "$FIO" "$d/$ex" --output-format=json >"$d/fx/$ex.json" 2>/dev/null </dev/null); done <"$d/examples") &
fxpid=$!

# --- filename_format, and fio's directories for a name with '/' ---
cat >"$d/ff.fio" <<'EOF'
[global]
directory=.
nrfiles=2
numjobs=2
size=64k
rw=write
[fa]
filename_format=f.$jobname.$jobnum.$filenum.$clientuid.x
[fb]
filename_format=$jobnum/sub/$filenum
[fc]
filename_format=same
EOF
run fio "$d/ff.fio"; want=$(files_of)
run iob "$d/ff.fio"; got=$(files_of)
check "filename_format (\$jobname \$jobnum \$filenum \$clientuid, a/b/c, one name for all): the same files, modes and sizes as fio ($(echo $want | head -c 100)...)" \
  test "$want" = "$got" -a "$(echo "$got" | wc -l)" = 13
run iob --name=jx --directory=. --size=64k --rw=write --unique_filename=0
check "unique_filename=0 is accepted: jx.0.0 as without it" test "$(files_of)" = "./jx.0.0 f 644 65536"

# --- opendir: every regular file of the tree, fio's order and sizes ---
mkdir -p "$d/od/sub/deeper"
head -c 16k /dev/zero >"$d/od/a"; head -c 32k /dev/zero >"$d/od/b"
head -c 8k /dev/zero >"$d/od/sub/c"; head -c 4k /dev/zero >"$d/od/sub/deeper/e"
ln -s a "$d/od/sub/link"; mkfifo "$d/od/sub/fifo"
for t in fio iob; do
  if [ $t = fio ]; then strace -f -e trace=openat -o "$d/st.$t" "$FIO" --name=jx --opendir="$d/od" --rw=read --output-format=json >"$d/od.$t.json" 2>/dev/null
  else strace -f -e trace=openat -o "$d/st.$t" "$IOBENCH" run "${IOB_FLAGS[@]}" --name=jx --opendir="$d/od" --rw=read --output-format=json >"$d/od.$t.json" 2>/dev/null; fi
  grep -o "\"$d/od/[^\"]*\", O_RDONLY[^)]*) = [0-9]" "$d/st.$t" | grep -v DIRECTORY | cut -d'"' -f2 >"$d/od.$t"
done
check "opendir: the same files opened in the same order as fio ($(tr '\n' ' ' <"$d/od.fio"))" \
  cmp -s "$d/od.fio" "$d/od.iob"
check "opendir: 4 regular files (no symlink, no fifo)" test "$(wc -l <"$d/od.iob")" = 4
check "opendir: reads every byte of them, as fio (61440)" \
  test "$(json_get "$d/od.iob.json" 'd["jobs"][0]["read"]["io_bytes"]')" = 61440 -a \
       "$(sed -n '/^{/,$p' "$d/od.fio.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["io_bytes"])')" = 61440

# --- openfiles and file_service_type: the I/O order and opens/closes of fio ---
cat >"$d/fs.fio" <<'EOF'
[global]
ioengine=psync
stonewall
[jxa]
nrfiles=4
openfiles=2
size=32k
rw=write
[jxb]
nrfiles=3
openfiles=1
size=24k
rw=read
[jxc]
nrfiles=3
size=24k
rw=write
file_service_type=sequential
[jxd]
nrfiles=3
size=48k
rw=write
file_service_type=roundrobin:2
EOF
for t in fio iob; do
  rm -rf "$d/w"; mkdir -p "$d/w"
  if [ $t = fio ]; then (cd "$d/w" && strace -f -y -e trace=openat,close,pwrite64,pread64 -o "$d/st" "$FIO" "$d/fs.fio" >/dev/null 2>&1)
  else (cd "$d/w" && strace -f -y -e trace=openat,close,pwrite64,pread64 -o "$d/st" "$IOBENCH" run "${IOB_FLAGS[@]}" "$d/fs.fio" >/dev/null 2>&1); fi
  PYTHONPATH="$TOP/tests/e2e" python3 -c "$IOSEQ" "$d/st" >"$d/fsq.$t" || not_ok "file_service_type: the $t trace read (python exited $?)"
done
n=0
for name in "openfiles=2 (4 files)" "openfiles=1 (3 files)" "file_service_type=sequential" "file_service_type=roundrobin:2"; do
  n=$((n + 1)); job=jx$(echo abcd | cut -c$n)
  want=$(sed -n 1p "$d/fsq.fio" | tr ' ' '\n' | grep "^$job" | tr '\n' ' ')
  got=$(sed -n 1p "$d/fsq.iob" | tr ' ' '\n' | grep "^$job" | tr '\n' ' ')
  check "$name: the I/O order of fio ($want)" test "$want" = "$got" -a -n "$got"
  if [ $n -le 2 ]; then
    want=$(sed -n 2p "$d/fsq.fio" | tr ' ' '\n' | grep "^.$job" | tr '\n' ' ')
    got=$(sed -n 2p "$d/fsq.iob" | tr ' ' '\n' | grep "^.$job" | head -$(echo $want | wc -w) | tr '\n' ' ')
    check "$name: fio's opens and closes ($want)" test "$want" = "$got" -a -n "$got"
  fi
done
run iob --name=jx --nrfiles=3 --openfiles=1 --size=48k --rw=write --ioengine=libaio --iodepth=8
check "openfiles=1 with libaio iodepth=8: the I/O in flight is reaped before a file is closed (exit $(cat "$d/rc"), 48 KiB)" \
  test "$(cat "$d/rc")" = 0 -a "$(json_get "$d/out.json" 'd["jobs"][0]["write"]["io_bytes"]')" = 49152
ioseq iob --nrfiles=4 --size=256k --rw=write --file_service_type=random:2 >"$d/rnd"
check "file_service_type=random:2: 16 I/Os to each of the 4 files, in runs of an even length" python3 - "$d/rnd" <<'EOF'
import sys, itertools, collections
seq = [x.split('@')[0] for x in open(sys.argv[1]).readline().split()]
c = collections.Counter(seq)
runs = [len(list(g)) for _, g in itertools.groupby(seq)]
sys.exit(0 if sorted(c.values()) == [16] * 4 and all(r % 2 == 0 for r in runs) else 1)
EOF
ioseq iob --nrfiles=4 --size=64k --rw=read --file_service_type=zipf:1.5 --io_size=256k >"$d/zipf"
check "file_service_type=zipf:1.5: the hottest file gets most of the 64 I/Os" python3 - "$d/zipf" <<'EOF'
import sys, collections
c = collections.Counter(x.split('@')[0] for x in open(sys.argv[1]).readline().split())
sys.exit(0 if sum(c.values()) == 64 and max(c.values()) > 32 else 1)
EOF
"$IOBENCH" run "${IOB_FLAGS[@]}" --parse-only --name=x --size=1m --file_service_type=zipf:1 2>"$d/err"
check "file_service_type=zipf:1 is refused, as fio's range" grep -q "zipf theta must be above 0 and not 1" "$d/err"
"$IOBENCH" run "${IOB_FLAGS[@]}" --parse-only --name=x --size=1m --lockfile=bogus 2>"$d/err"
check "lockfile=bogus is refused with the modes" grep -q "use none, exclusive or readwrite" "$d/err"

# --- create_only, create_fsync, file_append, pre_read ---
for t in fio iob; do run $t --name=jx --filename=f1 --size=64k --rw=read --create_only=1
  echo "$(cat "$d/rc") $(json_get "$d/out.json" 'd["jobs"][0]["read"]["io_bytes"], d["jobs"][0]["job_runtime"]') $(stat -c %s "$d/w/f1")" >"$d/co.$t"; done
check "create_only=1: the file laid out, no I/O, as fio ($(cat "$d/co.fio"))" cmp -s "$d/co.fio" "$d/co.iob"
printf '[global]\nsize=64k\nrw=read\n[cf0]\nfilename=%s/w/cf0\ncreate_fsync=0\n[cf1]\nfilename=%s/w/cf1\n' "$d" "$d" >"$d/cf.fio"
strace -f -e trace=openat,fsync,fdatasync -o "$d/st" "$IOBENCH" run "${IOB_FLAGS[@]}" "$d/cf.fio" >/dev/null 2>&1
fd0=$(grep -o 'cf0", O_WRONLY[^)]*) = [0-9]*' "$d/st" | awk '{print $NF}'); fd1=$(grep -o 'cf1", O_WRONLY[^)]*) = [0-9]*' "$d/st" | awk '{print $NF}')
check "create_fsync=0: no fsync after the layout; create_fsync=1 (the default): one" \
  test -n "$fd0" -a -n "$fd1" -a "$(grep -c "fsync($fd1)" "$d/st")" -ge 1 -a "$(grep -c 'fsync(' "$d/st")" = 1
for t in fio iob; do rm -rf "$d/w"; mkdir -p "$d/w"; head -c 1M /dev/urandom >"$d/w/f1"; sum0=$(md5sum <"$d/w/f1")
  if [ $t = fio ]; then (cd "$d/w" && "$FIO" --name=jx --filename=f1 --size=64k --rw=write --file_append=1 >/dev/null 2>&1)
  else (cd "$d/w" && "$IOBENCH" run "${IOB_FLAGS[@]}" --name=jx --filename=f1 --size=64k --rw=write --file_append=1 >/dev/null 2>&1); fi
  echo "$(stat -c %s "$d/w/f1") $([ "$(head -c 1M "$d/w/f1" | md5sum)" = "$sum0" ] && echo kept)" >"$d/fa.$t"; done
check "file_append=1: writes after the end, the first 1 MiB kept, as fio ($(cat "$d/fa.fio"))" \
  test "$(cat "$d/fa.fio")" = "$(cat "$d/fa.iob")" -a "$(cat "$d/fa.iob")" = "1114112 kept"
rm -rf "$d/w"; mkdir -p "$d/w"; head -c 256k /dev/zero >"$d/w/pr"
strace -f -e trace=openat,pread64 -o "$d/st" "$IOBENCH" run "${IOB_FLAGS[@]}" --name=jx --filename="$d/w/pr" --rw=randread --pre_read=1 --size=256k >/dev/null 2>&1
check "pre_read=1: the whole file read through a descriptor of its own before the job's first read" python3 - "$d/st" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
fds = [m.group(1) for l in lines for m in [re.search(r'/pr", O_RDONLY\|O_CLOEXEC\) = (\d+)', l)] if m]
reads = [(m.group(1), int(m.group(2))) for l in lines
         for m in [re.search(r'pread64\((\d+), .*, \d+, \d+\) = (\d+)', l)] if m and m.group(1) in fds]
# the job's own descriptor is opened first, the pre-read one next; the
# pre-read reads the 256 KiB before the job reads anything
sys.exit(0 if len(fds) == 2 and reads and reads[0] == (fds[1], 262144) and
         sum(n for f, n in reads if f == fds[0]) == 262144 else 1)
EOF

# --- unlink_each_loop ---
for t in fio iob; do rm -rf "$d/w"; mkdir -p "$d/w"
  if [ $t = fio ]; then strace -f -e trace=unlink -o "$d/st.$t" "$FIO" --name=jx --filename="$d/w/u" --size=64k --rw=write --loops=3 --unlink_each_loop=1 >/dev/null 2>&1
  else strace -f -e trace=unlink -o "$d/st.$t" "$IOBENCH" run "${IOB_FLAGS[@]}" --name=jx --filename="$d/w/u" --size=64k --rw=write --loops=3 --unlink_each_loop=1 >/dev/null 2>&1; fi
  echo "$(grep -c "unlink(\"$d/w/u\") = 0" "$d/st.$t") $(stat -c %s "$d/w/u" 2>/dev/null)" >"$d/ul.$t"; done
check "unlink_each_loop=1, 3 loops: deleted between loops (twice), the last loop's file stays, as fio ($(cat "$d/ul.fio"))" \
  test "$(cat "$d/ul.fio")" = "$(cat "$d/ul.iob")" -a "$(cat "$d/ul.iob")" = "2 65536"
run iob --name=jx --filename=u2 --size=64k --rw=read --loops=2 --unlink_each_loop=1
check "unlink_each_loop with a read job: the second loop fails, as fio's (exit 1, says why)" \
  bash -c "test $(cat "$d/rc") -ne 0 && grep -q 'unlink_each_loop deleted' '$d/err'"

# --- lockfile: no overlapping I/O on the shared file ---
OVL=$(cat <<'EOF'
import re, sys
iv, pend = [], {}
for l in open(sys.argv[1]):
    m = re.match(r'(\d+)\s+([\d.]+) (pwrite64|pread64)\(\d+,.*?(<unfinished \.\.\.>|= -?\d+ <([\d.]+)>)', l)
    if m:
        if m.group(5): iv.append((float(m.group(2)), float(m.group(2)) + float(m.group(5)), m.group(1), m.group(3)))
        else: pend[m.group(1)] = (float(m.group(2)), m.group(3))
        continue
    m = re.match(r'(\d+)\s+([\d.]+) <\.\.\. (pwrite64|pread64) resumed>.*= -?\d+ <([\d.]+)>', l)
    if m and m.group(1) in pend:
        t, c = pend.pop(m.group(1)); iv.append((t, t + float(m.group(4)), m.group(1), c))
iv.sort(); ov = ovw = 0
for i, (s, e, p, c) in enumerate(iv):
    for (s2, e2, p2, c2) in iv[i + 1:i + 20]:
        if s2 < e and p2 != p:
            ov += 1; ovw += 'write' in c or 'write' in c2
print(len(iv), ov, ovw)
EOF
)
for lk in exclusive:4 readwrite; do
  rm -f "$d/w/lk"
  strace -f -ttt -T -e trace=pwrite64,pread64 -o "$d/st" "$IOBENCH" run "${IOB_FLAGS[@]}" --name=a --filename="$d/w/lk" --size=128k --rw=randrw --numjobs=2 --lockfile=$lk >/dev/null 2>&1
  read -r n ov ovw < <(python3 -c "$OVL" "$d/st")
  if [ $lk = readwrite ]; then check "lockfile=$lk: of $n I/Os of 2 threads, no write overlaps another I/O" test "$n" -ge 64 -a "$ovw" = 0
  else check "lockfile=$lk: of $n I/Os of 2 threads, none overlaps another" test "$n" -ge 64 -a "$ov" = 0; fi
done

# --- fill_device on a small ext4, with fio's surface-scan.fio ---
mnt=$(mkfs_mount ext4 24M)
# fill_device fills whatever filesystem it is in: only ever the test's own
mountpoint -q "$mnt" || { not_ok "cannot mount a 24 MiB ext4 for fill_device"; finish; }
for t in fio iob; do
  rm -f "$mnt/datafile.tmp"
  if [ $t = fio ]; then (cd "$mnt" && "$FIO" "$EX/surface-scan.fio" --output-format=json >"$d/ss.$t.json" 2>/dev/null); echo $? >"$d/ss.$t.rc"
  else (cd "$mnt" && "$IOBENCH" run "${IOB_FLAGS[@]}" "$EX/surface-scan.fio" --output-format=json >"$d/ss.$t.json" 2>"$d/ss.err"); echo $? >"$d/ss.$t.rc"; fi
  echo "$(cat "$d/ss.$t.rc") $(stat -c %s "$mnt/datafile.tmp") $(sed -n '/^{/,$p' "$d/ss.$t.json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s:%d/%d/%d" % (j["jobname"], j["write"]["io_bytes"], j["read"]["io_bytes"], j["error"]) for j in d["jobs"]))')" >"$d/ss.$t"
  sed -n '/^{/,$p' "$d/ss.$t.json" >"$d/ss.$t.clean.json"
done
check "fill_device (surface-scan.fio): as many bytes written until ENOSPC and verified as fio ($(cat "$d/ss.fio"))" \
  test "$(cat "$d/ss.fio")" = "$(cat "$d/ss.iob")"
check "surface-scan.fio: the JSON key set of fio's" python3 "$TOP/tests/e2e/json_keys.py" "$d/ss.fio.clean.json" "$d/ss.iob.clean.json"
check "surface-scan.fio: nothing on stderr" test ! -s "$d/ss.err"
# (fill_device on a job that only reads: test_fio_gaps.sh)
# allow_mounted_write cannot unlock a mounted device: the guard refuses
dev=$(findmnt -n -o SOURCE "$mnt")
"$IOBENCH" run "${IOB_FLAGS[@]}" --name=m --filename="$dev" --rw=write --size=1m --allow_mounted_write=1 >/dev/null 2>"$d/err"
rc=$?
check "allow_mounted_write=1: writing the mounted $dev is still refused (exit $rc)" bash -c "test $rc -ne 0 && grep -q 'mounted at' '$d/err'"
"$IOBENCH" help options allow_mounted_write >"$d/help" 2>&1
check "allow_mounted_write's help says the guard still refuses a mounted device" grep -q "still refuses" "$d/help"

# --- --parse-only does not look for directory= (fio's does not either) ---
"$FIO" --parse-only "$EX/aio-read.fio" >/dev/null 2>&1; frc=$?
"$IOBENCH" run "${IOB_FLAGS[@]}" --parse-only "$EX/aio-read.fio" >/dev/null 2>"$d/err"; irc=$?
check "--parse-only aio-read.fio (directory=/data1 missing): exit $irc as fio's $frc" test $irc = 0 -a $frc = 0
"$IOBENCH" run "${IOB_FLAGS[@]}" --name=x --directory="$d/nonexistent" --size=64k >/dev/null 2>"$d/err"
check "a real run still refuses a missing directory=" grep -q "directory '$d/nonexistent' does not exist" "$d/err"

# --- fio's examples: run with small overrides, fio's JSON key set ---
wait "$fxpid"
# the key sets, without "global options" (the job file as written: fio's
# copy has the overrides in its sections, iobench's run has them from
# --set) and, for falloc.fio, without "job options" (fio echoes a reported
# group's options from its last job, iobench from its first: the JSON's
# business, not the files')
KEYS=$(cat <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[4])
import json_keys
for f in sys.argv[1:3]:
    d = json_keys.load(f)
    d.pop("global options", None)
    for j in d["jobs"]:
        if sys.argv[3] == "falloc.fio": j["job options"] = {}
    json.dump(d, open(f, "w"))
sys.argv = sys.argv[:3]
sys.exit(json_keys.main())
EOF
)
while read -r -u 3 ex args; do
  sets=(); for a in $args directory="$d/w"; do sets+=(--set "$a"); done
  run iob "$EX/$ex" "${sets[@]}"; cp "$d/out.json" "$d/ex.iob.json"
  check "$ex runs with --set ${args// / --set } (exit $(cat "$d/rc"), nothing on stderr)" test "$(cat "$d/rc")" = 0 -a ! -s "$d/err"
  cp "$d/fx/$ex.json" "$d/ex.fio.json"
  check "$ex: the JSON key set of fio's for the same jobs" python3 -c "$KEYS" "$d/ex.fio.json" "$d/ex.iob.json" "$ex" "$TOP/tests/e2e"
done 3<"$d/examples"
finish
