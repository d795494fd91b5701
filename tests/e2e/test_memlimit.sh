#!/usr/bin/env bash
# e2e: serial
# --memory-limit: bonnie's block input of a 1 GiB file on a loop ext4 reads
# at least 90% of its bytes from the device under a 512 MiB limit, and less
# than 10% without it (this machine has far more RAM); the same for a
# buffered `run` read of a file still in the page cache (invalidate=0, so
# only the limit's cache drop and the limit itself send the reads to the
# device). The cgroup is gone afterwards, also after SIGINT with bonnie -u
# nobody, and a limit that cannot be made (not root; IOBENCH_CGROUP_ROOT at
# a v2 directory without the memory controller, or at no cgroup at all) is
# refused with a clear message before anything runs.
. "$(dirname "$0")/lib.sh"
need_root
d=$(tmpdir)
mnt=$(mkfs_mount ext4 1600M) || { not_ok "mount ext4 on loop"; finish; }
chmod 1777 "$mnt"
dev=$(basename "$(findmnt -n -o SOURCE "$mnt")")
drops() { awk '$1=="drop_pagecache"{print $2}' /proc/vmstat; }
rd_sectors() { awk -v n="$dev" '$3==n{print $6}' /proc/diskstats; }
cg_gone() { [ -n "$1" ] && [ ! -e "$1" ]; }

# bonnie JSON: share of get_block's bytes the device read, and the cgroup path
bonnie_share() {
  python3 - "$1" "$dev" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["runs"][0]["aggregate"]["get_block"]
disk = [x for x in p["disks"] if x["name"] == sys.argv[2]][0]
print(round(100.0 * disk["read_bytes"] / p["work"]), (d.get("memory_limit") or {}).get("cgroup", ""))
EOF
}

bon=("$IOBENCH" bonnie -d "$mnt" -s 1024 -r 512 -n 0 -f -u root --output-format=json)
"${bon[@]}" --memory-limit=512m >"$d/lim.json" 2>"$d/lim.err"
check "bonnie --memory-limit=512m: exit 0" test $? -eq 0
read -r share cg < <(bonnie_share "$d/lim.json")
check "bonnie --memory-limit=512m: block input read >= 90% from $dev (got ${share}%)" \
  test "${share:-0}" -ge 90
check "bonnie --memory-limit=512m: the JSON names the cgroup and its limit" \
  test "$(json_get "$d/lim.json" 'd["memory_limit"]["limit_bytes"] == 512 << 20 and d["memory_limit"]["limit_hits"] > 0')" = True
check "bonnie --memory-limit=512m: the cgroup '$cg' is gone" cg_gone "$cg"
check "bonnie --memory-limit=512m: no reclaim warning for the limit's own reclaim" \
  test "$(json_get "$d/lim.json" '[w["id"] for w in d["warnings"]].count("reclaim")')" = 0
# without the limit the page cache serves it; another process's drop_caches
# on this shared machine can spoil that, and then the run is repeated
for try in 1 2 3; do
  before=$(drops)
  "${bon[@]}" >"$d/nolim.json" 2>"$d/nolim.err"
  rc=$?
  read -r share _ < <(bonnie_share "$d/nolim.json")
  [ "${share:-100}" -lt 10 ] || [ "$(drops)" = "$before" ] && break
  echo "# another process dropped the page cache during the run: repeating"
done
check "bonnie without a limit: exit 0" test $rc -eq 0 || sed 's/^/#   /' "$d/nolim.err" | head -10
check "bonnie without a limit: block input read < 10% from $dev (got ${share}%)" \
  test "${share:-100}" -lt 10
check "bonnie without a limit: no memory_limit in the JSON" \
  test "$(json_get "$d/nolim.json" '"memory_limit" in d')" = False

# SIGINT while bonnie runs as nobody under the limit: exit 130, files and
# cgroup gone (the keeper process moves it back and removes the cgroup)
"$IOBENCH" bonnie -d "$mnt" -s 1024 -r 512 -n 0 -f -u nobody --memory-limit=512m \
  >"$d/int.out" 2>"$d/int.err" &
pid=$!
cg="" keeper=""
for _ in $(seq 100); do
  cg=$(awk -F: -v p="iobench.$pid" '$3 ~ p {print $3}' "/proc/$pid/cgroup" 2>/dev/null)
  keeper=$(pgrep -x iobench-memcg -P $pid)
  [ -n "$cg" ] && [ -n "$keeper" ] && break
  sleep 0.05
done
sleep 2
kill -INT $pid
wait $pid
rc=$?
check "bonnie -u nobody --memory-limit, SIGINT: exit 130" test $rc -eq 130
check "bonnie -u nobody --memory-limit, SIGINT: it ran in its cgroup ($cg)" test -n "$cg"
gone=1
for m in $(findmnt -n -l -t cgroup,cgroup2 -o TARGET); do
  [ -n "$cg" ] && [ -e "$m$cg" ] && gone=0
done
check "bonnie -u nobody --memory-limit, SIGINT: the cgroup is gone" test $gone -eq 1
check "bonnie -u nobody --memory-limit, SIGINT: its files are gone" \
  test -z "$(ls "$mnt" | grep Bonnie)"
check "bonnie -u nobody --memory-limit, SIGINT: the keeper ($keeper) has exited" \
  sh -c "[ -n '$keeper' ] && ! kill -0 '$keeper' 2>/dev/null"

# run: a file still in the page cache, read buffered with invalidate=0
f=$mnt/cached.dat
"$IOBENCH" run --name=w --rw=write --bs=1m --size=512m --filename="$f" --end_fsync=1 \
  >/dev/null 2>&1
cat "$f" >/dev/null
job=(--name=r --rw=read --bs=1m --size=512m --filename="$f" --invalidate=0 --output-format=json)
a=$(rd_sectors)
"$IOBENCH" run --memory-limit=128m "${job[@]}" >"$d/run.json" 2>"$d/run.err"
rc=$?
b=$(rd_sectors)
check "run --memory-limit=128m: exit 0" test $rc -eq 0
share=$(( (b - a) * 512 * 100 / (512 << 20) ))
check "run --memory-limit=128m: read >= 90% from $dev (got ${share}%)" test $share -ge 90
cg=$(json_get "$d/run.json" 'd["iobench"]["memory_limit"]["cgroup"]')
check "run --memory-limit=128m: the cgroup '$cg' is gone" cg_gone "$cg"
check "run --memory-limit=128m: the text names the limit" \
  sh -c "'$IOBENCH' run --memory-limit=64m --name=t --rw=read --bs=1m --size=16m --filename='$f' | grep -q '^Memory limit: 64.0MiB (cgroup v'"
for try in 1 2 3; do
  cat "$f" >/dev/null
  before=$(drops)
  a=$(rd_sectors)
  "$IOBENCH" run "${job[@]}" >"$d/run2.json" 2>"$d/run2.err"
  b=$(rd_sectors)
  share=$(( (b - a) * 512 * 100 / (512 << 20) ))
  [ $share -lt 10 ] || [ "$(drops)" = "$before" ] && break
done
check "run without a limit: read < 10% from $dev (got ${share}%)" test $share -lt 10

# refusals, before anything runs
g=$d/never.dat
setpriv --reuid=65534 --regid=65534 --clear-groups "$IOBENCH" run --no-store --memory-limit=64m \
  --name=x --rw=write --size=1m --filename="$g" >/dev/null 2>"$d/nr.err"
rc=$?
check "--memory-limit as nobody: exit 1" test $rc -eq 1
check "--memory-limit as nobody: says it cannot create the cgroup and why" \
  grep -q "cannot create the memory cgroup .*Permission denied; --memory-limit needs write access" "$d/nr.err"
check "--memory-limit as nobody: nothing ran" test ! -e "$g"
if [ -f /sys/fs/cgroup/unified/cgroup.controllers ] &&
   ! grep -qw memory /sys/fs/cgroup/unified/cgroup.controllers; then
  v2=/sys/fs/cgroup/unified
else
  v2=$(tmpdir); echo "cpu io" >"$v2/cgroup.controllers" # stands in for one
fi
IOBENCH_CGROUP_ROOT=$v2 "$IOBENCH" bonnie -d "$mnt" -s 64 -r 32 -n 0 -u root \
  --memory-limit=64m >/dev/null 2>"$d/v2.err"
check "cgroup v2 without the memory controller: exit 1" test $? -eq 1
check "cgroup v2 without the memory controller: clear refusal" \
  grep -q "is a cgroup v2 directory without the memory controller" "$d/v2.err"
IOBENCH_CGROUP_ROOT=$d "$IOBENCH" quick "$d" --memory-limit=64m >/dev/null 2>"$d/none.err"
check "no memory cgroup at all: exit 1" test $? -eq 1
check "no memory cgroup at all: clear refusal" grep -q "is not a memory cgroup" "$d/none.err"
"$IOBENCH" run --memory-limit=1m --name=x --rw=read --size=1m --filename="$g" >"$d/small.out" 2>"$d/small.err"
rc=$?
check "--memory-limit below 16m: refused, exit 1, nothing run" \
  test "$rc $(grep -c "is below 16m" "$d/small.err") $(wc -c <"$d/small.out")" = "1 1 0"
check "--memory-limit below 16m: no file laid out" test ! -e "$g"
finish
