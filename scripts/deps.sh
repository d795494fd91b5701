#!/usr/bin/env bash
# Install the Debian 12 packages iobench needs, in two sets:
#   scripts/deps.sh build   what building and running iobench needs (the
#                           compiler, Meson and Ninja, and the libraries it
#                           links); scripts/quick.sh installs only this
#   scripts/deps.sh test    the build set, plus what the test suite and the
#                           benchmarks run: the peers (fio, bonnie++, IOR's
#                           build tools), filesystems' tools, tracers,
#                           OpenMPI, the report's gnuplot and a browser to
#                           look at its page; scripts/test.sh installs this
# Each package's reason is beside it; doc/testing.md lists them too.
# Idempotent: only what is missing is installed. Needs root (or sudo).
set -euo pipefail
set_name=${1:-test}
BUILD=(
  build-essential pkg-config meson ninja-build  # the compiler, Meson, Ninja
  liburing-dev libaio-dev                       # the io_uring and libaio engines
  libblkid-dev                                  # the device guard's signatures
  libsqlite3-dev libjson-c-dev                  # the results store, JSON import
  zlib1g-dev                                    # compressed logs
  libnuma-dev                                   # numa_cpu_nodes, numa_mem_policy
  libisal-dev nettle-dev libxxhash-dev          # verify's checksums
  libext2fs-dev xfslibs-dev                     # filesystem geometry in sysinfo
  libgsl-dev                                    # t and normal quantiles
)
TEST=(
  libopenmpi-dev openmpi-bin openssh-client     # iobench-mpi and its tests (mpirun looks for an rsh agent)
  clang libclang-rt-14-dev                      # the fuzz targets (libFuzzer)
  git                                           # the tree checks (git ls-files)
  fio fio-examples bonnie++                     # the peers, and fio's example jobs
  autoconf automake libtool make                # IOR and mdtest from ../shared/anchors
  sysstat procps time hdparm                    # iostat/vmstat, sysctl/pgrep, /usr/bin/time, quick's peer
  e2fsprogs xfsprogs btrfs-progs erofs-utils    # the filesystems the tests make
  util-linux fdisk dmsetup kmod                 # losetup/mount, partitions, device-mapper
  iproute2                                      # network namespaces (net engine tests)
  fuse3 python3-fusepy                          # a FUSE filesystem that injects errors
  strace gdb blktrace                           # syscall, struct and block traces
  python3 python3-pandas python3-numpy python3-scipy python3-markdown sqlite3  # checks' scripts (scipy: fio's t/steadystate_tests.py)
  groff-base man-db bsdutils bsdextrautils      # the man page check, script(1), column(1)
  gnuplot-nox chromium                          # the report's plots, and a browser to load it
  clang-format                                  # the layout check against .clang-format
)
case "$set_name" in
build) PKGS=("${BUILD[@]}") ;;
test) PKGS=("${BUILD[@]}" "${TEST[@]}") ;;
*) echo "usage: scripts/deps.sh [build|test]" >&2; exit 2 ;;
esac
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ($set_name set): ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
