#!/usr/bin/env bash
# iobench invoked as `fio` (a symlink) is fio 3.33 to the programs that
# drive fio (ezfio, KDiskMark, PTS, fio-plot), side by side with Debian's
# fio on the same jobs: --version exactly; the normal output's lines up to
# and including the first job result header, numbers, dates and pids
# masked; fio's "Starting N thread(s) and M process(es)" wording for one and
# two jobs with and without thread=1; the JSON's and the terse report's
# version; --output=FILE and --output-format=normal,json the same. iobench's
# own lines (the system header, the monitor, warnings) are absent as `fio`
# (they are in the JSON's "iobench") and present as `iobench run`; as `fio`
# the default results database in $HOME is not made, but --db or IOBENCH_DB
# store, and `iobench run` stores by default as before.
. "$(dirname "$0")/lib.sh"
need_cmd fio fio || finish
d=$(tmpdir); W=$d # check() has a local d
mkdir -p "$d/bin" "$d/fio" "$d/iob" "$d/run"
ln -s "$IOBENCH" "$d/bin/fio"
FIO=$(command -v fio)
IOB="$d/bin/fio"
JOB=(--size=256k --rw=read --bs=4k --ioengine=psync)

# both NAME ARGS...: each tool in its own directory, its files made afresh
# (both lay them out) -> $d/{fio,iob}/NAME.{out,err,rc}
both() {
  local name=$1 t; shift
  for t in fio iob; do
    rm -f "$d/$t"/*.0 "$d/$t"/*.[0-9].[0-9]
  done
  (cd "$d/fio" && "$FIO" "$@" >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
  (cd "$d/iob" && env -u IOBENCH_DB "$IOB" "$@" >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
}
# head FILE: its lines up to and including the first job result header,
# numbers masked (counts, sizes, pids, the date's figures)
head_of() { sed -n '1,/^[^ ]*: (groupid=/p' "$1" | sed -E 's/[0-9]+/N/g'; }
same_head() {
  [ "$(cat "$W/fio/$1.rc")/$(cat "$W/iob/$1.rc")" = 0/0 ] &&
    [ -n "$(head_of "$W/fio/$1.out")" ] && [ "$(head_of "$W/fio/$1.out")" = "$(head_of "$W/iob/$1.out")" ]
}
starting() { grep '^Starting ' "$W/$1/$2.out"; }
OWN='^(host|vm|fs|devices|queue): |^System \(monitor|^Not watched|^Warnings|^run interrupted'

# --- --version ---------------------------------------------------------------
check "as fio, --version is exactly fio's ($("$IOB" --version))" \
  [ "$("$IOB" --version)" = "$("$FIO" --version)" ]
check "as fio, --version is fio-3.33" [ "$("$IOB" --version)" = fio-3.33 ]
check "iobench run --version keeps its text, naming iobench" \
  bash -c "'$IOBENCH' run --version | grep -qx 'fio-3.33 (iobench [0-9.]*)'"
check "iobench --version keeps its text" \
  bash -c "'$IOBENCH' --version | grep -qx 'iobench [0-9.]*'"

# --- the normal output's head, and "Starting ..." ----------------------------
both one --name=a "${JOB[@]}"
check "one job: the head as fio's, up to the job header (numbers masked)" same_head one
check "one job: 'Starting 1 process', as fio" \
  [ "$(starting fio one)/$(starting iob one)" = "Starting 1 process/Starting 1 process" ]
check "one job: the version line is fio-3.33, as fio" \
  [ "$(sed -n 2p "$d/iob/one.out")" = fio-3.33 ]
check "the job header has fio's pid= ($(grep -m1 'groupid=' "$d/iob/one.out"))" \
  grep -Eq '^a: \(groupid=0, jobs=1\): err= 0: pid=[1-9][0-9]*: [A-Z][a-z]{2} ' "$d/iob/one.out"
check "as fio, none of iobench's own lines in the normal output" \
  bash -c "! grep -Eq '$OWN' '$d/iob/one.out'"
check "as fio, nothing on stderr for a run that succeeded (fio prints nothing there)" \
  bash -c "[ ! -s '$d/fio/one.err' ] && [ ! -s '$d/iob/one.err' ]"

both thread --name=a "${JOB[@]}" --thread
check "one job, thread=1: the head as fio's" same_head thread
check "one job, thread=1: 'Starting 1 thread', as fio" \
  [ "$(starting fio thread)/$(starting iob thread)" = "Starting 1 thread/Starting 1 thread" ]
both two --name=a "${JOB[@]}" --numjobs=2
check "numjobs=2: the head as fio's" same_head two
check "numjobs=2: 'Starting 2 processes', as fio" \
  [ "$(starting fio two)/$(starting iob two)" = "Starting 2 processes/Starting 2 processes" ]
both two_thread --name=a "${JOB[@]}" --numjobs=2 --thread
check "numjobs=2, thread=1: the head as fio's" same_head two_thread
check "numjobs=2, thread=1: 'Starting 2 threads', as fio" \
  [ "$(starting fio two_thread)/$(starting iob two_thread)" = "Starting 2 threads/Starting 2 threads" ]
both mixed --name=a "${JOB[@]}" --thread --name=b "${JOB[@]}"
check "a thread and a process: the head as fio's" same_head mixed
check "a thread and a process: 'Starting 1 thread and 1 process', as fio" \
  [ "$(starting fio mixed)/$(starting iob mixed)" = "Starting 1 thread and 1 process/Starting 1 thread and 1 process" ]
both group --name=a "${JOB[@]}" --numjobs=2 --group_reporting
check "numjobs=2, group_reporting: the head as fio's" same_head group

# --- the other formats and --output ------------------------------------------
both json --name=a "${JOB[@]}" --output-format=json
check "JSON: \"fio version\" is fio-3.33, as fio's" \
  [ "$(json_get "$d/fio/json.out" 'd["fio version"]')/$(json_get "$d/iob/json.out" 'd["fio version"]')" = fio-3.33/fio-3.33 ]
check "JSON: iobench's own findings stay under \"iobench\" (sysinfo, warnings)" \
  [ "$(json_get "$d/iob/json.out" '"sysinfo" in d["iobench"] and "warnings" in d["iobench"]')" = True ]
both nj --name=a "${JOB[@]}" --output-format=normal,json
check "normal,json: the head before the JSON as fio's" \
  [ "$(sed -n '1,/^{/p' "$d/fio/nj.out" | sed -E 's/[0-9]+/N/g')" = "$(sed -n '1,/^{/p' "$d/iob/nj.out" | sed -E 's/[0-9]+/N/g')" ]
check "normal,json: no iobench line after the JSON either" \
  bash -c "! grep -Eq '$OWN' '$d/iob/nj.out'"
both minimal --name=a "${JOB[@]}" --minimal
check "terse: the version field is fio-3.33, as fio's" \
  [ "$(cut -d';' -f1,2 "$d/fio/minimal.out")/$(cut -d';' -f1,2 "$d/iob/minimal.out")" = "3;fio-3.33/3;fio-3.33" ]
both outfile --name=a "${JOB[@]}" --output=report.txt
check "--output=FILE: nothing on stdout, the file's head as fio's" \
  bash -c "[ ! -s '$d/fio/outfile.out' ] && [ ! -s '$d/iob/outfile.out' ] &&
    [ \"\$(sed -n '1,/groupid=/p' '$d/fio/report.txt' | sed -E 's/[0-9]+/N/g')\" = \"\$(sed -n '1,/groupid=/p' '$d/iob/report.txt' | sed -E 's/[0-9]+/N/g')\" ] &&
    ! grep -Eq '$OWN' '$d/iob/report.txt'"

# --- as `iobench run`: as before ---------------------------------------------
(cd "$d/run" && "$IOBENCH" run --no-store --name=a "${JOB[@]}" >run.out 2>run.err)
check "iobench run: its system header and own lines as before" \
  bash -c "grep -q '^host: ' '$d/run/run.out' && grep -q '^Warnings' '$d/run/run.out' &&
    grep -qx 'iobench-[0-9.]*' '$d/run/run.out' && grep -qx 'Starting 1 thread' '$d/run/run.out'"
check "iobench run: no pid in the job header, as before" \
  bash -c "grep -q '^a: (groupid=0' '$d/run/run.out' && ! grep -q ': pid=' '$d/run/run.out'"
(cd "$d/run" && "$IOBENCH" run --no-store --name=a "${JOB[@]}" --output-format=json >run.json 2>/dev/null)
rv=$(json_get "$d/run/run.json" 'd["fio version"]')
check "iobench run: JSON \"fio version\" names iobench, as before ($rv)" \
  bash -c "[[ '$rv' == iobench-* ]]"

# --- the results database ----------------------------------------------------
h=$d/home
mkdir -p "$h"
default_db=$h/.local/share/iobench/results.db
store_env() { env -u IOBENCH_DB -u XDG_DATA_HOME HOME="$h" "$@"; }
(cd "$d/run" && store_env "$IOB" --name=a "${JOB[@]}" >/dev/null 2>&1)
check "as fio, no database is made in HOME without --db or IOBENCH_DB" [ ! -e "$default_db" ]
(cd "$d/run" && store_env "$IOB" --db="$d/opt.db" --name=a "${JOB[@]}" >/dev/null 2>&1)
check "as fio with --db, the run is stored there" \
  bash -c "[ -s '$d/opt.db' ] && [ ! -e '$default_db' ]"
(cd "$d/run" && store_env IOBENCH_DB="$d/env.db" "$IOB" --name=a "${JOB[@]}" >/dev/null 2>&1)
check "as fio with IOBENCH_DB, the run is stored there" \
  bash -c "[ -s '$d/env.db' ] && [ ! -e '$default_db' ]"
check "as fio with --db, 'iobench results' lists the run" \
  bash -c "env -u IOBENCH_DB '$IOBENCH' results list --db='$d/opt.db' | grep -q ."
(cd "$d/run" && store_env "$IOBENCH" run --name=a "${JOB[@]}" >/dev/null 2>&1)
check "iobench run stores in HOME's default database, as before" [ -s "$default_db" ]
finish
