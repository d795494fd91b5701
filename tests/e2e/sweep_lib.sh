# Shared by the test_sweep_*.sh scripts (sourced after lib.sh): a snapshot
# of what this script's sweeps could have changed and must put back, and
# its comparison. The suite runs scripts side by side (tests/run_all.sh,
# two at a time), other sweeps among them, so nothing machine-wide is
# compared: only
#  - the queue knobs (read_ahead_kb, scheduler, nr_requests) of the
#    devices the script names (sweep_snapshot FILE DEV...: a device = or
#    the device under a dir = target that the script made itself);
#  - the vm sysctls in $SWEEP_VM (the ones its plans turn; a script that
#    turns one holds the vm lock meanwhile, sweep_vm_lock);
#  - the loop devices over files in the script's directory (sweep_dir:
#    its images), and the mounts of those, of the named devices, under
#    that directory or on the mount point of one of its own sweeps
#    (/tmp/iobench-sweep-PID; sweep_run records the PIDs), and whether
#    such a mount point is still there.
SWEEP_OWN=
SWEEP_PIDS=
SWEEP_VM=
sweep_snapshot() { # FILE [DEV...]
  local out=$1 dev k q pid loops; shift
  : "${SWEEP_OWN:?set SWEEP_OWN=\$d after d=\$(sweep_dir)}"
  loops=$(losetup -a | grep -F "($SWEEP_OWN/" | cut -d: -f1)
  {
    for dev in "$@"; do
      dev=$(basename "$(readlink -f "$dev")")
      q=/sys/block/$dev/queue
      for k in read_ahead_kb scheduler nr_requests; do
        [ -r "$q/$k" ] && echo "knob $dev $k $(cat "$q/$k")"
      done
    done
    for k in $SWEEP_VM; do echo "vm $k $(cat "/proc/sys/vm/$k")"; done
    losetup -a | grep -F "($SWEEP_OWN/" | sed 's/^/loop /'
    while read -r src mp rest; do
      local mine=
      [[ $mp == "$SWEEP_OWN"/* ]] && mine=1
      for pid in $SWEEP_PIDS; do [ "$mp" = /tmp/iobench-sweep-$pid ] && mine=1; done
      for dev in $loops "$@"; do [ "$src" = "$dev" ] && mine=1; done
      [ -n "$mine" ] && echo "mount $src $mp $rest"
    done </proc/mounts
    for pid in $SWEEP_PIDS; do [ -e /tmp/iobench-sweep-$pid ] && echo "mountpoint /tmp/iobench-sweep-$pid"; done
  } | sort >"$out"
}
# sweep_same BEFORE AFTER: the snapshots agree; prints the differences
sweep_same() {
  diff "$1" "$2" | sed -n 's/^</  was:/p; s/^>/  now:/p'
  cmp -s "$1" "$2"
}
# sweep_dir: the script's directory (its images, databases, plans)
sweep_dir() { local d; d=$(mktemp -d /tmp/iobench-sweeptest.XXXXXX); echo "dir $d" >>"$E2E_REG"; echo "$d"; }
# sweep_run ARGS...: iobench sweep ARGS in the background, its PID added to
# SWEEP_PIDS (its mount point is /tmp/iobench-sweep-PID) and in SWEEP_PID;
# waits and returns its exit status. Redirections apply as to a command.
sweep_run() {
  "$IOBENCH" sweep "$@" &
  SWEEP_PID=$!
  SWEEP_PIDS="$SWEEP_PIDS $SWEEP_PID"
  wait "$SWEEP_PID"
}
# sweep_vm_lock: from now until the script exits, no other sweep script
# that turns a vm sysctl runs (they take the same lock): the sysctls are
# the machine's, and one script's snapshot must not see another's values.
sweep_vm_lock() {
  exec 9>/tmp/iobench-e2e-sweep-vm.lock
  flock 9
}
