# Shared helpers for the end-to-end tests (sourced, not run).
# ok/not_ok/check print one TAP-like line per check; mkloop/mkfs_mount create
# loop devices and mounts that cleanup() always removes (trap on EXIT), so a
# failing test never leaves a device behind; tests register swap areas,
# partitions and device-mapper targets they make (reg KIND PATH) for the same
# treatment. Only devices created here are ever touched.
IOBENCH=${IOBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/iobench}
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SEEDS=${SEEDS:-$TOP/../shared/seeds}
E2E_FAILED=0
# Helpers run in $(...) subshells, so what they create is recorded in a file
# (one "kind path" line each) that cleanup() reads back, newest first.
E2E_REG=$(mktemp /tmp/iobench-e2e-reg.XXXXXX)

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; E2E_FAILED=1; }
# check DESCRIPTION COMMAND...: ok when the command succeeds
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; return 1; fi; }

cleanup() {
  local kind path
  [ -f "$E2E_REG" ] || return 0
  tac "$E2E_REG" | while read -r kind path; do
    case $kind in
      mount) umount "$path" 2>/dev/null || umount -l "$path" 2>/dev/null ;;
      swap) swapoff "$path" 2>/dev/null ;;
      part) partx --delete "$path" 2>/dev/null ;;
      dm) dmsetup remove "$path" 2>/dev/null ;;
      loop) # only while it is still the test's own: a device the test
        # detached itself may have been given to another test since
        # (the suite runs tests side by side)
        if [ "$(loop_back "${path%% *}")" = "${path#* }" ]; then
          blockdev --setrw "${path%% *}" 2>/dev/null; losetup -d "${path%% *}" 2>/dev/null
        fi ;;
      dir) rm -rf "$path" ;;
    esac
  done
  rm -f "$E2E_REG"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# loop_back DEV: the backing file of loop device DEV now, as "MAJ:MIN:INODE"
# ("" if none): its name would change when the filesystem holding it is
# lazily unmounted or the file deleted, its inode does not
loop_back() { losetup -n -O BACK-MAJ:MIN,BACK-INO "$1" 2>/dev/null | tr -s ' ' | sed 's/^ //; s/ $//; s/ /:/g'; }
# reg KIND PATH: have cleanup() undo it (kinds: mount swap part dm loop dir);
# a loop device is recorded with its backing file, and detached only if
# it still has that one
reg() {
  if [ "$1" = loop ]; then echo "loop $2 $(loop_back "$2")" >>"$E2E_REG"
  else echo "$1 $2" >>"$E2E_REG"; fi
}

tmpdir() { local d; d=$(mktemp -d /tmp/iobench-e2e.XXXXXX); echo "dir $d" >>"$E2E_REG"; echo "$d"; }

need_root() { [ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }; }

# mkloop SIZE: a loop device over a sparse image in a fresh temp dir
mkloop() {
  local d img dev
  d=$(tmpdir); img=$d/disk.img
  truncate -s "$1" "$img"
  dev=$(losetup -f --show "$img") || return 1
  reg loop "$dev"
  echo "$dev"
}

# mkfs_mount FSTYPE SIZE [mkfs args...]: prints the mount point
mkfs_mount() {
  local fs=$1 size=$2 dev mnt; shift 2
  dev=$(mkloop "$size") || return 1
  case $fs in
    ext4) mkfs.ext4 -q -F "$@" "$dev" >/dev/null 2>&1 ;;
    xfs) mkfs.xfs -q -f "$@" "$dev" >/dev/null 2>&1 ;;
    btrfs) mkfs.btrfs -q -f "$@" "$dev" >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac || return 1
  mnt=$(tmpdir)
  mount "$dev" "$mnt" || return 1
  echo "mount $mnt" >>"$E2E_REG"
  echo "$mnt"
}

# jq-less JSON access: json_get FILE EXPR (python expression on d)
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# io_kbytes_rwt FILE: the first job's KiB per direction of a JSON report,
# "READ/WRITE/TRIM" (empty when FILE is no report)
io_kbytes_rwt() {
  json_get "$1" '"%d/%d/%d" % tuple(d["jobs"][0][k]["io_kbytes"] for k in ("read", "write", "trim"))' 2>/dev/null
}
# rwt_ok RW GOT TOTAL: GOT ("R/W/T" KiB) is what rw=RW of TOTAL KiB must do:
# only reads, only writes, or (rw, randrw) both adding up to TOTAL; never a
# trim. Sets RWT_WANT to the expectation in words, for the check's name.
rwt_ok() {
  local rw=$1 got=$2 total=$3 r w t
  IFS=/ read -r r w t <<<"${got:-x/x/x}"
  case $rw in
    read|randread) RWT_WANT="$total KiB read, 0 written"
      [ "$r" = "$total" ] && [ "$w" = 0 ] && [ "$t" = 0 ] ;;
    write|randwrite) RWT_WANT="0 read, $total KiB written"
      [ "$r" = 0 ] && [ "$w" = "$total" ] && [ "$t" = 0 ] ;;
    rw|readwrite|randrw) RWT_WANT="both directions, $total KiB in all"
      [ "$r" -gt 0 ] 2>/dev/null && [ "$w" -gt 0 ] && [ $((r + w)) -eq "$total" ] && [ "$t" = 0 ] ;;
    *) RWT_WANT="(unknown rw=$rw)"; return 1 ;;
  esac
}

# pycheck DESC ARGS... <<'PY': the python program on stdin, run with ARGS,
# is one check (exit 0 = ok); on a failure its stderr's last lines follow
# the "not ok" line as comments.
pycheck() {
  local desc=$1 err; shift
  err=$(mktemp /tmp/iobench-e2e-py.XXXXXX)
  if python3 - "$@" 2>"$err"; then ok "$desc"; cat "$err" >&2
  else not_ok "$desc"; tail -5 "$err" | sed 's/^/#   /'; fi
  rm -f "$err"
}
# pyrun DESC ARGS... <<'PY': the python program on stdin prints its own
# "ok - ..." / "not ok - ..." lines; it fails as a whole (one more "not
# ok") when it exits non-zero (a traceback) or prints no check at all (a
# glob that matched nothing), and any "not ok" it prints fails the script.
pyrun() {
  local desc=$1 out rc; shift
  out=$(python3 - "$@"); rc=$?
  [ -n "$out" ] && printf '%s\n' "$out"
  grep -q '^not ok' <<<"$out" && E2E_FAILED=1
  if [ $rc -ne 0 ]; then not_ok "$desc: the program exited $rc"
  elif ! grep -q '^ok' <<<"$out" && ! grep -q '^not ok' <<<"$out"; then not_ok "$desc: the program checked nothing"; fi
}

# both NAME ARGS...: the same fio command line run by fio and by iobench
# run, in $d/NAME/fio and $d/NAME/iob, each writing its JSON to out.json
# (stderr in $d/NAME/fio.err and iob.err); one check that both wrote one.
both() {
  local n=$1; shift
  mkdir -p "$d/$n/fio" "$d/$n/iob"
  (cd "$d/$n/fio" && fio --output-format=json --output=out.json "$@" >/dev/null 2>"$d/$n/fio.err")
  (cd "$d/$n/iob" && "$IOBENCH" run --output-format=json "$@" >out.json 2>"$d/$n/iob.err")
  check "$n: both ran" test -s "$d/$n/fio/out.json" -a -s "$d/$n/iob/out.json"
}

# For tests that read iobench's I/O from strace (tests/e2e/iotrace.py):
# j runs a JSON job (stderr kept in $d/err), trace runs a command under
# strace (pycheck above makes a check of a python program).
e2e_trace_helpers() {
  export PYTHONPATH="$TOP/tests/e2e${PYTHONPATH:+:$PYTHONPATH}"
  j() { "$IOBENCH" run --output-format=json "$@" 2>>"$d/err"; }
  trace() { local out=$1; shift; strace -f -ttt -y -e trace=execve,pread64,pwrite64,fsync,fdatasync -o "$out" "$@"; }
  have_strace=1
  command -v strace >/dev/null || { have_strace=0; not_ok "strace is installed (needed to see offsets, timing and syncs)"; }
}

# need_fio_examples [NAME.fio...]: fio's example job files, which Debian's
# fio-examples installs (a test dependency: scripts/deps.sh installs it),
# are there: the package's folder holds its examples and each NAME the test
# reads. Each one missing is a failure naming the package, and the test
# ends there (a missing dependency is never a skip).
FIO_EXAMPLES=/usr/share/doc/fio/examples
need_fio_examples() {
  local n miss=0
  if ! compgen -G "$FIO_EXAMPLES/*.fio" >/dev/null; then
    not_ok "fio's example job files ($FIO_EXAMPLES/*.fio): none there; install the Debian package fio-examples (scripts/deps.sh)"
    finish
  fi
  for n; do
    [ -f "$FIO_EXAMPLES/$n" ] ||
      { not_ok "fio's example $FIO_EXAMPLES/$n is missing; install the Debian package fio-examples (scripts/deps.sh)"; miss=1; }
  done
  [ $miss = 0 ] || finish
}

# ior_build: IOR and mdtest, built from ../shared/anchors/ior-src.tar.gz
# (its build-ior.sh) into $IOR_CACHE, by default the build folder's
# anchors/ior; built once and reused while its bin/ior and bin/mdtest are
# there and built from the same tarball (its sha256 kept beside them).
# An flock of $IOR_CACHE.lock makes two scripts (or bench/compare-ior,
# which calls this too) that need them at once build them once. Prints the
# bin folder; when the build fails, returns 1 with its log's tail on
# stderr. Needs OpenMPI's libopenmpi-dev and autoconf automake libtool
# pkg-config make (scripts/deps.sh).
ANCHORS=${ANCHORS:-$TOP/../shared/anchors}
IOR_CACHE=${IOR_CACHE:-$TOP/build/anchors/ior}
ior_build() {
  local sum fd rc=0 log
  sum=$(sha256sum <"$ANCHORS/ior-src.tar.gz" | cut -d' ' -f1) ||
    { echo "ior_build: cannot read $ANCHORS/ior-src.tar.gz" >&2; return 1; }
  mkdir -p "$(dirname "$IOR_CACHE")" && exec {fd}>>"$IOR_CACHE.lock" ||
    { echo "ior_build: cannot lock $IOR_CACHE.lock" >&2; return 1; }
  flock "$fd"
  if [ ! -x "$IOR_CACHE/bin/ior" ] || [ ! -x "$IOR_CACHE/bin/mdtest" ] ||
     [ "$(cat "$IOR_CACHE/source.sha256" 2>/dev/null)" != "$sum" ]; then
    rm -rf "$IOR_CACHE"; mkdir -p "$IOR_CACHE"
    log=$IOR_CACHE.log
    echo "# building IOR and mdtest from $ANCHORS/ior-src.tar.gz into $IOR_CACHE (log: $log)" >&2
    if bash "$ANCHORS/build-ior.sh" "$IOR_CACHE" >"$log" 2>&1 &&
       [ -x "$IOR_CACHE/bin/ior" ] && [ -x "$IOR_CACHE/bin/mdtest" ]; then
      echo "$sum" >"$IOR_CACHE/source.sha256"
    else
      echo "ior_build: $ANCHORS/build-ior.sh $IOR_CACHE failed; the end of $log:" >&2
      tail -15 "$log" >&2
      rm -rf "$IOR_CACHE"; rc=1
    fi
  fi
  exec {fd}>&-
  [ $rc = 0 ] && echo "$IOR_CACHE/bin"
  return $rc
}

# tracefs_dir: tracefs's mount point on stdout, by src/sys/tracefs.c's
# rules: the first tracefs mount of /proc/self/mountinfo whose root is the
# filesystem's top, the one at /sys/kernel/tracing preferred; when there is
# none, tracefs is mounted there (nosuid,nodev,noexec) under an flock of
# the directory (two tests at once mount it once), left mounted as perf
# and trace-cmd leave it (tests side by side use it), and stderr says so.
# Fails (1, with the reason on stderr) when it cannot be mounted.
TRACEFS_DEFAULT=/sys/kernel/tracing
tracefs_scan() { # [MOUNTINFO]
  awk '{ for (i = 7; i <= NF && $i != "-"; i++); if ($(i + 1) == "tracefs" && $4 == "/") print $5 }' \
    "${1:-/proc/self/mountinfo}" | while read -r m; do printf '%b\n' "$m"; done |
    awk -v p="$TRACEFS_DEFAULT" 'NR == 1 { f = $0 } $0 == p { f = $0; exit } END { if (f == "") exit 1; print f }'
}
tracefs_dir() {
  local m fd rc=0
  m=$(tracefs_scan) && { echo "$m"; return 0; }
  exec {fd}<"$TRACEFS_DEFAULT" ||
    { echo "tracefs is not mounted and $TRACEFS_DEFAULT cannot be opened (a kernel without tracing?)" >&2; return 1; }
  flock "$fd"
  if ! m=$(tracefs_scan); then
    m=$TRACEFS_DEFAULT
    if [ "$(stat -f -c %T "$m")" = tracefs ]; then :
    elif mount -t tracefs -o nosuid,nodev,noexec nodev "$m"; then
      echo "# tracefs was not mounted: mounted it at $m (as perf and trace-cmd do)" >&2
    else
      echo "tracefs is not mounted and mounting it at $m failed" >&2; rc=1
    fi
  fi
  exec {fd}<&-
  [ $rc = 0 ] && echo "$m"
  return $rc
}

finish() { exit $E2E_FAILED; }

# Skips, counted and named by tests/run_all.sh. A skip is only for what the
# README's commands cannot change (not root, a kernel without the feature,
# no NUMA, one CPU); a missing tool that scripts/deps.sh installs is a
# failure (need_cmd). skip_test REASON: the whole script is skipped (exit
# 77 with a "skip: REASON" line); skip_check NAME REASON: one check is not
# run, a "skip - NAME: REASON" line.
skip_test() { echo "skip: $*"; exit 77; }
skip_check() { local n=$1; shift; echo "skip - $n: $*"; }
# need_cmd COMMAND PACKAGE: not ok (and returns 1) when COMMAND is missing
need_cmd() {
  command -v "$1" >/dev/null && return 0
  not_ok "needs $1 (Debian package $2): install it with scripts/deps.sh"; return 1
}
