#!/usr/bin/env bash
# The four job files of an ext3/ext4/XFS fio study (tests/data/seed003) run unchanged but
# for --set directory/size/runtime, as `fio a.fio b.fio c.fio d.fio` ran
# them: four stonewalled groups of five cloned jobs, reported as one entry
# each (group_reporting), with fio's JSON fields.
. "$(dirname "$0")/lib.sh"
d=$(tmpdir)
data=$TOP/tests/data/seed003
out=$d/out.json
"$IOBENCH" run --output-format=json --set directory="$d" --set size=8m --set runtime=2 \
  "$data/random-write-test.fio" "$data/random-write-test-buf.fio" \
  "$data/sequential-write-test.fio" "$data/sequential-write-test-buf.fio" >"$out" 2>"$d/err"
rc=$?
check "seed job files exit 0" test $rc -eq 0
check "stdout is one valid JSON document" python3 -m json.tool "$out" >/dev/null
python3 - "$out" <<'PY' && ok "seed JSON has the expected jobs and fields" || not_ok "seed JSON has the expected jobs and fields"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
names = [j["jobname"] for j in jobs]
assert names == ["random-write-direct", "random-write-buf", "sequential-write-direct",
                 "sequential-write-buffered"], names
assert [j["groupid"] for j in jobs] == [0, 1, 2, 3]
for j in jobs:
    w = j["write"]
    for k in ("io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios",
              "short_ios", "drop_ios", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max",
              "bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min", "iops_max",
              "iops_mean", "iops_stddev", "iops_samples"):
        assert k in w, k
    assert w["io_bytes"] > 0 and w["total_ios"] > 0, j["jobname"]
    assert w["io_bytes"] == w["total_ios"] * 8192, (w["io_bytes"], w["total_ios"])
    assert "99.000000" in w["clat_ns"]["percentile"]
    for k in ("job options", "usr_cpu", "sys_cpu", "ctx", "iodepth_level", "latency_us",
              "latency_ms", "job_runtime", "elapsed"):
        assert k in j, k
    assert j["job options"]["bs"] == "8k" and j["job options"]["numjobs"] == "5"
assert "fio version" in d and "disk_util" in d
PY
# five clones each wrote its own file in the directory: SECTION.jobnum.filenum,
# after the section name, not name=, so the direct and the buffered job files
# (same section) share their files, as in fio
check "clones use section.jobnum.filenum files" test -f "$d/random-write.4.0"
check "name= does not name the files" bash -c "! ls '$d' | grep -q 'write-direct\|write-buf'"

# The same four job files, shrunk the same way, run by fio 3.33 in another
# directory: the two tools leave the same set of files.
files_of() { (cd "$1" && find . -type f ! -name '*.fio' ! -name '*.json' ! -name err | sort); }
if command -v fio >/dev/null; then
  fd=$(tmpdir); id=$(tmpdir)
  for f in "$data"/*.fio; do
    sed -e "s|^directory=.*|directory=$fd|" -e 's/^size=.*/size=1m/' -e 's/^runtime=.*/runtime=1/' \
      "$f" >"$fd/$(basename "$f")"
  done
  (cd "$fd" && fio --output=/dev/null random-write-test.fio random-write-test-buf.fio \
    sequential-write-test.fio sequential-write-test-buf.fio) >/dev/null 2>&1
  "$IOBENCH" run --output=/dev/null --set directory="$id" --set size=1m --set runtime=1 \
    "$data/random-write-test.fio" "$data/random-write-test-buf.fio" \
    "$data/sequential-write-test.fio" "$data/sequential-write-test-buf.fio" 2>/dev/null
  check "the study's jobs: fio made its files (10 expected)" test "$(files_of "$fd" | wc -l)" -eq 10
  check "the study's jobs: iobench creates the same set of files as fio 3.33" \
    test "$(files_of "$fd")" = "$(files_of "$id")"

  # [sec] name=foo numjobs=2: files sec.0.0 and sec.1.0, JSON jobname foo
  for x in "$fd" "$id"; do
    printf '[sec]\nname=foo\nnumjobs=2\nrw=write\nsize=64k\ndirectory=%s/n\n' "$x" >"$x/sec.fio"
    mkdir "$x/n"
  done
  (cd "$fd" && fio --output=/dev/null sec.fio) >/dev/null 2>&1
  "$IOBENCH" run --output-format=json "$id/sec.fio" >"$id/sec.json" 2>/dev/null
  check "[sec] name=foo numjobs=2: fio makes sec.0.0 and sec.1.0" \
    test "$(files_of "$fd/n" | tr '\n' ' ')" = "./sec.0.0 ./sec.1.0 "
  check "[sec] name=foo numjobs=2: iobench makes the same files" \
    test "$(files_of "$id/n")" = "$(files_of "$fd/n")"
  check "[sec] name=foo: the JSON jobname is foo" \
    test "$(json_get "$id/sec.json" '[j["jobname"] for j in d["jobs"]]')" = "['foo', 'foo']"
else
  not_ok "fio is installed (needed to compare file names)"
fi
check "no progress line in stderr when it is not a terminal" bash -c "! grep -q 'Jobs:' '$d/err'"
finish
