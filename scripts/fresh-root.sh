#!/usr/bin/env bash
# Run a command of this repository inside a new, minimal Debian 12 root, the
# way a new machine would run it: CI's check that the README's commands
# install everything the suite needs (a package or mount added to this
# machine by hand is not there, so a test that needs it fails).
#
# usage: scripts/fresh-root.sh [--keep] [--hog N] [--timeout MIN] [CMD...]
#        scripts/fresh-root.sh --cleanup ROOT     (undo a root left behind)
#
# CMD runs in the clone's folder inside the root (default: ./scripts/test.sh).
#   - The base root is `debootstrap --variant=minbase bookworm` from the
#     Debian archive this machine's apt uses; it is made once and kept as a
#     tarball in $IOBENCH_CI_CACHE (default /var/tmp/iobench-ci). Nothing
#     else is cached: each run unpacks a new root, and every package the
#     suite needs is installed inside it by the README's commands.
#   - The committed HEAD of this repository is cloned into the root (what is
#     not committed is not there, as in CI) and a copy of ../shared, when
#     there is one, is put beside the clone without write bits.
#   - /proc, /sys (with its submounts), /dev and /dev/pts are bound in, /run
#     is a new tmpfs; apt inside sees this machine's Debian sources.
#   - --hog N runs N busy loops beside CMD for as long as it runs (the suite
#     must pass on a loaded machine); --timeout ends CMD after MIN minutes
#     (default 80) so that the clean-up still runs inside CI's limit.
# It exits with CMD's status. Whatever ends it (an error, a signal, or
# SIGKILL, which a watcher started in its own session notices), it ends the
# processes running inside the root, unmounts what is mounted there,
# detaches the loop devices whose backing files lie inside it, and removes
# the root (unless --keep). A root left by a run whose watcher died too is
# cleaned by the next run before it starts.
set -euo pipefail

cache=${IOBENCH_CI_CACHE:-/var/tmp/iobench-ci}
say() { echo "fresh-root: $*" >&2; }

# Every process whose root directory is inside $1, as pids.
procs_in() {
	local r=$1 p link
	for p in /proc/[0-9]*; do
		link=$(readlink "$p/root" 2>/dev/null) || continue
		case "$link" in "$r" | "$r"/*) echo "${p#/proc/}" ;; esac
	done
}

# Mount points at or below $1, deepest first (from mountinfo, so a path with
# spaces is read as the kernel escapes it).
mounts_in() {
	awk -v r="$1" '{ m = $5; gsub(/\\040/, " ", m); if (m == r || index(m, r "/") == 1) print m }' \
		/proc/self/mountinfo | sort -r
}

cleanup_root() { # root: end, unmount, detach, remove; says what it could not do
	local r=$1 pids i m dev back left
	[ -d "$r" ] || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(procs_in "$r")
		[ -z "$pids" ] && break
		# shellcheck disable=SC2086
		if [ "$i" -lt 5 ]; then kill -TERM $pids 2>/dev/null; else kill -KILL $pids 2>/dev/null; fi
		sleep 1
	done
	pids=$(procs_in "$r")
	[ -n "$pids" ] && say "processes still running in $r: $pids"
	for i in 1 2 3; do
		for m in $(mounts_in "$r"); do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
		done
		[ -z "$(mounts_in "$r")" ] && break
	done
	losetup -n -l -O NAME,BACK-FILE 2>/dev/null | while read -r dev back; do
		back=${back% (deleted)}
		case "$back" in "$r"/*) losetup -d "$dev" 2>/dev/null || say "could not detach $dev ($back)" ;; esac
	done
	left=$(mounts_in "$r")
	if [ -n "$left" ]; then
		say "not removing $r: still mounted there: $(echo $left)"
		return 1
	fi
	rm -rf --one-file-system "$r" || { say "could not remove $r"; return 1; }
}

if [ "${1:-}" = --watch ]; then # pid root: clean the root once pid is gone
	while kill -0 "$2" 2>/dev/null; do sleep 2; done
	sleep 2
	[ -d "$3" ] && cleanup_root "$3"
	rm -f "$(dirname "$3")/run-$2.log"
	exit 0
fi
if [ "${1:-}" = --cleanup ]; then
	cleanup_root "${2:?usage: fresh-root.sh --cleanup ROOT}"
	exit
fi

keep=0 hog=0 tmo=80
while [ $# -gt 0 ]; do
	case "$1" in
	--keep) keep=1; shift ;;
	--hog) hog=${2:?--hog needs a count}; shift 2 ;;
	--timeout) tmo=${2:?--timeout needs minutes}; shift 2 ;;
	--) shift; break ;;
	-*) say "unknown option $1"; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- ./scripts/test.sh
[ "$(id -u)" = 0 ] || { say "needs root (chroot, mounts and loop devices)"; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
head=$(git -C "$repo" rev-parse HEAD) || { say "$repo is not a git checkout"; exit 2; }
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] ||
	say "uncommitted changes in $repo are not in the root (it holds $head)"
mkdir -p "$cache"
chmod 700 "$cache"

# Roots of earlier runs whose run and watcher are both gone.
for old in "$cache"/run.*; do
	[ -d "$old" ] || continue
	owner=$(cat "$old/.fresh-root-owner" 2>/dev/null || echo 0)
	[ "$owner" != 0 ] && kill -0 "$owner" 2>/dev/null && continue
	say "cleaning $old, left by an earlier run"
	cleanup_root "$old" || true
done

# The archive this machine's apt is configured for (deb822 or one-line form).
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 !~ /^\[/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

base=$cache/bookworm-minbase.tar
if [ ! -s "$base" ]; then
	command -v debootstrap >/dev/null || {
		say "installing debootstrap"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
	}
	tmp=$(mktemp -d "$cache/base.XXXXXX")
	say "making the base root (debootstrap --variant=minbase bookworm $mirror)"
	if ! debootstrap --variant=minbase bookworm "$tmp/rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1; then
		say "debootstrap failed; its log: $cache/debootstrap.log"; tail -5 "$cache/debootstrap.log" >&2
		cleanup_root "$tmp"; exit 2
	fi
	tar -C "$tmp/rootfs" -cf "$base.part" . && mv "$base.part" "$base"
	cleanup_root "$tmp"
fi

t0=$(date +%s)
root=$(mktemp -d "$cache/run.XXXXXX")
echo $$ >"$root/.fresh-root-owner"
hogs=()
suite=
finish() {
	local rc=$?
	trap - EXIT INT TERM HUP
	set +e
	[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null
	# stopped while the suite runs: its timeout (outside the root) goes too;
	# cleanup_root ends what runs inside
	[ -n "${suite:-}" ] && pkill -TERM -f "^timeout --kill-after=30 [0-9]+ chroot $root " 2>/dev/null
	# the suite's logs outlive the root: the last run's are kept
	if ls -d "$root"/tmp/iobench-tests.* >/dev/null 2>&1; then
		rm -rf "$cache/last-logs" && mkdir -p "$cache/last-logs"
		cp -r "$root"/tmp/iobench-tests.*/. "$cache/last-logs/" 2>/dev/null
		say "the suite's logs: $cache/last-logs"
	fi
	if [ $keep = 1 ]; then
		for m in $(mounts_in "$root"); do [ "$m" = "$root" ] || umount -R "$m" 2>/dev/null || umount -l "$m"; done
		say "root kept at $root"
	else
		cleanup_root "$root"
	fi
	# the suite's closing line stays the last line printed
	[ -s "$cache/run-$$.log" ] && grep -E '^[0-9]+ passed, [0-9]+ failed' "$cache/run-$$.log" | tail -1
	rm -f "$cache/run-$$.log"
	exit $rc
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# The watcher: when this script dies without running its trap (SIGKILL),
# it cleans the root. It lives in a session of its own so a kill of this
# script's process group does not take it along.
[ $keep = 1 ] || setsid bash "$repo/scripts/fresh-root.sh" --watch "$$" "$root" </dev/null >/dev/null 2>&1 &

tar -C "$root" -xf "$base"
# the root is a mount point of its own, as / is on a booted machine
# (sysinfo walks mountinfo from a path up to its filesystem and device)
mount --bind "$root" "$root" && mount --make-private "$root"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
mkdir -p "$root/run" "$root/tmp" && chmod 1777 "$root/tmp"
mount -t tmpfs -o mode=755 tmpfs "$root/run"
# what a booted machine has that debootstrap does not write
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp /etc/hosts "$root/etc/hosts" 2>/dev/null || true
hostname >"$root/etc/hostname"
# apt inside reaches the archive (and only the Debian sources) this machine's does
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] && grep -q 'debian' "$f" && cp "$f" "$root$f"
done
for f in /etc/apt/apt.conf.d/*; do
	[ -f "$f" ] && grep -qiE '^[[:space:]]*Acquire::(http|https)?::?Proxy|Acquire::Check-' "$f" && cp "$f" "$root$f"
done
mkdir -p "$root/ci"
git clone -q --no-hardlinks "$repo" "$root/ci/main"
git -C "$root/ci/main" checkout -q "$head"
if [ -d "$repo/../shared" ]; then
	cp -rL "$repo/../shared" "$root/ci/shared" && chmod -R a-w "$root/ci/shared"
fi
for ((i = 0; i < hog; i++)); do
	(trap 'exit 0' TERM; while :; do :; done) &
	hogs+=($!)
done
say "root ready in $(($(date +%s) - t0)) s; running $* of ${head:0:7}$([ "$hog" = 0 ] || echo " beside $hog busy loops")"
set +e
# in the background, waited for: bash runs a trap for INT/TERM/HUP only once
# its foreground child ends, so a suite in the foreground ran on for its
# whole length after the script was told to stop; `wait` returns at once
(
	set -o pipefail
	timeout --kill-after=30 "$((tmo * 60))" chroot "$root" /usr/bin/env -i HOME=/root \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb \
		CI=true IOBENCH_CI_DIRECT=1 /bin/bash -c 'cd /ci/main && exec "$@"' fresh-root "$@" </dev/null 2>&1 |
		tee "$cache/run-$$.log"
) &
suite=$!
wait "$suite"
rc=$?
suite=
set -e
[ $rc = 124 ] && say "$* ran out of its $tmo minutes"
say "$* exited $rc after $(($(date +%s) - t0)) s in all"
exit $rc
