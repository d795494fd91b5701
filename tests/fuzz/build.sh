#!/usr/bin/env bash
# Build the libFuzzer targets (tests/fuzz/fuzz_*.c) into BUILD_DIR (default
# build-fuzz at the top of the tree): a Meson build of the whole tree with
# clang, -Dfuzz=true, ASan+UBSan (UB aborts) and -fsanitize=fuzzer-no-link so
# the library is coverage-instrumented; then only the fuzz targets are built.
# Re-running it rebuilds only what changed. Needs Debian's clang and
# libclang-rt-14-dev (scripts/deps.sh installs both).
# Usage: tests/fuzz/build.sh [BUILD_DIR]; prints the targets' directory.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-fuzz}
export CC=${CC:-clang}
cd "$top"

command -v "$CC" >/dev/null || { echo "build.sh: '$CC' not found (apt-get install clang)" >&2; exit 2; }
# The fuzzer runtime ships in libclang-rt-14-dev: check it links.
probe=$(mktemp -d /tmp/iobench-fuzz-probe.XXXXXX)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' >"$probe/p.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
  echo "build.sh: $CC cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev):" >&2
  sed -n 1,5p "$probe/err" >&2
  exit 2
fi

opts=(-Dfuzz=true -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
      "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer")
if [ -f "$out/build.ninja" ]; then
  meson setup --reconfigure "$out" "${opts[@]}" >"$probe/setup.log" 2>&1 || { cat "$probe/setup.log" >&2; exit 1; }
else
  meson setup "$out" "${opts[@]}" >"$probe/setup.log" 2>&1 || { cat "$probe/setup.log" >&2; exit 1; }
fi
targets=()
for f in tests/fuzz/fuzz_*.c; do targets+=("tests/fuzz/$(basename "$f" .c)"); done
ninja -C "$out" "${targets[@]}" >"$probe/ninja.log" 2>&1 || { cat "$probe/ninja.log" >&2; exit 1; }
grep -E 'warning:' "$probe/ninja.log" >&2 || true
echo "$out/tests/fuzz"
