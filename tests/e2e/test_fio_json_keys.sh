#!/usr/bin/env bash
# fio's JSON key for key: for each job below fio 3.33 and
# iobench run the same command line (each in its own directory, on its own
# files), and json_keys.py diffs the key sets both ways (nothing of fio's
# missing, nothing extra outside "iobench") and the value types of every
# common key. The jobs: read, randrw with numjobs and group_reporting,
# verify, rate-limited, logs (write_bw/iops/lat_log), trim on a loop device,
# mixed bssplit, four jobs in three groups with stonewall/new_group and a
# [global] section ("global options"), json+ with clat_ns.bins, and a run on
# a file (disk_util), unified_rw_reporting=mixed (one "mixed" object),
# --idle-prof=percpu (cpu_idleness), thinktime, steadystate (its "steadystate"
# section; the job options under fio's canonical names). An option iobench
# refuses is checked to be refused with the clear "not implemented yet" message;
# once accepted its JSON is diffed like the others.
. "$(dirname "$0")/lib.sh"
need_cmd fio fio || finish
need_root
d=$(tmpdir)
KEYS="$(dirname "$0")/json_keys.py"
FIO=$(command -v fio)
loop=$(mkloop 64M) || { not_ok "a loop device for the trim job"; finish; }
cat >"$d/groups.fio" <<'JOB'
[global]
ioengine=null
size=2m
bs=8k

[g0a]
rw=read

[g0b]
rw=write

[g1]
stonewall
rw=randread

[g2]
new_group
rw=randwrite
JOB
# diff NAME FMT ARGS...: run both tools, then compare their JSON
diff_case() {
  local name=$1 fmt=$2; shift 2
  local t tool
  for t in fio iob; do
    # IOB_ONLY: iobench's own flags (--allow-destroy) for this case
    [ $t = fio ] && tool=$FIO || tool="$IOBENCH run $IOB_ONLY"
    mkdir -p "$d/$t/$name"
    (cd "$d/$t/$name" && $tool --output-format="$fmt" --output=out.json "${@//@D@/$d/$t/$name}" \
       >out.txt 2>err.txt; echo $? >rc)
  done
  check "$name: both tools exit 0" \
    bash -c "[ \$(cat '$d/fio/$name/rc') = 0 ] && [ \$(cat '$d/iob/$name/rc') = 0 ]"
  if python3 "$KEYS" "$d/fio/$name/out.json" "$d/iob/$name/out.json" >"$d/$name.diff" 2>&1; then
    ok "$name: the same keys and value types as fio's ($(tail -1 "$d/$name.diff"))"
  else
    not_ok "$name: the keys differ from fio's"
    head -20 "$d/$name.diff" | sed 's/^/# /'
  fi
}
# refused_or_diff NAME ARGS...: iobench refuses the options clearly, or
# its JSON is diffed
refused_or_diff() {
  local name=$1; shift
  if "$IOBENCH" run --parse-only "${@//@D@/$d}" >/dev/null 2>"$d/$name.refused"; then
    diff_case "$name" json "$@"
  else
    check "$name: refused by iobench as not implemented yet (no JSON to diff)" \
      grep -q "is a fio option that iobench does not implement yet" "$d/$name.refused"
  fi
}
diff_case read json --name=r --rw=read --bs=128k --size=4m --filename=@D@/data
diff_case randrw_group json --group_reporting --name=rw --rw=randrw --bs=4k --numjobs=2 \
  --size=4m --ioengine=null --time_based --runtime=1
diff_case verify json --name=v --rw=write --bs=4k --size=1m --verify=crc32c --filename=@D@/data
diff_case rate_limited json --name=rl --rw=randread --bs=4k --rate=1m --size=4m --runtime=1 \
  --filename=@D@/data
diff_case logs json --name=lg --rw=randrw --ioengine=null --size=64m --time_based --runtime=1 \
  --write_bw_log=lg --write_iops_log=lg --write_lat_log=lg --log_avg_msec=100
IOB_ONLY="--allow-destroy=$loop" diff_case trim json --name=t --rw=randtrim --bs=64k --size=8m \
  --filename="$loop"
diff_case bssplit json --name=bs --rw=randrw --rwmixread=70 --bssplit=4k/50:16k/30:64k/20,8k/100 \
  --ioengine=null --size=16m
diff_case groups json "$d/groups.fio"
diff_case idle_prof json --idle-prof=percpu --name=ip --rw=read --ioengine=null --size=64m
diff_case unified_mixed json --name=um --rw=randrw --ioengine=null --size=4m \
  --unified_rw_reporting=mixed
diff_case jsonplus json+ --name=jp --rw=randread --bs=4k --size=4m --ioengine=libaio --iodepth=4 \
  --direct=1 --filename=@D@/data
refused_or_diff thinktime --name=tt --rw=read --ioengine=null --size=1m --thinktime=200 \
  --thinktime_blocks=4
refused_or_diff steadystate --name=ss --rw=read --ioengine=null --size=1g --time_based \
  --runtime=4 --steadystate=iops:50% --ss_dur=2 --ss_ramp=1
check "randrw_group: a bare --group_reporting before --name gives fio's empty 'global options'" \
  test "$(json_get "$d/iob/randrw_group/out.json" 'd["global options"]')" = "{}"
check "groups: the 'global options' block is there, with the [global] options" \
  test "$(json_get "$d/iob/groups/out.json" 'sorted(d["global options"])')" = "['bs', 'ioengine', 'size']"
check "groups: groupid 0, 0, 1, 2 as fio's" \
  test "$(json_get "$d/iob/groups/out.json" '[j["groupid"] for j in d["jobs"]]')" = "$(json_get "$d/fio/groups/out.json" '[j["groupid"] for j in d["jobs"]]')"
check "unified_mixed: the mixed object holds every I/O of the job" \
  test "$(json_get "$d/iob/unified_mixed/out.json" 'd["jobs"][0]["mixed"]["io_bytes"]')" = 4194304
check "jsonplus: clat_ns.bins present in both" \
  bash -c "for t in fio iob; do python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"jobs\"][0][\"read\"][\"clat_ns\"][\"bins\"]' '$d/'\$t/jsonplus/out.json || exit 1; done"
check "read: disk_util names the same devices as fio's" \
  test "$(json_get "$d/iob/read/out.json" 'sorted(x["name"] for x in d["disk_util"])')" = "$(json_get "$d/fio/read/out.json" 'sorted(x["name"] for x in d["disk_util"])')"
finish
