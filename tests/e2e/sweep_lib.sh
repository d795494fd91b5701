# Shared by test_sweep_run.sh and test_sweep_restore.sh (sourced after
# lib.sh): a snapshot of what a sweep changes and must put back (every
# block queue's read_ahead_kb, scheduler and nr_requests, the vm sysctl the
# restore test turns, /proc/mounts, `losetup -a`), and its comparison. On
# a shared machine other tests attach, mount and tune their own devices
# meanwhile: their lines (iobench-e2e.* directories, loop devices that
# were not there before or are gone after, mounts of anything but a loop
# device or a sweep's mount point, loop devices over anything but the
# images in a sweep test's directory) are left out, so what is compared
# is what a sweep could have left, the sweep's devices included.
sweep_snapshot() { # FILE
  {
    for q in /sys/block/*/queue; do
      dev=${q#/sys/block/}; dev=${dev%/queue}
      for k in read_ahead_kb scheduler nr_requests; do
        [ -r "$q/$k" ] && echo "knob $dev $k $(cat "$q/$k")"
      done
    done
    echo "vm dirty_background_ratio $(cat /proc/sys/vm/dirty_background_ratio)"
    grep -v 'iobench-e2e\.' /proc/mounts | grep -E '^/dev/loop|iobench-sweep' | sed 's/^/mount /'
    losetup -a | grep 'iobench-sweep' | sed 's/^/loop /'
  } | sort >"$1"
}
# sweep_same BEFORE AFTER: the snapshots agree on every knob of a device
# in both, and on the mounts and loop devices; prints the differences
sweep_same() {
  python3 - "$1" "$2" <<'PY'
import sys
a = open(sys.argv[1]).read().splitlines()
b = open(sys.argv[2]).read().splitlines()
def knobs(lines):
    return {tuple(l.split(" ", 3)[1:3]): l for l in lines if l.startswith("knob ")}
ka, kb = knobs(a), knobs(b)
common = set(ka) & set(kb)
diff = [(ka[k], kb[k]) for k in sorted(common) if ka[k] != kb[k]]
rest_a = sorted(l for l in a if not l.startswith("knob "))
rest_b = sorted(l for l in b if not l.startswith("knob "))
for x, y in diff:
    print("  knob was: %s; is: %s" % (x, y))
for l in sorted(set(rest_a) - set(rest_b)):
    print("  gone: " + l)
for l in sorted(set(rest_b) - set(rest_a)):
    print("  new: " + l)
sys.exit(1 if diff or rest_a != rest_b else 0)
PY
}
# sweep_dir: a directory of the test's own that other tests' filters do not hide
sweep_dir() { local d; d=$(mktemp -d /tmp/iobench-sweeptest.XXXXXX); echo "dir $d" >>"$E2E_REG"; echo "$d"; }
