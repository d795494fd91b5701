#!/usr/bin/env bash
# fio 3.33's per-I/O priority options of io_uring and libaio:
# cmdprio_percentage (R,W), cmdprio_class, cmdprio and
# cmdprio_bssplit (bs/pct and bs/pct/class/level), on small files both
# tools write in directories the test creates.
# 1. The JSON of a libaio job with cmdprio_percentage=50 has fio's keys,
#    "prios" entries included (json_keys.py, as test_fio_json_keys), and
#    the normal output has fio's "clat prio C/L" lines and blocks, in order.
# 2. With 0% of reads and 100% of writes: under strace both tools give every
#    write, and only the writes, IOCB_FLAG_IOPRIO with aio_reqprio BE/3, and
#    neither prints "prios" (one priority per direction).
# 3. 50% of 512 reads: both tools flag between 30% and 70% of the iocbs.
# 4. io_uring with cmdprio_bssplit=4k/100/3/7:8k/0 and bssplit 4k/8k: the
#    same "prios" (class, level) pairs as fio's, and iobench's 3/7 entry
#    counts exactly the 4k reads (from the clat log's block sizes).
# 4b. io_uring on a loop device: the block layer's requests carry idle/6
#    for exactly the reads the JSON counts under 3/6 (block_rq_issue).
# 5. Refusals: cmdprio_percentage with cmdprio_bssplit, cmdprio=8, and
#    cmdprio_percentage on psync (not an option of that engine).
# 6. fio's examples cmdprio-percentage.fio and cmdprio-bssplit.fio run
#    small on a file; the percentage one reports both priorities.
. "$(dirname "$0")/lib.sh"
need_fio_examples cmdprio-percentage.fio cmdprio-bssplit.fio
need_cmd fio fio || finish
need_cmd strace strace || finish
need_root
d=$(tmpdir)
KEYS="$(dirname "$0")/json_keys.py"
FIO=$(command -v fio)

# run TOOL NAME ARGS...: in $d/TOOL/NAME, JSON in out.json
run() {
  local t=$1 name=$2 tool; shift 2
  [ "$t" = fio ] && tool=$FIO || tool="$IOBENCH run"
  mkdir -p "$d/$t/$name"
  (cd "$d/$t/$name" && $tool --output-format=json --output=out.json "$@" >out.txt 2>err.txt)
}
prios() { python3 -c "
import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]
print(' '.join('%s:%s' % (dd, ','.join('%d/%d' % (p['prioclass'], p['prio']) for p in j[dd].get('prios', [])))
               for dd in ('read', 'write')))" "$1"; }

# 1
for t in fio iob; do
  run $t keys --name=k --filename=f --size=1m --bs=4k --rw=randrw --ioengine=libaio --iodepth=4 \
    --cmdprio_percentage=50 --cmdprio_class=2 --cmdprio=3
done
if python3 "$KEYS" "$d/fio/keys/out.json" "$d/iob/keys/out.json" >"$d/keys.diff" 2>&1; then
  ok "cmdprio_percentage: the same keys and value types as fio's ($(tail -1 "$d/keys.diff"))"
else
  not_ok "cmdprio_percentage: the keys differ from fio's"; head -20 "$d/keys.diff" | sed 's/^/# /'
fi
pf=$(prios "$d/fio/keys/out.json"); pi=$(prios "$d/iob/keys/out.json")
check "cmdprio_percentage=50: prios read and write 0/0 and 2/3 in both ($pi; fio: $pf)" \
  test "$pi" = "read:0/0,2/3 write:0/0,2/3" -a "$pf" = "$pi"

# 1b: the normal output's per-priority lines, as fio's
for t in fio iob; do
  [ $t = fio ] && tool=$FIO || tool="$IOBENCH run"
  mkdir -p "$d/$t/text"
  (cd "$d/$t/text" && $tool --name=k --filename=f --size=1m --bs=4k --rw=randrw --ioengine=libaio \
     --cmdprio_percentage=50 --cmdprio_class=2 --cmdprio=3 >out.txt 2>err.txt)
  grep -o 'clat prio [0-9/]* ([a-z]*)\|clat prio [0-9/]* ([0-9.]*% of IOs) percentiles' "$d/$t/text/out.txt" |
    sed 's/([0-9.]*% of IOs)/(N% of IOs)/; s/([a-z]*sec)/(unit)/' >"$d/$t/text/prio.lines"
done
check "normal output: the same 'clat prio' lines as fio's ($(wc -l <"$d/iob/text/prio.lines"))" \
  bash -c "[ -s '$d/iob/text/prio.lines' ] && cmp -s '$d/fio/text/prio.lines' '$d/iob/text/prio.lines'"

# 2, 3: count the flagged iocbs under strace
# flagged TOOL NAME ARGS...: prints "iocbs flagged flagged-writes BE/3-ones"
flagged() {
  local t=$1 name=$2 tool; shift 2
  [ "$t" = fio ] && tool=$FIO || tool="$IOBENCH run"
  mkdir -p "$d/$t/$name"
  (cd "$d/$t/$name" && strace -f -qq -e trace=io_submit -o st.txt $tool --output-format=json \
     --output=out.json "$@" >out.txt 2>err.txt)
  local f="$d/$t/$name/st.txt"
  echo "$(grep -o 'aio_lio_opcode=IOCB_CMD_P[A-Z]*' "$f" | wc -l) $(grep -o 'IOCB_FLAG_IOPRIO' "$f" | wc -l)" \
       "$(grep 'IOCB_CMD_PWRITE' "$f" | grep -c 'IOCB_FLAG_IOPRIO')" \
       "$(grep -o 'aio_reqprio=IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 3)' "$f" | wc -l)"
}
for t in fio iob; do
  r=$(flagged $t dirs --name=w --filename=f --size=256k --bs=4k --rw=randrw --ioengine=libaio \
       --cmdprio_percentage=0,100 --cmdprio_class=2 --cmdprio=3)
  read -r n fl fw be <<<"$r"
  w=$(json_get "$d/$t/dirs/out.json" "d['jobs'][0]['write']['total_ios']")
  check "$t: cmdprio_percentage=0,100: the $w writes and only they carry IOCB_FLAG_IOPRIO BE/3 ($n iocbs, $fl flagged)" \
    test "$n" -eq 64 -a "$fl" -eq "$w" -a "$fw" -eq "$w" -a "$be" -eq "$w"
  check "$t: one priority per direction: no prios" \
    test "$(prios "$d/$t/dirs/out.json")" = "read: write:"
  r=$(flagged $t half --name=h --filename=f --size=2m --bs=4k --rw=randread --ioengine=libaio \
       --cmdprio_percentage=50)
  read -r n fl fw be <<<"$r"
  check "$t: cmdprio_percentage=50: $fl of $n reads flagged (30% to 70%)" \
    test "$n" -eq 512 -a "$fl" -ge 154 -a "$fl" -le 358
done

# 4
for t in fio iob; do
  run $t bss --name=b --filename=f --size=1m --bssplit=4k/50:8k/50 --rw=randread --ioengine=io_uring \
    --cmdprio_bssplit=4k/100/3/7:8k/0 --write_lat_log=l --log_avg_msec=0
done
pf=$(prios "$d/fio/bss/out.json"); pi=$(prios "$d/iob/bss/out.json")
check "io_uring cmdprio_bssplit: prios $pi as fio's ($pf)" test "$pi" = "read:0/0,3/7 write:" -a "$pf" = "$pi"
n4=$(awk -F', *' '$4 == 4096' "$d/iob/bss/l_clat.1.log" | wc -l)
p37=$(json_get "$d/iob/bss/out.json" "[p for p in d['jobs'][0]['read']['prios'] if p['prioclass'] == 3][0]['clat_ns']['N']")
check "io_uring cmdprio_bssplit: the 3/7 entry counts the $n4 reads of 4k ($p37)" test "$n4" -gt 0 -a "$n4" = "$p37"

# 4b: io_uring's SQE ioprio reaches the block layer: on a loop device the
# test creates, block_rq_issue (in a tracing instance of the test's own,
# filtered on that device) shows idle/6 for exactly the reads the JSON
# counts under 3/6, in both tools
TR=$(tracefs_dir) || not_ok "tracefs mounted (lib.sh's tracefs_dir)"
T=$TR/instances/iobench-prio-$$
loop=$(mkloop 16M) || not_ok "a loop device"
if [ -n "$loop" ] && [ -n "$TR" ] && [ -d "$TR/instances" ] && mkdir "$T" 2>/dev/null; then
  trap 'rmdir "$T" 2>/dev/null; cleanup' EXIT
  mm=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
  echo "dev == $(( (${mm%:*} << 20) | ${mm#*:} ))" >"$T/events/block/block_rq_issue/filter"
  for t in fio iob; do
    echo >"$T/trace"
    echo 1 >"$T/events/block/block_rq_issue/enable"
    run $t sqe --name=u --filename="$loop" --direct=1 --size=2m --bs=4k --rw=randread \
      --ioengine=io_uring --cmdprio_percentage=25 --cmdprio_class=3 --cmdprio=6
    echo 0 >"$T/events/block/block_rq_issue/enable"
    idle=$(grep -c 'block_rq_issue: .* idle,0,6 ' "$T/trace")
    other=$(grep 'block_rq_issue: ' "$T/trace" | grep -vc ' idle,0,6 ')
    n36=$(json_get "$d/$t/sqe/out.json" "[p for p in d['jobs'][0]['read'].get('prios', []) if p['prioclass'] == 3][0]['clat_ns']['N']")
    check "$t: io_uring: $idle of $((idle + other)) requests reach the device as idle/6, the JSON's 3/6 count ($n36)" \
      test "$idle" -gt 0 -a "$idle" = "$n36" -a $((idle + other)) -eq 512
  done
  rmdir "$T"
else
  not_ok "a tracing instance for block_rq_issue (tracefs at '$TR')"
fi

# 5
"$IOBENCH" run --name=x --filename="$d/x" --size=64k --ioengine=libaio --cmdprio_percentage=10 \
  --cmdprio_bssplit=4k/50 >/dev/null 2>"$d/excl.err"
check "cmdprio_percentage with cmdprio_bssplit is refused as mutually exclusive" \
  grep -q "cmdprio_percentage and cmdprio_bssplit are mutually exclusive" "$d/excl.err"
"$IOBENCH" run --parse-only --name=x --filename="$d/x" --size=64k --ioengine=io_uring --cmdprio_percentage=5 \
  --cmdprio=8 >/dev/null 2>"$d/lvl.err"
check "cmdprio=8 is refused with the range" grep -q "must be from 0 to 7" "$d/lvl.err"
"$IOBENCH" run --parse-only --name=x --filename="$d/x" --size=64k --ioengine=psync --cmdprio_percentage=5 \
  >/dev/null 2>"$d/eng.err"
check "cmdprio_percentage on psync: not an option of that engine" \
  grep -q "'cmdprio_percentage' is not an option of engine 'psync'" "$d/eng.err"

# 6
for x in cmdprio-percentage cmdprio-bssplit; do
  mkdir -p "$d/ex/$x"
  sed "s|filename=/dev/sda|filename=$d/ex/dev|" "$FIO_EXAMPLES/$x.fio" >"$d/ex/$x/$x.fio"
  (cd "$d/ex/$x" && "$IOBENCH" run --set size=2m --set runtime=1 --set time_based=0 \
     --output-format=json --output=out.json "$x.fio" >out.txt 2>err.txt)
  check "example $x.fio runs small on a file" test $? -eq 0 -a -s "$d/ex/$x/out.json"
done
check "cmdprio-percentage.fio: prios 3/0 (prioclass=3) and 1/0 (cmdprio_class=1)" \
  test "$(prios "$d/ex/cmdprio-percentage/out.json")" = "read:3/0,1/0 write:"
finish
