#!/usr/bin/env bash
# fio compatibility's acceptance on fio's own example job files (Debian's
# fio-examples: fio 3.33's examples/ folder).
# 1. `iobench run --parse-only` accepts each example exactly when
#    `fio --parse-only` does, except the examples of the list below, each
#    with its reason: "external" (an engine iobench does not provide),
#    "device" (needs hardware this machine lacks), or "pending" (fio
#    options or engines being implemented: these lines go
#    away as that work lands). An example of the list that now agrees with
#    fio is reported, so the list stays true; the test prints what is still
#    missing.
# 2. Ten read/write examples run small with both tools (iobench with
#    --set size=1m --set runtime=1 --set time_based=0; fio on a copy with
#    the same lines added to each job) in directories the test creates,
#    and their JSON key sets are diffed (json_keys.py, as test_fio_json_keys).
. "$(dirname "$0")/lib.sh"
need_cmd fio fio || finish
need_fio_examples
dpkg -L fio-examples >/dev/null 2>&1 ||
  { not_ok "dpkg -L fio-examples: the Debian package fio-examples is not installed (scripts/deps.sh)"; finish; }
d=$(tmpdir)
KEYS="$(dirname "$0")/json_keys.py"

# EXAMPLE KIND REASON: where iobench --parse-only differs from fio's today
EXPECTED='
ime.fio                   external  the ime_psync/ime_psyncv/ime_aio engines (DDN IME, not in fio 3.33 as Debian builds it)
libzbc-rand-write.fio     external  the libzbc engine (libzbc and a zoned device)
libzbc-seq-read.fio       external  the libzbc engine (libzbc and a zoned device)
cpp_null.fio              external  cpp_null, an engine built from fio source examples (external .so)
dev-dax.fio               external  dev-dax (PMDK libpmem, a /dev/dax device)
gfapi.fio                 external  gfapi (GlusterFS client library and a Gluster server)
libhdfs.fio               external  libhdfs (Hadoop HDFS and a namenode)
libiscsi.fio              external  libiscsi (an iSCSI target)
libpmem.fio               external  libpmem (PMDK, persistent memory)
mtd.fio                   device    mtd (a raw flash /dev/mtd device)
nbd.fio                   external  nbd (libnbd and an NBD server)
pmemblk.fio               external  pmemblk (PMDK libpmemblk, persistent memory)
rados.fio                 external  rados (Ceph librados and a cluster)
rbd.fio                   external  rbd (Ceph librbd and a cluster)
uring-cmd-ng.fio          device    io_uring_cmd (an NVMe generic /dev/ngXnY character device)
uring-cmd-zoned.fio       device    io_uring_cmd on a zoned NVMe namespace
'
declare -A why
while read -r name kind reason; do
  [ -n "$name" ] && why[$name]="$kind: $reason"
done <<<"$EXPECTED"

# --- 1. --parse-only verdicts of both tools on every example ------------------
# iobench's 8 at a time; fio's (half a second each to start) by the batch
# where a batch can say it: fio --parse-only accepts several files only
# when it accepts each, so the examples iobench accepts and those the list
# says fio accepts are tried as one batch each (and one by one if the
# batch fails); the others one by one, 8 at a time.
dpkg -L fio-examples | grep '\.fio$' | sort >"$d/examples"
mkdir "$d/v"
export IOBENCH
xargs -P 8 -I{} sh -c 'n=$(basename "$1"); "$IOBENCH" run --parse-only "$1" >/dev/null 2>"$2/$n.err"; echo $? >"$2/$n.iob"' \
  _ {} "$d/v" <"$d/examples"
: >"$d/batch_a"; : >"$d/batch_b"; : >"$d/single"
while read -r f; do
  n=$(basename "$f")
  if [ "$(cat "$d/v/$n.iob")" = 0 ]; then echo "$f" >>"$d/batch_a"
  elif [ -n "${why[$n]:-}" ]; then echo "$f" >>"$d/batch_b"
  else echo "$f" >>"$d/single"; fi
done <"$d/examples"
for b in batch_a batch_b; do
  if [ -s "$d/$b" ] && xargs fio --parse-only <"$d/$b" >/dev/null 2>&1; then
    while read -r f; do echo 0 >"$d/v/$(basename "$f").fio"; done <"$d/$b"
  else
    cat "$d/$b" >>"$d/single"
  fi
done
xargs -P 8 -I{} sh -c 'fio --parse-only "$1" >/dev/null 2>&1; echo $? >"$2/$(basename "$1").fio"' _ {} "$d/v" \
  <"$d/single"
agree=0 missing=0
while read -r f; do
  n=$(basename "$f")
  a=$(cat "$d/v/$n.fio") b=$(cat "$d/v/$n.iob")
  [ "$a" = 0 ] && fa=accepts || fa=refuses
  [ "$b" = 0 ] && ib=accepts || ib=refuses
  if [ "$fa" = "$ib" ]; then
    if [ -n "${why[$n]:-}" ]; then
      not_ok "$n: now agrees with fio (both $fa): remove its line from EXPECTED ('${why[$n]}')"
    else
      agree=$((agree + 1))
    fi
  elif [ -n "${why[$n]:-}" ]; then
    missing=$((missing + 1))
    echo "# still missing: $n (fio $fa, iobench $ib): ${why[$n]}: $(head -1 "$d/v/$n.err" | sed 's|^.*examples/||')"
  else
    not_ok "$n: fio $fa it, iobench $ib it: $(head -1 "$d/v/$n.err" | sed 's|^.*examples/||')"
  fi
done <"$d/examples"
total=$(wc -l <"$d/examples")
check "--parse-only: $agree of $total examples agree with fio, $missing differ as listed (and no others)" \
  test $((agree + missing)) = "$total"
for n in "${!why[@]}"; do
  grep -q "/$n\$" "$d/examples" || not_ok "EXPECTED names $n, which fio-examples does not hold"
done

# --- 2. ten read/write examples run small, JSON keys against fio's --------
SETS=(size=1m runtime=1 time_based=0)
RUN='fio-seq-read.fio fio-seq-write.fio fio-rand-read.fio fio-rand-write.fio fio-seq-RW.fio
fio-rand-RW.fio null.fio zipf.fio rand-zones.fio tiobench-example.fio'
EX=$FIO_EXAMPLES
# fio has no --set: the same lines end every job section of a copy (later
# lines win, as --set's values do)
for n in $RUN; do mkdir -p "$d/fio/$n" "$d/iob/$n"; done
python3 - "$EX" "$d" "$RUN" "${SETS[@]}" <<'PY' || { not_ok "the copies of fio's examples for fio (python exited $?)"; finish; }
import sys
ex, d, names, sets = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
for n in names:
    out, cur = [], None
    def close():
        if cur not in (None, "global"):
            out.extend(sets)
    for line in open(f"{ex}/{n}").read().splitlines():
        s = line.strip()
        if s.startswith("[") and "]" in s:
            close()
            cur = s[1:s.index("]")]
        out.append(line)
    close()
    open(f"{d}/fio/{n}/job.fio", "w").write("\n".join(out) + "\n")
PY
runboth() { # NAME: both tools in their own directory, JSON to out.json
  local n=$1 s=()
  for kv in "${SETS[@]}"; do s+=(--set "$kv"); done
  (cd "$d/fio/$n" && fio --output-format=json --output=out.json job.fio >/dev/null 2>err.txt; echo $? >rc)
  (cd "$d/iob/$n" && "$IOBENCH" run --no-store --output-format=json --output=out.json "${s[@]}" "$EX/$n" \
     >/dev/null 2>err.txt; echo $? >rc)
}
for n in $RUN; do
  runboth "$n" &
  [ $(jobs -r | wc -l) -ge 4 ] && wait -n
done
wait
for n in $RUN; do
  if [ "$(cat "$d/fio/$n/rc")" != 0 ] || [ "$(cat "$d/iob/$n/rc")" != 0 ]; then
    not_ok "$n: both tools run it small (fio exit $(cat "$d/fio/$n/rc"), iobench exit $(cat "$d/iob/$n/rc"): $(head -1 "$d/iob/$n/err.txt"))"
    continue
  fi
  if python3 "$KEYS" "$d/fio/$n/out.json" "$d/iob/$n/out.json" >"$d/$n.diff" 2>&1; then
    ok "$n: runs small with both; the same JSON keys and value types as fio's ($(tail -1 "$d/$n.diff"))"
  else
    not_ok "$n: runs small with both, but the JSON keys differ from fio's"
    head -20 "$d/$n.diff" | sed 's/^/# /'
  fi
done
finish
