#!/usr/bin/env bash
# fio's --status-interval (-L) side by side with fio 3.33: a null-engine job
# of 3 MiB at 1 MiB/s (about 3 s) with reports every second gives as many JSON
# documents as fio's (within one), each parses, io_bytes never decreases and
# the last document carries the final figure (3 MiB, as a run without the
# flag); with --output they all go to the file and nothing to stdout; the
# normal format prints each periodic report (job block and "Run status
# group"); terse prints a line per report, one per group under
# group_reporting; values that are not a time, below 1 ms, or --repeat
# together with it are refused.
. "$(dirname "$0")/lib.sh"
need_cmd fio fio || finish
FIO=$(command -v fio)
IOB=("$IOBENCH" run --no-monitor --no-store)
d=$(tmpdir)
[ -n "$d" ] && [ -d "$d" ] || { echo "not ok - no temporary directory"; exit 1; }
cd "$d" || exit 1
JOB=(--name=x --ioengine=null --size=3m --rate=1m --status-interval=1)

# docs FILE: one line per JSON document: "ok|bad N_JOBS IO_BYTES(read of job 0)"
DOCS=$(cat <<'PY'
import json, sys
t = open(sys.argv[1]).read()
dec = json.JSONDecoder(); i = 0
while True:
    while i < len(t) and t[i].isspace():
        i += 1
    if i >= len(t):
        break
    try:
        doc, i = dec.raw_decode(t, i)
    except ValueError:
        print("bad 0 0"); break
    print("ok", len(doc["jobs"]), doc["jobs"][0]["read"]["io_bytes"])
PY
)

"$FIO" "${JOB[@]}" --output-format=json >fio.json 2>fio.err
"${IOB[@]}" "${JOB[@]}" --output-format=json --output=iob.json >iob.stdout 2>iob.err
rc=$?
check "iobench --status-interval=1 --output-format=json runs (rc $rc)" [ "$rc" -eq 0 ]
check "with --output, nothing goes to stdout" [ ! -s iob.stdout ]
python3 -c "$DOCS" fio.json >fio.docs || not_ok "fio's output splits into JSON documents (python exited $?)"
python3 -c "$DOCS" iob.json >iob.docs || not_ok "iobench's output splits into JSON documents (python exited $?)"
nf=$(wc -l <fio.docs); ni=$(wc -l <iob.docs)
check "as many JSON documents as fio's within one (fio $nf, iobench $ni)" \
  [ "$ni" -ge 3 -a $((ni - nf)) -le 1 -a $((nf - ni)) -le 1 ]
check "every document parses" [ "$(grep -vc '^ok ' iob.docs)" -eq 0 ]
check "io_bytes never decreases across the documents ($(awk '{printf "%s ", $3}' iob.docs))" \
  awk 'NR > 1 && $3 < prev { exit 1 } { prev = $3 }' iob.docs
"${IOB[@]}" --name=x --ioengine=null --size=3m --output-format=json >plain.json 2>/dev/null
final=$(json_get plain.json 'd["jobs"][0]["read"]["io_bytes"]')
last=$(tail -n1 iob.docs | awk '{print $3}')
check "the last document's io_bytes ($last) is the final report's ($final)" [ "$last" = "$final" ]
check "an earlier document reports less than the final ($(head -n1 iob.docs | awk '{print $3}'))" \
  [ "$(head -n1 iob.docs | awk '{print $3}')" -lt "$final" ]

"$FIO" --name=x --ioengine=null --size=2m --rate=1m --status-interval=1 >fio.txt 2>&1
"${IOB[@]}" --name=x --ioengine=null --size=2m --rate=1m --status-interval=1 >iob.txt 2>iob.err
rc=$?
nf=$(grep -c '^Run status group 0' fio.txt); ni=$(grep -c '^Run status group 0' iob.txt)
nb=$(grep -c '^x: (groupid=0, jobs=1)' iob.txt)
check "normal: periodic reports printed (rc $rc; 'Run status group' fio $nf, iobench $ni)" \
  [ "$rc" -eq 0 -a "$ni" -ge 2 -a $((ni - nf)) -le 1 -a $((nf - ni)) -le 1 ]
check "normal: a job block before each 'Run status group' ($nb)" [ "$nb" -eq "$ni" ]
check "normal: the head is printed once" [ "$(grep -c '^Starting 1 thread' iob.txt)" -eq 1 ]

"${IOB[@]}" --name=x --ioengine=null --size=1m --rate=512k --numjobs=2 --group_reporting \
  --status-interval=1 --minimal >iob.terse 2>iob.err
rc=$?
nt=$(wc -l <iob.terse); other=$(grep -vc '^3;iobench-[^;]*;x;' iob.terse)
check "terse: a line per report, one group under group_reporting (rc $rc, $nt lines)" \
  [ "$rc" -eq 0 -a "$nt" -ge 2 -a "$other" -eq 0 ]

for bad in abc 0 500us; do
  "${IOB[@]}" --name=x --ioengine=null --size=1m --status-interval=$bad >bad.out 2>bad.err
  rc=$?; said=0; grep -q -- "--status-interval '$bad'" bad.err && said=1
  check "--status-interval=$bad is refused (rc $rc: $(head -c 120 bad.err))" \
    [ "$rc" -ne 0 -a "$said" -eq 1 -a ! -s bad.out ]
done
"${IOB[@]}" --name=x --ioengine=null --size=1m --status-interval=1 --repeat=2 >bad.out 2>bad.err
rc=$?; said=0; grep -q -- "--status-interval and --repeat" bad.err && said=1
check "--status-interval with --repeat is refused (rc $rc)" [ "$rc" -ne 0 -a "$said" -eq 1 ]
finish
