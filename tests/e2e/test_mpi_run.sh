#!/usr/bin/env bash
# iobench-mpi (src/dist/) under mpirun with 4 ranks over TCP on loopback
# (--mca btl self,tcp, pml ob1: no shared memory), small sizes:
#   - the plain iobench links no MPI, iobench-mpi does, and nothing outside
#     src/dist/ includes mpi.h; without mpirun iobench-mpi is one rank;
#   - a file-per-rank write then a reordered read (--reorder-read=1): rank
#     r reads rank r+1's file; the totals are the sum of the ranks' work,
#     the merged histogram counts every I/O, and the aggregate bandwidth is
#     the bytes over max(end) - min(start) of the per-rank times;
#   - --ranks-per-job: the jobs of a phase split among the ranks;
#   - a shared-file write (a region per rank) and an interleaved one (the
#     ranks' blocks alternate, as IOR's segments: seen in each rank's
#     write_iolog);
#   - a stonewall run: every rank stops at the deadline, both figures given;
#     with --wearout a slowed rank goes on to the fastest one's I/O count;
#   - a failing rank (the faulty engine failing one I/O of rank 2's region,
#     a full filesystem under rank 2 only, and a rank that hangs) ends the
#     run within the timeout set here, named with its host and error, and
#     the other ranks' results are kept in the JSON;
#   - the sanitizer build's iobench-mpi runs 2 ranks cleanly (LeakSanitizer
#     off there: OpenMPI's own allocations at exit are not iobench's).
. "$(dirname "$0")/lib.sh"
need_root
MPI=${IOBENCH_MPI:-$(dirname "$IOBENCH")/iobench-mpi}
need_cmd mpirun openmpi-bin || finish
[ -x "$MPI" ] || { not_ok "iobench-mpi is built at $MPI (meson -Dmpi=enabled)"; finish; }
d=$(tmpdir)
H=$(hostname)
# rank 0 stores each run: in the suite's database for this script, or one
# of its own (mpirun passes the environment to the ranks it starts here)
export IOBENCH_DB=${IOBENCH_DB:-$d/results.db}
mpi() { # NP ARGS...: iobench-mpi on NP ranks, bounded by a timeout
  local np=$1; shift
  timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe -np "$np" --mca btl self,tcp \
    --mca btl_tcp_if_include lo --mca pml ob1 "$MPI" "$@"
}
py() { local desc=$1; shift; if python3 - "$@"; then ok "$desc"; else not_ok "$desc"; fi; }

# --- the binaries --------------------------------------------------------
check "the plain iobench links no MPI" bash -c "! ldd '$IOBENCH' | grep -qi libmpi"
check "iobench-mpi links libmpi" bash -c "ldd '$MPI' | grep -q libmpi"
check "nothing outside src/dist/ includes mpi.h" \
  bash -c "! grep -rlE '#[[:space:]]*include[[:space:]]*<mpi\.h>' '$TOP/src' --include='*.[ch]' | grep -v '/src/dist/'"
"$MPI" run --name=one --rw=write --bs=64k --size=1m --filename="$d/one" --output-format=json \
  --output="$d/one.json" 2>"$d/one.err"
py "without mpirun iobench-mpi is one rank" "$d/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
assert m["ranks"] == 1 and len(m["per_rank"]) == 1, m["ranks"]
assert m["phases"][0]["write"]["bytes"] == 1 << 20 == d["jobs"][0]["write"]["io_bytes"]
assert m["per_rank"][0]["jobs"][0]["files"].endswith("/one.0")
PY

"$MPI" run --repeat=2 --name=x --rw=write --size=64k --filename="$d/x" >/dev/null 2>"$d/refuse.err"
rc=$?
check "--repeat is refused (exit $rc): not implemented yet" \
  bash -c "[ $rc = 1 ] && grep -q -- '--repeat is not implemented yet' '$d/refuse.err'"

# --- file per rank: write, then a reordered read -------------------------
cat >"$d/fpr.fio" <<EOF2
[global]
bs=64k
size=2m
filename=$d/f
[w]
rw=write
[r]
stonewall
rw=read
EOF2
mpi 4 run --reorder-read=1 --fsync --db="$d/r.db" --output-format=json --output="$d/fpr.json" "$d/fpr.fio" 2>"$d/fpr.err"
rc=$?
check "file-per-rank write and reordered read: exit 0" test "$rc" = 0
[ "$rc" = 0 ] || sed -n 1,20p "$d/fpr.err"
check "file-per-rank: each rank wrote its own file" bash -c "for r in 0 1 2 3; do [ \$(stat -c %s '$d/f.'\$r) = 2097152 ] || exit 1; done"
py "file-per-rank: totals are the ranks' sums, the histogram counts every I/O, bw = bytes / (max end - min start), rank r read rank r+1's file" "$d/fpr.json" "$d" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); top = sys.argv[2]; m = d["iobench"]["mpi"]
assert m["ranks"] == 4 and m["reorder_read"] == 1 and m["fsync"] and m["failure"] is None
ranks = m["per_rank"]; assert [r["rank"] for r in ranks] == [0, 1, 2, 3]
for r in ranks:
    files = {j["name"]: j["files"] for j in r["jobs"]}
    assert files["w"] == "%s/f.%d" % (top, r["rank"]), files
    assert files["r"] == "%s/f.%d" % (top, (r["rank"] + 1) % 4), files
jobs = {j["jobname"]: j for j in d["jobs"]}
for p, (name, dd) in enumerate([("w", "write"), ("r", "read")]):
    ph = m["phases"][p]
    rows = [r["phases"][p] for r in ranks]
    total = sum(x[dd + "_bytes"] for x in rows)
    ios = sum(x[dd + "_ios"] for x in rows)
    assert total == 4 * 2 * 1048576 == ph[dd]["bytes"] == jobs[name][dd]["io_bytes"], (total, ph[dd]["bytes"])
    assert ios == 4 * 32 == ph[dd]["ios"] == jobs[name][dd]["total_ios"], ios
    assert ph[dd]["clat_ns"]["count"] == ios, ph[dd]["clat_ns"]
    span = max(x["end"] for x in rows) - min(x["start"] for x in rows)
    # the JSON's times have microseconds (six decimals): that much rounding
    tol = 3e-6 / span + 1e-6
    assert abs(ph["span_s"] - span) <= 3e-6, (ph["span_s"], span)
    assert abs(ph[dd]["bw_bytes"] - total / span) <= tol * total / span, (ph[dd]["bw_bytes"], total / span)
    bws = [x[dd + "_bytes"] / (x["end"] - x["start"]) for x in rows]
    rt = max(3e-6 / (x["end"] - x["start"]) for x in rows) + 1e-6
    rb = ph[dd]["rank_bw_bytes"]
    assert abs(rb["min"] - min(bws)) <= rt * min(bws) and abs(rb["max"] - max(bws)) <= rt * max(bws)
    assert abs(rb["mean"] - sum(bws) / 4) <= rt * rb["mean"]
assert len(m["nodes"]) == 1 and "sysinfo" in m["nodes"][0]["env"]
PY
check "the store has one run (rank 0's), not one per rank" \
  test "$("$IOBENCH" results list --db="$d/r.db" | grep -c ' run ')" = 1
"$IOBENCH" results show 1 --db="$d/r.db" --output-format=json >"$d/stored.json" 2>>"$d/fpr.err"
py "the stored JSON has the per-rank table" "$d/stored.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["iobench"]["mpi"]
assert m["ranks"] == 4 and len(m["per_rank"]) == 4
PY
check "the stored normal rendering has the MPI block" \
  bash -c "'$IOBENCH' results show 1 --db='$d/r.db' --output-format=normal | grep -q '^MPI: 4 ranks'"

# --- --ranks-per-job: ranks 0-1 run job a, ranks 2-3 job b ----------------
mpi 4 run --ranks-per-job=2 --name=a --rw=write --bs=64k --size=1m --filename="$d/a" \
  --name=b --rw=randwrite --bs=4k --size=512k --filename="$d/b" \
  --output-format=json --output="$d/rpj.json" 2>"$d/rpj.err"
check "--ranks-per-job=2: exit 0" test $? = 0
py "--ranks-per-job=2: ranks 0-1 ran a, 2-3 ran b; both jobs reported with the sums of their ranks" "$d/rpj.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
assert [[j["name"] for j in r["jobs"]] for r in m["per_rank"]] == [["a"], ["a"], ["b"], ["b"]]
jobs = {j["jobname"]: j for j in d["jobs"]}
assert [j["jobname"] for j in d["jobs"]] == ["a", "b"]
assert jobs["a"]["write"]["io_bytes"] == 2 << 20 and jobs["b"]["write"]["io_bytes"] == 1 << 20
assert jobs["b"]["job options"]["rw"] == "randwrite"
ph = m["phases"][0]["write"]
assert ph["bytes"] == 3 << 20 and ph["ios"] == 2 * 16 + 2 * 128 == ph["clat_ns"]["count"], ph
PY
"$MPI" run --ranks-per-job=1 --name=a --rw=write --size=64k --filename="$d/x" --name=b --stonewall \
  --rw=write --size=64k --filename="$d/y" >/dev/null 2>"$d/rpj2.err"
check "--ranks-per-job over two phases is refused, naming the job" grep -q "job 'b' starts another" "$d/rpj2.err"

# --- shared file: a region per rank, and interleaved blocks -------------
mpi 4 run --layout=shared-file --name=s --rw=write --bs=64k --size=1m --filename="$d/shared" \
  --output-format=json --output="$d/ssf.json" 2>"$d/ssf.err"
check "shared-file write: exit 0" test $? = 0
check "shared-file write: one file of 4 regions" test "$(stat -c %s "$d/shared")" = 4194304
py "shared-file write: totals are the ranks' sums" "$d/ssf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
rows = [r["phases"][0] for r in m["per_rank"]]
assert [x["write_bytes"] for x in rows] == [1 << 20] * 4, rows
assert m["phases"][0]["write"]["bytes"] == 4 << 20 == d["jobs"][0]["write"]["io_bytes"]
assert m["phases"][0]["write"]["clat_ns"]["count"] == 64 == d["jobs"][0]["write"]["total_ios"]
PY
mpi 4 run --layout=shared-file --interleave --name=i --rw=write --bs=4k --size=16k \
  --filename="$d/il" --write_iolog="$d/il.\$rank.log" --output-format=json --output="$d/il.json" 2>"$d/il.err"
check "interleaved shared-file write: exit 0" test $? = 0
py "interleaved: rank r's k-th block is at (4k + r) * 4 KiB" "$d" <<'PY'
import sys
for r in range(4):
    offs = [int(l.split()[3]) for l in open("%s/il.%d.log" % (sys.argv[1], r)) if " write " in l]
    assert offs == [(4 * k + r) * 4096 for k in range(4)], (r, offs)
PY

# --- stonewall -----------------------------------------------------------
mpi 4 run --stonewall=0.5 --name=sw --rw=write --bs=64k --size=64m --rate=4m --filename="$d/sw" \
  --output-format=json,normal >"$d/sw.out" 2>"$d/sw.err"
check "stonewall run: exit 0" test $? = 0
check "the normal report has one MPI block (rank 0's only)" \
  test "$(grep -c '^MPI: 4 ranks on 1 host, layout file-per-rank' "$d/sw.out")" = 1
check "one report, not one per rank" test "$(grep -c '^Run status group 0' "$d/sw.out")" = 1
py "stonewall: every rank stopped at the deadline, before its work was done; both figures" "$d/sw.out" <<'PY'
import json, sys
t = open(sys.argv[1]).read()  # the normal head, the JSON, the normal report
d = json.JSONDecoder().raw_decode(t[t.index('{\n  "fio version"'):])[0]
m = d["iobench"]["mpi"]; ph = m["phases"][0]
assert m["stonewall_s"] == 0.5
rows = [r["phases"][0] for r in m["per_rank"]]
for x in rows:
    assert 0 < x["write_bytes"] < 64 << 20, x
    assert 0.45 < x["end"] - x["start"] < 30, x
sw = ph["write"]["stonewall"]
total = sum(x["write_bytes"] for x in rows)
assert total == ph["write"]["bytes"]
assert ph["first_done_s"] <= ph["last_done_s"] == ph["span_s"]
assert abs(sw["last_done_bw_bytes"] - total / ph["span_s"]) <= 1e-3 * sw["last_done_bw_bytes"]
assert abs(sw["rank_mean_mib_s"] - total / 4 / ph["span_s"] / 1048576) <= 1e-3 * sw["rank_mean_mib_s"]
PY

# --wearout: rank 2 is slowed (16 of its I/Os take 30 ms more), so it has
# done fewer I/Os at the deadline; then every rank goes on to the count of
# the fastest (IOR's stoneWallingWearOut)
offs=$(python3 -c "print(','.join(str(2 * 1048576 + k * 4096) for k in range(16)))")
mpi 4 run --stonewall=0.5 --wearout --layout=shared-file --name=wo --rw=write --bs=4k --size=1m \
  --thinktime=10ms --ioengine=faulty --faulty_delay=30ms --faulty_delay_select=offset:$offs \
  --filename="$d/wo" --output-format=json --output="$d/wo.json" 2>"$d/wo.err"
check "wearout run: exit 0" test $? = 0
py "wearout: rank 2 had fewer I/Os at the deadline, then every rank did the fastest's count" "$d/wo.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]; ph = m["phases"][0]
sw = ph["write"]["stonewall"]
ios = [r["phases"][0]["write_ios"] for r in m["per_rank"]]
assert sw["wearout"] and sw["pairs_min"] < sw["pairs_max"], sw
assert ios == [sw["pairs_max"]] * 4, (ios, sw)
assert ph["write"]["bytes"] == 4 * sw["pairs_max"] * 4096 == d["jobs"][0]["write"]["io_bytes"]
assert sw["bytes"] < ph["write"]["bytes"] and sw["time_s"] < ph["span_s"], (sw, ph["span_s"])
assert abs(sw["rank_mean_mib_s"] - sw["bytes"] / 4 / sw["time_s"] / 1048576) <= 1e-3 * sw["rank_mean_mib_s"]
PY

# --- a rank that fails ---------------------------------------------------
# the faulty engine fails the I/O at 2 MiB + 64 KiB: inside rank 2's region
t0=$(date +%s)
mpi 4 run --layout=shared-file --name=f --rw=write --bs=64k --size=1m --filename="$d/fail" \
  --ioengine=faulty --faulty_fail=offset:2162688 --output-format=json --output="$d/fail.json" \
  >/dev/null 2>"$d/fail.err"
rc=$?
check "an I/O error on rank 2: the run fails (exit $rc), within the timeout" bash -c "[ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ]"
check "an I/O error on rank 2: the message names rank 2, its host and the error" \
  grep -q "iobench-mpi: rank 2 (host $H) failed: .*Input/output error" "$d/fail.err"
py "an I/O error on rank 2: the JSON keeps the results of every rank" "$d/fail.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
assert m["failure"]["rank"] == 2 and m["failure"]["error"] == 5, m["failure"]
rows = {r["rank"]: r["phases"][0]["write_bytes"] for r in m["per_rank"]}
assert rows[0] == rows[1] == rows[3] == 1 << 20 and 0 <= rows[2] < 1 << 20, rows
PY
# a full filesystem under rank 2 only: the others write to the big one
small=$(mkfs_mount ext4 8m) && mkdir -p "$d/big" && ln -s "$small" "$d/big2"
for r in 0 1 3; do ln -s "$d/big" "$d/big$r"; done
mpi 4 run --name=nospc --rw=write --bs=64k --size=16m --filename="$d/big\$rank/f" \
  --fallocate=none --output-format=json --output="$d/nospc.json" >/dev/null 2>"$d/nospc.err"
rc=$?
check "ENOSPC on rank 2: the run fails (exit $rc), within the timeout" bash -c "[ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ]"
check "ENOSPC on rank 2: the message names rank 2, its host and the error" \
  grep -q "iobench-mpi: rank 2 (host $H) failed: .*No space left on device" "$d/nospc.err"
py "ENOSPC on rank 2: the other ranks' results are kept" "$d/nospc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
assert m["failure"]["rank"] == 2 and m["failure"]["error"] == 28, m["failure"]
rows = {r["rank"]: r["phases"][0]["write_bytes"] for r in m["per_rank"]}
assert rows[0] == rows[1] == rows[3] == 16 << 20 and rows[2] < 16 << 20, rows
PY
# a job that cannot start on rank 2 (its directory is a file there)
mkdir -p "$d/s0" "$d/s1" "$d/s3" && echo x >"$d/s2"
mpi 4 run --name=ns --rw=write --bs=64k --size=1m --filename="$d/s\$rank/f" \
  --output-format=json --output="$d/ns.json" >/dev/null 2>"$d/ns.err"
rc=$?
check "a job that cannot start on rank 2: the run fails (exit $rc)" bash -c "[ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ]"
check "a job that cannot start on rank 2: the message names rank 2, its host and the error" \
  grep -q "iobench-mpi: rank 2 (host $H) failed: job 'ns': cannot create .*Not a directory" "$d/ns.err"
py "a job that cannot start on rank 2: no rank wrote (the phase did not start)" "$d/ns.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
assert m["failure"]["rank"] == 2, m["failure"]
assert all(p["write_bytes"] == 0 for r in m["per_rank"] for p in r["phases"]), m["per_rank"]
assert d["jobs"][0]["write"]["io_bytes"] == 0
PY
# a rank that hangs (one I/O of rank 2 takes 30 s): named after --sync-timeout
t0=$(date +%s)
mpi 4 run --sync-timeout=1 --layout=shared-file --name=h --rw=write --bs=64k --size=1m \
  --filename="$d/hang" --ioengine=faulty --faulty_delay=30s --faulty_delay_select=offset:2162688 \
  --output-format=json --output="$d/hang.json" >/dev/null 2>"$d/hang.err"
rc=$? t=$(( $(date +%s) - t0 ))
check "a hung rank 2: the run ends (exit $rc) in ${t}s, before its I/O would (30 s)" bash -c "[ $rc != 0 ] && [ $t -lt 25 ]"
check "a hung rank 2: the message names rank 2 and its host" \
  grep -q "iobench-mpi: rank 2 (host $H) did not reach the end of phase 1" "$d/hang.err"
py "a hung rank 2: the JSON has the other ranks' results" "$d/hang.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["iobench"]["mpi"]
assert m["failure"]["rank"] == 2 and m["failure"]["hung"], m["failure"]
rows = {r["rank"]: r for r in m["per_rank"]}
assert not rows[2]["answered"]
assert all(rows[k]["phases"][0]["write_bytes"] == 1 << 20 for k in (0, 1, 3))
PY

# --- the sanitizer build -------------------------------------------------
A=$TOP/build-asan/iobench-mpi
if [ -x "$A" ]; then
  timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe -np 2 --mca btl self,tcp \
    --mca btl_tcp_if_include lo --mca pml ob1 \
    -x ASAN_OPTIONS=detect_leaks=0:exitcode=99 -x UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99 \
    "$A" run --reorder-read=1 --output-format=json,normal --output="$d/asan.out" "$d/fpr.fio" 2>"$d/asan.err"
  rc=$?
  check "the sanitizer build's iobench-mpi: 2 ranks, exit 0, no report" \
    bash -c "[ $rc = 0 ] && ! grep -qE 'ERROR: AddressSanitizer|runtime error:|assertion failed' '$d/asan.err'"
  [ "$rc" = 0 ] || sed -n 1,20p "$d/asan.err"
else
  not_ok "the sanitizer build's iobench-mpi at $A (./scripts/build.sh --asan makes it)"
fi
finish
