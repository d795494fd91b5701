#!/usr/bin/env bash
# Build iobench into build/ (warnings are errors) and, with --asan, also a
# sanitizer build (AddressSanitizer + UndefinedBehaviorSanitizer) into
# build-asan/. Re-running reconfigures so newly added source files are seen.
set -euo pipefail
cd "$(dirname "$0")/.."
setup() { # dir, extra args...
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" -Dwerror=true "$@" >/dev/null
  else
    meson setup "$dir" -Dwerror=true "$@" >/dev/null
  fi
  ninja -C "$dir" >/dev/null
}
setup build -Dmpi=enabled
if [ "${1:-}" = "--asan" ]; then
  setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug -Dmpi=enabled
fi
