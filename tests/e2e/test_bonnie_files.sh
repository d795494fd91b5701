#!/usr/bin/env bash
# The file tests of `iobench bonnie` make the same files as bonnie++ 2.00a,
# seen with strace (bonnie_creates.py): with -n 1:0:0:4 and 1:0:0:50 both
# the sequential and the random create fill the directories in order with
# the counts bonnie++'s own run shows (257, 257, 257, 253 for 4), sequential
# names start with the file's number and random ones end with it; both make
# the same fsync and sync calls, with and without -b; -x 3 makes
# the same files on every line under one seed, as bonnie++ does (which the
# test checks on bonnie++ too), and -z keeps its seed on every line.
. "$(dirname "$0")/lib.sh"
need_root
command -v bonnie++ >/dev/null || { not_ok "bonnie++ is installed"; finish; }
command -v strace >/dev/null || { not_ok "strace is installed"; finish; }
mnt=$(tmpdir)
mount -t tmpfs -o size=128m tmpfs "$mnt" && reg mount "$mnt" || { not_ok "tmpfs for the tests"; finish; }
t=$(tmpdir)
bd=$mnt/b
mkdir -p "$bd"
creates() { python3 "$TOP/tests/e2e/bonnie_creates.py" "$@"; }
# only openat stops the tracee (--seccomp-bpf): the run stays fast
st() { local out=$1; shift; strace --seccomp-bpf -f -y -e trace=openat -o "$out" "$@"; }

# --- the directories of each create phase, against bonnie++'s ---------------
for nd in 4 50; do
  st "$t/ref$nd.st" bonnie++ -d "$bd" -s 0 -n 1:0:0:$nd -z 7 -u root -q >/dev/null 2>&1; rr=$?
  st "$t/our$nd.st" "$IOBENCH" bonnie -d "$bd" -s 0 -n 1:0:0:$nd -z 7 -u root -q --no-precise \
    >/dev/null 2>&1; ro=$?
  check "-n 1:0:0:$nd under strace: both tools run (bonnie++ rc $rr, iobench rc $ro)" test $rr -eq 0 -a $ro -eq 0
  creates "$t/ref$nd.st" 1024 >"$t/ref$nd"
  creates "$t/our$nd.st" 1024 >"$t/our$nd"
  # "kind dirs" of each phase, names aside: they are random in each tool
  cut -d' ' -f2,3 "$t/ref$nd" >"$t/ref$nd.k"
  cut -d' ' -f2,3 "$t/our$nd" >"$t/our$nd.k"
  check "-n 1:0:0:$nd: bonnie++ has a sequential then a random create phase" \
    bash -c "[ \$(wc -l <'$t/ref$nd.k') -eq 2 ] && cut -d' ' -f1 '$t/ref$nd.k' | tr '\n' ' ' | grep -qx 'kind=seq kind=ran '"
  if cmp -s "$t/ref$nd.k" "$t/our$nd.k"; then
    ok "-n 1:0:0:$nd: iobench's create phases walk the directories as bonnie++'s ($(sed -n 2p "$t/our$nd.k" | cut -c1-60)...)"
  else
    not_ok "-n 1:0:0:$nd: directory sequence differs:"; diff "$t/ref$nd.k" "$t/our$nd.k" | cut -c1-200
  fi
done
check "-n 1:0:0:4: random create puts 257, 257, 257, 253 files in 00000..00003, in order" \
  grep -qx 'kind=ran dirs=00000:257,00001:257,00002:257,00003:253' "$t/our4.k"
check "-n 1:0:0:50: 48 directories of 21 files, then 16 in 00048 (00049 stays empty)" \
  bash -c "grep '^kind=ran ' '$t/our50.k' | grep -q 'dirs=00000:21,.*00047:21,00048:16\$'"

# --- the syncs: none per file without -b, a file and a directory fsync per
# create and one per delete with -b; a filesystem sync after each create and
# delete phase (bonnie++'s sync(), iobench's syncfs()) -----------------------
syncs() { # strace file -> "fsync=N sync=M"
  echo "fsync=$(grep -c 'fsync(' "$1") sync=$(grep -cE ' sync\(|syncfs\(' "$1")"
}
for b in "" -b; do
  strace --seccomp-bpf -f -e trace=fsync,fdatasync,sync,syncfs -o "$t/refs.st" \
    bonnie++ -d "$bd" -s 0 -n 1:0:0:4 -z 7 -u root -q $b >/dev/null 2>&1
  strace --seccomp-bpf -f -e trace=fsync,fdatasync,sync,syncfs -o "$t/ours.st" \
    "$IOBENCH" bonnie -d "$bd" -s 0 -n 1:0:0:4 -z 7 -u root -q --no-precise $b >/dev/null 2>&1
  r=$(syncs "$t/refs.st"); o=$(syncs "$t/ours.st")
  check "-n 1:0:0:4 ${b:-without -b}: the same syncs as bonnie++ (bonnie++ $r, iobench $o)" test "$r" = "$o"
done

# --- -x: one seed on every line ---------------------------------------------
st "$t/refx.st" bonnie++ -d "$bd" -s 0 -n 1:0:0:4 -x 2 -u root -q >"$t/refx.csv" 2>/dev/null
st "$t/ourx.st" "$IOBENCH" bonnie -d "$bd" -s 0 -n 1:0:0:4 -x 3 -u root -q --no-precise \
  >"$t/ourx.csv" 2>/dev/null; rc=$?
check "-x 3 under strace exits 0" test $rc -eq 0
seeds() { grep '^1\.98,' "$1" | cut -d, -f5 | sort -u | wc -l; }
check "bonnie++ -x 2 prints one seed on both lines" test "$(seeds "$t/refx.csv")" -eq 1
check "bonnie++ -x 2 makes the same files in both tests" \
  bash -c "creates() { python3 '$TOP/tests/e2e/bonnie_creates.py' \"\$@\"; }; [ \$(creates '$t/refx.st' 1024 | cut -d' ' -f2- | sort -u | wc -l) -eq 2 ]"
check "-x 3: three CSV lines, one seed on all of them" \
  test "$(grep -c '^1\.98,' "$t/ourx.csv")" -eq 3 -a "$(seeds "$t/ourx.csv")" -eq 1
creates "$t/ourx.st" 1024 >"$t/ourx"
check "-x 3: three tests of a sequential and a random create" \
  bash -c "[ \$(wc -l <'$t/ourx') -eq 6 ] && [ \$(cut -d' ' -f1 '$t/ourx' | sort -u | wc -l) -eq 3 ]"
check "-x 3: every test makes the same files (the same names in the same order)" \
  test "$(cut -d' ' -f2- "$t/ourx" | sort -u | wc -l)" -eq 2
# with --precise (the default) and -z, without strace
"$IOBENCH" bonnie -d "$bd" -s 0 -n 1 -x 2 -z 42 -u root -q >"$t/z.csv" 2>/dev/null; rc=$?
check "-x 2 -z 42: both lines carry seed 42" \
  bash -c "[ $rc -eq 0 ] && [ \$(grep -c '^1\.98,[^,]*,[^,]*,1,42,' '$t/z.csv') -eq 2 ]"
check "nothing left in -d" test -z "$(ls -A "$bd")"
finish
