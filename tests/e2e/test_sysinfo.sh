#!/usr/bin/env bash
# iobench sysinfo on loop devices made here: XFS made with su=64k,sw=7, ext4
# with stride=16,stripe-width=112 and a two-device btrfs raid1. The JSON's
# geometry must equal what xfs_info, dumpe2fs -h and btrfs filesystem
# show/df report; the chain of a file on the XFS must reach its loop device,
# the loop's backing file and the disk that file is on; every device's queue
# tunables must equal sysfs and every filesystem's options mountinfo; the
# text form prints; a path that does not exist is a one-line error, exit 1.
. "$(dirname "$0")/lib.sh"
need_root
for t in mkfs.xfs xfs_info mkfs.ext4 dumpe2fs mkfs.btrfs btrfs; do
  command -v $t >/dev/null || { not_ok "$t is installed"; finish; }
done
d=$(tmpdir)

xmnt=$(mkfs_mount xfs 2G -d su=64k,sw=7) || { not_ok "make the xfs"; finish; }
emnt=$(mkfs_mount ext4 512M -E stride=16,stripe-width=112) || { not_ok "make the ext4"; finish; }
b1=$(mkloop 512M) && b2=$(mkloop 512M) || { not_ok "make the btrfs loops"; finish; }
bmnt=$(tmpdir)
if mkfs.btrfs -q -f -d raid1 -m raid1 "$b1" "$b2" >/dev/null 2>&1 && mount "$b1" "$bmnt"; then
  reg mount "$bmnt"
else
  not_ok "make the btrfs"; finish
fi
echo data >"$xmnt/file"

xj=$d/xfs.json ej=$d/ext4.json bj=$d/btrfs.json
for pair in "$xj:$xmnt/file" "$ej:$emnt" "$bj:$bmnt"; do
  out=${pair%%:*} m=${pair#*:}
  if "$IOBENCH" sysinfo --json "$m" >"$out" 2>"$out.err" &&
     python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out"; then
    ok "sysinfo --json $m is valid JSON"
  else
    not_ok "sysinfo --json $m: $(cat "$out.err")"
  fi
done


xfs_info "$xmnt" >"$d/xfs_info"
pycheck "xfs geometry equals xfs_info (agcount, agsize, sunit, swidth, isize, log)" "$xj" "$d/xfs_info" "$xmnt" <<'PY'
import json, re, sys
si = json.load(open(sys.argv[1])); info = open(sys.argv[2]).read()
fs = [f for f in si["filesystems"] if f["mountpoint"] == sys.argv[3]][0]
x = fs["xfs"]
def grab(pat):
    return int(re.search(pat, info).group(1))
want = {
    "agcount": grab(r"agcount=(\d+)"), "agsize": grab(r"agsize=(\d+)"),
    "isize": grab(r"isize=(\d+)"), "sunit": grab(r"data\s+=.*\n\s+=\s+sunit=(\d+)"),
    "swidth": grab(r"swidth=(\d+) blks"), "blocks": grab(r"data\s+=\s+bsize=\d+\s+blocks=(\d+)"),
    "log_blocks": grab(r"log\s+=.*blocks=(\d+)"), "log_version": grab(r"log\s+=.*version=(\d+)"),
    "log_sunit": grab(r"log\s+=.*\n\s+=\s+sectsz=\d+\s+sunit=(\d+)"),
}
assert want["sunit"] == 16 and want["swidth"] == 112, want
bad = {k: (x.get(k), v) for k, v in want.items() if x.get(k) != v}
assert not bad, bad
assert x["log_internal"] is True
PY

edev=$(findmnt -no SOURCE "$emnt")
dumpe2fs -h "$edev" >"$d/dumpe2fs" 2>/dev/null
pycheck "ext4 facts equal dumpe2fs -h (block size, features, stride, stripe width, journal)" "$ej" "$d/dumpe2fs" "$emnt" <<'PY'
import json, sys
si = json.load(open(sys.argv[1]))
kv = {}
for line in open(sys.argv[2]):
    if ":" in line:
        k, v = line.split(":", 1); kv[k.strip()] = v.strip()
e = [f for f in si["filesystems"] if f["mountpoint"] == sys.argv[3]][0]["ext"]
want = {
    "block_size": int(kv["Block size"]), "inode_size": int(kv["Inode size"]),
    "features": kv["Filesystem features"], "raid_stride": int(kv["RAID stride"]),
    "raid_stripe_width": int(kv["RAID stripe width"]), "journal_inode": int(kv["Journal inode"]),
    "journal_blocks": int(kv["Total journal blocks"]), "journal_features": kv["Journal features"],
    "blocks": int(kv["Block count"]), "inodes": int(kv["Inode count"]), "uuid": kv["Filesystem UUID"],
}
assert want["raid_stride"] == 16 and want["raid_stripe_width"] == 112, want
bad = {k: (e.get(k), v) for k, v in want.items() if e.get(k) != v}
assert not bad, bad
assert e["has_journal"] is True
PY

btrfs filesystem show "$bmnt" >"$d/bshow"; btrfs filesystem df "$bmnt" >"$d/bdf"
pycheck "btrfs profiles and devices equal btrfs filesystem show/df" "$bj" "$d/bshow" "$d/bdf" "$bmnt" "$b1" "$b2" <<'PY'
import json, re, sys
si = json.load(open(sys.argv[1])); show = open(sys.argv[2]).read(); df = open(sys.argv[3]).read()
b = [f for f in si["filesystems"] if f["mountpoint"] == sys.argv[4]][0]["btrfs"]
assert b["uuid"] == re.search(r"uuid: (\S+)", show).group(1), b["uuid"]
assert b["num_devices"] == int(re.search(r"Total devices (\d+)", show).group(1)) == 2
want_devs = sorted((int(i), p) for i, p in re.findall(r"devid\s+(\d+) .* path (\S+)", show))
got_devs = sorted((d["devid"], d["path"]) for d in b["devices"])
assert got_devs == want_devs and {p for _, p in got_devs} == set(sys.argv[5:7]), (got_devs, want_devs)
want_sp = sorted(re.findall(r"^(\S+), (\S+): total=", df, re.M))
got_sp = sorted((s["type"], s["profile"]) for s in b["spaces"])
assert got_sp == want_sp, (got_sp, want_sp)
assert ("Data", "RAID1") in got_sp and ("Metadata", "RAID1") in got_sp
# the chain lists both members under the filesystem
ch = si["chain"]
fsn = [i for i, n in enumerate(ch) if n["kind"] == "filesystem" and n["mountpoint"] == sys.argv[4]][0]
mem = sorted("/dev/" + n["name"] for n in ch if n["parent"] == fsn and n.get("relation") == "member")
assert mem == sorted(sys.argv[5:7]), mem
PY

xloop=$(findmnt -no SOURCE "$xmnt")
xback=$(losetup -nO BACK-FILE "$xloop" | sed 's/ *$//')
bdisk=$(basename "$(readlink -f /sys/dev/block/$(stat -c '%Hd:%Ld' "$xback"))")
pycheck "chain: file -> xfs -> $(basename "$xloop") -> $xback -> its filesystem -> $bdisk" \
  "$xj" "$xmnt" "$(basename "$xloop")" "$xback" "$bdisk" <<'PY'
import json, sys
si = json.load(open(sys.argv[1])); mnt, loop, back, disk = sys.argv[2:6]
ch = si["chain"]
def under(i):  # ancestors of node i
    out = []
    while ch[i]["parent"] >= 0:
        i = ch[i]["parent"]; out.append(i)
    return out
assert ch[0]["kind"] == "file" and ch[0]["path"] == mnt + "/file", ch[0]
fsn = [i for i, n in enumerate(ch) if n["kind"] == "filesystem" and n["parent"] == 0][0]
assert ch[fsn]["mountpoint"] == mnt and ch[fsn]["type"] == "xfs"
ln = [i for i, n in enumerate(ch) if n["kind"] == "device" and n["name"] == loop][0]
assert ch[ln]["parent"] == fsn
bf = [i for i, n in enumerate(ch) if n["kind"] == "file" and n["parent"] == ln][0]
assert ch[bf]["path"] == back and ch[bf]["relation"] == "backing file", ch[bf]
dn = [i for i, n in enumerate(ch) if n["kind"] == "device" and n["name"] == disk]
assert dn and bf in under(dn[0]), (dn, ch)
dev = si["devices"][ch[ln]["device"]]
assert dev["loop"]["backing_file"] == back
PY

pycheck "queue tunables and device facts equal sysfs" "$xj" "$ej" "$bj" <<'PY'
import json, os, re, sys
n = 0
for f in sys.argv[1:]:
    for d in json.load(open(f))["devices"]:
        base = "/sys/class/block/" + d["name"]
        def rd(rel):
            p = os.path.join(base, rel)
            return open(p).read().strip() if os.path.exists(p) else None
        assert d["size_bytes"] == int(rd("size")) * 512, d["name"]
        if d["partition"]:
            continue
        q = d["queue"]
        for k in ("read_ahead_kb", "nr_requests", "max_sectors_kb", "max_hw_sectors_kb", "rq_affinity",
                  "nomerges", "wbt_lat_usec", "iostats"):
            v = rd("queue/" + k)
            assert (int(v) if v is not None else None) == q.get(k), (d["name"], k, v, q.get(k))
        for k in ("rotational", "logical_block_size", "physical_block_size", "minimum_io_size", "optimal_io_size"):
            assert int(rd("queue/" + k)) == d[k], (d["name"], k)
        assert d.get("write_cache") == rd("queue/write_cache"), d["name"]
        sched = rd("queue/scheduler")
        m = re.search(r"\[(.*?)\]", sched)
        assert q["scheduler"] == (m.group(1) if m else sched), (d["name"], sched, q["scheduler"])
        n += 1
assert n >= 4, n
PY

pycheck "mount options equal /proc/self/mountinfo" "$xj" "$ej" "$bj" <<'PY'
import json, sys
mi = {}
for line in open("/proc/self/mountinfo"):
    f = line.split(); sep = f.index("-")
    mp = f[4].replace("\\040", " ")
    mi[mp] = (f[5], f[sep + 1], f[sep + 3] if len(f) > sep + 3 else None)
n = 0
for p in sys.argv[1:]:
    for fs in json.load(open(p))["filesystems"]:
        want = mi[fs["mountpoint"]]
        got = (fs["options"], fs["type"], fs.get("super_options"))
        assert got == want, (got, want)
        n += 1
assert n >= 3
PY

if "$IOBENCH" sysinfo "$xmnt" >"$d/text" 2>"$d/text.err"; then
  text_ok() { grep -q "^chain:" "$1" && grep -q "xfs data:.*sunit=16 swidth=112" "$1" &&
              grep -q "queue: scheduler=" "$1"; }
  check "text form shows the chain, the xfs geometry and the queue" text_ok "$d/text"
else
  not_ok "sysinfo text form: $(cat "$d/text.err")"
fi
(cd "$emnt" && "$IOBENCH" sysinfo >"$d/dot" 2>&1)
check "no PATH means ." grep -q "on ext4 $emnt " "$d/dot"

# the header of a run on a raw block device: no fs: line
# (the ext4 under the loop's backing file holds no data of the target), the
# device chain instead; a file target keeps its fs: line
rdev=$(mkloop 64M)
devtxt=$d/dev.txt filetxt=$d/file.txt # (check's own $d hides ours)
"$IOBENCH" run --no-monitor --name=r --filename="$rdev" --rw=read --bs=1m --size=16m >"$devtxt" 2>&1
hdr() { sed -n '1,/^r: (g=0)/p' "$devtxt"; }
check "device target: the run printed its header" eval 'hdr | grep -q "^host: "'
check "device target: no fs: line in the header" eval '! hdr | grep -q "^fs:"'
rback=$(losetup -nO BACK-FILE "$rdev")
check "device target: the chain from $rdev through its backing file $rback" \
  eval 'hdr | grep -Eq "^chain: $rdev > device ${rdev#/dev/} [0-9.]+MiB loop > backing file $rback > on [a-z0-9]+ "'
"$IOBENCH" run --no-monitor --name=r --filename="$emnt/f" --rw=read --bs=1m --size=16m >"$filetxt" 2>&1
check "file target: the fs: line names its filesystem, no chain line" \
  eval 'grep -q "^fs: ext4 on $emnt (" "$filetxt" && ! grep -q "^chain:" "$filetxt"'

"$IOBENCH" sysinfo "$d/does/not/exist" >"$d/ne.out" 2>"$d/ne.err"; rc=$?
check "a path that does not exist: exit 1" test $rc -eq 1
check "... one line on stderr, naming it" test "$(wc -l <"$d/ne.err")" -eq 1 -a -n "$(grep -F "$d/does/not/exist" "$d/ne.err")"
check "... nothing on stdout" test ! -s "$d/ne.out"
finish
