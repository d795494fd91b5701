#!/usr/bin/env bash
# What the warnings look at and what they name, on
# loop filesystems made here:
# - tests/data/seed003's four job files in one run (two direct, two buffered groups,
#   sizes shrunk with --set) on ext4: page-cache-write for the buffered
#   groups only, each warning naming its group and job, in the text and in
#   the JSON (whose groups[] carries each batch's devices and window); the
#   device statistics and cachestat's count of unwritten pages show the
#   provocation was real; a buffered job beside a direct one in one group
#   is named on its own;
# - bonnie -u nobody --warn-slab=1m on ext2 with 1 KiB blocks keeps its
#   watch: slab-growth is raised, the header shows the ext geometry, nothing
#   is listed as not watched, its own I/O is counted; the same run started
#   as nobody says what it could not watch;
# - bonnie's cpu-bound: every phase that ran has its scheduler figure, and
#   no cpu-bound warning names a phase printed as +++++;
# - quick: its header says the write figures include the flush, and with
#   --no-flush (write-cache) or on ramfs (page-cache-read) the advice names
#   quick's own flags, never fio's job options;
# - every monitor summary of these runs (whole and per group) has
#   min <= mean <= max for every figure.
. "$(dirname "$0")/lib.sh"
need_root
HERE=$(cd "$(dirname "$0")" && pwd)
S3=$TOP/tests/data/seed003
t=$(tmpdir)

# --- tests/data/seed003: four job files, one run ---------------------------------------
E=$(mkfs_mount ext4 1G -E lazy_itable_init=0,lazy_journal_init=0) || { not_ok "make a loop ext4"; finish; }
EN=$(basename "$(findmnt -n -o SOURCE "$E")")
S3SET=(--set directory="$E" --set size=16m --set runtime=2)
S3FILES=("$S3/random-write-test.fio" "$S3/random-write-test-buf.fio"
         "$S3/sequential-write-test.fio" "$S3/sequential-write-test-buf.fio")
# One run gives both reports (normal,json: the JSON, then the text). The
# provocation is partly the machine's: a system-wide writeback (other work
# dirtying memory past the background limit, or lowering vm.dirty_bytes)
# writes a buffered group's data while it runs, and then no warning is due.
# So the run is repeated, up to three times, until every buffered group
# left at least half of its data unwritten (cachestat's count, in the JSON)
# and every direct group reached the device; then the verdicts must be exact.
for attempt in 1 2 3; do
  "$IOBENCH" run --output-format=normal,json "${S3SET[@]}" "${S3FILES[@]}" >"$t/s3.out" 2>"$t/s3.err"
  rc=$?
  find "$E" -maxdepth 1 -type f -delete; sync
  [ $rc -eq 0 ] || break
  python3 - "$t/s3.out" "$t/s3.json" "$t/s3.txt" "$EN" <<'EOF' && break
import json, sys
t = open(sys.argv[1]).read()
at = t.index("\n{\n") + 1
j, end = json.JSONDecoder().raw_decode(t, at)
json.dump(j, open(sys.argv[2], "w"))
open(sys.argv[3], "w").write(t[:at] + t[end:])
extra = {x["jobname"]: x for x in j["iobench"]["jobs"]}
for x, job in zip(j["iobench"]["groups"], j["jobs"]):
    dev = next(d for d in x["disks"] if d["name"] == sys.argv[4])["write_bytes"]
    wrote, left = job["write"]["io_bytes"], extra[job["jobname"]].get("unwritten_bytes", 0)
    if job["jobname"].endswith("direct") and dev < wrote or \
       not job["jobname"].endswith("direct") and left < wrote / 2:
        print("# %s wrote %d, %s wrote %d during its group, %d unwritten at its end: again"
              % (job["jobname"], wrote, sys.argv[4], dev, left))
        sys.exit(1)
EOF
  sleep 3
done
check "four job files: the run exits 0 (attempt $attempt)" test $rc -eq 0
pycheck "four job files: groups[] holds the four batches, each with its job and its devices" "$t/s3.json" "$EN" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
g = j["iobench"]["groups"]
want = ["random-write-direct", "random-write-buf", "sequential-write-direct", "sequential-write-buffered"]
assert [x["jobs"] for x in g] == [[n] for n in want], [x["jobs"] for x in g]
assert [x["groups"] for x in g] == [[0], [1], [2], [3]], [x["groups"] for x in g]
for x in g:
    assert any(d["name"] == sys.argv[2] for d in x["disks"]), x["disks"]
    assert "process_io" in x and "monitor" in x, sorted(x)
EOF
pycheck "four job files: the provocation (direct groups reached the device; the buffered groups' data was still in memory when they ended)" \
  "$t/s3.json" "$EN" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
extra = {x["jobname"]: x for x in j["iobench"]["jobs"]}
for x, job in zip(j["iobench"]["groups"], j["jobs"]):
    dev = next(d for d in x["disks"] if d["name"] == sys.argv[2])["write_bytes"]
    wrote = job["write"]["io_bytes"]
    name = job["jobname"]
    left = extra[name].get("unwritten_bytes")
    print("# %s: wrote %d, %s wrote %d during its group, %s unwritten at its end"
          % (name, wrote, sys.argv[2], dev, left), file=sys.stderr)
    assert wrote >= 8 << 20, (name, wrote)
    if name.endswith("direct"):
        assert dev >= wrote and left is None, (name, dev, wrote, left)
    else:
        assert left is not None and left >= wrote / 2, (name, wrote, left)
EOF
pycheck "four job files (JSON): page-cache-write for groups 1 and 3 only, naming group and job" "$t/s3.json" "$EN" <<'EOF'
import json, re, sys
w = [x for x in json.load(open(sys.argv[1]))["iobench"]["warnings"] if x["id"] == "page-cache-write"]
got = sorted((x["groups"], x["jobs"], x["scope"]) for x in w)
assert got == [([1], ["random-write-buf"], "group 1, job 'random-write-buf'"),
               ([3], ["sequential-write-buffered"], "group 3, job 'sequential-write-buffered'")], got
for x in w:
    assert re.search(r"job '%s' wrote 80\.0MiB through the page cache with no fsync; .* of it was still in "
                     r"memory, unwritten, when it ended; %s wrote .* during the group"
                     % (x["jobs"][0], sys.argv[2]), x["evidence"]), x["evidence"]
EOF
pycheck "four job files (text): page-cache-write for groups 1 and 3 only, naming group and job" "$t/s3.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
sec = t[t.rindex("\nWarnings:\n"):]
got = re.findall(r"^  page-cache-write \((.*)\): ", sec, re.M)
assert got == ["group 1, job 'random-write-buf'", "group 3, job 'sequential-write-buffered'"], got
EOF
find "$E" -maxdepth 1 -type f -delete; sync

# a direct and a buffered writer side by side in one group: the device's
# writes are the direct job's, which must not clear the buffered one
"$IOBENCH" run --output-format=json --name=dw --filename="$E/dw" --size=64m --rw=write --bs=64k --direct=1 \
  --name=bw --filename="$E/bw" --size=64m --rw=write --bs=64k >"$t/mix.json" 2>"$t/mix.err"
check "mixed group: the run exits 0" test $? -eq 0
find "$E" -maxdepth 1 -type f -delete; sync
pycheck "mixed group: page-cache-write names the buffered job only, the direct bytes taken off" "$t/mix.json" "$EN" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
dev = next(d for d in j["iobench"]["groups"][0]["disks"] if d["name"] == sys.argv[2])["write_bytes"]
bw = next(x for x in j["jobs"] if x["jobname"] == "bw")["write"]["io_bytes"]
assert dev >= bw / 2, ("the whole group's device writes would have cleared it", dev, bw)
w = [x for x in j["iobench"]["warnings"] if x["id"] == "page-cache-write"]
assert len(w) == 1 and w[0]["jobs"] == ["bw"] and w[0]["groups"] == [0], w
assert "of it direct writes, leaving" in w[0]["evidence"], w[0]["evidence"]
EOF

# --- bonnie -u nobody on ext2 with 1 KiB blocks ------------------------------
X2=$(mkloop 512M) && mkfs.ext2 -q -F -b 1024 "$X2" >/dev/null 2>&1 || { not_ok "make an ext2 -b 1024"; finish; }
X=$(tmpdir)
mount "$X2" "$X" && reg mount "$X" || { not_ok "mount the ext2"; finish; }
chmod 1777 "$X"
# (samples every 0.2 s: the slab's peak is seen before the file goes away)
BON=(-d "$X" -s 64 -r 32 -n 0 -f --warn-slab=1m --monitor-interval=0.2)
"$IOBENCH" bonnie "${BON[@]}" -u nobody >"$t/bon.txt" 2>"$t/bon.err"
check "bonnie -u nobody (text): exits 0" test $? -eq 0
check "... dropped to nobody" grep -q "^Using uid:$(id -u nobody)," "$t/bon.err"
check "... the header shows the ext geometry read before dropping root" \
  grep -Eq "^fs: ext2 on $X \(.*\) block_size=1024 " "$t/bon.txt"
check "... slab-growth raised (/proc/slabinfo opened before dropping root)" \
  grep -Eq "^  slab-growth: the buffer_head slab grew" "$t/bon.txt"
check "... nothing listed as not watched" eval '! grep -q "^Not watched:" "$t/bon.txt"'
"$IOBENCH" bonnie "${BON[@]}" -u nobody --output-format=json --no-precise >"$t/bon.json" 2>"$t/bonj.err"
check "bonnie -u nobody (JSON, --no-precise): exits 0" test $? -eq 0
pycheck "... slab-growth, its own I/O counted through /proc/self/io opened as root, nothing unwatched" "$t/bon.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
assert [w["id"] for w in j["warnings"]].count("slab-growth") == 1, [w["id"] for w in j["warnings"]]
assert j["unwatched"] == [], j["unwatched"]
assert j["process_io"]["write_bytes"] >= 64 << 20, j["process_io"]
EOF
pycheck "... every phase that ran has its scheduler figure; no cpu-bound verdict on a +++++ phase" "$t/bon.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
names = {"put_block": "block output", "rewrite": "rewrite", "get_block": "block input", "seeks": "random seeks"}
short = set()
for run in j["runs"]:
    for copy in run["copies"]:
        for k, p in copy["phases"].items():
            if p.get("ran") and k in names:
                assert p["sched_busy_pct"] > 0, (k, p)
                if p["too_short"]:
                    short.add(names[k])
print("# +++++ phases: %s" % sorted(short), file=sys.stderr)
for w in j["warnings"]:
    if w["id"] == "cpu-bound":
        assert not set(w["jobs"]) & short, (w["jobs"], short)
        assert "waiting for a CPU 0%" not in w["evidence"], w["evidence"]
EOF
# started as nobody: what cannot be watched is said
setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOBENCH" bonnie --no-store "${BON[@]}" >"$t/nob.txt" 2>&1
check "bonnie started as nobody: exits 0" test $? -eq 0
check "... says the slab and the ext geometry were not watched" \
  eval 'sed -n "/^Not watched:/,/^\$/p" "$t/nob.txt" | grep -q "^  buffer_head slab: " &&
        sed -n "/^Not watched:/,/^\$/p" "$t/nob.txt" | grep -q "^  filesystem geometry: ext2 on $X: .*Permission denied"'

# --- quick: the flush and its own flags --------------------------------------
Q=(--size=16m --runtime=1s --engine=psync)
(cd "$E" && "$IOBENCH" quick "${Q[@]}") >"$t/q.txt" 2>&1
check "quick: exits 0" test $? -eq 0
check "quick: the header says the write figures include the flush" \
  grep -q "^write figures include the flush: each write test ends with fsync" "$t/q.txt"
check "quick: no write-cache warning (every write row flushed)" eval '! grep -q "^  write-cache" "$t/q.txt"'
(cd "$E" && "$IOBENCH" quick "${Q[@]}" --no-flush) >"$t/qn.txt" 2>&1
check "quick --no-flush: exits 0" test $? -eq 0
pycheck "quick --no-flush: the header says so; write-cache's advice names quick's flag, not fio's" "$t/qn.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"^write figures leave out the flush \(--no-flush\)", t, re.M), t
wc = re.findall(r"^  write-cache \(group \d+, job '[^']*write[^']*'\): .*\n.*\n    what to do: (.*)$", t, re.M)
assert wc, t
for a in wc:
    assert "leave out --no-flush" in a and "end_fsync" not in a and "fsync=N" not in a, a
EOF
R=$(tmpdir)
mount -t ramfs ramfs "$R" && reg mount "$R" || not_ok "mount a ramfs"
(cd "$R" && "$IOBENCH" quick "${Q[@]}") >"$t/qr.txt" 2>&1
check "quick on ramfs (no O_DIRECT): exits 0" test $? -eq 0
pycheck "quick on ramfs: page-cache-read's advice names --size, not direct=1" "$t/qr.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
adv = re.findall(r"^  page-cache-read \(group \d+, job '[^']*'\): .*\n.*\n    what to do: (.*)$", t, re.M)
assert adv, t
for a in adv:
    assert "--size" in a and "direct=1" not in a, a
EOF

# --- min <= mean <= max in every monitor summary above ------------------------
pycheck "every monitor summary (whole run and per group): min <= mean <= max for every figure" \
  "$t/s3.json" "$t/bon.json" <<'EOF'
import json, sys
def summaries(j):
    io = j.get("iobench", j)
    yield "whole", io["monitor"]["summary"]
    for g in io.get("groups", []):
        if "monitor" in g:
            yield "group %s" % g["groups"], g["monitor"]
n = bad = 0
for path in sys.argv[1:]:
    for name, s in summaries(json.load(open(path))):
        pairs = [(k, s["min"][k], s["mean"][k], s["max"][k]) for k in s["mean"]]
        for d in s["disks"]:
            pairs += [(d["name"] + " " + k, d["min"][k], d[k], d["max"][k]) for k in d["min"]]
        for k, lo, mean, hi in pairs:
            n += 1
            if not lo <= mean <= hi:
                bad += 1
                print("%s %s: %s: min %s mean %s max %s" % (path, name, k, lo, mean, hi), file=sys.stderr)
assert n > 300 and not bad, (n, bad)
EOF
finish
