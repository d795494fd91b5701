#!/usr/bin/env bash
# Build iobench into build/ (warnings are errors). Options:
#   --mpi    also build iobench-mpi (needs OpenMPI: scripts/deps.sh test);
#            without it, iobench-mpi is built when OpenMPI is found
#   --asan   also a sanitizer build (AddressSanitizer + UndefinedBehavior-
#            Sanitizer) into build-asan/
# Re-running reconfigures so newly added source files are seen.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=auto asan=0
for a in "$@"; do
  case "$a" in
  --mpi) mpi=enabled ;;
  --asan) asan=1 ;;
  *) echo "usage: scripts/build.sh [--mpi] [--asan]" >&2; exit 2 ;;
  esac
done
setup() { # dir, extra args...
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" -Dwerror=true "$@" >/dev/null
  else
    meson setup "$dir" -Dwerror=true "$@" >/dev/null
  fi
  ninja -C "$dir" >/dev/null
}
setup build -Dmpi=$mpi
if [ $asan = 1 ]; then
  setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug -Dmpi=$mpi
fi
