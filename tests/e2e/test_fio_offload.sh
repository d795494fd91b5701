#!/usr/bin/env bash
# io_submit_mode=offload and block_error_percentiles, against
# fio 3.33 where it gives a figure: the same I/O and byte counts at a fixed
# rate (psync at iodepth 1: fio 3.33 hangs at times in this mode, with
# libaio from iodepth 8 every time, so fio's own fixed-rate-submission.fio
# example, iodepth=32, is run by iobench alone), the rate schedule held, the submitting threads under
# strace (every pread64 and io_submit on one of them, none on the job's
# thread) and fio's lat/clat/slat split. block_error_percentiles: a write
# failure injected by the faulty engine on a loop device, the histogram
# checked against one computed from the job's own write_iolog; fio 3.33
# cannot make one (it records writes as unwritten and aborts on trims).
. "$(dirname "$0")/lib.sh"
need_fio_examples fixed-rate-submission.fio poisson-rate-submission.fio
need_root
d=$(tmpdir)
R() { "$IOBENCH" run --no-store "$@"; }
have_strace=1
command -v strace >/dev/null || { have_strace=0; not_ok "strace is installed"; }
EX=$FIO_EXAMPLES
F=$d/f.dat
head -c 2M /dev/urandom >"$F"

# ---- 1. a fixed rate: counts as fio's, the schedule held -------------------
# iodepth=1: fio 3.33 hangs at times in this mode (seen with psync at
# iodepth 4; its threads all wait on futexes), so the side by side is at one
RATE=(--name=r --filename="$F" --size=2m --bs=4k --rw=read --rate_iops=2000 --iodepth=1 --io_submit_mode=offload)
R "${RATE[@]}" --ioengine=psync --output-format=json --output="$d/iob.json" >/dev/null 2>"$d/err1" ||
  not_ok "psync offload run: $(head -1 "$d/err1")"
timeout -s KILL 20 fio "${RATE[@]}" --ioengine=psync --output-format=json --output="$d/fio.json" >/dev/null 2>&1 ||
  not_ok "fio runs the same job"
summ() { python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]; r = j["read"]
print(r["io_bytes"], r["total_ios"], r["slat_ns"]["N"], r["clat_ns"]["N"], r["lat_ns"]["N"],
      j["iodepth_level"]["1"], j["iodepth_submit"]["4"], j["iodepth_complete"]["4"])
PY
}
a=$(summ "$d/iob.json") b=$(summ "$d/fio.json")
check "offload psync at rate_iops=2000: bytes, I/Os, slat/clat/lat counts and depths as fio's ($a; fio: $b)" \
  eval '[ "$a" = "$b" ] && [ "$a" = "2097152 512 0 512 512 100.0 100.0 100.0" ]'
pycheck "the schedule held: 512 I/Os at 2000/s take at least 255.5 ms (runtime and lat >= clat)" "$d/iob.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]; r = j["read"]
ok = r["runtime"] >= 255 and r["lat_ns"]["mean"] >= r["clat_ns"]["mean"] and r["lat_ns"]["min"] >= r["clat_ns"]["min"]
print("# runtime %d ms, iops %.1f, lat mean %.0f ns, clat mean %.0f ns" % (r["runtime"], r["iops"], r["lat_ns"]["mean"], r["clat_ns"]["mean"]))
sys.exit(0 if ok else 1)
PY
R "${RATE[@]}" --iodepth=4 --ioengine=psync --rate_process=poisson --output-format=json --output="$d/poi.json" >/dev/null 2>&1
check "rate_process=poisson offload: all 512 I/Os, 2 MiB" [ "$(summ "$d/poi.json" | cut -d' ' -f1-2)" = "2097152 512" ]

# ---- 2. the threads: under strace, every submission on one of them ---------
# pthread_setname_np from the job's thread opens /proc/self/task/TID/comm of
# each submitting thread ("iob-submit"): those TIDs are the pool
tr_check() { # ENGINE SYSCALL IODEPTH
  local eng=$1 sc=$2 qd=$3 out=$d/st.$1
  strace -f -y -e trace=openat,$sc -o "$out" "$IOBENCH" run --no-store --name=s --filename="$F" --size=256k \
    --bs=4k --rw=randread --ioengine="$eng" --iodepth="$qd" --io_submit_mode=offload --direct=0 \
    --output-format=json --output="$d/st.$eng.json" >/dev/null 2>&1
  python3 - "$out" "$sc" "$qd" "$d/st.$eng.json" <<'PY'
import json, re, sys
out, sc, qd, js = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
pool, opener, calls = set(), set(), {}
for line in open(out):
    m = re.match(r"(\d+)\s+(.*)", line)
    if not m:
        continue
    tid, rest = int(m.group(1)), m.group(2)
    c = re.search(r'/proc/self/task/(\d+)/comm', rest)
    if rest.startswith("openat(") and c:
        pool.add(int(c.group(1))); opener.add(tid)
    # the job's data file only (iobench's monitor reads /proc with pread64 too)
    if rest.startswith(sc + "(") and (sc != "pread64" or "f.dat>" in rest):
        calls[tid] = calls.get(tid, 0) + 1
ios = json.load(open(js))["jobs"][0]["read"]["total_ios"]
n = sum(calls.values())
outside = {t: k for t, k in calls.items() if t not in pool}
print("# %s: pool %s, opened by %s; %s per thread %s, %d in all, %d I/Os" % (sc, sorted(pool), sorted(opener), sc, calls, n, ios))
ok = len(pool) == qd and not outside and not (opener & set(calls)) and n >= ios == 64
sys.exit(0 if ok else 1)
PY
}
if [ $have_strace = 1 ]; then
  tr_check psync pread64 3 && ok "psync, iodepth=3: 3 submitting threads, every pread64 on one of them, none on the job's thread" ||
    not_ok "psync offload: submissions on the submitting threads ($(tail -1 "$d/err1" 2>/dev/null))"
  tr_check libaio io_submit 2 && ok "libaio, iodepth=2: 2 submitting threads, every io_submit on one of them" ||
    not_ok "libaio offload: io_submit on the submitting threads"
fi
# and in /proc while it runs: iodepth threads named iob-submit
"$IOBENCH" run --no-store --name=t --filename="$F" --size=2m --bs=4k --rw=read --rate_iops=200 --iodepth=5 \
  --io_submit_mode=offload --time_based --runtime=3 >/dev/null 2>&1 &
pid=$!
n=0
for _ in $(seq 40); do
  n=$(cat /proc/$pid/task/*/comm 2>/dev/null | grep -c '^iob-submit$')
  [ "$n" = 5 ] && break
  sleep 0.05
done
kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null
check "iodepth=5: 5 threads named iob-submit in /proc/PID/task (found $n)" [ "$n" = 5 ]

# ---- 3. fio's two examples run (small), async engine figures ---------------
for ex in fixed-rate-submission poisson-rate-submission; do
  sz=256k; [ $ex = poisson-rate-submission ] && sz=32k
  R --set size=$sz --set filename="$d/ex.dat" --output-format=json --output="$d/$ex.json" "$EX/$ex.fio" \
    >/dev/null 2>"$d/$ex.err" || { not_ok "$ex.fio runs: $(head -1 "$d/$ex.err")"; continue; }
  pycheck "$ex.fio (libaio, iodepth=32, offload, size=$sz): every I/O done, slat counted per I/O (async), depths 1 as fio's" \
    "$d/$ex.json" "$sz" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]; r = j["read"]
want = int(sys.argv[2][:-1]) * 1024
print("# io_bytes %d, ios %d, iops %.1f, slat mean %.0f, clat mean %.0f, lat mean %.0f" % (r["io_bytes"], r["total_ios"], r["iops"], r["slat_ns"]["mean"], r["clat_ns"]["mean"], r["lat_ns"]["mean"]))
ok = (r["io_bytes"] == want and r["total_ios"] == want // 4096 and r["slat_ns"]["N"] == r["total_ios"]
      and r["clat_ns"]["N"] == r["total_ios"] and j["iodepth_level"]["1"] == 100.0 and j["error"] == 0
      and r["lat_ns"]["mean"] >= r["clat_ns"]["mean"])
sys.exit(0 if ok else 1)
PY
done

# ---- 4. what offload does not do yet says so -------------------------------
for o in "--verify=crc32c --rw=write" "--ioengine=io_uring"; do
  out=$(R --name=v --filename="$d/v.dat" --size=64k $o --io_submit_mode=offload 2>&1) && not_ok "offload $o accepted" ||
    { [[ $out == *"io_submit_mode=offload"*"is not implemented yet"* ]] && ok "offload $o: refused as not implemented yet" ||
      not_ok "offload $o: $out"; }
done
check "io_submit_mode=bogus is refused" eval '! R --parse-only --name=b --size=1m --io_submit_mode=bogus 2>/dev/null'

# ---- 5. block_error_percentiles ------------------------------------------
L=$(mkloop 1M)
BE=(--name=be --filename="$L" --size=1m --bs=64k --rw=trimwrite --loops=3 --ioengine=faulty
    --faulty_fail=offset:196608 --continue_on_error=write --block_error_percentiles=1 --allow-destroy="$L")
R "${BE[@]}" --write_iolog="$d/be.log" --output-format=json --output="$d/be.json" >/dev/null 2>"$d/be.err"
R "${BE[@]}" --output="$d/be.txt" >/dev/null 2>&1
pycheck "a failed write (faulty engine) and trims: the histogram and states are those of the job's own iolog" \
  "$d/be.log" "$d/be.json" "$d/be.txt" <<'PY'
import json, sys
log, js, txt = sys.argv[1:4]
st, tr = [0] * 16, [0] * 16        # 0 unwritten 1 trimmed 2 written 3 trim failure 4 write failure
for line in open(log):
    f = line.split()
    if len(f) != 5 or f[2] not in ("trim", "write"):
        continue
    off, ln = int(f[3]), int(f[4])
    for b in range(off // 65536, (off + ln - 1) // 65536 + 1):
        if st[b] >= 3:
            continue
        if f[2] == "trim":
            st[b], tr[b] = 1, tr[b] + 1
        elif off <= 196608 < off + ln:
            st[b] = 4
        else:
            st[b] = 2
names = ["unwritten", "trimmed", "written", "trim failure", "write failure"]
counts = {n: st.count(i) for i, n in enumerate(names)}
kind = lambda s: 0 if s == 0 else 1 if s in (1, 2) else 2
order = sorted(range(16), key=lambda b: (kind(st[b]), tr[b], st[b]))
un = counts["unwritten"]
plist = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]
want = {"%f" % p: tr[order[min(15, un + int(p * (16 - un) / 100))]] for p in plist}
blk = json.load(open(js))["jobs"][0].get("block")
text = open(txt).read()
states = "        states               : " + ", ".join("%s=%d" % (n, counts[n]) for n in names)
print("# iolog: states %s, trims %s; JSON block %s" % (counts, tr, blk))
ok = (blk == {"percentiles": want, "states": counts} and counts["write failure"] == 1
      and blk["percentiles"]["99.990000"] == tr[3] and "  block lifetime percentiles :\n   | 1.00th=" in text
      and states in text)
sys.exit(0 if ok else 1)
PY
R --name=rd --filename="$F" --size=1m --bs=64k --rw=read --block_error_percentiles=1 --output-format=json \
  --output="$d/rd.json" >/dev/null 2>&1
R --name=rd --filename="$F" --size=1m --bs=64k --rw=read --block_error_percentiles=1 --output="$d/rd.txt" >/dev/null 2>&1
timeout -s KILL 20 fio --name=rd --filename="$F" --size=1m --bs=64k --rw=read --block_error_percentiles=1 --output-format=json \
  --output="$d/rdf.json" >/dev/null 2>&1
keys() { python3 -c 'import json,sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["jobs"][0])))' "$1"; }
check "nothing written: no JSON \"block\" and the job's key set as fio's" [ "$(keys "$d/rd.json")" = "$(keys "$d/rdf.json")" ]
check "nothing written: the heading and the states line alone (unwritten=16)" \
  grep -qzF $'  block lifetime percentiles :\n   |        states               : unwritten=16, trimmed=0, written=0, trim failure=0, write failure=0\n' "$d/rd.txt"
out=$(R --name=two --directory="$d" --nrfiles=2 --size=1m --rw=write --block_error_percentiles=1 2>&1) &&
  not_ok "two files accepted" || { [[ $out == *"only available with a single file per job, but 2 files provided"* ]] &&
  ok "two files: refused as fio refuses them" || not_ok "two files: $out"; }
out=$(R --name=big --filename="$F" --size=2m --bs=128 --rw=write --block_error_percentiles=1 2>&1) &&
  not_ok "16384 blocks accepted" || { [[ $out == *"16384 trim blocks"*"maximum 8192"* ]] &&
  ok "16384 trim blocks: refused as fio refuses them" || not_ok "16384 blocks: $out"; }
finish
