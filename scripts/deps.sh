#!/usr/bin/env bash
# Install the Debian 12 packages iobench needs to build, test and benchmark.
# Idempotent: apt-get skips what is already there. Needs root (or sudo).
set -euo pipefail
PKGS=(
  build-essential meson ninja-build pkg-config clang libclang-rt-14-dev
  liburing-dev libaio-dev libblkid-dev libsqlite3-dev libjson-c-dev sqlite3
  zlib1g-dev libnuma-dev libisal-dev nettle-dev libxxhash-dev libext2fs-dev xfslibs-dev libgsl-dev
  fio bonnie++ sysstat time python3
  e2fsprogs xfsprogs btrfs-progs erofs-utils util-linux fdisk groff-base man-db bsdutils fuse3 python3-fusepy strace gdb
  gnuplot-nox python3-pandas python3-numpy blktrace
  openmpi-bin libopenmpi-dev
)
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
